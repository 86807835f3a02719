import { problemResponse, type JsonObject } from './openapi-fragment';

const IN_USE =
  'idempotency_key_in_use: a request with this Idempotency-Key is still running; retry later with the same key. idempotent_response_not_kept: it already ran and its response (not JSON, or over 1 MB) cannot be replayed.';
const REUSED = 'idempotency_key_reused (field Idempotency-Key): the key was used with a different request.';
const INVALID = 'invalid_idempotency_key (field Idempotency-Key): empty, longer than 255 characters or not visible ASCII.';
const REPLAYED_HEADER: JsonObject = {
  description: '`true` when this is the kept first response to the same Idempotency-Key, replayed; absent otherwise.',
  schema: { type: 'string', const: 'true' },
};

/**
 * Every merchant POST (an operation whose security, or the document's default, is the API key) takes
 * the Idempotency-Key header: the service that serves each applies it (libs/http answers()), so a fragment need not declare it.
 * Adds the parameter, the problem codes to 400/409/422 and Idempotent-Replayed to inline 2xx responses.
 */
export function declareIdempotencyKey(paths: Record<string, Record<string, JsonObject>>, responses: Record<string, JsonObject>): void {
  for (const item of Object.values(paths)) {
    const operation = item.post;
    if (!operation || !isMerchantOperation(operation)) continue;
    const own = { ...(operation.responses as Record<string, JsonObject>) };
    for (const [status, response] of Object.entries(own)) {
      if (status.startsWith('2') && !('$ref' in response))
        own[status] = { ...response, headers: { ...(response.headers as JsonObject | undefined), 'Idempotent-Replayed': REPLAYED_HEADER } };
    }
    own['400'] = withCodes(own['400'], INVALID, responses);
    own['409'] = withCodes(own['409'], IN_USE, responses);
    own['422'] = withCodes(own['422'], REUSED, responses);
    item.post = {
      ...operation,
      parameters: [...((operation.parameters as JsonObject[] | undefined) ?? []), { $ref: '#/components/parameters/IdempotencyKey' }],
      responses: own,
    };
  }
}

function isMerchantOperation(operation: JsonObject): boolean {
  const security = operation.security as Array<Record<string, unknown>> | undefined;
  return security === undefined || security.some((requirement) => 'ApiKey' in requirement);
}

/** The operation's own problem response for the status, its description extended with the idempotency codes. */
function withCodes(existing: JsonObject | undefined, codes: string, responses: Record<string, JsonObject>): JsonObject {
  if (!existing) return problemResponse(codes);
  const ref = existing.$ref;
  const described = typeof ref === 'string' ? responses[ref.replace('#/components/responses/', '')] : existing;
  return problemResponse(`${String(described?.description ?? '')} Or ${codes}`.trim());
}
