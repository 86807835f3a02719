import { merchantEventTypes } from '../../events/catalog';
import {
  commonErrorResponses,
  jsonRequest,
  jsonResponse,
  listOf,
  livemodeProperty as livemode,
  pageOf,
  pageParameters,
  problemResponse,
  schemaRef,
  type JsonObject,
  type OpenApiFragment,
} from '../openapi-fragment';

const endpointId: JsonObject = { name: 'endpoint_id', in: 'path', required: true, schema: schemaRef('ObjectId') };
const deliveryId: JsonObject = { name: 'delivery_id', in: 'path', required: true, schema: schemaRef('ObjectId') };
const security = [{ ApiKey: [] }];
const notFound = problemResponse("webhook_endpoint_not_found: unknown id, another merchant's endpoint or one of the other mode.");
const eventTypes: JsonObject = { type: 'string', enum: merchantEventTypes };
/** What an event or a delivery can be: the subscribable types, and the test event an endpoint is sent on request. */
const loggedEventTypes: JsonObject = { type: 'string', enum: [...merchantEventTypes, 'webhook_endpoint.test'] };
const nullableTimestamp: JsonObject = { oneOf: [schemaRef('Timestamp'), { type: 'null' }] };

const endpointProperties: Record<string, JsonObject> = {
  id: schemaRef('ObjectId'),
  object: { type: 'string', const: 'webhook_endpoint' },
  livemode: livemode('the endpoint was registered with a live key and receives only live events; it belongs to'),
  url: { type: 'string', format: 'uri' },
  events: { type: 'array', items: eventTypes, description: 'Subscribed event types; empty means all of them.' },
  description: { type: ['string', 'null'] },
  enabled: { type: 'boolean' },
  disabled_reason: { type: ['string', 'null'], enum: ['gone', 'manual', null], description: 'gone: the receiver answered 410; manual: PATCH enabled=false.' },
  created_at: schemaRef('Timestamp'),
  updated_at: schemaRef('Timestamp'),
};
const endpointRequired = Object.keys(endpointProperties);

const ENDPOINT = {
  id: '019ab2c4-7e8f-7a01-9b2c-3d4e5f6a7b01',
  object: 'webhook_endpoint',
  livemode: false,
  url: 'https://shop.example/webhooks/vaultline',
  events: ['payment.captured', 'payment.failed'],
  description: 'Order updates',
  enabled: true,
  disabled_reason: null,
  created_at: '2026-11-23T09:00:00.000Z',
  updated_at: '2026-11-23T09:00:00.000Z',
};
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const EVENT = {
  id: '019ab2c4-9a0b-7c1d-8e2f-3a4b5c6d7e01',
  object: 'event',
  livemode: false,
  type: 'payment.captured',
  created_at: '2026-11-23T10:15:01.000Z',
  data: {
    payment_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
    status: 'captured',
    amount: { requested: 1999, authorized: 1999, captured: 1999, capturable: 0, disputed: 0, net: 1999 },
    currency_code: 'EUR',
    use_case: 'ONE_OFF',
    reference: 'order-1001',
    credential_id: null,
    initial_payment_id: null,
    flow: 'simulator_auto_capture',
    failure_reason: null,
    masked_account_number: '424242******4242',
  },
};
const DELIVERY = {
  id: '019ab2c4-9a0b-7c1d-8e2f-3a4b5c6d7e11',
  object: 'webhook_delivery',
  livemode: false,
  endpoint_id: ENDPOINT.id,
  event_id: EVENT.id,
  event_type: 'payment.captured',
  status: 'succeeded',
  attempt_count: 2,
  next_attempt_at: null,
  last_attempt_at: '2026-11-23T10:15:06.200Z',
  failure_reason: null,
  created_at: '2026-11-23T10:15:01.000Z',
  attempts: [
    { attempted_at: '2026-11-23T10:15:01.050Z', status_code: 503, duration_ms: 120, error: 'http_503', trigger: 'scheduled' },
    { attempted_at: '2026-11-23T10:15:06.200Z', status_code: 204, duration_ms: 85, error: null, trigger: 'scheduled' },
  ],
};

