import {
  commonErrorResponses,
  jsonRequest,
  jsonResponse,
  listOf,
  livemodeProperty,
  pageOf,
  pageParameters,
  problemResponse,
  type JsonObject,
  type OpenApiFragment,
} from '../openapi-fragment';

const uuid: JsonObject = { type: 'string', format: 'uuid' };
const tokenIdParameter: JsonObject = { name: 'token_id', in: 'path', required: true, schema: uuid };
const sessionIdParameter: JsonObject = { name: 'session_id', in: 'path', required: true, schema: uuid };
const stringOrNumber: JsonObject = { type: ['string', 'integer'] };

const cardInput: JsonObject = {
  type: 'object',
  required: ['number'],
  properties: {
    number: { ...stringOrNumber, description: 'Card number; spaces and dashes allowed. Luhn and length per scheme are checked; never echoed in errors.' },
    exp_month: { ...stringOrNumber, description: '1–12 ("4", "04" or 4). "MM/YY" is accepted here when exp_year is empty.' },
    exp_year: { ...stringOrNumber, description: 'Four digits; two digits are read as 20YY. Expired cards are rejected.' },
    cvc: { ...stringOrNumber, description: 'Security code: 3 digits, 4 for AMEX. Kept encrypted for 15 minutes only, never stored in a database.' },
    name: { type: 'string', description: 'Cardholder name; trimmed, at most 100 characters.' },
  },
};

const TOKEN = {
  livemode: false,
  id: '019ab2c4-1a2b-7c3d-8e4f-5a6b7c8d9e01',
  business_key: 'order-1001-card',
  cardholder_name: 'Ada Lovelace',
  created_at: '2026-11-23T10:15:00.000Z',
  expiry_month: 12,
  expiry_year: 2030,
  masked_account_number: '424242******4242',
  scheme: 'VISA',
  fingerprint: 'fp_3b9c1e0a7d2f4c58a1e6b0d9c2f7a4e1',
  security_code_expires_at: '2026-11-23T10:30:00.000Z',
};
const IMPORTED_TOKEN = { ...TOKEN, id: '019ab2c4-1a2b-7c3d-8e4f-5a6b7c8d9e02', business_key: 'pm_1QxYz2AbCdEf', security_code_expires_at: null };
const CARD = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123', name: 'Ada Lovelace' };
const SESSION = {
  session_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b02',
  state: 'completed',
  amount: 1999,
  currency: 'EUR',
  currency_exponent: 2,
  payment_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
  payment_status: 'processing',
  failure_reason: null,
  masked_account_number: '424242******4242',
  scheme: 'VISA',
  return_url: 'https://shop.example/orders/1001',
  allowed_origins: ['https://shop.example'],
  expires_at: '2026-11-23T10:45:00.000Z',
  authentication: null,
  livemode: false,
  attempts: 1,
  last_failed_attempt: null,
};
/** The session after its first card was declined: open again for another card. */
const SESSION_AFTER_DECLINE = {
  ...SESSION,
  state: 'open',
  masked_account_number: null,
  scheme: null,
  last_failed_attempt: { number: 1, failure_reason: 'card_declined', masked_account_number: '400000******0002' },
};
const BROWSER = {
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  language: 'en-GB',
  screen_width: 1280,
  screen_height: 720,
  color_depth: 24,
  time_zone_offset: -60,
  java_enabled: false,
};
/** What the page reads of the browser for 3-D Secure 2 (the vault adds the page request's Accept header and the client's address). */
const browserInput = {
  type: 'object',
  required: ['user_agent', 'language', 'screen_width', 'screen_height', 'color_depth', 'time_zone_offset', 'java_enabled'],
  additionalProperties: false,
  description: "The consumer's browser for 3-D Secure 2 (EMVCo browser data), as the hosted page reads it.",
  properties: {
    user_agent: { type: 'string', maxLength: 1024 },
    language: { type: 'string', maxLength: 35 },
    screen_width: { type: 'integer', minimum: 0 },
    screen_height: { type: 'integer', minimum: 0 },
    color_depth: { type: 'integer', minimum: 0, maximum: 64 },
    time_zone_offset: { type: 'integer', minimum: -900, maximum: 900, description: 'Minutes, as Date.getTimezoneOffset() (UTC+1 is -60).' },
    java_enabled: { type: 'boolean' },
  },
};

const tokenErrors = {
  ...commonErrorResponses,
  '404': problemResponse("token_not_found (also for another merchant's token)."),
  '410': problemResponse('token_deleted: the card data was destroyed.'),
};

