import type { ProcessorConnection } from '../../domain/processor-port/processor-port';
import { authorizationInput, sendMapped, type ProcessorTransport } from '../transport-port';
import { redirectOfResume, actionRequired } from '../three-ds-wire';
import type { AdyenCredentials } from './adyen.account';
import { adyenConfigurationProblem, toAdyenPaymentRequest } from './adyen.mapper';
import {
  ADYEN_RETURN_PARAMETERS,
  adyenThreeDsFields,
  fromAdyenThreeDsResponse,
  toAdyenPaymentDetailsRequest,
  withoutAuthenticationUnderOff,
} from './adyen.three-ds';

/**
 * Adyen's authorization with 3-D Secure: `POST /v69/payments` (through the forwarder, the 3-D Secure
 * fields beside the card placeholders) may answer RedirectShopper; the consumer's return is settled by
 * `POST /v69/payments/details` (through egress: no card data).
 */
export function adyenAuthorization(
  transport: ProcessorTransport,
  baseUrl: string,
  credentials: AdyenCredentials,
): Pick<ProcessorConnection, 'authorize' | 'resumeAuthorization'> {
  return {
    async authorize(payment) {
      const before = adyenConfigurationProblem(payment);
      if (before) return before;
      const input = authorizationInput(payment);
      const request = toAdyenPaymentRequest(input, credentials);
      const consumer = payment.consumer_authentication;
      const body = consumer ? { ...(request.body as Record<string, unknown>), ...adyenThreeDsFields(input, consumer) } : request.body;
      const outcome = withoutAuthenticationUnderOff(
        fromAdyenThreeDsResponse(await sendMapped(transport, baseUrl, payment, { ...request, body })),
        consumer?.three_ds,
      );
      if (outcome.status === 'action_required') return outcome;
      // Authorised but unusable: the AUTHORISATION notification then finds the payment failed and the authorisation is cancelled.
      return adyenConfigurationProblem(payment, outcome) ?? outcome;
    },
    async resumeAuthorization(payment, returned) {
      // Its own idempotency key: Adyen keys are per account and this is another request than the authorization's.
      const request = toAdyenPaymentDetailsRequest(credentials, `${payment.idempotency_key}:details`, returned.parameters);
      if (!request) {
        // Back without redirectResult (a reload of the return address): the issuer's page again.
        const redirect = redirectOfResume(returned.resume);
        return redirect
          ? actionRequired(redirect, returned.processor_reference, {}, ADYEN_RETURN_PARAMETERS)
          : { status: 'failed', failure_reason: 'authentication_abandoned', processor_reference: null };
      }
      const outcome = fromAdyenThreeDsResponse(await sendMapped(transport, baseUrl, payment, request));
      if (outcome.status === 'action_required') return outcome;
      return adyenConfigurationProblem(payment, outcome) ?? outcome;
    },
  };
}
