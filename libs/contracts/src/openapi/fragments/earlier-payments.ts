import {
  AMOUNT_REFUSALS,
  commonErrorResponses,
  listOf,
  livemodeProperty,
  requestAmount,
  pageParameters,
  problemResponse,
  schemaRef,
  type JsonObject,
  type OpenApiFragment,
} from '../openapi-fragment';
import { nextActionSchema } from './payments';

const security = [{ ApiKey: [] }];
const uuid: JsonObject = { type: 'string', format: 'uuid' };
const customerIdParameter: JsonObject = { name: 'customer_id', in: 'path', required: true, schema: uuid };
const paymentMethodIdParameter: JsonObject = { name: 'payment_method_id', in: 'path', required: true, schema: uuid };
const metadata: JsonObject = { type: 'object', additionalProperties: { type: 'string' } };

const DESCRIPTION =
  'The earlier payment interface: POST /payments with customers, stored cards (COF) and NPR mandates, on the same engine, flows, processors ' +
  'and events as the newer one. Rules: (1) neither payment_method_id nor store_payment_method_for: guest_payment, nothing stored; (2) ' +
  'store_payment_method_for cof_payments: the card is stored once authorized (payment_method.id), use_case guest_payment; (3) only ' +
  "payment_method_id of a stored card: cof_payment, the consumer confirms the card on the hosted page (security code when the flow's processor " +
  'needs one); (4) customer_id + store_payment_method_for recurring_payments or unscheduled_payments + mandate_reference: first_payment, an ' +
  'npr_mandate once authorized; (5) as 4 with a stored payment_method_id: a new mandate from it; (6) payment_method_id of a mandate: ' +
  'merchant initiated, no session, recurring_payment or unscheduled_payment; (7) a flow whose processor cannot mark a payment unscheduled ' +
  'charges an unscheduled mandate as recurring (recurring_payment). Consumer-present payments answer action_requirement {type use_sdk, session_id}: ' +
  'open the hosted page or checkout.js with it, as for the newer interface. GET /payments/{payment_id} answers each payment in the shape of the ' +
  'interface that created it.';

const CREATED_AT = '2026-11-23T10:15:00.000Z';
const CARD = { masked_number: '424242******4242', expiry_year: 2030, expiry_month: 12, cardholder_name: 'Ada Lovelace' };
const CUSTOMER = {
  id: '019ab2c4-5a00-7a10-9c3b-5f2e8d7a6c01',
  livemode: false,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  metadata: {},
  created_at: CREATED_AT,
};
const CARD_METHOD = { id: '019ab2c4-5a00-7a10-9c3b-5f2e8d7a6c02', livemode: false, type: 'card', card: CARD };
const MANDATE = {
  id: '019ab2c4-5a00-7a10-9c3b-5f2e8d7a6c03',
  livemode: false,
  type: 'npr_mandate',
  npr_mandate: { accepted_on: '2026-11-23T10:16:04.120Z', card: CARD, customer_id: CUSTOMER.id, reference: 'contract-7', type: 'recurring_payments' },
};
const FIRST_PAYMENT = {
  id: '019ab2c4-5a00-7a10-9c3b-5f2e8d7a6c04',
  livemode: false,
  amount: 1999,
  action_requirement: { type: 'use_sdk', session_id: '6f1c2b8e-5a00-4a10-9c3b-5f2e8d7a6c05' },
  created_at: CREATED_AT,
  currency_code: 'EUR',
  customer: { id: CUSTOMER.id, name: CUSTOMER.name },
  payment_method: null,
  status: 'processing',
  use_case: 'first_payment',
};

const storedCard: JsonObject = {
  type: 'object',
  required: ['masked_number', 'expiry_year', 'expiry_month', 'cardholder_name'],
  additionalProperties: false,
  properties: {
    masked_number: { type: 'string', description: 'At most the first 6 and the last 4 digits.' },
    expiry_year: { type: 'integer' },
    expiry_month: { type: 'integer', minimum: 1, maximum: 12 },
    cardholder_name: { type: ['string', 'null'] },
  },
};

const paymentErrors = {
  ...commonErrorResponses,
  '404': problemResponse("customer_not_found; payment_method_not_found (unknown, another merchant's, or another customer's than customer_id)."),
  '409': problemResponse('first_payment_required: a merchant-initiated payment on a mandate whose first payment did not succeed.'),
  '410': problemResponse('payment_method_revoked: the stored card or mandate was revoked (DELETE /payment-methods/{payment_method_id}).'),
  '422': problemResponse(
    'confirm_required (confirm missing or false); validation_failed naming the field (customer_id for a first payment without one, ' +
      'store_payment_method_for.mandate_reference, payment_method_types.0…); currency_mismatch (a mandate charge in another currency ' +
      'than its first payment; a mandate has no amount ceiling); authentication_not_configured; simulator_not_allowed_in_live_mode; test_clock_not_allowed; invalid_test_clock; ' +
      `${AMOUNT_REFUSALS}.`,
  ),
};