/** The vault's merchant API: tokens, /cde-import and the checkout session endpoints used by the hosted page. */
export const tokensFragment: OpenApiFragment = {
  tags: [
    { name: 'Tokens', description: 'Card data exchanged for tokens; card data is encrypted at rest and the security code lives 15 minutes.' },
    { name: 'Checkout', description: 'The hosted card form ({base_url}/checkout/{session_id}, SDK at {base_url}/sdk/v1/checkout.js) and its endpoints.' },
  ],
  paths: {
    '/tokens': {
      post: {
        tags: ['Tokens'],
        operationId: 'createToken',
        summary: 'Tokenize a card (API keys with card-data access only)',
        description:
          'Every call makes a new token, even for a card the merchant tokenized before; the fingerprint (keyed HMAC of the number, per merchant) recognises the same card.',
        security: [{ ApiKey: [] }],
        requestBody: jsonRequest('CreateTokenRequest', { card: CARD, business_key: 'order-1001-card' }),
        responses: { '201': jsonResponse('The token.', 'Token', TOKEN), ...commonErrorResponses, '403': problemResponse('card_data_access_not_enabled.') },
      },
      get: {
        tags: ['Tokens'],
        operationId: 'listTokens',
        summary: 'List tokens, optionally by business_key or fingerprint',
        security: [{ ApiKey: [] }],
        parameters: [
          { name: 'business_key', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'fingerprint', in: 'query', required: false, schema: { type: 'string' } },
          ...pageParameters,
        ],
        responses: {
          '200': jsonResponse('A page of tokens (deleted ones left out).', listOf('Token'), pageOf([TOKEN, IMPORTED_TOKEN], true)),
          ...commonErrorResponses,
        },
      },
    },
    '/tokens/{token_id}': {
      get: {
        tags: ['Tokens'],
        operationId: 'getToken',
        summary: 'Retrieve a token',
        security: [{ ApiKey: [] }],
        parameters: [tokenIdParameter],
        responses: { '200': jsonResponse('The token.', 'Token', TOKEN), ...tokenErrors },
      },
      delete: {
        tags: ['Tokens'],
        operationId: 'deleteToken',
        summary: 'Delete a token: its card data and security code are destroyed',
        security: [{ ApiKey: [] }],
        parameters: [tokenIdParameter],
        responses: {
          '200': jsonResponse(
            'Deleted (repeating the call answers the same).',
            { type: 'object', required: ['id', 'deleted'], properties: { id: uuid, deleted: { type: 'boolean', const: true } } },
            { id: TOKEN.id, deleted: true },
          ),
          ...commonErrorResponses,
          '404': problemResponse('token_not_found.'),
        },
      },
    },
    '/cde-import': {
      post: {
        tags: ['Tokens'],
        operationId: 'cdeImport',
        summary: "Import one card from a third-party platform's forwarding function",
        description:
          'The same metadata.business_key for the same merchant updates that token (200) instead of creating another (201). The correlation id (metadata.correlation_id or X-Correlation-Id) is carried into token.created.',
        security: [{ ApiKey: [] }],
        parameters: [{ name: 'X-Correlation-Id', in: 'header', required: false, schema: { type: 'string' } }],
        requestBody: jsonRequest('CdeImportRequest', {
          metadata: { business_key: 'pm_1QxYz2AbCdEf', correlation_id: 'import-7' },
          card: { number: '4242424242424242', exp_month: '12', exp_year: '2030', cvc: '123', name: 'Ada Lovelace' },
        }),
        responses: {
          '200': jsonResponse('The updated token.', 'Token', IMPORTED_TOKEN),
          '201': jsonResponse('The new token.', 'Token', IMPORTED_TOKEN),
          ...commonErrorResponses,
        },
      },
    },
    '/sessions/{session_id}/card': {
      post: {
        tags: ['Checkout'],
        operationId: 'submitCheckoutCard',
        summary: "Submit the consumer's card for a checkout session (no API key: the session id is the capability)",
        description:
          'One card at a time: the session completes with it and its payment decides. A card that is declined (or whose 3-D Secure challenge fails) ' +
          'opens the session again (state open, last_failed_attempt) for another card, until the session expires or its attempts run out ' +
          '(VAULT_CHECKOUT_ATTEMPTS_PER_SESSION per window; 429 too_many_attempts with Retry-After).',
        security: [],
        parameters: [sessionIdParameter],
        requestBody: jsonRequest(
          { type: 'object', required: ['card'], properties: { card: cardInput, browser: browserInput } },
          { card: CARD, browser: BROWSER },
        ),
        responses: {
          '201': jsonResponse('The session, now completed.', 'CheckoutSessionStatus', SESSION),
          '404': problemResponse('checkout_session_not_found.'),
          '409': problemResponse(
            'checkout_session_already_used (a card is being decided, or the payment succeeded); stored_card_session (the session pays with the stored card it offers: confirm it at /sessions/{session_id}/stored-card); ' +
              'checkout_session_canceled (the merchant canceled the payment before a card was entered); checkout_session_abandoned (the consumer left the session).',
          ),
          '410': problemResponse('checkout_session_expired.'),
          '422': { $ref: '#/components/responses/ValidationFailed' },
          '429': problemResponse('too_many_attempts (per session and per address): Retry-After and retry_after say how many seconds to wait.'),
        },
      },
    },
    '/sessions/{session_id}/abandon': {
      post: {
        tags: ['Checkout'],
        operationId: 'abandonCheckoutSession',
        summary: 'Leave a checkout session that waits for a card (the hosted page\'s "Return to the shop" after a failed card; no API key)',
        description:
          "The session ends (no card is taken any more) and its payment fails at once with the last card's reason (session_abandoned when none was tried), " +
          'so the shop the consumer returns to reads a final status. No body.',
        security: [],
        parameters: [sessionIdParameter],
        responses: {
          '200': jsonResponse('The session, now abandoned.', 'CheckoutSessionStatus', { ...SESSION_AFTER_DECLINE, state: 'abandoned' }),
          '404': problemResponse('checkout_session_not_found.'),
          '409': problemResponse('checkout_session_not_abandonable: a card is being decided, or the session ended (expired, canceled, paid).'),
        },
      },
    },
    '/sessions/{session_id}/stored-card': {
      post: {
        tags: ['Checkout'],
        operationId: 'confirmCheckoutStoredCard',
        summary: 'Confirm the stored card a checkout session offers, with its security code when the session asks for it (no API key; single use)',
        security: [],
        parameters: [sessionIdParameter],
        requestBody: jsonRequest(
          {
            type: 'object',
            properties: { security_code: { type: 'string', description: 'Only when stored_card.security_code_required.' }, browser: browserInput },
          },
          { security_code: '123', browser: BROWSER },
          false,
        ),
        responses: {
          '201': jsonResponse('The session, now completed with the stored card.', 'CheckoutSessionStatus', SESSION),
          '404': problemResponse('checkout_session_not_found.'),
          '409': problemResponse(
            'checkout_session_already_used; checkout_session_canceled; stored_card_not_confirmable (the session offers no stored card, or it is no longer available).',
          ),
          '410': problemResponse('checkout_session_expired.'),
          '422': problemResponse('invalid_security_code (field security_code).'),
          '429': problemResponse('too_many_attempts (per session and per address).'),
        },
      },
    },
    '/sessions/{session_id}/logo': {
      get: {
        tags: ['Checkout'],
        operationId: 'getCheckoutSessionLogo',
        summary: "The uploaded logo of the session's merchant (shown by the hosted page)",
        parameters: [sessionIdParameter],
        responses: {
          '200': {
            description: 'The image, as uploaded.',
            content: {
              'image/png': { schema: { type: 'string', format: 'binary' } },
              'image/jpeg': { schema: { type: 'string', format: 'binary' } },
              'image/webp': { schema: { type: 'string', format: 'binary' } },
            },
          },
          '404': problemResponse('logo_not_found: no such session, or its merchant uploaded no logo.'),
        },
      },
    },
    '/sessions/{session_id}/status': {
      get: {
        tags: ['Checkout'],
        operationId: 'getCheckoutSessionStatus',
        summary: "The session and its payment's progress (polled by the hosted page)",
        parameters: [sessionIdParameter],
        responses: {
          '200': jsonResponse('The session status (here: open again after a declined card).', 'CheckoutSessionStatus', SESSION_AFTER_DECLINE),
          '404': problemResponse('checkout_session_not_found, after waiting up to 1 s for a session that has not arrived yet.'),
        },
      },
    },
  },
  components: {
    schemas: {
      Token: {
        type: 'object',
        required: [
          'id',
          'livemode',
          'business_key',
          'cardholder_name',
          'created_at',
          'expiry_month',
          'expiry_year',
          'masked_account_number',
          'scheme',
          'fingerprint',
          'security_code_expires_at',
        ],
        properties: {
          id: uuid,
          livemode: livemodeProperty('the token was created with a live key and belongs to'),
          business_key: { type: ['string', 'null'] },
          cardholder_name: { type: ['string', 'null'] },
          created_at: { type: 'string', format: 'date-time' },
          expiry_month: { type: 'integer', minimum: 1, maximum: 12 },
          expiry_year: { type: 'integer', minimum: 2000, maximum: 9999 },
          masked_account_number: { type: 'string', description: 'At most the first 6 and last 4 digits, e.g. 424242******4242.' },
          scheme: { type: 'string', enum: ['VISA', 'MASTERCARD', 'AMEX', 'DISCOVER', 'JCB', 'DINERS', 'UNIONPAY', 'MAESTRO', 'UNKNOWN'] },
          fingerprint: { type: 'string', description: 'Keyed HMAC of the card number, the same for the same card within one merchant.' },
          security_code_expires_at: {
            type: ['string', 'null'],
            format: 'date-time',
            description: 'Until when the security code can be used; null when none was given.',
          },
        },
      },
      CreateTokenRequest: { type: 'object', required: ['card'], properties: { card: cardInput, business_key: { type: 'string', maxLength: 255 } } },
      CdeImportRequest: {
        type: 'object',
        required: ['metadata', 'card'],
        properties: {
          metadata: {
            type: 'object',
            required: ['business_key'],
            properties: { business_key: { type: 'string', maxLength: 255 }, correlation_id: { type: 'string', maxLength: 255 } },
          },
          card: cardInput,
        },
      },
      CheckoutSessionStatus: {
        type: 'object',
        required: ['session_id', 'state', 'amount', 'currency', 'currency_exponent', 'payment_id', 'payment_status', 'expires_at'],
        properties: {
          session_id: uuid,
          state: {
            type: 'string',
            enum: ['open', 'completed', 'expired', 'canceled', 'abandoned'],
            description:
              'open: waits for a card (the first, or another after a failed one); completed: a card is being decided or the payment ended; abandoned: the consumer left.',
          },
          livemode: { type: 'boolean', description: 'false for a test-mode payment: the page shows a TEST MODE badge.' },
          attempts: { type: 'integer', minimum: 0, description: 'How many cards were entered in this session.' },
          last_failed_attempt: {
            type: ['object', 'null'],
            required: ['number', 'failure_reason', 'masked_account_number'],
            additionalProperties: false,
            description: 'The latest card that failed while the payment could take another (the page names it above the form); null when none did.',
            properties: { number: { type: 'integer', minimum: 1 }, failure_reason: { type: 'string' }, masked_account_number: { type: ['string', 'null'] } },
          },
          amount: { type: 'integer', description: 'Minor units of the currency: amount / 10^currency_exponent in major units (HUF 150000 is HUF 1,500.00).' },
          currency: { type: 'string' },
          currency_exponent: {
            type: 'integer',
            minimum: 0,
            maximum: 4,
            description:
              "The currency's ISO 4217 minor-unit exponent, from the server's table (EUR 2, JPY 0, KWD 3, HUF 2, IQD 3): the page shows the amount with it, never with its browser's own currency data.",
          },
          payment_id: uuid,
          payment_status: { type: 'string', enum: ['processing', 'authorized', 'capturing', 'captured', 'failed', 'canceled'] },
          failure_reason: { type: ['string', 'null'] },
          masked_account_number: { type: ['string', 'null'] },
          scheme: { type: ['string', 'null'] },
          return_url: { type: ['string', 'null'], description: 'https (http only on loopback); any other return URL is dropped.' },
          allowed_origins: {
            type: 'array',
            items: { type: 'string' },
            description: 'The origins that may frame the page (its frame-ancestors) and receive its messages; empty: no framing, no messages.',
          },
          expires_at: { type: 'string', format: 'date-time' },
          description: { type: ['string', 'null'], description: "The payment's description: the order line shown under the amount." },
          locale: {
            type: ['string', 'null'],
            description: "The payment's locale (en, de, fr, es, nl, it, optionally with a region); null: the page follows the browser's languages.",
          },
          authentication: {
            type: ['object', 'null'],
            required: ['state'],
            additionalProperties: false,
            description:
              '3-D Secure: required while the consumer is to authenticate with their bank (the page sends them to {base_url}/checkout/{session_id}/authenticate), ' +
              'returned once they came back to {base_url}/checkout/{session_id}/return; null when none was asked (or the payment moved on).',
            properties: { state: { type: 'string', enum: ['required', 'returned'] } },
          },
          merchant: {
            type: 'object',
            description:
              "The merchant's look (GET /settings/checkout): what the page shows at its top and on its button. display_name is the merchant's name when the shop set none.",
            required: ['display_name', 'brand_color', 'button_text_color', 'logo_url'],
            properties: {
              display_name: { type: ['string', 'null'] },
              brand_color: { type: ['string', 'null'], description: '#rrggbb' },
              button_text_color: { type: ['string', 'null'], description: '#000000 or #ffffff, whichever contrasts more with brand_color.' },
              logo_url: { type: ['string', 'null'], description: "The merchant's https logo, or /sessions/{session_id}/logo for an uploaded one." },
            },
          },
          stored_card: {
            type: 'object',
            description: 'A card the shop stored (earlier payment interface): shown masked, confirmed with POST /sessions/{session_id}/stored-card.',
            properties: {
              masked_account_number: { type: 'string' },
              scheme: { type: ['string', 'null'] },
              expiry_month: { type: 'integer' },
              expiry_year: { type: 'integer' },
              cardholder_name: { type: ['string', 'null'] },
              security_code_required: { type: 'boolean' },
            },
          },
        },
      },
    },
  },
};
