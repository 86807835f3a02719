import { NotFoundError, type Clock, type Scope } from '@vaultline/core';
import type { CheckoutBrandingRepository, CheckoutSessionRepository, TransactionRunner } from '../ports';
import { applyBrandingChanges, type CheckoutBrandingChanges, type CheckoutBrandingRecord } from './checkout-branding';

/** A merchant's settings as the API and the page read them: the defaults (nothing set) when never saved. */
export type CheckoutBranding = Pick<CheckoutBrandingRecord, 'display_name' | 'brand_color' | 'logo'> & { updated_at: string | null };

const NOTHING_SET: CheckoutBranding = { display_name: null, brand_color: null, logo: null, updated_at: null };

const toBranding = (record: CheckoutBrandingRecord | null): CheckoutBranding =>
  record ? { display_name: record.display_name, brand_color: record.brand_color, logo: record.logo, updated_at: record.updated_at } : NOTHING_SET;

export type GetCheckoutBranding = (scope: Pick<Scope, 'merchantId'>) => Promise<CheckoutBranding>;

export function getCheckoutBranding({ branding }: { branding: CheckoutBrandingRepository }): GetCheckoutBranding {
  return async (scope) => toBranding(await branding.get(scope));
}

export type UpdateCheckoutBranding = (scope: Pick<Scope, 'merchantId'>, changes: CheckoutBrandingChanges) => Promise<CheckoutBranding>;

/** Validates every change before anything is written; the record's version guards two changes at once. */
export function updateCheckoutBranding({
  branding,
  transaction,
  clock,
}: {
  branding: CheckoutBrandingRepository;
  transaction: TransactionRunner;
  clock: Clock;
}): UpdateCheckoutBranding {
  return async (scope, changes) => {
    const current = await branding.get(scope);
    const next = { ...applyBrandingChanges(toBranding(current), changes), updated_at: clock.now().toISOString() };
    const saved = await transaction((uow) =>
      current ? branding.update(uow, { ...current, ...next }) : branding.insert(uow, { id: scope.merchantId, merchant_id: scope.merchantId, ...next }),
    );
    return toBranding(saved);
  };
}

export type SessionLogoImage = (sessionId: string) => Promise<{ contentType: string; body: Buffer }>;

/** The uploaded logo of a session's merchant, for the page's <img>; a URL logo or none is not found here. */
export function sessionLogoImage({
  sessions,
  branding,
}: {
  sessions: Pick<CheckoutSessionRepository, 'get'>;
  branding: CheckoutBrandingRepository;
}): SessionLogoImage {
  return async (sessionId) => {
    const session = await sessions.get(sessionId);
    const logo = session ? (await branding.get({ merchantId: session.merchant_id }))?.logo : null;
    if (logo?.type !== 'image') throw new NotFoundError('logo');
    return { contentType: logo.content_type, body: Buffer.from(logo.data_base64, 'base64') };
  };
}
