import type { AuthorizationInput } from '../../src/processors/processor-wire';

/** A consumer-present one-off authorization as the engine hands it to a real processor's mapper. */
export const authorizationInputOf = (overrides: Partial<AuthorizationInput> = {}): AuthorizationInput => ({
  payment_id: '01a208ee-5f6c-74c8-b99c-a50679101e09',
  merchant_id: 'm1',
  mode: 'test',
  use_case: 'ONE_OFF',
  stored_credential: 'none',
  amount: 1250,
  currency_code: 'EUR',
  reference: 'order-1',
  token_id: 't1',
  masked_account_number: '424242******4242',
  scheme: 'VISA',
  network_transaction_reference: null,
  authentication_preference: null,
  idempotency_key: '01a208ee-5f6c-74c8-b99c-a50679101e09:authorization',
  cardholder_name: 'Ada Lovelace',
  capture_mode: 'automatic',
  security_code_available: true,
  initial_processor_reference: null,
  ...overrides,
});
