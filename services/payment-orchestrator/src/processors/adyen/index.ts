import type { z } from 'zod';
import { adyenAmounts } from './adyen.amounts';
import type { ProcessorConnection } from '../../domain/processor-port/processor-port';
import { accountOptionsSchema, REAL_PROCESSOR_CAPABILITIES } from '../account-plugin';
import { processorManifest } from '@vaultline/contracts';
import manifest from './manifest.json';
import type { AccountProcessorPlugin } from '../processor-plugin';
import { adyenNotifications } from './adyen.notifications';
import { authorizationInput, sendMapped, sendWithoutCard } from '../transport-port';
import {
  adyenDisputeOutcome,
  adyenDisputesBaseUrl,
  adyenEvidenceUnsupported,
  toAdyenAcceptDisputeRequest,
  toAdyenDefendDisputeRequest,
  toAdyenSupplyDefenseDocumentRequest,
} from './adyen.dispute-answers';
import { adyenBaseUrl, adyenCredentialsSchema } from './adyen.account';
import { adyenAuthorization } from './adyen.authorization';
import {
  ADYEN_CAPTURE_RECHECK_MS,
  ADYEN_REFUND_RECHECK_MS,
  fromAdyenCancelResponse,
  fromAdyenCaptureResponse,
  fromAdyenRefundResponse,
  toAdyenCancelRequest,
  toAdyenCaptureRequest,
  toAdyenRefundRequest,
} from './adyen.mapper';

const optionsSchema = accountOptionsSchema(adyenCredentialsSchema);

export type AdyenOptions = z.infer<typeof optionsSchema>;

/** Several captures only with multiple partial captures enabled on the account (its setting): Adyen cancels the rest after a partial capture otherwise. */
const capabilities = { ...REAL_PROCESSOR_CAPABILITIES, authentication3ds: true, multipleCaptures: false };

/**
 * Adyen Checkout API v69: authorizations through the forwarder, captures through egress, settled by
 * notification. Adyen has no endpoint to ask how a modification (capture, refund, cancel) went: its
 * notifications (CAPTURE, CAPTURE_FAILED, REFUND, REFUND_FAILED, CANCELLATION…) are the only word, which
 * Adyen delivers again until it reads [accepted]; a pending capture or refund is looked at again on the
 * engine's backoff, reading what was notified.
 */
export const adyen: AccountProcessorPlugin<AdyenOptions['credentials']> = {
  manifest: processorManifest(manifest),
  opens: 'per_account',
  capabilities,
  amounts: adyenAmounts,
  credentials: adyenCredentialsSchema,
  notifications: adyenNotifications,
  optionsSchema,
  open(options, context): ProcessorConnection {
    const transport = context.transport;
    if (!transport) throw new Error('The Adyen processor needs a transport (the forwarder and egress)');
    const baseUrl = adyenBaseUrl(options.credentials, options.mode, options.base_url);
    const disputesBaseUrl = adyenDisputesBaseUrl(options.mode, options.base_url);
    const multiplePartialCaptures = options.settings?.multiple_partial_captures === true;
    const cancel = async (payment: Parameters<typeof sendMapped>[2], pspReference: string) =>
      fromAdyenCancelResponse(await sendMapped(transport, baseUrl, payment, toAdyenCancelRequest(payment, options.credentials, pspReference)));
    return {
      id: 'adyen',
      capabilities: { ...capabilities, multipleCaptures: multiplePartialCaptures },
      // Authorization, 3-D Secure's redirect and its return: adyen.authorization.ts.
      ...adyenAuthorization(transport, baseUrl, options.credentials),
      async capture(payment, authorizationReference) {
        if (!authorizationReference) return { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
        // An automatic-capture flow sent no manualCapture: Adyen captures the authorised payment by itself, and
        // the payment counts as authorized until its CAPTURE notification confirms it (CAPTURE_FAILED fails it).
        if (authorizationInput(payment).capture_mode === 'automatic') {
          return (
            (await context.captureSettlement?.(authorizationReference)) ?? {
              status: 'pending',
              processor_reference: authorizationReference,
              poll_after_ms: ADYEN_CAPTURE_RECHECK_MS,
            }
          );
        }
        const request = toAdyenCaptureRequest(payment, options.credentials, authorizationReference);
        return fromAdyenCaptureResponse(await sendMapped(transport, baseUrl, payment, request));
      },
      // Adyen has no capture status to ask for: the CAPTURE / CAPTURE_FAILED notification settles it.
      async captureStatus(_payment, captureReference) {
        return (
          (await context.captureSettlement?.(captureReference)) ?? {
            status: 'pending',
            processor_reference: captureReference,
            poll_after_ms: ADYEN_CAPTURE_RECHECK_MS,
          }
        );
      },
      // With multiple partial captures Adyen keeps what the final capture left: it is canceled (/cancels), as after partial captures a cancel does.
      ...(multiplePartialCaptures ? { releaseRemainder: cancel } : {}),
      voidAuthorization: cancel,
      // The /cancels and /refunds answers are "received": the CANCELLATION and REFUND notifications settle them.
      settlesByNotification: true,
      async refund(payment, pspReference, refundId) {
        if (!pspReference) return { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
        return fromAdyenRefundResponse(
          await sendMapped(
            transport,
            baseUrl,
            payment,
            toAdyenRefundRequest(payment, options.credentials, pspReference, refundId, payment.refund_reason ?? null),
          ),
        );
      },
      async refundStatus(_payment, refundReference) {
        return (
          (await context.refundSettlement?.(refundReference)) ?? {
            status: 'pending',
            processor_reference: refundReference,
            poll_after_ms: ADYEN_REFUND_RECHECK_MS,
          }
        );
      },
      async acceptDispute(dispute) {
        return adyenDisputeOutcome(await sendWithoutCard(transport, options.mode, disputesBaseUrl, toAdyenAcceptDisputeRequest(options.credentials, dispute)));
      },
      // The documents first (supplyDefenseDocument), then, when submitted, the defense (defendDispute).
      async submitDisputeEvidence(dispute, evidence) {
        const unsupported = adyenEvidenceUnsupported(evidence);
        if (unsupported) return unsupported;
        if (Object.keys(evidence.files).length > 0) {
          const supplied = adyenDisputeOutcome(
            await sendWithoutCard(transport, options.mode, disputesBaseUrl, toAdyenSupplyDefenseDocumentRequest(options.credentials, dispute, evidence)),
          );
          if (supplied.status !== 'succeeded' || !evidence.submit) return supplied;
        }
        return adyenDisputeOutcome(
          await sendWithoutCard(
            transport,
            options.mode,
            disputesBaseUrl,
            toAdyenDefendDisputeRequest(options.credentials, dispute, evidence.defense_reason_code!),
          ),
        );
      },
    };
  },
};
