import { eventMessage } from '@vaultline/bus';
import {
  checkoutSessionOpenedV1,
  paymentAttemptFailedV1,
  paymentAuthorizedV1,
  paymentCanceledV1,
  paymentCapturedV1,
  paymentCapturingV1,
  paymentFailedV1,
  paymentProcessingV1,
} from '@vaultline/contracts';
import { newCapabilityId, newId, waitFor } from '@vaultline/core';
import { MERCHANT_SCOPE, PUBLIC, type VaultHarness } from './vault-harness';

/** Plays the orchestrator: publishes checkout.session.opened on the bus. */
export async function openSession(
  vault: VaultHarness,
  overrides: {
    expiresInMs?: number;
    returnUrl?: string | null;
    allowedOrigins?: string[];
    storedCard?: Record<string, unknown>;
    merchantId?: string;
    amount?: number;
    currency?: string;
    description?: string;
    locale?: string;
    merchantName?: string;
    mode?: 'test' | 'live';
  } = {},
) {
  const sessionId = newCapabilityId();
  const paymentId = newId();
  const message = eventMessage(checkoutSessionOpenedV1, {
    scope: { merchantId: overrides.merchantId ?? MERCHANT_SCOPE.merchantId, mode: overrides.mode ?? 'test' },
    data: {
      session_id: sessionId,
      payment_id: paymentId,
      amount: overrides.amount ?? 1999,
      currency: overrides.currency ?? 'EUR',
      expires_at: new Date(vault.clock.now().getTime() + (overrides.expiresInMs ?? 30 * 60_000)).toISOString(),
      return_url: overrides.returnUrl === undefined ? 'https://shop.example/return' : overrides.returnUrl,
      ...(overrides.allowedOrigins ? { allowed_origins: overrides.allowedOrigins } : {}),
      ...(overrides.storedCard ? { stored_card: overrides.storedCard as never } : {}),
      ...(overrides.description !== undefined ? { description: overrides.description } : {}),
      ...(overrides.locale !== undefined ? { locale: overrides.locale } : {}),
      ...(overrides.merchantName !== undefined ? { merchant_name: overrides.merchantName } : {}),
    },
  });
  await vault.runtime.bus.publish([message]);
  await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).status === 200);
  return { sessionId, paymentId };
}

type PaymentStatus = 'processing' | 'authorized' | 'capturing' | 'captured' | 'failed' | 'canceled';
const paymentDefinitions = {
  processing: paymentProcessingV1,
  authorized: paymentAuthorizedV1,
  capturing: paymentCapturingV1,
  captured: paymentCapturedV1,
  failed: paymentFailedV1,
  canceled: paymentCanceledV1,
};

/** The orchestrator's payment.<status> event for a one-off payment of 19.99 EUR (failed with `failureReason`). */
export function paymentStatusMessage(paymentId: string, status: PaymentStatus, occurredAt?: Date, failureReason = 'declined') {
  const authorized = status === 'authorized' || status === 'capturing' || status === 'captured';
  const data = {
    payment_id: paymentId,
    status,
    amount: { requested: 1999, ...(authorized ? { authorized: 1999 } : {}), ...(status === 'captured' ? { captured: 1999 } : {}) },
    currency_code: 'EUR',
    use_case: 'ONE_OFF',
    reference: null,
    credential_id: null,
    initial_payment_id: null,
    flow: null,
    failure_reason: status === 'failed' ? failureReason : null,
    masked_account_number: null,
    ...(status === 'canceled' ? { cancellation_reason: 'requested_by_merchant' as const } : {}),
  };
  return eventMessage(paymentDefinitions[status], { scope: MERCHANT_SCOPE, data, ...(occurredAt ? { occurredAt } : {}) });
}

/** Plays the orchestrator's payment events: processing, captured, authorized (manual capture) or failed with a reason. */
export async function publishPaymentStatus(vault: VaultHarness, paymentId: string, status: PaymentStatus, failureReason = 'declined') {
  await vault.runtime.bus.publish([paymentStatusMessage(paymentId, status, undefined, failureReason)]);
}

/** Plays the orchestrator: the card of `attempt` failed and the payment waits for another (payment.attempt_failed). */
export async function publishAttemptFailed(
  vault: VaultHarness,
  paymentId: string,
  attempt: { number: number; failure_reason: string; masked_account_number: string | null },
) {
  const data = {
    payment_id: paymentId,
    status: 'processing' as const,
    amount: { requested: 1999 },
    currency_code: 'EUR',
    use_case: 'ONE_OFF',
    reference: null,
    credential_id: null,
    initial_payment_id: null,
    flow: 'simulator_auto_capture',
    failure_reason: null,
    masked_account_number: null,
    attempt,
  };
  await vault.runtime.bus.publish([eventMessage(paymentAttemptFailedV1, { scope: MERCHANT_SCOPE, data })]);
}
