import { commonErrorResponses, livemodeProperty, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

const security = [{ ApiKey: [] }];
const accountIdParameter: JsonObject = { name: 'processor_account_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
/** A registered processor plugin's id: the installation decides which exist (an unknown one is 422, field processor). */
const processorId: JsonObject = { type: 'string', pattern: '^[a-z][a-z0-9_]{0,31}$', examples: ['adyen', 'checkout', 'stripe', 'simulator'], description: 'The processor\'s id: one of the processor plugins the installation registers (`adyen`, `checkout`, `stripe`, `simulator`, and any added since: see the orchestrator README).' };
const processorParameter: JsonObject = { name: 'processor', in: 'path', required: true, schema: processorId, description: 'The processor the account is at (`adyen`, `checkout`, …): the same path serves every notifying processor.' };

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
    multiple_partial_captures: {
      type: 'boolean',
      default: false,
      description:
        'Adyen accounts only (422 on others): whether multiple partial captures are enabled on the merchant account at Adyen (Adyen\'s Support Team enables it). ' +
        'Without it Adyen cancels what a partial capture leaves, so captures with final_capture false answer 422 multiple_captures_not_supported; with it ' +
        'each capture takes its part, and what the final one leaves is released with a cancel.',
    },
    approval_rate: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 1,
      description:
        'Simulator accounts only (422 on others): the share of ordinary cards the account approves; the rest are declined card_declined (do_not_honor), the same payments ' +
        'every time, and two accounts decline independently. Test cards keep their own behaviour. Two simulator accounts with different rates show routing in test mode.',
    },
    outage: {
      type: 'array',
      maxItems: 20,
      default: [],
      description:
        'Simulator accounts only (422 on others): windows in which the account answers nothing (processor_unavailable, a technical error: the step\'s next processor is ' +
        'asked), read on the payment\'s effective time (the test clock\'s for an X-Test-Now payment).',
      items: {
        type: 'object',
        required: ['from', 'to'],
        additionalProperties: false,
        properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time', description: 'After from.' } },
      },
    },
  },
};

const credentials: JsonObject = {
  type: 'object',
  description:
    'Validated by the processor\'s plugin. Adyen: api_key, merchant_account, hmac_key (hex, for notifications), live_url_prefix (live). Checkout.com: secret_key (sk_…), processing_channel_id (pc_…), webhook_secret. Stripe: secret_key (sk_test_… / sk_live_…, the account\'s mode), webhook_secret (whsec_…). Simulator: none. Sealed at rest, never returned.',
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
    '/processor-notifications/{processor}/{processor_account_id}': {
      post: {
        tags: ['Processor notifications'],
        operationId: 'receiveProcessorNotification',
        summary: 'A processor\'s notification (Adyen standard notification, Checkout.com webhook, …), verified by the processor\'s plugin with the account\'s own secret',
        description:
          'One route for every processor that notifies; the body and signature are the processor\'s own. Adyen: each item HMAC-signed with the account\'s hmac_key, ' +
          'answered `[accepted]` (text/plain) once read, items whose signature fails not stored (counted and logged). Checkout.com: `Cko-Signature` over the raw body with ' +
          'the account\'s webhook_secret, answered `{"received": true}`, a forged one 401. Stripe: `Stripe-Signature` (t=…,v1=…, 300 s tolerance) with the account\'s webhook_secret, answered `{"received": true}`, a forged or stale one 401. Other processors: their README. `/processor-notifications/adyen/{id}` and ' +
          '`/processor-notifications/checkout/{id}` are this route.',
        security: [],
        parameters: [processorParameter, accountIdParameter],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', description: 'The notification as the processor sends it (only what is read is described in its README).' },
              examples: {
                adyen: {
                  summary: 'Adyen standard notification (processor adyen)',
                  value: {
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
                  },
                },
                checkout: {
                  summary: 'Checkout.com webhook (processor checkout, Cko-Signature header)',
                  value: {
                    id: 'evt_az5sblvku4ge3dwpztvyizgcau',
                    type: 'payment_captured',
                    created_on: '2026-11-23T10:15:01Z',
                    data: { id: 'pay_mbabizu24mvu3mela5njyhpit4', action_id: 'act_y3oqhf46pyzuxjbcn2giaqnb44', amount: 1999, currency: 'EUR', reference: 'order-1001' },
                  },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Read (each event recorded once): the answer the processor expects.',
            content: {
              'text/plain': { schema: { type: 'string' }, example: '[accepted]' },
              'application/json': { schema: { type: 'object' }, example: { received: true } },
            },
          },
          '400': problemResponse('invalid_notification: the body is not a notification of this processor.'),
          '401': problemResponse('invalid_signature: the signature does not verify with the account\'s secret (processors that refuse a forged body; Adyen answers 200 and stores nothing). Not stored (counted and logged), nothing moves.'),
          '404': problemResponse('processor_account_not_found: unknown account, an account of another processor, or a processor that does not notify.'),
          '413': problemResponse('too_many_notification_items: more than 100 items in one body; nothing of it is recorded.'),
          '429': problemResponse('rate_limited: the sender\'s address or the account went over its rate limit; Retry-After says when to deliver again.'),
          '503': problemResponse('stray_authorization_pending: an authorization the payment does not use cannot be voided yet; the processor delivers it again.'),
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
        properties: { processor: processorId, name: { type: 'string', minLength: 1, maxLength: 64 }, credentials, settings },
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
          processor: processorId,
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
