import { commonErrorResponses, livemodeProperty, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

/** A processor's notification: JSON in the processor's own shape (only what is read is described). */
const notificationBody = (schema: JsonObject, example: unknown): JsonObject => ({ required: true, content: { 'application/json': { schema, example } } });

const security = [{ ApiKey: [] }];
const accountIdParameter: JsonObject = { name: 'processor_account_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const PROCESSORS = ['adyen', 'checkout', 'simulator'];

const ACCOUNT = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6c01',
  livemode: false,
  processor: 'adyen',
  name: 'Adyen EU',
  settings: { base_url: null },
  credentials: { hint: '…Zz42', updated_at: '2026-11-23T10:15:00.000Z' },
  created_at: '2026-11-23T10:15:00.000Z',
  updated_at: '2026-11-23T10:15:00.000Z',
};

const json = (schema: JsonObject | string, example: unknown): JsonObject => ({ 'application/json': { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example } });

const settings: JsonObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    base_url: {
      type: ['string', 'null'],
      description: 'Overrides the processor\'s host; accepted only when its payments URL is an allowed forward destination (built in, or FORWARD_EXTRA_DESTINATIONS).',
    },
    explicit_unscheduled: {
      type: 'boolean',
      default: true,
      description:
        'Simulator accounts only (422 on others: Adyen and Checkout.com declare it): false makes the account a processor without explicit unscheduled ' +
        'merchant-initiated payments, so an unscheduled mandate charged on it is sent, and shown, as recurring (earlier interface, rule 7).',
    },
  },
};

const credentials: JsonObject = {
  type: 'object',
  description:
    'Validated by the processor. Adyen: api_key, merchant_account, hmac_key (hex, for notifications), live_url_prefix (live). Checkout.com: secret_key (sk_…), processing_channel_id (pc_…), webhook_secret. Simulator: none. Sealed at rest, never returned.',
  additionalProperties: { type: 'string' },
};

