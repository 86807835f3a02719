import { z } from 'zod';
import { ForbiddenError } from '@vaultline/core';
import { SCOPES, type InternalTokenVerifier } from '@vaultline/auth';
import type { ForwarderInternalApi } from '@vaultline/contracts';
import { acceptRequestId, parseInput } from '@vaultline/http';
import type { ForwardRequest } from '../domain/forward';

/** The only caller of the payments forward: the payment orchestrator, holding forward:payments. */
const FORWARD_PAYMENTS_ISSUER = 'payment-orchestrator';

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key']);

/** `forwarded`: the headers the processors' manifests forward (their credential, idempotency key, API version); any other is refused. */
const forwardPaymentInput = (forwarded: readonly string[]) =>
  z.object({
    tokenId: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'The token id must be a UUID.' }),
    destinationUrl: z.string().min(1).max(2048),
    headers: z
      .partialRecord(
        z.enum(forwarded.length > 0 ? (forwarded as [string, ...string[]]) : ['authorization']),
        z
          .string()
          .min(1)
          .max(1024)
          .regex(/^[\t\x20-\x7e]*$/, { message: 'Header values are printable ASCII.' }),
      )
      .default({}),
    format: z.enum(['json', 'form']).default('json'),
    body: z.record(z.string(), z.unknown()),
  });

/** A form body: text fields only (a nested or non-text value has no form encoding). */
const formFields = z.record(z.string().min(1).max(200), z.string().max(2048));

/** The body's bytes as the destination receives them (before its placeholders are filled). */
function encodedBody(format: 'json' | 'form', body: Record<string, unknown>): Buffer {
  if (format === 'json') return Buffer.from(JSON.stringify(body), 'utf8');
  const fields = parseInput(formFields, body);
  return Buffer.from(new URLSearchParams(Object.entries(fields)).toString(), 'utf8');
}

/**
 * The forwarder's internal API (an inbound adapter), whatever carries the call: the HTTP route hands it
 * the bearer token of the request, a caller in the same process (embedded profile) the token it signed.
 * The rule lives here once: the internal JWT is verified, a caller other than the payment orchestrator
 * with forward:payments is refused before anything is read or sent, and the request then takes exactly
 * the path of POST /forward (allowlist, the key mode signed in the token, placeholders, egress, the
 * forward.completed record, the answer's card numbers masked).
 */
export function createForwarderInternalApi(
  forwardRequest: ForwardRequest,
  verifier: Pick<InternalTokenVerifier, 'verify'>,
  forwardedHeaders: readonly string[],
): ForwarderInternalApi {
  const inputSchema = forwardPaymentInput(forwardedHeaders);
  return {
    async forwardPayment(request) {
      const caller = verifier.verify(request.bearerToken);
      if (caller.issuer !== FORWARD_PAYMENTS_ISSUER || !caller.scopes.includes(SCOPES.forwardPayments)) {
        throw new ForbiddenError('Forwarding payments requires the payment orchestrator with the forward:payments scope.', 'insufficient_scope');
      }
      // A payment's card data is read, and its processor host allowed, in the payment's own mode.
      if (!caller.mode) throw new ForbiddenError('Forwarding a payment acts for a merchant key: the internal token must carry its mode.', 'mode_required');
      const input = parseInput(inputSchema, {
        tokenId: request.tokenId,
        destinationUrl: request.destinationUrl,
        headers: request.headers,
        format: request.format,
        body: request.body,
      });
      const credentialHeaders: Record<string, string> = {};
      const passThroughHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(input.headers)) {
        if (value === undefined) continue;
        (CREDENTIAL_HEADERS.has(name) ? credentialHeaders : passThroughHeaders)[name] = value;
      }
      const result = await forwardRequest({
        scope: { merchantId: caller.merchantId, mode: caller.mode },
        requestId: acceptRequestId(request.requestId),
        tokenId: input.tokenId,
        destinationUrl: input.destinationUrl,
        format: input.format,
        body: encodedBody(input.format, input.body),
        credentialHeaders,
        passThroughHeaders,
      });
      return { status: result.status, content_type: result.contentType ?? null, body: result.body.toString('utf8') };
    },
  };
}
