import { sensitive } from '@vaultline/core';
import type { CardData, SecurityCodeStatus } from './card-data';

/** A card for unit tests of the placeholder code (Visa test number). */
export function aCard(overrides: { number?: string; expMonth?: number; expYear?: number; cvc?: string | null; status?: SecurityCodeStatus } = {}): CardData {
  const cvc = overrides.cvc === undefined ? '737' : overrides.cvc;
  return {
    tokenId: '0190f2a4-0000-7000-8000-000000000001',
    number: sensitive(overrides.number ?? '4111111111111111'),
    expMonth: sensitive(overrides.expMonth ?? 3),
    expYear: sensitive(overrides.expYear ?? 2030),
    securityCode: cvc === null ? null : sensitive(cvc),
    securityCodeStatus: overrides.status ?? (cvc === null ? 'not_collected' : 'available'),
  };
}
