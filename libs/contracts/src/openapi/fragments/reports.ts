import {
  commonErrorResponses,
  jsonResponse,
  listOf,
  livemodeProperty,
  pageOf,
  pageParameters,
  problemResponse,
  schemaRef,
  type JsonObject,
  type OpenApiFragment,
} from '../openapi-fragment';

/**
 * The merchant's own API keys (GET/POST/DELETE /api-keys, served by the gateway) and the reports the
 * dashboard's overview draws (payments by the orchestrator, webhook deliveries by the notifier).
 */
const security = [{ ApiKey: [] }];

const KEY = {
  id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e41',
  merchant_id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e11',
  prefix: 'sk_test_Vd3k',
  mode: 'test',
  scopes: ['dashboard'],
  label: 'support desk',
  created_at: '2026-11-26T09:00:00.000Z',
  revoked_at: null,
  expires_at: null,
  rolled_from: null,
};
const SECRET_KEY = { ...KEY, id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e51', prefix: 'sk_test_Q9xP', scopes: ['merchant'], label: 'shop backend (eu-west)' };

const period: JsonObject[] = [
  {
    name: 'from',
    in: 'query',
    required: false,
    description: 'First day (UTC, inclusive), YYYY-MM-DD. Default: 29 days before `to`.',
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: 'Last day (UTC, inclusive), YYYY-MM-DD. Default: today. At most 92 days from `from`.',
    schema: { type: 'string', format: 'date' },
  },
];

const rate: JsonObject = {
  type: ['number', 'null'],
  minimum: 0,
  maximum: 1,
  description: 'succeeded / (succeeded + failed), 4 decimals; null when none finished.',
};
const count: JsonObject = { type: 'integer', minimum: 0 };
const day: JsonObject = { type: 'string', format: 'date' };

const MONEY_DEFINITIONS =
  "Money is counted on the UTC day it moved at the processor, whatever day its payment was created (a refund of last month's payment is on " +
  "today's line), in minor units of the currency, one row per currency, the way a processor's balance report reads: `authorized` the " +
  'successful authorizations (a hold on the card, not yet money), `captured` the successful captures, `refunded` the refunds on the day they ' +
  'succeeded (pending and failed refunds moved nothing), `disputed` the amounts of the disputes opened that day (inquiries included: the ' +
  'processor holds the amount from the opening), `won_back` the amounts of the disputes decided for the merchant, on the day of their last ' +
  'move (the decision, or the funds reinstated), and `net` = captured − refunded − disputed + won_back, which can be negative. A lost ' +
  'dispute stays counted in `disputed`; processor fees are not in the report.';

const amount: JsonObject = { type: 'integer', minimum: 0 };
const amounts: JsonObject = {
  type: 'array',
  description: `Per currency (alphabetical), the money that moved. ${MONEY_DEFINITIONS}`,
  items: {
    type: 'object',
    required: ['currency_code', 'authorized', 'captured', 'refunded', 'disputed', 'won_back', 'net'],
    additionalProperties: false,
    properties: {
      currency_code: { type: 'string', pattern: '^[A-Z]{3}$' },
      authorized: { ...amount, description: 'Successful authorizations (holds).' },
      captured: { ...amount, description: 'Successful captures.' },
      refunded: { ...amount, description: 'Refunds that succeeded.' },
      disputed: { ...amount, description: 'Disputes opened (their amount).' },
      won_back: { ...amount, description: 'Disputes won (their amount).' },
      net: { type: 'integer', description: 'captured − refunded − disputed + won_back.' },
    },
  },
};

const paymentCounts = (extra: Record<string, JsonObject> = {}, required: string[] = []): JsonObject => ({
  type: 'object',
  required: [...required, 'count', 'succeeded', 'failed', 'pending', 'success_rate', 'amounts'],
  additionalProperties: false,
  properties: {
    ...extra,
    count: { ...count, description: 'Payments created.' },
    succeeded: { ...count, description: 'Of them, authorized (captured, capturing, canceled after authorization…).' },
    failed: { ...count, description: 'Of them, failed (declined, error, expired session).' },
    pending: { ...count, description: 'Of them, still processing.' },
    success_rate: rate,
    amounts,
  },
});

const rateRow = (key: string, keySchema: JsonObject, what: string): JsonObject => ({
  type: 'object',
  required: [key, 'attempts', 'succeeded', 'failed', 'success_rate'],
  additionalProperties: false,
  properties: { [key]: keySchema, attempts: { ...count, description: what }, succeeded: count, failed: count, success_rate: rate },
});

const PAYMENT_REPORT = {
  object: 'payment_report',
  livemode: false,
  from: '2026-11-25',
  to: '2026-11-26',
  totals: {
    count: 5,
    succeeded: 3,
    failed: 1,
    pending: 1,
    success_rate: 0.75,
    amounts: [{ currency_code: 'EUR', authorized: 7500, captured: 7500, refunded: 500, disputed: 2500, won_back: 0, net: 4500 }],
  },
  days: [
    {
      date: '2026-11-25',
      count: 2,
      succeeded: 1,
      failed: 1,
      pending: 0,
      success_rate: 0.5,
      amounts: [{ currency_code: 'EUR', authorized: 2500, captured: 2500, refunded: 0, disputed: 0, won_back: 0, net: 2500 }],
    },
    {
      date: '2026-11-26',
      count: 3,
      succeeded: 2,
      failed: 0,
      pending: 1,
      success_rate: 1,
      amounts: [{ currency_code: 'EUR', authorized: 5000, captured: 5000, refunded: 500, disputed: 2500, won_back: 0, net: 4500 }],
    },
  ],
  by_processor: [{ processor: 'simulator', attempts: 4, succeeded: 3, failed: 1, success_rate: 0.75 }],
  by_flow: [{ flow: 'simulator', attempts: 4, succeeded: 3, failed: 1, success_rate: 0.75 }],
  decline_reasons: [{ reason: 'card_declined', count: 1 }],
};

const DELIVERY_REPORT = {
  object: 'webhook_delivery_report',
  livemode: false,
  from: '2026-11-25',
  to: '2026-11-26',
  totals: { messages: 10, succeeded: 8, failed: 1, pending: 1, success_rate: 0.8889 },
  days: [
    { date: '2026-11-25', messages: 4, succeeded: 3, failed: 1, pending: 0, success_rate: 0.75 },
    { date: '2026-11-26', messages: 6, succeeded: 5, failed: 0, pending: 1, success_rate: 1 },
  ],
  by_endpoint: [
    {
      endpoint_id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e51',
      url: 'https://shop.example/webhooks',
      messages: 10,
      succeeded: 8,
      failed: 1,
      pending: 1,
      success_rate: 0.8889,
    },
  ],
};

const deliveryCounts = (extra: Record<string, JsonObject> = {}, required: string[] = []): JsonObject => ({
  type: 'object',
  required: [...required, 'messages', 'succeeded', 'failed', 'pending', 'success_rate'],
  additionalProperties: false,
  properties: {
    ...extra,
    messages: { ...count, description: 'Webhook messages created (one event for one endpoint).' },
    succeeded: { ...count, description: 'Of them, answered 2xx (replays included).' },
    failed: { ...count, description: 'Of them, given up (schedule exhausted, 410, endpoint gone or disabled).' },
    pending: { ...count, description: 'Of them, with an attempt still ahead.' },
    success_rate: rate,
  },
});

export const reportsFragment: OpenApiFragment = {
  tags: [
    {
      name: 'API keys',
      description:
        "The merchant's own keys, of its key's mode, managed as in Stripe's dashboard: every key reads the list; a secret key creates secret keys and dashboard keys (read-mostly, for support staff), rolls a key (a new one at once, the old one kept working up to a week so the new one can be deployed first) and deletes one (it stops at once, and so do the dashboard sessions it opened). Every change is in the admin audit (via api_key, or via dashboard_session). Operators manage every key under /admin.",
    },
    {
      name: 'Reports',
      description:
        "Aggregates over a period, in the mode of the key: what the dashboard's overview draws. Computed on request from the payments and webhook messages of the period.",
    },
  ],
  paths: {
    '/api-keys': {
      get: {
        tags: ['API keys'],
        operationId: 'listApiKeys',
        summary: "The merchant's API keys of this key's mode (prefixes only, never the keys), newest first",
        security,
        parameters: pageParameters,
        responses: { '200': jsonResponse('A page of API keys.', listOf('ApiKey'), pageOf([KEY])), ...commonErrorResponses },
      },
      post: {
        tags: ['API keys'],
        operationId: 'createApiKey',
        summary: "Create a secret key or a dashboard key of this key's mode; the key is shown only in this response",
        description:
          "Only with a secret key (a dashboard key gets 403 insufficient_scope). `scope` merchant: a secret key, the whole merchant API. `scope` dashboard (the default): a key that reads everything a secret key reads, and of the changes makes only capture, cancel, refund, a webhook delivery's replay and the flow matrix's explain; it opens a dashboard session (POST /dashboard/session) for support staff. Idempotency-Key is not applied on this route: a repeat issues another key (the answer holds the new secret key, which is never kept to be replayed).",
        security,
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  label: { type: 'string', maxLength: 200, description: 'Who or what holds the key.' },
                  expires_at: { type: 'string', format: 'date-time', description: 'When the key stops working; none: until revoked.' },
                  scope: {
                    type: 'string',
                    enum: ['merchant', 'dashboard'],
                    default: 'dashboard',
                    description: 'merchant: a secret key; dashboard: a read-mostly key.',
                  },
                },
              },
              example: { label: 'shop backend (eu-west)', scope: 'merchant' },
            },
          },
        },
        responses: {
          '201': jsonResponse('The key, in clear this one time.', 'ApiKeyWithSecret', { ...SECRET_KEY, api_key: 'sk_test_Vd3kQ9xP4rT8vW2yB6dF1hJ5nL3qS0um' }),
          ...commonErrorResponses,
        },
      },
    },
    '/api-keys/{key_id}/roll': {
      post: {
        tags: ['API keys'],
        operationId: 'rollApiKey',
        summary:
          'Roll a key: a new key of the same mode, scopes and label, shown only in this response; the old one keeps working until expires_in_seconds from now',
        description:
          'Only with a secret key, for secret and dashboard keys of this mode. `expires_in_seconds`: 0 (the default) stops the old key at once; at most 604800 (7 days), so the new key can be deployed while the old one still works. An old key that was to expire sooner keeps its earlier expiry. The new key names the old one in `rolled_from`; `previous` is the old key with its new `expires_at`. Rolling the key that signs the request is allowed (it keeps working until its expiry). 409 api_key_not_rollable for a revoked or expired key. Idempotency-Key is not applied on this route: a repeat rolls the key again (the answer holds the new secret key, which is never kept to be replayed).',
        security,
        parameters: [{ name: 'key_id', in: 'path', required: true, schema: schemaRef('ObjectId') }],
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  expires_in_seconds: { type: 'integer', minimum: 0, maximum: 604800, default: 0, description: 'How long the old key keeps working.' },
                },
              },
              example: { expires_in_seconds: 86400 },
            },
          },
        },
        responses: {
          '201': jsonResponse('The new key, in clear this one time, and the old one as it is now.', 'RolledApiKey', {
            ...SECRET_KEY,
            id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e52',
            prefix: 'sk_test_Lm8p',
            created_at: '2026-11-26T10:00:00.000Z',
            rolled_from: SECRET_KEY.id,
            api_key: 'sk_test_Lm8pR2cV7xN4kW9qT1yB5dG3hJ6sF0az',
            previous: { ...SECRET_KEY, expires_at: '2026-11-27T10:00:00.000Z' },
          }),
          ...commonErrorResponses,
          '404': { $ref: '#/components/responses/NotFound' },
          '409': problemResponse('api_key_not_rollable: the key is revoked or expired; concurrent_modification: it was rolled or deleted at the same moment.'),
        },
      },
    },
    '/api-keys/{key_id}': {
      delete: {
        tags: ['API keys'],
        operationId: 'deleteApiKey',
        summary: 'Delete (revoke) a secret or dashboard key of this mode; it stops working at once, and so do the sessions it opened',
        description:
          "Only with a secret key. 409 api_key_in_use for the key that signs this request (delete it with another key), 409 api_key_revoked when already revoked; import keys are the importer's (403 insufficient_scope).",
        security,
        parameters: [{ name: 'key_id', in: 'path', required: true, schema: schemaRef('ObjectId') }],
        responses: {
          '200': jsonResponse('The revoked key.', 'ApiKey', { ...KEY, revoked_at: '2026-11-26T10:00:00.000Z' }),
          ...commonErrorResponses,
          '404': { $ref: '#/components/responses/NotFound' },
          '409': problemResponse('api_key_in_use: the request is signed with this key; api_key_revoked: it is revoked already.'),
        },
      },
    },
    '/reports/payments': {
      get: {
        tags: ['Reports'],
        operationId: 'getPaymentReport',
        summary:
          'Payments of a period: the money per day and currency (authorized, captured, refunded, disputed, net), counts and success per day, success rate by processor and by flow, decline reasons',
        description: `Days are UTC; every day of the period is listed, empty ones with zeros. \`count\`, \`succeeded\`, \`failed\` and \`pending\` count the payments created that day, in their state now. \`amounts\`: ${MONEY_DEFINITIONS} \`by_processor\` counts authorization attempts (a flow with a fallback tries more than one processor per payment); \`by_flow\` counts payments by the flow the matrix chose. \`decline_reasons\` are the failed payments' reasons, most frequent first. Readable by secret and dashboard keys.`,
        security,
        parameters: period,
        responses: { '200': jsonResponse('The report.', 'PaymentReport', PAYMENT_REPORT), ...commonErrorResponses },
      },
    },
    '/reports/webhook-deliveries': {
      get: {
        tags: ['Reports'],
        operationId: 'getWebhookDeliveryReport',
        summary: 'Webhook messages of a period: succeeded, failed and pending per day and per endpoint',
        description: 'A message is one event for one endpoint, counted on the day it was created, in its state now. Readable by secret and dashboard keys.',
        security,
        parameters: period,
        responses: { '200': jsonResponse('The report.', 'WebhookDeliveryReport', DELIVERY_REPORT), ...commonErrorResponses },
      },
    },
  },
  components: {
    schemas: {
      PaymentReport: {
        type: 'object',
        required: ['object', 'livemode', 'from', 'to', 'totals', 'days', 'by_processor', 'by_flow', 'decline_reasons'],
        additionalProperties: false,
        properties: {
          object: { type: 'string', const: 'payment_report' },
          livemode: livemodeProperty('the report is of'),
          from: day,
          to: day,
          totals: paymentCounts(),
          days: { type: 'array', items: paymentCounts({ date: day }, ['date']) },
          by_processor: { type: 'array', items: rateRow('processor', { type: 'string' }, 'Authorization attempts sent to the processor.') },
          by_flow: { type: 'array', items: rateRow('flow', { type: 'string' }, 'Payments the flow was chosen for.') },
          decline_reasons: {
            type: 'array',
            items: { type: 'object', required: ['reason', 'count'], additionalProperties: false, properties: { reason: { type: 'string' }, count } },
          },
        },
      },
      WebhookDeliveryReport: {
        type: 'object',
        required: ['object', 'livemode', 'from', 'to', 'totals', 'days', 'by_endpoint'],
        additionalProperties: false,
        properties: {
          object: { type: 'string', const: 'webhook_delivery_report' },
          livemode: livemodeProperty('the report is of'),
          from: day,
          to: day,
          totals: deliveryCounts(),
          days: { type: 'array', items: deliveryCounts({ date: day }, ['date']) },
          by_endpoint: {
            type: 'array',
            items: deliveryCounts(
              { endpoint_id: schemaRef('ObjectId'), url: { type: ['string', 'null'], description: 'null when the endpoint was deleted since.' } },
              ['endpoint_id', 'url'],
            ),
          },
        },
      },
    },
  },
};