/** Processor accounts (merchant API key) and the processors' notifications (public: signed by the processor). */
export const processorAccountsFragment: OpenApiFragment = {
  tags: [
    { name: 'Processor accounts', description: 'A merchant\'s accounts at Adyen, Checkout.com (or the simulator); flows name them in their steps.' },
    { name: 'Processor notifications', description: 'What the processors send back, authenticated by their signature with the account\'s key.' },
  ],
  paths: {
    '/processor-accounts': {
      post: {
        tags: ['Processor accounts'],
        operationId: 'createProcessorAccount',
        summary: 'Add an account at a processor',
        security,
        requestBody: {
          required: true,
          content: json('ProcessorAccountInput', { processor: 'adyen', name: 'Adyen EU', credentials: { api_key: 'AQE…', merchant_account: 'ShopECOM', hmac_key: '4478…A056' } }),
        },
        responses: {
          '201': { description: 'The account (credentials only as a hint).', content: json('ProcessorAccount', ACCOUNT) },
          ...commonErrorResponses,
          '409': problemResponse('processor_account_limit_reached.'),
          '422': problemResponse('invalid_credentials (field credentials.<name>), destination_not_allowed (settings.base_url), validation_failed.'),
        },
      },
      get: {
        tags: ['Processor accounts'],
        operationId: 'listProcessorAccounts',
        summary: 'The merchant\'s processor accounts',
        security,
        responses: {
          '200': {
            description: 'Every account, oldest first.',
            content: json({ type: 'object', required: ['object', 'data'], additionalProperties: false, properties: { object: { type: 'string', const: 'list' }, data: { type: 'array', items: schemaRef('ProcessorAccount') } } }, { object: 'list', data: [ACCOUNT] }),
          },
          ...commonErrorResponses,
        },
      },
    },
    '/processor-accounts/{processor_account_id}': {
      get: {
        tags: ['Processor accounts'],
        operationId: 'getProcessorAccount',
        summary: 'Retrieve a processor account',
        security,
        parameters: [accountIdParameter],
        responses: { '200': { description: 'The account.', content: json('ProcessorAccount', ACCOUNT) }, ...commonErrorResponses, '404': problemResponse('processor_account_not_found (also another merchant\'s).') },
      },
      patch: {
        tags: ['Processor accounts'],
        operationId: 'updateProcessorAccount',
        summary: 'Rename, rotate the credentials (replaced whole) or replace the settings',
        security,
        parameters: [accountIdParameter],
        requestBody: { required: true, content: json('ProcessorAccountChange', { credentials: { api_key: 'AQE…new', merchant_account: 'ShopECOM', hmac_key: '4478…A056' } }) },
        responses: {
          '200': { description: 'The account.', content: json('ProcessorAccount', ACCOUNT) },
          ...commonErrorResponses,
          '404': problemResponse('processor_account_not_found.'),
          '409': problemResponse('concurrent_modification: another change committed first.'),
          '422': problemResponse('invalid_credentials, destination_not_allowed, validation_failed.'),
        },
      },
      delete: {
        tags: ['Processor accounts'],
        operationId: 'deleteProcessorAccount',
        summary: 'Delete a processor account',
        security,
        parameters: [accountIdParameter],
        responses: {
          '204': { description: 'Deleted.' },
          ...commonErrorResponses,
          '404': problemResponse('processor_account_not_found.'),
          '409': problemResponse('processor_account_in_use: a flow names the account in its steps; `flows` lists them.'),
        },
      },
    },
    '/processor-notifications/adyen/{processor_account_id}': {
      post: {
        tags: ['Processor notifications'],
        operationId: 'receiveAdyenNotification',
        summary: 'Adyen standard notification (AUTHORISATION, CAPTURE, CAPTURE_FAILED); each item HMAC-signed with the account\'s hmac_key',
        security: [],
        parameters: [accountIdParameter],
        requestBody: notificationBody({
          type: 'object',
          required: ['live', 'notificationItems'],
          properties: {
            live: { type: 'string', enum: ['true', 'false'], description: 'Adyen sends the flag as a string.' },
            notificationItems: {
              type: 'array',
              items: {
                type: 'object',
                required: ['NotificationRequestItem'],
                properties: { NotificationRequestItem: { type: 'object', description: 'pspReference, eventCode, success, amount, additionalData.hmacSignature … as Adyen sends them.' } },
              },
            },
          },
        }, {
          live: 'false',
          notificationItems: [
            {
              NotificationRequestItem: {
                additionalData: { hmacSignature: 'coqCmt/IZ4E3CzPvMY8zTjQVL5hYJUiBRg8UU+iCWo0=' },
                amount: { currency: 'EUR', value: 1999 },
                eventCode: 'CAPTURE',
                eventDate: '2026-11-23T10:15:01+01:00',
                merchantAccountCode: 'ShopECOM',
                merchantReference: 'order-1001',
                originalReference: 'QFQTPCQ8HXSKGK82',
                pspReference: 'ZC4R4RBFJGXXGN82',
                reason: '',
                success: 'true',
              },
            },
          ],
        }),
        responses: {
          '200': { description: '`[accepted]` once read; items whose signature fails are not stored and move nothing (counted and logged).', content: { 'text/plain': { schema: { type: 'string', const: '[accepted]' } } } },
          '400': problemResponse('invalid_notification: the body is not a standard notification.'),
          '404': problemResponse('processor_account_not_found: unknown account, or not an Adyen one.'),
          '413': problemResponse('too_many_notification_items: more than 100 items in one body; nothing of it is recorded.'),
          '429': problemResponse('rate_limited: the sender\'s address or the account went over its rate limit; Retry-After says when to deliver again.'),
          '503': problemResponse('stray_authorization_pending: an AUTHORISATION the payment does not use cannot be voided yet; Adyen delivers it again.'),
        },
      },
    },
    '/processor-notifications/checkout/{processor_account_id}': {
      post: {
        tags: ['Processor notifications'],
        operationId: 'receiveCheckoutWebhook',
        summary: 'Checkout.com webhook (payment_approved, payment_captured, payment_capture_declined, …), Cko-Signature over the raw body with the account\'s webhook_secret',
        security: [],
        parameters: [accountIdParameter, { name: 'Cko-Signature', in: 'header', required: true, schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' } }],
        requestBody: notificationBody({
          type: 'object',
          required: ['id', 'type', 'data'],
          properties: {
            id: { type: 'string', description: 'The event id (evt_…); an event is recorded once.' },
            type: { type: 'string', examples: ['payment_captured'] },
            created_on: { type: 'string', format: 'date-time' },
            data: { type: 'object', description: 'The payment the event is about (id, action_id, amount …) as Checkout.com sends it.' },
          },
        }, {
          id: 'evt_az5sblvku4ge3dwpztvyizgcau',
          type: 'payment_captured',
          created_on: '2026-11-23T10:15:01Z',
          data: { id: 'pay_mbabizu24mvu3mela5njyhpit4', action_id: 'act_y3oqhf46pyzuxjbcn2giaqnb44', amount: 1999, currency: 'EUR', reference: 'order-1001' },
        }),
        responses: {
          '200': { description: 'Recorded (once per event id).', content: json({ type: 'object', properties: { received: { const: true } } }, { received: true }) },
          '400': problemResponse('invalid_notification.'),
          '401': problemResponse('invalid_signature: not stored (counted and logged), nothing moves.'),
          '404': problemResponse('processor_account_not_found.'),
          '429': problemResponse('rate_limited: the sender\'s address or the account went over its rate limit; Retry-After says when to deliver again.'),
          '503': problemResponse('stray_authorization_pending: a payment_approved the payment does not use cannot be voided yet; Checkout.com delivers it again.'),
        },
      },
    },
  },
  components: {
    schemas: {
      ProcessorAccountInput: {
        type: 'object',
        required: ['processor', 'name'],
        additionalProperties: false,
        properties: { processor: { enum: PROCESSORS }, name: { type: 'string', minLength: 1, maxLength: 64 }, credentials, settings },
      },
      ProcessorAccountChange: {
        type: 'object',
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 64 }, credentials, settings },
      },
      ProcessorAccount: {
        type: 'object',
        required: ['id', 'livemode', 'processor', 'name', 'settings', 'credentials', 'created_at', 'updated_at'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          livemode: livemodeProperty('the account was created with a live key: it serves only live payments and talks only to the processor\'s live host (or an allowed base_url); it belongs to'),
          processor: { enum: PROCESSORS },
          name: { type: 'string' },
          settings: { ...settings, required: ['base_url'] },
          credentials: {
            type: 'object',
            required: ['hint', 'updated_at'],
            additionalProperties: false,
            properties: { hint: { type: ['string', 'null'], description: '… and the last four characters of the API or secret key.' }, updated_at: { type: 'string', format: 'date-time' } },
          },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};
