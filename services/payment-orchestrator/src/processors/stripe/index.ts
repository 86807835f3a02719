import { processorManifest } from '@vaultline/contracts';
import manifest from './manifest.json';
import { stripeAmounts } from './stripe.amounts';
import type { z } from 'zod';
import type { CaptureOutcome, ProcessorConnection } from '../../domain/processor-port/processor-port';
import { accountOptionsSchema } from '../account-plugin';
import type { AccountProcessorPlugin } from '../processor-plugin';
import { authorizationInput, sendMapped, sendWithoutCard } from '../transport-port';
import { uploadedFileId, uploadEvidenceFiles } from '../dispute-answer-wire';
import {
  stripeEvidenceUnsupported,
  stripeFilesBaseUrl,
  stripeOutcome,
  toStripeCloseDisputeRequest,
  toStripeEvidenceRequest,
  toStripeFileUploadRequest,
} from './stripe.dispute-answers';
import { isMerchantInitiated } from '../processor-wire';
import { stripeBaseUrl, stripeCredentialsSchema } from './stripe.account';
import {
  STRIPE_CAPTURE_RECHECK_MS,
  STRIPE_REFUND_RECHECK_MS,
  fromStripeCancelResponse,
  fromStripeCaptureResponse,
  fromStripePaymentIntentResponse,
  fromStripeRefundResponse,
  toStripeCancelRequest,
  toStripeCaptureRequest,
  toStripePaymentIntentRequest,
  toStripeRefundRequest,
  toStripeRefundRetrieveRequest,
  toStripeRetrieveRequest,
  unansweredQuestion,
} from './stripe.mapper';
import { stripeNotifications } from './stripe.notifications';

const optionsSchema = accountOptionsSchema(stripeCredentialsSchema);

export type StripeOptions = z.infer<typeof optionsSchema>;

/**
 * Stripe: authorize (partial captures too), 3-D Secure by redirect, test and live (the key decides). A
 * merchant-initiated payment is `off_session=true` whatever its kind, so unscheduled ones are not told
 * apart from recurring ones (explicitUnscheduledMit false); no 3RI, no risk step.
 */
const capabilities = {
  authorize: true,
  capture: true,
  partialCapture: true,
  // Multicapture where Stripe offers it for the PaymentIntent (requested with request_multicapture=if_available).
  multipleCaptures: true,
  authentication3ri: false,
  authentication3ds: true,
  risk: false,
  explicitUnscheduledMit: false,
  modes: ['test', 'live'],
} as const;

