import type { z } from 'zod';
import { checkoutAmounts } from './checkout.amounts';
import type { ProcessorConnection } from '../../domain/processor-port/processor-port';
import { accountOptionsSchema, REAL_PROCESSOR_CAPABILITIES } from '../account-plugin';
import { processorManifest } from '@vaultline/contracts';
import manifest from './manifest.json';
import type { AccountProcessorPlugin } from '../processor-plugin';
import { checkoutNotifications } from './checkout.notifications';
import { authorizationInput, sendMapped, sendWithoutCard } from '../transport-port';
import { uploadedFileId, uploadEvidenceFiles } from '../dispute-answer-wire';
import {
  checkoutDisputeOutcome,
  checkoutEvidenceUnsupported,
  checkoutFilesBaseUrl,
  toCheckoutAcceptDisputeRequest,
  toCheckoutFileUploadRequest,
  toCheckoutProvideEvidenceRequest,
  toCheckoutSubmitEvidenceRequest,
} from './checkout.dispute-answers';
import { checkoutBaseUrl, checkoutCredentialsSchema } from './checkout.account';
import { fromCheckoutActionsResponse, toCheckoutActionsRequest } from './checkout.actions';
import { checkoutAuthorization } from './checkout.authorization';
import {
  CHECKOUT_CAPTURE_RECHECK_MS,
  CHECKOUT_REFUND_RECHECK_MS,
  fromCheckoutCaptureResponse,
  fromCheckoutRefundResponse,
  fromCheckoutVoidResponse,
  toCheckoutCaptureRequest,
  toCheckoutRefundRequest,
  toCheckoutVoidRequest,
} from './checkout.mapper';

const optionsSchema = accountOptionsSchema(checkoutCredentialsSchema);

export type CheckoutOptions = z.infer<typeof optionsSchema>;

const capabilities = { ...REAL_PROCESSOR_CAPABILITIES, authentication3ds: true };

const ACTION_TYPES = { capture: 'Capture', refund: 'Refund', void: 'Void' } as const;

