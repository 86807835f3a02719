import {
  AMOUNT_REFUSALS,
  commonErrorResponses,
  listOf,
  requestAmount,
  livemodeProperty,
  pageParameters,
  problemResponse,
  schemaRef,
  type JsonObject,
  type OpenApiFragment,
} from '../openapi-fragment';

const security = [{ ApiKey: [] }];
const uuid: JsonObject = { type: 'string', format: 'uuid' };
const paymentIdParameter: JsonObject = { name: 'payment_id', in: 'path', required: true, schema: uuid };
const initialPaymentIdParameter: JsonObject = { ...paymentIdParameter, description: 'The id of the initial payment.' };
const flowNameParameter: JsonObject = { name: 'flow_name', in: 'path', required: true, schema: { type: 'string' } };
const testClockParameter: JsonObject = {
  name: 'X-Test-Now',
  in: 'header',
  required: false,
  description:
    "Test keys (sk_test_) only: the payment's effective time (its created_at and every frequency and expiry rule) as an ISO 8601 time, " +
    "so next month's charge can be tested today. With a live key the header is refused on every route before anything else (422 test_clock_not_allowed).",
  schema: { type: 'string', format: 'date-time' },
  example: '2027-02-15T10:00:00Z',
};

const USE_CASES = ['ONE_OFF', 'RECURRING', 'UNSCHEDULED', 'SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'];
const STATUSES = ['processing', 'authorized', 'capturing', 'partially_captured', 'captured', 'failed', 'canceling', 'canceled'];
const AUTHENTICATION_PREFERENCES = ['NO_3RI', 'TRY_3RI', 'REQUIRE_3RI'];
const amountValue = requestAmount('The amount to charge.');
const currencyCode: JsonObject = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 (validated; the minor-unit exponent is known).' };
const metadata: JsonObject = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Merchant key/value pairs; the flow matrix can route on them (condition metadata).',
};

/** GET /payments filters. */
const paymentSearchParameters: JsonObject[] = [
  { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: STATUSES } },
  { name: 'reference', in: 'query', required: false, description: "The merchant's reference, exactly.", schema: { type: 'string', maxLength: 255 } },
  { name: 'customer_id', in: 'query', required: false, description: 'Earlier-interface payments of this customer.', schema: { type: 'string' } },
  {
    name: 'use_case',
    in: 'query',
    required: false,
    description: 'In the words of the interface that created the payment.',
    schema: { type: 'string', enum: [...USE_CASES, 'guest_payment', 'cof_payment', 'first_payment', 'recurring_payment', 'unscheduled_payment'] },
  },
  {
    name: 'created_gte',
    in: 'query',
    required: false,
    description: 'Created at or after this ISO 8601 time (with its offset).',
    schema: { type: 'string', format: 'date-time' },
    example: '2026-11-01T00:00:00Z',
  },
  {
    name: 'created_lte',
    in: 'query',
    required: false,
    description: 'Created at or before this ISO 8601 time (with its offset).',
    schema: { type: 'string', format: 'date-time' },
    example: '2026-11-30T23:59:59Z',
  },
];

/** A list given whole (a payment's transactions, the flows): no pages, so no cursor. */
function wholeListOf(itemSchema: string): JsonObject {
  return {
    type: 'object',
    required: ['object', 'data'],
    additionalProperties: false,
    properties: { object: { type: 'string', const: 'list' }, data: { type: 'array', items: schemaRef(itemSchema) } },
  };
}

/** A JSON media type with its schema and the one example of the endpoint. */
function json(schema: JsonObject | string, example: unknown): JsonObject {
  return { 'application/json': { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example } };
}
function answer(description: string, schema: JsonObject | string, example: unknown): JsonObject {
  return { description, content: json(schema, example) };
}
function body(schema: string, example: unknown): JsonObject {
  return { required: true, content: json(schema, example) };
}