/** Stripe PaymentIntents: the card inline through the forwarder, everything else through egress; captures, cancels and most refunds settle in the answer. */
export const stripe: AccountProcessorPlugin<StripeOptions['credentials']> = {
  manifest: processorManifest(manifest),
  opens: 'per_account',
  capabilities,
  amounts: stripeAmounts,
  credentials: stripeCredentialsSchema,
  notifications: stripeNotifications,
  optionsSchema,
  open(options, context): ProcessorConnection {
    const transport = context.transport;
    if (!transport) throw new Error('The Stripe processor needs a transport (the forwarder and egress)');
    const { credentials } = options;
    const baseUrl = stripeBaseUrl(credentials, options.mode, options.base_url);
    const retrieve = (payment: Parameters<typeof sendMapped>[2], intentId: string) =>
      sendMapped(transport, baseUrl, payment, toStripeRetrieveRequest(credentials, intentId));
    const confirmedCapture = async (payment: Parameters<typeof sendMapped>[2], intentId: string): Promise<CaptureOutcome> => {
      // Stripe's capture events name the PaymentIntent, not one capture: they settle an automatic or a payment's
      // first capture; a later one of several is read off the PaymentIntent.
      const notified = (payment.capture?.sequence ?? 1) <= 1 ? await context.captureSettlement?.(intentId) : null;
      if (notified) return notified;
      const response = await retrieve(payment, intentId);
      const asked = unansweredQuestion(response) ?? fromStripeCaptureResponse(response, payment.capture?.final === false);
      return asked.status === 'error' ? { status: 'pending', processor_reference: intentId, poll_after_ms: STRIPE_CAPTURE_RECHECK_MS } : asked;
    };
    return {
      id: 'stripe',
      capabilities,
      async authorize(payment) {
        const input = authorizationInput(payment);
        // A merchant-initiated payment names its series by the first authorization's network transaction id.
        if (isMerchantInitiated(input.use_case) && !input.network_transaction_reference)
          return { status: 'failed', failure_reason: 'network_transaction_reference_missing', processor_reference: null };
        const outcome = fromStripePaymentIntentResponse(await sendMapped(transport, baseUrl, payment, toStripePaymentIntentRequest(input, credentials)));
        // The forwarder masks card-number-like digit runs in the answer it relays, which can catch the 15-digit
        // network transaction id: the series needs it whole, so it is read again from Stripe, not through the forwarder.
        if (outcome.status === 'succeeded' && outcome.processor_reference && outcome.network_transaction_reference?.includes('*')) {
          const again = fromStripePaymentIntentResponse(await retrieve(payment, outcome.processor_reference));
          return { ...outcome, network_transaction_reference: again.status === 'succeeded' ? (again.network_transaction_reference ?? null) : null };
        }
        return outcome;
      },
      // The consumer is back from the issuer's page: the PaymentIntent says how it went (the return names it; another one is refused).
      async resumeAuthorization(payment, returned) {
        const intentId = returned.resume.payment_intent ?? returned.processor_reference;
        if (!intentId || (returned.parameters.payment_intent !== undefined && returned.parameters.payment_intent !== intentId)) {
          return { status: 'failed', failure_reason: 'processor_invalid_response', processor_reference: intentId ?? null };
        }
        return fromStripePaymentIntentResponse(await retrieve(payment, intentId));
      },
      async capture(payment, intentId) {
        if (!intentId) return { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
        // An automatic-capture flow sent capture_method=automatic: the payment counts as authorized until Stripe
        // confirms the capture (payment_intent.succeeded or charge.captured, or the PaymentIntent asked: succeeded).
        if (authorizationInput(payment).capture_mode === 'automatic') return confirmedCapture(payment, intentId);
        const nonFinal = payment.capture?.final === false;
        return fromStripeCaptureResponse(await sendMapped(transport, baseUrl, payment, toStripeCaptureRequest(payment, credentials, intentId)), nonFinal);
      },
      // A capture still processing (or an automatic one not confirmed yet): the webhook settles it, else the PaymentIntent is asked.
      async captureStatus(payment, intentId) {
        return confirmedCapture(payment, intentId);
      },
      async voidAuthorization(payment, intentId) {
        return fromStripeCancelResponse(await sendMapped(transport, baseUrl, payment, toStripeCancelRequest(payment, credentials, intentId)));
      },
      async refund(payment, intentId, refundId) {
        if (!intentId) return { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
        return fromStripeRefundResponse(await sendMapped(transport, baseUrl, payment, toStripeRefundRequest(payment, credentials, intentId, refundId)));
      },
      // A pending refund: its webhook (charge.refund.updated, refund.updated) settles it, else Stripe is asked (GET /v1/refunds/{id}).
      async refundStatus(payment, refundReference) {
        const notified = await context.refundSettlement?.(refundReference);
        if (notified) return notified;
        const response = await sendMapped(transport, baseUrl, payment, toStripeRefundRetrieveRequest(credentials, refundReference));
        const asked = unansweredQuestion(response) ?? fromStripeRefundResponse(response);
        return asked.status === 'error' ? { status: 'pending', processor_reference: refundReference, poll_after_ms: STRIPE_REFUND_RECHECK_MS } : asked;
      },
      async acceptDispute(dispute) {
        return stripeOutcome(await sendWithoutCard(transport, options.mode, baseUrl, toStripeCloseDisputeRequest(credentials, dispute)));
      },
      // Each file to Stripe's file host first, then the evidence naming them (and submit).
      async submitDisputeEvidence(dispute, evidence) {
        const unsupported = stripeEvidenceUnsupported(evidence);
        if (unsupported) return unsupported;
        const uploads = await uploadEvidenceFiles(evidence, async (name, file) =>
          uploadedFileId(
            await sendWithoutCard(
              transport,
              options.mode,
              stripeFilesBaseUrl(baseUrl),
              toStripeFileUploadRequest(credentials, file, `${dispute.idempotency_key}:${name}`),
            ),
            stripeOutcome,
          ),
        );
        if ('stopped' in uploads) return uploads.stopped;
        const fileIds = uploads.ids;
        return stripeOutcome(await sendWithoutCard(transport, options.mode, baseUrl, toStripeEvidenceRequest(credentials, dispute, evidence, fileIds)));
      },
    };
  },
};