/** Checkout.com: authorizations through the forwarder, captures through egress, settled by webhook. */
export const checkout: AccountProcessorPlugin<CheckoutOptions['credentials']> = {
  manifest: processorManifest(manifest),
  opens: 'per_account',
  capabilities,
  amounts: checkoutAmounts,
  credentials: checkoutCredentialsSchema,
  notifications: checkoutNotifications,
  optionsSchema,
  open(options, context): ProcessorConnection {
    const transport = context.transport;
    if (!transport) throw new Error('The Checkout.com processor needs a transport (the forwarder and egress)');
    const baseUrl = checkoutBaseUrl(options.mode, options.base_url);
    const filesBaseUrl = checkoutFilesBaseUrl(options.mode, options.base_url);
    const settleAction: NonNullable<ProcessorConnection['settleAction']> = async (payment, action) => {
      const response = await sendMapped(transport, baseUrl, payment, toCheckoutActionsRequest(options.credentials, action.payment_reference));
      return fromCheckoutActionsResponse(response, ACTION_TYPES[action.kind], action.action_reference);
    };
    return {
      id: 'checkout',
      capabilities,
      // Authorization, 3-D Secure's redirect and its return: checkout.authorization.ts.
      ...checkoutAuthorization(transport, baseUrl, options.credentials),
      async capture(payment, authorizationReference) {
        if (!authorizationReference) return { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
        // An automatic-capture flow sent capture: true: Checkout.com captures by itself and says so by webhook.
        // Its webhook may already be in (it can overtake the authorization's answer).
        if (authorizationInput(payment).capture_mode === 'automatic') {
          return (
            (await context.captureSettlement?.(authorizationReference)) ?? {
              status: 'pending',
              processor_reference: authorizationReference,
              poll_after_ms: CHECKOUT_CAPTURE_RECHECK_MS,
            }
          );
        }
        // The amount is always sent (the engine gives the amount to capture): the same as no amount for a full capture.
        const request = toCheckoutCaptureRequest(payment, options.credentials, authorizationReference, payment.amount);
        return fromCheckoutCaptureResponse(await sendMapped(transport, baseUrl, payment, request));
      },
      // Webhooks are the fast path; a capture still unsettled when the runner looks again (every recheck
      // interval) is looked up in the payment's actions.
      async captureStatus(payment, captureReference) {
        const notified = await context.captureSettlement?.(captureReference);
        if (notified) return notified;
        const paymentReference = payment.authorization_reference ?? captureReference;
        const swept = await settleAction(payment, {
          kind: 'capture',
          payment_reference: paymentReference,
          action_reference: captureReference === paymentReference ? null : captureReference,
        });
        return swept ?? { status: 'pending', processor_reference: captureReference, poll_after_ms: CHECKOUT_CAPTURE_RECHECK_MS };
      },
      settleAction,
      async voidAuthorization(payment, paymentId) {
        return fromCheckoutVoidResponse(await sendMapped(transport, baseUrl, payment, toCheckoutVoidRequest(payment, options.credentials, paymentId)));
      },
      // The /voids and /refunds answers are 202 (accepted): payment_voided and payment_refunded settle them.
      settlesByNotification: true,
      async refund(payment, paymentId, refundId) {
        if (!paymentId) return { status: 'failed', failure_reason: 'authorization_reference_missing', processor_reference: null };
        return fromCheckoutRefundResponse(
          await sendMapped(transport, baseUrl, payment, toCheckoutRefundRequest(payment, options.credentials, paymentId, refundId)),
        );
      },
      // A pending refund: payment_refunded / payment_refund_declined settles it, else the refund action is looked up in the payment's actions.
      async refundStatus(payment, actionId) {
        const notified = await context.refundSettlement?.(actionId);
        if (notified) return notified;
        const swept = payment.authorization_reference
          ? await settleAction(payment, { kind: 'refund', payment_reference: payment.authorization_reference, action_reference: actionId })
          : null;
        if (swept?.status === 'succeeded') return { status: 'succeeded', processor_reference: actionId };
        if (swept?.status === 'failed') return { status: 'failed', failure_reason: swept.failure_reason, processor_reference: actionId };
        return { status: 'pending', processor_reference: actionId, poll_after_ms: CHECKOUT_REFUND_RECHECK_MS };
      },
      async acceptDispute(dispute) {
        return checkoutDisputeOutcome(await sendWithoutCard(transport, options.mode, baseUrl, toCheckoutAcceptDisputeRequest(options.credentials, dispute)));
      },
      // Files to the files host, then the evidence attached (PUT), then, when asked, submitted (POST).
      async submitDisputeEvidence(dispute, evidence) {
        const unsupported = checkoutEvidenceUnsupported(evidence);
        if (unsupported) return unsupported;
        const uploads = await uploadEvidenceFiles(evidence, async (name, file) =>
          uploadedFileId(
            await sendWithoutCard(
              transport,
              options.mode,
              filesBaseUrl,
              toCheckoutFileUploadRequest(options.credentials, file, `${dispute.idempotency_key}:${name}`),
            ),
            checkoutDisputeOutcome,
          ),
        );
        if ('stopped' in uploads) return uploads.stopped;
        const fileIds = uploads.ids;
        if (Object.keys(fileIds).length > 0 || Object.keys(evidence.text).length > 0) {
          const provided = checkoutDisputeOutcome(
            await sendWithoutCard(transport, options.mode, baseUrl, toCheckoutProvideEvidenceRequest(options.credentials, dispute, evidence, fileIds)),
          );
          if (provided.status !== 'succeeded' || !evidence.submit) return provided;
        }
        return checkoutDisputeOutcome(await sendWithoutCard(transport, options.mode, baseUrl, toCheckoutSubmitEvidenceRequest(options.credentials, dispute)));
      },
    };
  },
};
