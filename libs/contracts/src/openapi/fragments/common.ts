import { problemResponse, type OpenApiFragment } from '../openapi-fragment';

/** What every area uses: the Problem schema, error responses, page parameters, security schemes. */
export const commonFragment: OpenApiFragment = {
  components: {
    securitySchemes: {
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The merchant API key (sk_test_… or sk_live_…).' },
      AdminKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Admin-Key',
        description: 'The operator key (ADMIN_API_KEY). The admin API answers 404 when ADMIN_API_KEY is not configured.',
      },
    },
    schemas: {
      Problem: {
        type: 'object',
        description: 'RFC 9457 problem details, as application/problem+json.',
        required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
        properties: {
          type: {
            type: 'string',
            format: 'uri',
            examples: ['https://vaultline.internal/docs/errors#validation_failed'],
            description: 'The entry of the code on the errors page of the gateway that answered: {PUBLIC_BASE_URL}/docs/errors#{code}.',
          },
          title: { type: 'string' },
          status: { type: 'integer', minimum: 400, maximum: 599 },
          detail: { type: 'string' },
          code: { type: 'string', pattern: '^[a-z0-9_]+$' },
          request_id: { type: 'string' },
          field: { type: 'string', description: 'For input errors: the dotted path of the offending field.' },
        },
      },
      ObjectId: { type: 'string', format: 'uuid', description: 'A UUIDv7: ids sort by creation time (checkout session ids excepted: random UUIDv4).' },
      Timestamp: { type: 'string', format: 'date-time' },
    },
    parameters: {
      Limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
      StartingAfter: {
        name: 'starting_after',
        in: 'query',
        required: false,
        description: 'Cursor: the next_cursor of the previous page.',
        schema: { type: 'string' },
      },
      Order: { name: 'order', in: 'query', required: false, schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } },
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          "Makes a POST safe to retry: 1 to 255 visible ASCII characters, scoped to the merchant, the key's mode and the route " +
          '(however its path is spelled: /payments/one-off and /payments/One-Off/ are one route), kept 24 hours ' +
          "(IDEMPOTENCY_KEY_TTL). A repeat with the same request (the route's path parameters, query, content type, X-Service-Token, " +
          'X-Destination-URL and body) gets the first response again — status and body, errors included — with ' +
          '`Idempotent-Replayed: true`, and nothing runs twice; the same key with another request answers 422 ' +
          'idempotency_key_reused; a repeat while the first still runs answers 409 idempotency_key_in_use. A 503 answer ' +
          'releases the key (nothing was done: retry with it). A first response that is not JSON or is larger than 1 MB is ' +
          'not kept: a repeat answers 409 idempotent_response_not_kept and does not run. Ignored on GET and DELETE.',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      },
    },
    responses: {
      BadRequest: problemResponse('Malformed request (e.g. malformed_json).'),
      Unauthorized: problemResponse('Missing or invalid credentials (missing_api_key, invalid_api_key).'),
      Forbidden: problemResponse('The key lacks the scope for this operation (insufficient_scope).'),
      NotFound: problemResponse('No such resource or route.'),
      Conflict: problemResponse('The request conflicts with the current state.'),
      PayloadTooLarge: problemResponse('The body exceeds 1 MB (payload_too_large).'),
      UnsupportedMediaType: problemResponse(
        'unsupported_media_type (field Content-Type): the body is not application/json, the type every route reads (POST /forward also reads application/x-www-form-urlencoded); the detail names the type to send.',
      ),
      ValidationFailed: problemResponse(
        'A field is invalid; `field` names it. On a read: unknown_filter, a query parameter the operation does not list (`field` names it).',
      ),
      TooManyRequests: problemResponse(
        "rate_limited: the API key used up its token bucket (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST, or the merchant's own rate_limit). Retry-After says when to try again; every authenticated answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.",
      ),
      ServiceUnavailable: problemResponse('A service behind the gateway is unavailable; safe to retry.'),
    },
  },
};