function json(schema: JsonObject | string, example: unknown): JsonObject {
  return { 'application/json': { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example } };
}

/** POST /payments (earlier interface), customers, stored payment methods and mandates. */
export const earlierPaymentsFragment: OpenApiFragment = {
  tags: [{ name: 'Payments (earlier interface)', description: DESCRIPTION }],
  paths: {
    '/payments': {
      post: {
        tags: ['Payments (earlier interface)'],
        operationId: 'createEarlierPayment',
        summary: 'Create a payment (earlier interface): guest, COF, first, recurring or unscheduled, by the seven rules',
        security,
        parameters: [
          {
            name: 'X-Test-Now',
            in: 'header',
            required: false,
            description: "Test keys only, merchant-initiated payments on a mandate: the payment's effective time (as for subsequent payments).",
            schema: { type: 'string', format: 'date-time' },
          },
        ],
        requestBody: {
          required: true,
          content: json('EarlierPaymentRequest', {
            amount: 1999,
            currency_code: 'EUR',
            confirm: true,
            payment_method_types: ['card'],
            customer_id: CUSTOMER.id,
            store_payment_method_for: { use_case: 'recurring_payments', mandate_reference: 'contract-7' },
            return_url: 'https://shop.example/orders/1001',
          }),
        },
        responses: {
          '201': { description: 'The payment, processing (consumer-present ones with action_requirement).', content: json('EarlierPayment', FIRST_PAYMENT) },
          ...paymentErrors,
        },
      },
    },
    '/customers': {
      post: {
        tags: ['Payments (earlier interface)'],
        operationId: 'createCustomer',
        summary: 'Create a customer (whom stored cards and mandates belong to)',
        security,
        requestBody: { required: true, content: json('CustomerRequest', { name: 'Ada Lovelace', email: 'ada@example.com' }) },
        responses: { '201': { description: 'The customer.', content: json('Customer', CUSTOMER) }, ...commonErrorResponses },
      },
      get: {
        tags: ['Payments (earlier interface)'],
        operationId: 'listCustomers',
        summary: 'List customers, newest first (cursor pagination)',
        security,
        parameters: pageParameters,
        responses: {
          '200': {
            description: 'A page of customers.',
            content: json(listOf('Customer'), { object: 'list', data: [CUSTOMER], has_more: false, next_cursor: null }),
          },
          ...commonErrorResponses,
        },
      },
    },
    '/customers/{customer_id}': {
      get: {
        tags: ['Payments (earlier interface)'],
        operationId: 'getCustomer',
        summary: 'Retrieve a customer',
        security,
        parameters: [customerIdParameter],
        responses: {
          '200': { description: 'The customer.', content: json('Customer', CUSTOMER) },
          ...commonErrorResponses,
          '404': problemResponse('customer_not_found.'),
        },
      },
    },
    '/customers/{customer_id}/payment-methods': {
      get: {
        tags: ['Payments (earlier interface)'],
        operationId: 'listCustomerPaymentMethods',
        summary: "The customer's stored cards and mandates that are not revoked, newest first (cursor pagination)",
        security,
        parameters: [customerIdParameter, ...pageParameters],
        responses: {
          '200': {
            description: 'A page of payment methods.',
            content: json(listOf('EarlierPaymentMethod'), { object: 'list', data: [MANDATE, CARD_METHOD], has_more: false, next_cursor: null }),
          },
          ...commonErrorResponses,
          '404': problemResponse('customer_not_found.'),
        },
      },
    },
    '/payment-methods/{payment_method_id}': {
      get: {
        tags: ['Payments (earlier interface)'],
        operationId: 'getPaymentMethod',
        summary: 'Retrieve a stored card or mandate',
        security,
        parameters: [paymentMethodIdParameter],
        responses: {
          '200': { description: 'The payment method.', content: json('EarlierPaymentMethod', MANDATE) },
          ...commonErrorResponses,
          '404': problemResponse('payment_method_not_found.'),
          '410': problemResponse('payment_method_revoked.'),
        },
      },
      delete: {
        tags: ['Payments (earlier interface)'],
        operationId: 'revokePaymentMethod',
        summary: 'Revoke a stored card or mandate: later payments with it answer 410 payment_method_revoked',
        description: 'Payments already under way keep running. A second revocation, and any later read, answers 410.',
        security,
        parameters: [paymentMethodIdParameter],
        responses: {
          '204': { description: 'Revoked.' },
          ...commonErrorResponses,
          '404': problemResponse('payment_method_not_found.'),
          '410': problemResponse('payment_method_revoked.'),
        },
      },
    },
  },
  components: {
    schemas: {
      EarlierPaymentRequest: {
        type: 'object',
        required: ['amount', 'currency_code', 'confirm'],
        additionalProperties: false,
        properties: {
          amount: requestAmount('The amount to charge.'),
          currency_code: { type: 'string', pattern: '^[A-Z]{3}$' },
          confirm: { type: 'boolean', const: true, description: 'Must be true (false or missing: 422 confirm_required).' },
          payment_method_types: { type: 'array', items: { type: 'string', const: 'card' }, minItems: 1, maxItems: 1 },
          store_payment_method_for: {
            type: 'object',
            required: ['use_case'],
            additionalProperties: false,
            properties: {
              use_case: { type: 'string', enum: ['cof_payments', 'recurring_payments', 'unscheduled_payments'] },
              mandate_reference: { type: 'string', minLength: 1, maxLength: 255, description: 'Required for recurring_payments and unscheduled_payments.' },
            },
          },
          customer_id: { ...uuid, description: 'Required for first payments (rules 4 and 5).' },
          payment_method_id: { ...uuid, description: 'A stored card (rules 3, 5) or a mandate (rule 6).' },
          reference: { type: 'string', minLength: 1, maxLength: 255 },
          return_url: { type: 'string', format: 'uri', description: 'As for the newer interface: where the hosted page sends the consumer.' },
          allowed_origins: { type: 'array', maxItems: 10, items: { type: 'string' } },
          metadata,
          description: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description: 'As for the newer interface: the order line under the amount on the hosted page.',
          },
          locale: {
            type: 'string',
            pattern: '^(en|de|fr|es|nl|it)([-_][A-Za-z]{2})?$',
            description: "As for the newer interface: the hosted page's language.",
          },
          authentication_preference: {
            type: 'string',
            enum: ['NO_3RI', 'TRY_3RI', 'REQUIRE_3RI'],
            default: 'NO_3RI',
            description: 'Merchant-initiated payments on a mandate (3RI).',
          },
        },
      },
      EarlierPayment: {
        type: 'object',
        required: ['id', 'livemode', 'amount', 'created_at', 'currency_code', 'payment_method', 'status', 'use_case'],
        additionalProperties: false,
        properties: {
          id: uuid,
          livemode: livemodeProperty('the payment was created with a live key and belongs to'),
          amount: { type: 'integer', minimum: 1, description: 'Minor units.' },
          action_requirement: schemaRef('ActionRequirement'),
          created_at: { type: 'string', format: 'date-time' },
          currency_code: { type: 'string', pattern: '^[A-Z]{3}$' },
          customer: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: uuid, name: { type: 'string' } } },
          payment_method: {
            description: 'null until the card is known; without id until stored (rules 2, 4, 5: once authorized).',
            oneOf: [
              { type: 'null' },
              schemaRef('EarlierPaymentMethod'),
              {
                type: 'object',
                required: ['type', 'card'],
                additionalProperties: false,
                properties: { type: { type: 'string', const: 'card' }, card: storedCard },
              },
            ],
          },
          reference: { type: 'string' },
          status: { type: 'string', enum: ['processing', 'authorized', 'capturing', 'partially_captured', 'captured', 'failed', 'canceling', 'canceled'] },
          amount_refunded: { type: 'integer', minimum: 0, description: 'Once refunded: the sum of the succeeded refunds (the payment stays captured).' },
          cancellation_reason: {
            type: 'string',
            enum: ['requested_by_merchant', 'authorization_expired'],
            description: 'A canceling or canceled payment: why.',
          },
          use_case: { type: 'string', enum: ['guest_payment', 'cof_payment', 'first_payment', 'recurring_payment', 'unscheduled_payment'] },
          failure_reason: { type: ['string', 'null'] },
          metadata,
          authentication: schemaRef('PaymentAuthentication'),
          next_action: nextActionSchema,
          attempts: {
            type: 'integer',
            minimum: 1,
            description: 'Consumer-present payments, once a card was entered: how many cards the consumer tried on the hosted page.',
          },
          last_failed_attempt: schemaRef('FailedCardAttempt'),
        },
      },
      AnyPayment: { oneOf: [schemaRef('Payment'), schemaRef('EarlierPayment')] },
      EarlierPaymentMethod: {
        type: 'object',
        required: ['id', 'livemode', 'type'],
        additionalProperties: false,
        properties: {
          id: uuid,
          livemode: livemodeProperty('the payment method was stored by a payment of'),
          type: { type: 'string', enum: ['card', 'npr_mandate'] },
          card: storedCard,
          npr_mandate: {
            type: 'object',
            required: ['accepted_on', 'card', 'customer_id', 'reference', 'type'],
            additionalProperties: false,
            properties: {
              accepted_on: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC: when the consumer submitted the session that consented.' },
              card: storedCard,
              customer_id: { type: ['string', 'null'] },
              reference: { type: 'string' },
              type: { type: 'string', enum: ['recurring_payments', 'unscheduled_payments'] },
            },
          },
        },
      },
      CustomerRequest: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 255 }, email: { type: 'string', format: 'email' }, metadata },
      },
      Customer: {
        type: 'object',
        required: ['id', 'livemode', 'name', 'email', 'metadata', 'created_at'],
        additionalProperties: false,
        properties: {
          id: uuid,
          livemode: livemodeProperty('the customer was created with a live key and belongs to'),
          name: { type: 'string' },
          email: { type: ['string', 'null'] },
          metadata,
          created_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};