// One payment per use case as a merchant sees it; the examples below are built from them.
const CREATED_AT = '2026-11-23T10:15:00.000Z';
const SOURCE = {
  type: 'card',
  cardholder_name: 'Ada Lovelace',
  expiry_month: 12,
  expiry_year: 2030,
  masked_account_number: '424242******4242',
  pan_type: 'FPAN',
};
const ONE_OFF = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
  livemode: false,
  amount: { requested: 1999 },
  action_requirement: {
    type: 'use_sdk',
    session_id: '6f1c2b8e-4d1e-4a10-9c3b-5f2e8d7a6b02',
    checkout_url: 'https://vaultline.example.com/checkout/6f1c2b8e-4d1e-4a10-9c3b-5f2e8d7a6b02',
  },
  created_at: CREATED_AT,
  currency_code: 'EUR',
  flow: 'simulator_auto_capture',
  flow_decision: { matrix_version: 0, rule: null },
  reference: 'order-1001',
  status: 'processing',
  use_case: 'ONE_OFF',
};
const RECURRING = {
  ...ONE_OFF,
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b11',
  action_requirement: { type: 'use_sdk', session_id: '6f1c2b8e-4d1e-4a10-9c3b-5f2e8d7a6b12' },
  credential_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b13',
  reference: 'subscription-42',
  recurring_frequency: 30,
  recurring_expiry: '20271231',
  use_case: 'RECURRING',
};
const UNSCHEDULED = {
  ...ONE_OFF,
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b21',
  action_requirement: { type: 'use_sdk', session_id: '6f1c2b8e-4d1e-4a10-9c3b-5f2e8d7a6b22' },
  credential_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b23',
  reference: 'top-up-7',
  use_case: 'UNSCHEDULED',
};
const SUBSEQUENT_RECURRING = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b31',
  livemode: false,
  amount: { requested: 1999 },
  authentication_preference: 'NO_3RI',
  created_at: '2026-12-23T10:15:00.000Z',
  currency_code: 'EUR',
  credential_id: RECURRING.credential_id,
  flow: 'simulator_auto_capture',
  flow_decision: { matrix_version: 0, rule: null },
  initial_payment_id: RECURRING.id,
  reference: 'subscription-42-december',
  source: SOURCE,
  status: 'processing',
  use_case: 'SUBSEQUENT_RECURRING',
};
const SUBSEQUENT_UNSCHEDULED = {
  ...SUBSEQUENT_RECURRING,
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b41',
  amount: { requested: 500 },
  credential_id: UNSCHEDULED.credential_id,
  initial_payment_id: UNSCHEDULED.id,
  reference: 'top-up-8',
  use_case: 'SUBSEQUENT_UNSCHEDULED',
};
const MANUAL_AUTHORIZED = {
  ...ONE_OFF,
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b51',
  action_requirement: { type: 'use_sdk', session_id: '6f1c2b8e-4d1e-4a10-9c3b-5f2e8d7a6b52' },
  amount: { requested: 5000, authorized: 5000, capturable: 5000 },
  reference: 'manual-order-77',
  source: SOURCE,
  flow: 'simulator_manual_capture',
  flow_decision: { matrix_version: 3, rule: 'manual-for-orders' },
  status: 'authorized',
};
/** The first shipment of an order captured (3000 of 5000, final_capture false): 2000 stay capturable. */
const CAPTURING = { ...MANUAL_AUTHORIZED, amount: { requested: 5000, authorized: 5000, capturable: 2000 }, status: 'capturing' };
const CAPTURED = {
  ...ONE_OFF,
  amount: { requested: 1999, authorized: 1999, captured: 1999, capturable: 0, refunded: 500, refund_pending: 0, disputed: 0, net: 1499 },
  source: SOURCE,
  status: 'captured',
  authentication: { type: '3ds', version: '2.2.0', status: 'authenticated', eci: '05', liability_shift: true },
  attempts: 2,
  last_failed_attempt: { number: 1, failure_reason: 'card_declined', masked_account_number: '400000******0002', failed_at: '2026-11-23T10:15:40.000Z' },
};
const FAILED = { ...ONE_OFF, id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b61', status: 'failed', failure_reason: 'card_declined', source: SOURCE };
const MATRIX_INPUT = {
  default_flow: 'simulator_auto_capture',
  rules: [{ name: 'manual-for-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
};
const MATRIX = { livemode: false, ...MATRIX_INPUT, version: 3, updated_at: CREATED_AT };
const FLOW_INPUT = {
  name: 'risk_then_simulator',
  capture_mode: 'manual',
  steps: [
    { kind: 'authentication_3ri', processor: 'simulator', on_failure: 'continue', fallback: [] },
    { kind: 'authorization', processor: 'simulator', on_failure: 'stop', fallback: [], three_ds: 'always' },
    { kind: 'capture', processor: 'simulator', on_failure: 'stop', fallback: [] },
  ],
};
const FLOW = { ...FLOW_INPUT, livemode: false, built_in: false, created_at: CREATED_AT };
const BUILT_IN_FLOW = {
  ...FLOW_INPUT,
  steps: FLOW_INPUT.steps.map((step) => (step.kind === 'authorization' ? { ...step, three_ds: 'if_required' } : step)),
  livemode: false,
  name: 'simulator_auto_capture',
  capture_mode: 'automatic',
  built_in: true,
  created_at: null,
};

/**
 * `status` and `use_case` decide which fields a payment carries (the spec's "Appears" column). Each `then`
 * restates the payment's fields (allOf PaymentFields) beside what it requires, so that it names only
 * fields the payment defines and reads the same to a validator that treats every object schema as closed.
 */
/** A payment waiting for its consumer's 3-D Secure (both interfaces' payments say it the same way). */
export const nextActionSchema: JsonObject = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  description: 'While the consumer is authenticating with their bank (3-D Secure) on the hosted page: the payment stays processing.',
  properties: { type: { type: 'string', const: 'consumer_authentication' } },
};

const fields = schemaRef('PaymentFields');
const requires = (names: string[], extra: JsonObject = {}): JsonObject => ({ allOf: [fields], required: names, ...extra });
const forbids = (names: string[]): JsonObject => ({ allOf: [fields], properties: Object.fromEntries(names.map((name) => [name, false])) });
const amountWith = (names: string[]): JsonObject => ({ allOf: [schemaRef('PaymentAmount')], required: names });
const paymentRules: JsonObject[] = [
  { if: { properties: { use_case: { enum: ['ONE_OFF', 'RECURRING', 'UNSCHEDULED'] } } }, then: forbids(['authentication_preference', 'initial_payment_id']) },
  {
    if: { properties: { use_case: { enum: ['SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'] } } },
    then: requires(['authentication_preference', 'credential_id', 'initial_payment_id', 'source'], { properties: { action_requirement: false } }),
  },
  { if: { properties: { use_case: { type: 'string', const: 'ONE_OFF' } } }, then: forbids(['credential_id']) },
  { if: { properties: { use_case: { type: 'string', const: 'RECURRING' } } }, then: requires(['credential_id', 'recurring_frequency', 'recurring_expiry']) },
  { if: { properties: { use_case: { type: 'string', const: 'UNSCHEDULED' } } }, then: requires(['credential_id']) },
  {
    if: { properties: { status: { enum: ['authorized', 'capturing', 'partially_captured', 'captured'] } } },
    then: requires(['source'], { properties: { amount: amountWith(['authorized', 'capturable']) } }),
  },
  {
    if: { properties: { status: { enum: ['partially_captured', 'captured'] } } },
    then: requires([], { properties: { amount: amountWith(['captured', 'disputed', 'net']) } }),
  },
  {
    if: { properties: { status: { type: 'string', const: 'failed' } } },
    then: requires(['failure_reason'], { properties: { failure_reason: { type: 'string' } } }),
  },
  { if: { properties: { status: { enum: ['canceling', 'canceled'] } } }, then: requires(['cancellation_reason']) },
];

const PAYMENTS_DESCRIPTION = [
  'The newer payment interface (beta). Every creating call answers 200 with the payment in status processing; what happens next arrives as',
  'webhooks (payment.processing, payment.authorized, payment.capturing, payment.captured, payment.capture_failed, payment.failed; see Webhooks) and on',
  'GET /payments/{payment_id}. Consumer-present payments (one-off, initial recurring, initial unscheduled) carry action_requirement',
  '{type: use_sdk, session_id}: open {base_url}/checkout/{session_id} (or mount {base_url}/sdk/v1/checkout.js with the session id); the',
  'consumer enters the card there, the page shows the outcome and returns the consumer to return_url with session_id, payment_id and',
  'payment_status added. A session that expires before the card is entered (30 minutes by default, PAYMENT_SESSION_LIFETIME_MS) fails its',
  'payment with failure_reason session_expired.',
  'Another card: when a card entered on the hosted page is declined or its 3-D Secure challenge fails, the payment is not over while its',
  'session is open: it stays processing without a card (source is removed; last_failed_attempt names the card and the reason), the',
  'merchant hears payment.attempt_failed, and the consumer may enter another card in the same session (the vault limits the attempts per',
  'session and per address). Each card is an attempt: its transactions carry attempt: 1, 2…, the successful one goes on as any payment',
  "(payment.captured or payment.authorized). The payment fails with the last attempt's reason when the session expires, or at once when the",
  'consumer leaves the page with "Return to the shop". Processor errors, risk declines and stored-card sessions fail at once as before.',
  "Only the origins in allowed_origins (else return_url's origin, else none) may frame the hosted page and receive its messages",
  '(vaultline.checkout.resize, vaultline.checkout.complete); a page on any other origin is refused by frame-ancestors and hears nothing.',
  'States: processing → authorized (manual-capture flows) → capturing → captured, or partially_captured when the capture said final_capture',
  'false (captured again later: one authorization, several captures as the order ships; amount.capturable says what is left). A capture that',
  'fails leaves the payment authorized (or partially_captured) with payment.capture_failed: capture again while the authorization is valid,',
  'or cancel to release it (after partial captures a cancel releases the rest and the payment ends captured). Automatic-capture flows go',
  'processing → captured once the processor confirmed the capture (processing → failed with capture_failed when it reports the capture failed).',
  'In test mode the built-in simulator decides by card number: 4000000000000002 declined (card_declined), 4000000000009995 declined',
  '(insufficient_funds), 4000000000003220 3RI authentication fails, 4000000000000259 capture fails, 4000000000000267 the first capture',
  'fails and a capture asked again succeeds, 4000000000000119 processor error',
  '(retryable, for fallback); any other valid card is approved. Live keys never get a simulated outcome (simulator_not_allowed_in_live_mode).',
  "3-D Secure (the flow's authorization step, three_ds): when the issuer asks the consumer to authenticate, the payment stays processing,",
  "payment.action_required is sent, the hosted page takes the consumer to the issuer's page and back, and the payment goes on; authentication",
  'shows the result. Simulator cards: 4000000000003063 challenge, 4000000000003097 frictionless, 4000008400001629 challenge then card_declined;',
  'a failed challenge fails the payment with authentication_failed, a consumer who never comes back with authentication_abandoned when the',
  'session expires.',
].join(' ');

const FLOWS_DESCRIPTION = [
  'A flow is a named sequence of processor steps (risk, authentication_3ri, authorization, capture), each with a failure policy',
  '(on_failure stop | continue; fallback: processors tried in order on a retryable processor error) and a capture mode (automatic |',
  'manual). Built in for every merchant: simulator_auto_capture and simulator_manual_capture (3RI, authorization, capture on the simulator).',
  'The flow matrix chooses the flow of each payment: rules in order, the first whose every condition holds wins, else default_flow;',
  'conditions: use_case (list), currency_code (list), amount_gte, amount_lte, reference_prefix, scheme (list, once the card is known),',
  'metadata (equality). Each PUT is a new version; a payment records the version and the rule that chose its flow.',
].join(' ');

const paymentErrors = { ...commonErrorResponses, '404': problemResponse("payment_not_found (also for another merchant's payment).") };
const createErrors = {
  ...commonErrorResponses,
  '422': problemResponse(
    'validation_failed naming the field (amount a positive integer, currency_code ISO 4217, source.type "vaultline", recurring_frequency an integer ≥ 1, ' +
      'recurring_expiry a real YYYYMMDD date not in the past, return_url an https URL (http only on loopback), ' +
      'allowed_origins at most 10 https origins (http only on loopback; field allowed_origins.N for a bad entry)); test_clock_not_allowed (X-Test-Now with a live key); ' +
      'simulator_not_allowed_in_live_mode (a live payment whose chosen flow uses the simulator); ' +
      `${AMOUNT_REFUSALS}: a processor of the flow's authorization step that cannot take the amount is passed over (nothing is sent to it, no ` +
      'transaction) and the next one of the step is asked; the payment is refused only when none of them can take it.',
  ),
};
const subsequentErrors = {
  ...commonErrorResponses,
  '404': problemResponse('payment_not_found: no such initial payment for this merchant.'),
  '409': problemResponse(
    'initial_payment_not_successful: the initial payment is neither authorized nor captured; concurrent_modification: two subsequent payments on the same credentials at the same instant (retry).',
  ),
  '422': problemResponse(
    'amount_exceeds_initial (amount above the initial amount); recurring_frequency_not_respected (fewer than recurring_frequency days since the last ' +
      'successful payment on these credentials); credentials_expired (after recurring_expiry); use_case_mismatch (the initial payment is of the other ' +
      'kind); currency_mismatch; authentication_not_configured (REQUIRE_3RI on a flow without a 3RI step); test_clock_not_allowed; ' +
      'invalid_test_clock (X-Test-Now is not an ISO 8601 time with a zone); ' +
      "retry_limit_reached (the card's last attempt was declined and the card schemes allow no retry now: a hard decline, Mastercard's wait, or the retry limit; nothing is made); " +
      `simulator_not_allowed_in_live_mode; ${AMOUNT_REFUSALS}; validation_failed naming the field.`,
  ),
};
const matrixErrors = {
  ...commonErrorResponses,
  '422': problemResponse(
    'The problem names the rule (field rules[i].…, extension rule): unknown_flow, unknown_processor, unknown_condition, invalid_condition, ' +
      'duplicate_rule_name; validation_failed for the shape.',
  ),
};

function paymentCreation(
  operationId: string,
  summary: string,
  requestSchema: string,
  requestExample: unknown,
  responseExample: unknown,
  extra: JsonObject = {},
): JsonObject {
  return {
    tags: ['Payments'],
    operationId,
    summary,
    security,
    requestBody: body(requestSchema, requestExample),
    responses: { '200': answer('The payment, processing.', 'ConsumerPresentPayment', responseExample), ...createErrors },
    ...extra,
  };
}

function subsequentCreation(operationId: string, summary: string, requestExample: unknown, responseExample: unknown): JsonObject {
  return {
    tags: ['Payments'],
    operationId,
    summary,
    description:
      'Merchant initiated, consumer absent: no action_requirement; source copied from the initial payment; credential_id and initial_payment_id set; ' +
      'authentication_preference echoed (default NO_3RI). 3RI runs on merchant-initiated payments only: NO_3RI skips it, TRY_3RI goes on to ' +
      'authorization whatever its outcome, REQUIRE_3RI fails the payment (failure_reason authentication_failed) without an authorization when it fails.',
    security,
    parameters: [initialPaymentIdParameter, testClockParameter],
    requestBody: body('SubsequentPaymentRequest', requestExample),
    responses: { '200': answer('The subsequent payment, processing.', 'SubsequentPayment', responseExample), ...subsequentErrors },
  };
}

/** The payment orchestrator's merchant API: payments of the newer interface, flows and the flow matrix. */
export const paymentsFragment: OpenApiFragment = {
  tags: [
    { name: 'Payments', description: PAYMENTS_DESCRIPTION },
    { name: 'Flows', description: FLOWS_DESCRIPTION },
  ],
  paths: {
    '/payments/one-off': {
      post: paymentCreation(
        'createOneOffPayment',
        'Create a one-off (guest) payment; the consumer pays on the hosted page',
        'OneOffPaymentRequest',
        { amount: 1999, currency_code: 'EUR', reference: 'order-1001', source: { type: 'vaultline' }, return_url: 'https://shop.example/orders/1001' },
        ONE_OFF,
      ),
    },
    '/payments/recurring': {
      post: paymentCreation(
        'createRecurringPayment',
        'Create an initial recurring payment (consumer present); stored credentials are created',
        'RecurringPaymentRequest',
        {
          amount: 1999,
          currency_code: 'EUR',
          reference: 'subscription-42',
          source: { type: 'vaultline' },
          recurring_frequency: 30,
          recurring_expiry: '20271231',
        },
        RECURRING,
      ),
    },
    '/payments/unscheduled': {
      post: paymentCreation(
        'createUnscheduledPayment',
        'Create an initial unscheduled payment (consumer present); stored credentials are created',
        'UnscheduledPaymentRequest',
        { amount: 1999, currency_code: 'EUR', reference: 'top-up-7', source: { type: 'vaultline' } },
        UNSCHEDULED,
      ),
    },
    '/payments/recurring/{payment_id}/subsequent': {
      post: subsequentCreation(
        'createSubsequentRecurringPayment',
        'Charge stored recurring credentials (merchant initiated)',
        { amount: 1999, currency_code: 'EUR', reference: 'subscription-42-december', authentication_preference: 'NO_3RI' },
        SUBSEQUENT_RECURRING,
      ),
    },
    '/payments/unscheduled/{payment_id}/subsequent': {
      post: subsequentCreation(
        'createSubsequentUnscheduledPayment',
        'Charge stored unscheduled credentials (merchant initiated); the body is the subsequent recurring one',
        { amount: 500, currency_code: 'EUR', reference: 'top-up-8' },
        SUBSEQUENT_UNSCHEDULED,
      ),
    },
    '/payments/{payment_id}/capture': {
      post: {
        tags: ['Payments'],
        operationId: 'capturePayment',
        summary:
          'Capture an authorized (or partially captured) payment of a manual-capture flow: all that is capturable, or part of it (amount and currency_code), the last capture or not (final_capture)',
        description:
          'Several captures per authorization, one at a time, as an order ships: each with final_capture false keeps the rest of the ' +
          'authorization for later captures (the payment becomes partially_captured once it settled); the final one (final_capture true, the ' +
          'default) ends the payment captured and the processor releases what is left (Stripe final_capture, Checkout.com capture_type ' +
          'Final, Adyen a cancel of the rest). Answers status capturing; every capture is a transaction and settles with payment.captured (its ' +
          'amount in capture.amount, amount.captured the total), or fails with payment.capture_failed and leaves the payment capturable again.',
        security,
        parameters: [paymentIdParameter],
        requestBody: body('CaptureRequest', { reference: 'manual-order-77-shipment-1', amount: 3000, currency_code: 'EUR', final_capture: false }),
        responses: {
          '200': answer('The payment, capturing.', 'CapturingPayment', CAPTURING),
          ...paymentErrors,
          '409': problemResponse(
            'capture_not_allowed (automatic-capture flow, the payment is neither authorized nor partially captured, or a capture of it is under way); already_captured (its final capture was made).',
          ),
          '422': problemResponse(
            `amount_exceeds_authorized (above amount.capturable); currency_mismatch; partial_capture_not_supported; multiple_captures_not_supported (final_capture false on a processor account that makes one capture per payment); ${AMOUNT_REFUSALS}; validation_failed naming the field.`,
          ),
        },
      },
    },
    '/payments/{payment_id}': {
      get: {
        tags: ['Payments'],
        operationId: 'getPayment',
        summary: 'Retrieve a payment',
        security,
        parameters: [paymentIdParameter],
        responses: {
          '200': answer('The payment, in the shape of the interface that created it (Payment, or EarlierPayment for POST /payments).', 'AnyPayment', CAPTURED),
          ...paymentErrors,
        },
      },
    },
    '/payments': {
      get: {
        tags: ['Payments'],
        operationId: 'listPayments',
        summary: 'List and search payments, newest first (cursor pagination)',
        description:
          'Filters combine (all must hold); a value that is not valid answers 422 naming the parameter. Payments of both interfaces are listed, each in its own shape.',
        security,
        parameters: [...pageParameters, ...paymentSearchParameters],
        responses: {
          '200': answer('A page of payments, each in the shape of the interface that created it.', listOf('AnyPayment'), {
            object: 'list',
            data: [FAILED, CAPTURED],
            has_more: true,
            next_cursor: CAPTURED.id,
          }),
          ...commonErrorResponses,
        },
      },
    },
    '/payments/{payment_id}/transactions': {
      get: {
        tags: ['Payments'],
        operationId: 'listPaymentTransactions',
        summary: 'The processor transactions of a payment, in the order they ran',
        description: 'Shows what the flow did: e.g. a REQUIRE_3RI payment whose 3RI failed has an authentication_3ri transaction and no authorization.',
        security,
        parameters: [paymentIdParameter],
        responses: {
          '200': answer('The transactions, oldest first.', wholeListOf('ProcessorTransaction'), {
            object: 'list',
            data: [
              {
                livemode: false,
                processor: 'simulator',
                kind: 'authorization',
                status: 'failed',
                failure_reason: 'card_declined',
                amount: 1999,
                attempt: 1,
                created_at: '2026-11-23T10:15:40.000Z',
              },
              {
                livemode: false,
                processor: 'simulator',
                kind: 'authentication_3ds',
                status: 'succeeded',
                failure_reason: null,
                amount: null,
                attempt: 2,
                created_at: '2026-11-23T10:16:05.000Z',
              },
              {
                livemode: false,
                processor: 'simulator',
                kind: 'authorization',
                status: 'succeeded',
                failure_reason: null,
                amount: 1999,
                attempt: 2,
                created_at: '2026-11-23T10:16:05.000Z',
              },
              {
                livemode: false,
                processor: 'simulator',
                kind: 'capture',
                status: 'succeeded',
                failure_reason: null,
                amount: 1999,
                attempt: 2,
                created_at: '2026-11-23T10:16:06.000Z',
              },
            ],
          }),
          ...paymentErrors,
        },
      },
    },
    '/flow-matrix': {
      put: {
        tags: ['Flows'],
        operationId: 'putFlowMatrix',
        summary: 'Replace the flow matrix (a new version)',
        security,
        requestBody: body('FlowMatrixInput', MATRIX_INPUT),
        responses: {
          '200': answer('The new version of the matrix.', 'FlowMatrix', MATRIX),
          ...matrixErrors,
          '409': problemResponse('flow_matrix_changed: another PUT committed the same version first; read and send again.'),
        },
      },
      get: {
        tags: ['Flows'],
        operationId: 'getFlowMatrix',
        summary: 'The current flow matrix (version 0 with default_flow simulator_auto_capture and no rules when none was set)',
        security,
        responses: { '200': answer('The current matrix.', 'FlowMatrix', MATRIX), ...commonErrorResponses },
      },
    },
    '/flow-matrix/explain': {
      post: {
        tags: ['Flows'],
        operationId: 'explainFlowMatrix',
        summary: 'Which flow the current matrix (or a draft given as matrix) chooses for a payment-shaped body, and by which rule',
        description:
          'With `matrix` (the body PUT /flow-matrix takes), the draft is validated as PUT validates it and explained as it would decide once saved, ' +
          'with the version a PUT would give it; nothing is saved. An editor previews a change this way before saving it.',
        security,
        requestBody: body('FlowMatrixExplainRequest', { use_case: 'ONE_OFF', amount: 5000, currency_code: 'EUR', reference: 'manual-order-77' }),
        responses: {
          '200': answer('The decision.', 'FlowDecision', {
            flow: 'simulator_manual_capture',
            rule: 'manual-for-orders',
            matrix_version: 3,
            authorization: {
              strategy: 'ordered',
              processors: ['simulator'],
              reason: 'step_order',
              detail: 'simulator: the only processor of the step that can take the payment',
            },
          }),
          ...matrixErrors,
        },
      },
    },
    '/flows': {
      post: {
        tags: ['Flows'],
        operationId: 'createFlow',
        summary: 'Define a flow of the merchant (immutable once created: define a new name to change it)',
        security,
        requestBody: body('FlowInput', FLOW_INPUT),
        responses: {
          '201': answer('The flow.', 'Flow', FLOW),
          ...commonErrorResponses,
          '409': problemResponse('flow_exists: a built-in or own flow has that name.'),
          '422': problemResponse(
            'invalid_flow, unknown_processor, processor_capability_missing, validation_failed: the field names the step; flow_limit_reached: the merchant already has 500 flows.',
          ),
        },
      },
      get: {
        tags: ['Flows'],
        operationId: 'listFlows',
        summary: "The built-in flows and the merchant's own",
        security,
        responses: { '200': answer('Every flow.', wholeListOf('Flow'), { object: 'list', data: [BUILT_IN_FLOW, FLOW] }), ...commonErrorResponses },
      },
    },
    '/flows/{flow_name}': {
      get: {
        tags: ['Flows'],
        operationId: 'getFlow',
        summary: 'Retrieve a flow by name',
        security,
        parameters: [flowNameParameter],
        responses: { '200': answer('The flow.', 'Flow', FLOW), ...commonErrorResponses, '404': problemResponse('flow_not_found.') },
      },
    },
  },
  components: {
    schemas: {
      PaymentSourceRequest: {
        type: 'object',
        required: ['type'],
        additionalProperties: false,
        properties: {
          type: {
            type: 'string',
            const: 'vaultline',
            description: "The card is entered on the service's hosted page; anything else is refused (422, field source.type).",
          },
        },
      },
      OneOffPaymentRequest: {
        type: 'object',
        required: ['amount', 'currency_code', 'source'],
        properties: {
          amount: amountValue,
          currency_code: currencyCode,
          reference: { type: 'string', description: 'Merchant reference text; the flow matrix can route on its prefix.' },
          source: schemaRef('PaymentSourceRequest'),
          return_url: {
            type: 'string',
            format: 'uri',
            description:
              'Where the hosted page sends the consumer once the outcome is known (session_id, payment_id, payment_status added). https; http only for localhost, 127.0.0.1 and [::1].',
          },
          allowed_origins: {
            type: 'array',
            maxItems: 10,
            items: { type: 'string', examples: ['https://shop.example'] },
            description:
              'The origins of the pages that may embed the hosted page (checkout.js iframe) and receive its messages: scheme, host and port, ' +
              'no path, no wildcard; https (http only for localhost, 127.0.0.1 and [::1]). Not given: the origin of return_url, or none without ' +
              'one. Empty: the page can be opened but not embedded.',
          },
          metadata,
          description: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description: 'One line the hosted page shows the consumer under the amount, such as "2 × Ethiopia Guji, 250 g".',
          },
          locale: {
            type: 'string',
            pattern: '^(en|de|fr|es|nl|it)([-_][A-Za-z]{2})?$',
            description:
              "The language of the hosted page: en, de, fr, es, nl or it, optionally with a region (de-CH) for number formats. Not given: the consumer's browser languages, else English.",
          },
        },
      },
      UnscheduledPaymentRequest: { $ref: '#/components/schemas/OneOffPaymentRequest' },
      RecurringPaymentRequest: {
        allOf: [
          schemaRef('OneOffPaymentRequest'),
          {
            type: 'object',
            required: ['recurring_frequency', 'recurring_expiry'],
            properties: {
              recurring_frequency: { type: 'integer', minimum: 1, description: 'Minimum distance in days between two payments.' },
              recurring_expiry: {
                type: 'string',
                pattern: '^[0-9]{8}$',
                description: 'YYYYMMDD: a real calendar date, not in the past; the last day of validity.',
              },
            },
          },
        ],
      },
      SubsequentPaymentRequest: {
        type: 'object',
        required: ['amount', 'currency_code'],
        properties: {
          amount: requestAmount("At most the initial payment's amount."),
          currency_code: currencyCode,
          reference: { type: 'string' },
          authentication_preference: { type: 'string', enum: AUTHENTICATION_PREFERENCES, default: 'NO_3RI' },
          metadata,
        },
      },
      CaptureRequest: {
        type: 'object',
        properties: {
          reference: { type: 'string' },
          amount: requestAmount('Partial capture: at most amount.capturable. Without it all that is capturable is captured.'),
          currency_code: { ...currencyCode, description: "With amount: the payment's currency." },
          final_capture: {
            type: 'boolean',
            default: true,
            description:
              'false: more captures follow; the rest of the authorization stays held for them. true (the default): the last capture; the processor ' +
              'releases what is left. A capture of all that is capturable is final whatever it says.',
          },
        },
        dependentRequired: { amount: ['currency_code'] },
      },
      PaymentSource: {
        type: 'object',
        required: ['type', 'cardholder_name', 'expiry_month', 'expiry_year', 'masked_account_number', 'pan_type'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', const: 'card' },
          cardholder_name: { type: ['string', 'null'] },
          expiry_month: { type: 'integer', minimum: 1, maximum: 12 },
          expiry_year: { type: 'integer' },
          masked_account_number: { type: 'string', description: 'At most the first 6 and the last 4 digits.' },
          pan_type: { type: 'string', const: 'FPAN' },
        },
      },
      PaymentAmount: {
        type: 'object',
        required: ['requested'],
        additionalProperties: false,
        description:
          'requested always; authorized and capturable once authorized; captured once a capture settled; refunded and refund_pending from the first refund on; disputed and net once captured. ' +
          "A captured payment is refunded when refunded equals captured, partially refunded when 0 < refunded < captured (the dashboard's " +
          'Refunded and Partially refunded badges); status stays captured. What may still be refunded: captured − refunded − refund_pending.',
        properties: {
          requested: amountValue,
          authorized: { type: 'integer', minimum: 0 },
          captured: { type: 'integer', minimum: 0, description: 'The sum of the settled captures.' },
          capturable: {
            type: 'integer',
            minimum: 0,
            description:
              'What a capture may still take: the authorization less what was captured and what a capture under way takes; 0 once the final capture ' +
              'was made, on automatic-capture flows, and on failed or canceled payments.',
          },
          refunded: { type: 'integer', minimum: 0, description: 'From the first refund on: the sum of the succeeded refunds (the payment stays captured).' },
          disputed: {
            type: 'integer',
            minimum: 0,
            description:
              "Once captured: the amount of the payment's disputes that are open (needs_response, under_review) or lost, the money a chargeback holds or took. " +
              'Inquiries (kind inquiry: nothing debited yet) and won disputes count nothing. While it holds anything, a refund answers 409 payment_disputed.',
          },
          net: {
            type: 'integer',
            description: 'Once captured: what the merchant keeps, captured − refunded − disputed (negative when a refunded payment is also charged back).',
          },
          refund_pending: {
            type: 'integer',
            minimum: 0,
            description: 'With refunded: the sum of the refunds sent to the processor and not settled yet (0 when none).',
          },
        },
      },
      PaymentFields: {
        type: 'object',
        description: 'Every field a payment of the newer interface can carry; Payment says which appear when.',
        required: ['id', 'livemode', 'amount', 'created_at', 'currency_code', 'reference', 'status', 'use_case'],
        additionalProperties: false,
        properties: {
          id: uuid,
          livemode: livemodeProperty('the payment was created with a live key and belongs to'),
          amount: schemaRef('PaymentAmount'),
          cancellation_reason: {
            type: 'string',
            enum: ['requested_by_merchant', 'authorization_expired'],
            description:
              'A canceling or canceled payment: canceled by POST /payments/{payment_id}/cancel, or its authorization left uncaptured past AUTHORIZATION_VALIDITY_SECONDS.',
          },
          action_requirement: schemaRef('ActionRequirement'),
          authentication_preference: { type: 'string', enum: AUTHENTICATION_PREFERENCES },
          created_at: { type: 'string', format: 'date-time' },
          currency_code: currencyCode,
          credential_id: uuid,
          initial_payment_id: uuid,
          reference: { type: ['string', 'null'] },
          recurring_frequency: { type: 'integer', minimum: 1 },
          recurring_expiry: { type: 'string', pattern: '^[0-9]{8}$' },
          flow: { type: 'string', description: 'The name of the processing flow chosen by the flow matrix.' },
          flow_decision: {
            type: 'object',
            required: ['matrix_version', 'rule'],
            additionalProperties: false,
            description: 'The flow matrix version and the rule (null: the default flow) that chose the flow.',
            properties: { matrix_version: { type: 'integer', minimum: 0 }, rule: { type: ['string', 'null'] } },
          },
          source: schemaRef('PaymentSource'),
          status: { type: 'string', enum: STATUSES },
          use_case: { type: 'string', enum: USE_CASES },
          failure_reason: {
            type: ['string', 'null'],
            description:
              'Once failed: card_declined, insufficient_funds, authentication_failed, authentication_abandoned, authentication_required, capture_failed, processor_error, risk_declined, session_expired, ' +
              'session_abandoned (the consumer left the hosted page before entering a card), ' +
              "simulator_not_allowed_in_live_mode (a live payment whose card's scheme chose a simulator flow), amount_not_supported (the flow chosen once the " +
              'card was known has no processor that can take the amount: nothing was sent). After failed card attempts on the hosted page, ' +
              "the last attempt's reason (last_failed_attempt.failure_reason) once the session ends.",
          },
          attempts: {
            type: 'integer',
            minimum: 1,
            description:
              "Consumer-present payments, once a card was entered: how many cards the consumer tried on the hosted page (each attempt's transactions carry its number).",
          },
          last_failed_attempt: schemaRef('FailedCardAttempt'),
          decline: {
            ...schemaRef('Decline'),
            description:
              "A payment failed by a declined (or unanswered) authorization: the decline, normalised (its category, the processor's code and words, the scheme's advice).",
          },
          routing: { ...schemaRef('PaymentRouting'), description: 'Once an authorization was decided: why each attempt went where it went (the Routing tag).' },
          return_url: { type: ['string', 'null'] },
          metadata: { ...metadata, type: ['object', 'null'] },
          authentication: schemaRef('PaymentAuthentication'),
          next_action: nextActionSchema,
        },
      },
      ActionRequirement: {
        type: 'object',
        required: ['type', 'session_id'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', const: 'use_sdk' },
          session_id: { ...uuid, description: "A random UUIDv4 (not time-ordered): the consumer's capability on the hosted page." },
          checkout_url: {
            type: 'string',
            format: 'uri',
            description:
              'The hosted page of the session ({PUBLIC_BASE_URL}/checkout/{session_id}): send the consumer there. Absent on payments made before it was recorded.',
          },
        },
        description: 'Consumer-present initial payments: send the consumer to checkout_url, or mount the SDK with the session id.',
      },
      FailedCardAttempt: {
        type: 'object',
        required: ['number', 'failure_reason', 'masked_account_number', 'failed_at'],
        additionalProperties: false,
        description:
          'The latest card that failed on the hosted page while the payment could take another: declined, or its 3-D Secure challenge failed. ' +
          'While the session is open the payment stays processing (payment.attempt_failed was sent) and the consumer may enter another card; ' +
          'if the session ends first the payment fails with this failure_reason.',
        properties: {
          number: { type: 'integer', minimum: 1, description: 'Which card of the session (1 the first).' },
          failure_reason: {
            type: 'string',
            description: "Why it failed: card_declined, insufficient_funds, authentication_failed… (the processors' decline reasons).",
          },
          masked_account_number: { type: ['string', 'null'], description: 'The card, at most its first 6 and last 4 digits.' },
          failed_at: { type: 'string', format: 'date-time' },
          authentication: schemaRef('PaymentAuthentication'),
          decline: { ...schemaRef('Decline'), description: "The card's decline (absent for a failed challenge, which is no decline)." },
        },
      },
      PaymentAuthentication: {
        type: 'object',
        required: ['type', 'version', 'status', 'eci', 'liability_shift'],
        additionalProperties: false,
        description:
          'The authentication that ran for the payment, once known: 3-D Secure of a consumer-present payment (not_required: the issuer asked none), ' +
          'or the 3RI step of a merchant-initiated one. The authentication value (CAVV) and the DS transaction id go to the authorization only.',
        properties: {
          type: { type: 'string', const: '3ds' },
          version: { type: ['string', 'null'], description: 'The 3-D Secure protocol version, e.g. 2.2.0.' },
          status: { type: 'string', enum: ['authenticated', 'attempted', 'failed', 'not_required'] },
          eci: { type: ['string', 'null'], description: 'Electronic Commerce Indicator (05, 06, 07 for Visa; 02, 01, 00 for Mastercard).' },
          liability_shift: { type: 'boolean', description: 'Whether the fraud liability shifted to the issuer.' },
        },
      },
      Payment: {
        description: 'A payment of the newer interface. Which fields appear depends on use_case and status (the rules below).',
        allOf: [fields, ...paymentRules],
      },
      ConsumerPresentPayment: {
        description: 'A consumer-present payment as created: processing, with the session to start the hosted page.',
        allOf: [schemaRef('Payment'), requires(['action_requirement'], { properties: { status: { type: 'string', const: 'processing' } } })],
      },
      SubsequentPayment: {
        description: 'A merchant-initiated payment as created: processing, no action requirement.',
        allOf: [
          schemaRef('Payment'),
          { properties: { status: { type: 'string', const: 'processing' }, use_case: { enum: ['SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED'] } } },
        ],
      },
      CapturingPayment: {
        description:
          'The answer to a capture: status capturing with amount.requested, amount.authorized, amount.capturable (what is left after this capture), flow, reference, source, use_case, created_at, currency_code.',
        allOf: [
          schemaRef('Payment'),
          requires(['flow', 'source'], {
            properties: { status: { type: 'string', const: 'capturing' }, amount: amountWith(['requested', 'authorized', 'capturable']) },
          }),
        ],
      },
      ProcessorTransaction: {
        type: 'object',
        required: ['livemode', 'processor', 'kind', 'status', 'failure_reason', 'created_at'],
        properties: {
          id: uuid,
          livemode: livemodeProperty('the transaction is of a payment of'),
          processor: { type: 'string' },
          kind: {
            type: 'string',
            enum: ['risk', 'authentication_3ri', 'authentication_3ds', 'authorization', 'capture', 'void'],
            description:
              'void: an authorization the payment does not use (a processor that answered after the fallback) released at that processor. ' +
              "authentication_3ds: the consumer's 3-D Secure authentication (succeeded: authenticated or attempted); a failed one ends the payment before any authorization.",
          },
          status: { type: 'string', enum: ['succeeded', 'failed', 'error'] },
          failure_reason: { type: ['string', 'null'] },
          amount: { type: ['integer', 'null'], description: 'Minor units, for authorizations and captures.' },
          use_case: {
            type: 'string',
            description:
              "The use case the processor was sent, in the words of the payment's interface (ONE_OFF…, or recurring_payment… for the earlier interface).",
          },
          attempt: {
            type: 'integer',
            minimum: 1,
            description: 'Consumer-present payments: the card attempt on the hosted page this transaction belongs to (1 the first card).',
          },
          decline: { ...schemaRef('Decline'), description: 'A failed or unanswered authorization: its decline, normalised.' },
          created_at: { type: 'string', format: 'date-time' },
        },
      },
      FlowStep: {
        type: 'object',
        required: ['kind'],
        description:
          'A step names processor (and fallback), or, on the authorization step, processors (then answered with processor, its first, and fallback, the rest, beside it).',
        properties: {
          kind: { type: 'string', enum: ['risk', 'authentication_3ri', 'authorization', 'capture'] },
          processor: { type: 'string', description: "A processor id of the registry (simulator) or a processor account's id." },
          processors: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            maxItems: 6,
            description: "Authorization steps: the processors the strategy chooses among, in the step's order (instead of processor and fallback).",
          },
          strategy: {
            type: 'string',
            enum: ['ordered', 'weighted', 'success_rate'],
            default: 'ordered',
            description:
              "Authorization steps: which processor goes first. ordered: the step's order; weighted: drawn by weights; success_rate: the best recent authorization rate for the " +
              "payment's segment, with a share of exploration (ROUTING_EXPLORATION_SHARE). The others follow for technical errors and on_decline next_processor.",
          },
          weights: {
            type: 'array',
            items: { type: 'integer', minimum: 0, maximum: 1000000 },
            description: 'strategy weighted only: one per processor of the step, in its order, not all 0.',
          },
          on_decline: {
            type: 'array',
            items: schemaRef('OnDeclineRule'),
            maxItems: 10,
            description: 'Authorization steps: what a decline does, by its category (none: the decline stands).',
          },
          on_failure: { type: 'string', enum: ['stop', 'continue'], default: 'stop', description: 'What a declined step does.' },
          fallback: {
            type: 'array',
            items: { type: 'string' },
            default: [],
            description: 'Processors tried in order on a retryable processor error (and by on_decline next_processor).',
          },
          three_ds: {
            type: 'string',
            enum: ['off', 'if_required', 'always'],
            default: 'if_required',
            description:
              'Authorization steps only: 3-D Secure for consumer-present payments. off: never (a processor that still asks fails the payment with ' +
              'authentication_required); if_required: when the issuer or the processor asks; always: a challenge is requested (every processor of the step must run 3-D Secure).',
          },
        },
      },
      FlowInput: {
        type: 'object',
        required: ['name', 'capture_mode', 'steps'],
        properties: {
          name: { type: 'string' },
          capture_mode: { type: 'string', enum: ['automatic', 'manual'] },
          steps: { type: 'array', items: schemaRef('FlowStep'), minItems: 1 },
        },
      },
      Flow: {
        type: 'object',
        required: ['name', 'livemode', 'capture_mode', 'steps', 'built_in', 'created_at'],
        properties: {
          name: { type: 'string' },
          livemode: livemodeProperty('the flow belongs to (a key of the other mode does not see it; built-in flows exist in both modes)'),
          capture_mode: { type: 'string', enum: ['automatic', 'manual'] },
          steps: { type: 'array', items: schemaRef('FlowStep') },
          built_in: { type: 'boolean' },
          created_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
      FlowRuleConditions: {
        type: 'object',
        additionalProperties: false,
        description: 'Every listed condition must hold. Other keys are refused (unknown_condition).',
        properties: {
          use_case: { type: 'array', items: { type: 'string', enum: USE_CASES }, minItems: 1 },
          currency_code: { type: 'array', items: currencyCode, minItems: 1 },
          amount_gte: { type: 'integer', minimum: 0 },
          amount_lte: { type: 'integer', minimum: 0 },
          reference_prefix: { type: 'string', minLength: 1 },
          scheme: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Card schemes (VISA…); holds only once the card is known.' },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      FlowRule: {
        type: 'object',
        required: ['name', 'when', 'flow'],
        properties: { name: { type: 'string' }, when: schemaRef('FlowRuleConditions'), flow: { type: 'string' } },
      },
      FlowMatrixInput: {
        type: 'object',
        required: ['default_flow', 'rules'],
        properties: { default_flow: { type: 'string' }, rules: { type: 'array', items: schemaRef('FlowRule') } },
      },
      FlowMatrix: {
        type: 'object',
        required: ['livemode', 'version', 'default_flow', 'rules', 'updated_at'],
        properties: {
          livemode: livemodeProperty("this is the matrix of (one per mode; it routes only that mode's payments)"),
          version: { type: 'integer', minimum: 0 },
          default_flow: { type: 'string' },
          rules: { type: 'array', items: schemaRef('FlowRule') },
          updated_at: { type: ['string', 'null'], format: 'date-time' },
        },
      },
      FlowMatrixExplainRequest: {
        type: 'object',
        description: 'Payment-shaped: a create request as it would be sent, or a payment as answered (other fields are ignored).',
        required: ['amount', 'currency_code'],
        properties: {
          use_case: { type: 'string', enum: USE_CASES, default: 'ONE_OFF' },
          amount: {
            oneOf: [amountValue, { type: 'object', required: ['requested'], properties: { requested: amountValue } }],
            description: "Minor units, or a payment's amount object (amount.requested is used).",
          },
          currency_code: currencyCode,
          reference: { type: ['string', 'null'] },
          scheme: { type: 'string', description: 'The card scheme (VISA…), for scheme rules and the routing segment.' },
          country: { type: 'string', pattern: '^[A-Za-z]{2}$', description: "The card's country of issue (ISO 3166-1 alpha-2), for the routing segment." },
          metadata,
          matrix: {
            ...schemaRef('FlowMatrixInput'),
            description: 'A draft matrix to explain instead of the saved one (validated as PUT /flow-matrix validates it; not saved).',
          },
        },
      },
      FlowDecision: {
        type: 'object',
        required: ['flow', 'rule', 'matrix_version'],
        properties: {
          flow: { type: 'string' },
          rule: { type: ['string', 'null'] },
          matrix_version: { type: 'integer', minimum: 0 },
          authorization: {
            allOf: [schemaRef('RoutingChoice')],
            properties: { strategy: { type: 'string', enum: ['ordered', 'weighted', 'success_rate'] } },
            description:
              "The flow's authorization step: which processor a payment of these facts would go to first, and why (success_rate: the rates it compared; weighted: the weights; " +
              'no draw is made, so an explanation never explores).',
          },
        },
      },
    },
  },
};