const WEBHOOKS_DESCRIPTION = [
  'Signed webhooks per Standard Webhooks 1.0. Each request is a POST with a JSON body {type, timestamp, livemode, data} and the headers',
  'webhook-id (the delivery id: stable across retries and replays of the same event to the same endpoint — dedupe on it),',
  'webhook-timestamp (Unix seconds of this attempt) and webhook-signature: space-separated "v1,<base64 HMAC-SHA256 of id.timestamp.body>"',
  'entries, one per active secret (two during a rotation grace period). Verify with any Standard Webhooks library and the whsec_ secret.',
  'Delivery is at least once: 2xx is success; 3xx is a failure (redirects are never followed); 410 disables the endpoint; anything else,',
  'a timeout (15 s) or a connection error is retried immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (with jitter),',
  'later when a 429 or 503 carries Retry-After. After the last attempt the delivery is failed and stays visible. A replay sends the same',
  'message again (same webhook-id, same body, fresh timestamp and signature) and starts a new run of the retry schedule.',
  'Endpoint URLs must be https and resolve to public addresses. data never carries card data (a masked account number at most).',
  'An endpoint belongs to the mode of the key that registered it: one registered with a test key receives only test-mode events',
  '(livemode false), one registered with a live key only live-mode events; a key of the other mode does not see it (404).',
].join(' ');

/** Webhook endpoints, their deliveries, and the merchant event log (notifier service). */
export const webhooksFragment: OpenApiFragment = {
  tags: [
    { name: 'Webhooks', description: WEBHOOKS_DESCRIPTION },
    { name: 'Events', description: "Every merchant-facing event, newest first, like Stripe's /v1/events. Webhooks are created from these events." },
  ],
  paths: {
    '/webhook-endpoints': {
      post: {
        tags: ['Webhooks'],
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint; the signing secret is shown only in this response',
        security,
        requestBody: jsonRequest('CreateWebhookEndpointRequest', { url: ENDPOINT.url, events: ENDPOINT.events, description: ENDPOINT.description }),
        responses: {
          '201': jsonResponse('The endpoint, with its secret.', 'WebhookEndpointWithSecret', { ...ENDPOINT, secret: SECRET }),
          ...commonErrorResponses,
          '409': problemResponse('too_many_webhook_endpoints.'),
          '422': problemResponse(
            'url_not_allowed (field url): not https, or a private/loopback address (a test key may register http://localhost, 127.0.0.1 or [::1] while the service runs on loopback; the detail says what would allow it); unknown_event_type (field events).',
          ),
        },
      },
      get: {
        tags: ['Webhooks'],
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints, newest first',
        security,
        parameters: pageParameters,
        responses: { '200': jsonResponse('A page of endpoints.', listOf('WebhookEndpoint'), pageOf([ENDPOINT])), ...commonErrorResponses },
      },
    },
    '/webhook-endpoints/{endpoint_id}': {
      get: {
        tags: ['Webhooks'],
        operationId: 'getWebhookEndpoint',
        summary: 'Read a webhook endpoint (without its secret)',
        security,
        parameters: [endpointId],
        responses: { '200': jsonResponse('The endpoint.', 'WebhookEndpoint', ENDPOINT), ...commonErrorResponses, '404': notFound },
      },
      patch: {
        tags: ['Webhooks'],
        operationId: 'updateWebhookEndpoint',
        summary: 'Change the URL, the subscribed events, the description, or enable/disable the endpoint',
        security,
        parameters: [endpointId],
        requestBody: jsonRequest('UpdateWebhookEndpointRequest', { enabled: false }),
        responses: {
          '200': jsonResponse('The updated endpoint.', 'WebhookEndpoint', {
            ...ENDPOINT,
            enabled: false,
            disabled_reason: 'manual',
            updated_at: '2026-11-24T08:00:00.000Z',
          }),
          ...commonErrorResponses,
          '404': notFound,
          '409': problemResponse('concurrent_modification: changed meanwhile; retry.'),
        },
      },
      delete: {
        tags: ['Webhooks'],
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint; its pending deliveries fail',
        security,
        parameters: [endpointId],
        responses: {
          '200': jsonResponse('Deleted.', 'DeletedWebhookEndpoint', { id: ENDPOINT.id, object: 'webhook_endpoint', deleted: true }),
          ...commonErrorResponses,
          '404': notFound,
        },
      },
    },
    '/webhook-endpoints/{endpoint_id}/rotate-secret': {
      post: {
        tags: ['Webhooks'],
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'Replace the signing secret; the old one keeps signing during a grace period (default 24 h)',
        security,
        parameters: [endpointId],
        requestBody: jsonRequest('RotateWebhookSecretRequest', { grace_period_seconds: 86400 }, false),
        responses: {
          '200': jsonResponse('The endpoint with its new secret.', 'RotatedWebhookSecret', {
            ...ENDPOINT,
            secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
            previous_secret_expires_at: '2026-11-25T09:00:00.000Z',
          }),
          ...commonErrorResponses,
          '404': notFound,
        },
      },
    },
    '/webhook-endpoints/{endpoint_id}/deliveries': {
      get: {
        tags: ['Webhooks'],
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log of an endpoint, newest first, each with its attempts',
        security,
        parameters: [
          endpointId,
          ...pageParameters,
          { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['pending', 'succeeded', 'failed'] } },
        ],
        responses: { '200': jsonResponse('A page of deliveries.', listOf('WebhookDelivery'), pageOf([DELIVERY])), ...commonErrorResponses, '404': notFound },
      },
    },
    '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}': {
      get: {
        tags: ['Webhooks'],
        operationId: 'getWebhookDelivery',
        summary: 'Read one delivery and its attempts',
        security,
        parameters: [endpointId, deliveryId],
        responses: {
          '200': jsonResponse('The delivery.', 'WebhookDelivery', DELIVERY),
          ...commonErrorResponses,
          '404': problemResponse('webhook_endpoint_not_found or delivery_not_found.'),
        },
      },
    },
    '/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/replay': {
      post: {
        tags: ['Webhooks'],
        operationId: 'replayWebhookDelivery',
        summary: 'Send the event again now, with the same webhook-id and body',
        security,
        parameters: [endpointId, deliveryId],
        responses: {
          '202': jsonResponse('The delivery, pending again.', 'WebhookDelivery', {
            ...DELIVERY,
            status: 'pending',
            next_attempt_at: '2026-11-24T08:00:00.000Z',
          }),
          ...commonErrorResponses,
          '404': problemResponse('webhook_endpoint_not_found or delivery_not_found.'),
          '409': problemResponse('delivery_in_progress (an attempt is running) or webhook_endpoint_disabled.'),
        },
      },
    },
    '/webhook-endpoints/{endpoint_id}/test-events': {
      post: {
        tags: ['Webhooks'],
        operationId: 'sendWebhookTestEvent',
        summary: 'Send a test event to this endpoint now ("Send a test event" in the dashboard)',
        description:
          'One event of type webhook_endpoint.test, with data {endpoint_id, url, message}: recorded in the event log and delivered to this endpoint only, ' +
          'whatever its event types, signed and retried like any delivery. No handler of a real event acts on it. A disabled endpoint receives nothing (409).',
        security,
        parameters: [endpointId],
        responses: {
          '202': jsonResponse("The test event's delivery, pending (its first attempt is made at once).", 'WebhookDelivery', {
            ...DELIVERY,
            id: '019ab2c4-9a0b-7c1d-8e2f-3a4b5c6d7e21',
            event_id: '019ab2c4-9a0b-7c1d-8e2f-3a4b5c6d7e22',
            event_type: 'webhook_endpoint.test',
            status: 'pending',
            attempt_count: 0,
            next_attempt_at: '2026-11-24T08:00:00.000Z',
            last_attempt_at: null,
            attempts: [],
          }),
          ...commonErrorResponses,
          '404': notFound,
          '409': problemResponse('webhook_endpoint_disabled.'),
        },
      },
    },
    '/events': {
      get: {
        tags: ['Events'],
        operationId: 'listEvents',
        summary: "List the merchant's events, newest first",
        security,
        parameters: [...pageParameters, { name: 'type', in: 'query', required: false, schema: loggedEventTypes }],
        responses: { '200': jsonResponse('A page of events.', listOf('Event'), pageOf([EVENT])), ...commonErrorResponses },
      },
    },
    '/events/poll': {
      get: {
        tags: ['Events'],
        operationId: 'pollEvents',
        summary: "Wait for the merchant's next events (long poll), resumable from an event id",
        description:
          'The event log in the order the service recorded the events (which can differ from the order of their ids: events of different ' +
          'services arrive in their own time), for a program on a laptop that wants the webhooks without a public URL (`vaultline listen`). ' +
          'Answers at once with the events recorded after `after`, oldest first; when there is none yet, waits up to `wait_seconds` for the ' +
          'first and answers it, or answers an empty list. Pass `last_event_id` as the next `after`: a reader that stops and comes back with ' +
          'it misses nothing and gets nothing twice. Without `after`: from the beginning of the log (to start from now, pass the id of the newest ' +
          "event, from GET /events?limit=1). Scoped by the key's merchant and mode, like every read; another merchant's or mode's event id " +
          'answers 404 event_not_found. A shutdown of the service waits for the polls in flight (at most wait_seconds).',
        security,
        parameters: [
          { name: 'after', in: 'query', required: false, description: 'An event id: answer the events recorded after it.', schema: schemaRef('ObjectId') },
          {
            name: 'type',
            in: 'query',
            required: false,
            description: 'Only events of these types: one type, or several separated by commas. The cursor still moves past the others.',
            schema: { type: 'string', maxLength: 2000, examples: ['payment.captured,refund.succeeded'] },
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'At most this many events (1 to 100).',
            schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 },
          },
          {
            name: 'wait_seconds',
            in: 'query',
            required: false,
            description: 'How long to wait for a first event when there is none yet (0: answer at once; at most 25).',
            schema: { type: 'integer', minimum: 0, maximum: 25, default: 10 },
          },
        ],
        responses: {
          '200': jsonResponse('The events recorded after the cursor, oldest first (empty when none came in time).', 'EventPoll', {
            object: 'list',
            data: [EVENT],
            has_more: false,
            last_event_id: EVENT.id,
          }),
          ...commonErrorResponses,
          '404': problemResponse('event_not_found: `after` is no event of this merchant and mode.'),
        },
      },
    },
    '/events/{event_id}': {
      get: {
        tags: ['Events'],
        operationId: 'getEvent',
        summary: 'Read one event',
        security,
        parameters: [{ name: 'event_id', in: 'path', required: true, schema: schemaRef('ObjectId') }],
        responses: { '200': jsonResponse('The event.', 'Event', EVENT), ...commonErrorResponses, '404': problemResponse('event_not_found.') },
      },
    },
    '/events/{event_id}/deliveries': {
      get: {
        tags: ['Events'],
        operationId: 'listEventDeliveries',
        summary: 'Where an event went: its delivery to each endpoint that received it, with their attempts (one page)',
        security,
        parameters: [{ name: 'event_id', in: 'path', required: true, schema: schemaRef('ObjectId') }],
        responses: {
          '200': jsonResponse('The deliveries, oldest first.', listOf('WebhookDelivery'), {
            object: 'list',
            data: [DELIVERY],
            has_more: false,
            next_cursor: null,
          }),
          ...commonErrorResponses,
          '404': problemResponse('event_not_found.'),
        },
      },
    },
  },
  components: {
    schemas: {
      CreateWebhookEndpointRequest: {
        type: 'object',
        required: ['url'],
        additionalProperties: false,
        properties: {
          url: { type: 'string', maxLength: 2048, description: 'https URL on a public address.' },
          events: { type: 'array', items: eventTypes, maxItems: 100, description: 'Absent or empty: every event type.' },
          description: { type: ['string', 'null'], maxLength: 500 },
        },
      },
      UpdateWebhookEndpointRequest: {
        type: 'object',
        minProperties: 1,
        additionalProperties: false,
        properties: {
          url: { type: 'string', maxLength: 2048 },
          events: { type: 'array', items: eventTypes, maxItems: 100 },
          description: { type: ['string', 'null'], maxLength: 500 },
          enabled: { type: 'boolean' },
        },
      },
      RotateWebhookSecretRequest: {
        type: 'object',
        additionalProperties: false,
        properties: {
          grace_period_seconds: {
            type: 'integer',
            minimum: 0,
            maximum: 604800,
            description: 'How long the replaced secret keeps signing; 0 stops it at once.',
          },
        },
      },
      WebhookEndpoint: { type: 'object', required: endpointRequired, additionalProperties: false, properties: endpointProperties },
      WebhookEndpointWithSecret: {
        type: 'object',
        required: [...endpointRequired, 'secret'],
        additionalProperties: false,
        properties: {
          ...endpointProperties,
          secret: { type: 'string', pattern: '^whsec_', description: 'Shown once. Standard Webhooks secret: whsec_ + base64 of 32 random bytes.' },
        },
      },
      RotatedWebhookSecret: {
        type: 'object',
        required: [...endpointRequired, 'secret', 'previous_secret_expires_at'],
        additionalProperties: false,
        properties: {
          ...endpointProperties,
          secret: { type: 'string', pattern: '^whsec_' },
          previous_secret_expires_at: { ...nullableTimestamp, description: 'Until then the previous secret signs too; null when none does.' },
        },
      },
      DeletedWebhookEndpoint: {
        type: 'object',
        required: ['id', 'object', 'deleted'],
        additionalProperties: false,
        properties: { id: schemaRef('ObjectId'), object: { type: 'string', const: 'webhook_endpoint' }, deleted: { type: 'boolean', const: true } },
      },
      WebhookDeliveryAttempt: {
        type: 'object',
        required: ['attempted_at', 'status_code', 'duration_ms', 'error', 'trigger'],
        additionalProperties: false,
        properties: {
          attempted_at: schemaRef('Timestamp'),
          status_code: { type: ['integer', 'null'], description: 'null when no response came back.' },
          duration_ms: { type: 'integer', minimum: 0 },
          error: { type: ['string', 'null'], description: 'e.g. http_500, http_302_redirect_not_followed, http_410_gone, timeout, unreachable, blocked.' },
          trigger: { type: 'string', enum: ['scheduled', 'replay'] },
        },
      },
      WebhookDelivery: {
        type: 'object',
        required: [
          'id',
          'object',
          'livemode',
          'endpoint_id',
          'event_id',
          'event_type',
          'status',
          'attempt_count',
          'next_attempt_at',
          'last_attempt_at',
          'failure_reason',
          'created_at',
          'attempts',
        ],
        additionalProperties: false,
        properties: {
          id: { ...schemaRef('ObjectId'), description: 'Also the webhook-id header.' },
          object: { type: 'string', const: 'webhook_delivery' },
          livemode: livemode('the delivery is of'),
          endpoint_id: schemaRef('ObjectId'),
          event_id: { type: 'string' },
          event_type: loggedEventTypes,
          status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
          attempt_count: { type: 'integer', minimum: 0 },
          next_attempt_at: nullableTimestamp,
          last_attempt_at: nullableTimestamp,
          failure_reason: { type: ['string', 'null'], description: 'retries_exhausted, endpoint_gone, endpoint_disabled or endpoint_deleted.' },
          created_at: schemaRef('Timestamp'),
          attempts: { type: 'array', items: schemaRef('WebhookDeliveryAttempt'), description: 'The latest 50 attempts, oldest first.' },
        },
      },
      EventPoll: {
        type: 'object',
        required: ['object', 'data', 'has_more', 'last_event_id'],
        additionalProperties: false,
        properties: {
          object: { type: 'string', const: 'list' },
          data: { type: 'array', items: schemaRef('Event'), description: 'Oldest first, in the order the service recorded them.' },
          has_more: { type: 'boolean', description: 'More events are recorded already: ask again at once with last_event_id.' },
          last_event_id: {
            type: ['string', 'null'],
            description:
              'Pass as `after` next time: the last event this answer covers (returned, or passed over by `type`). Null when it covers none (no `after` and nothing recorded yet): ask again without `after`.',
          },
        },
      },
      Event: {
        type: 'object',
        required: ['id', 'object', 'type', 'livemode', 'created_at', 'data'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          object: { type: 'string', const: 'event' },
          type: loggedEventTypes,
          livemode: livemode('the event is about a resource of'),
          created_at: schemaRef('Timestamp'),
          data: { type: 'object', description: "The same data as the webhook body's data. Never card data." },
        },
      },
    },
  },
};
