import {
  AMOUNT_REFUSALS,
  commonErrorResponses,
  listOf,
  pageParameters,
  requestAmount,
  problemResponse,
  schemaRef,
  type JsonObject,
  type OpenApiFragment,
} from '../openapi-fragment';

const security = [{ ApiKey: [] }];
const uuid: JsonObject = { type: 'string', format: 'uuid' };
const paymentIdParameter: JsonObject = { name: 'payment_id', in: 'path', required: true, schema: uuid };
const refundIdParameter: JsonObject = { name: 'refund_id', in: 'path', required: true, schema: uuid };

const PAYMENT_ID = '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b41';
const CREATED_AT = '2026-11-23T10:15:00.000Z';
const SOURCE = {
  type: 'card',
  cardholder_name: 'Ada Lovelace',
  expiry_month: 12,
  expiry_year: 2030,
  masked_account_number: '424242******4242',
  pan_type: 'FPAN',
};
const CANCELED = {
  livemode: false,
  id: PAYMENT_ID,
  amount: { requested: 4999, authorized: 4999 },
  created_at: CREATED_AT,
  currency_code: 'EUR',
  flow: 'simulator_manual_capture',
  flow_decision: { matrix_version: 1, rule: 'manual-for-orders' },
  reference: 'manual-order-77',
  source: SOURCE,
  status: 'canceled',
  use_case: 'ONE_OFF',
  cancellation_reason: 'requested_by_merchant',
};
const REFUND = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b71',
  object: 'refund',
  payment_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
  amount: 500,
  currency_code: 'EUR',
  status: 'pending',
  failure_reason: null,
  reason: 'requested_by_customer',
  reference: 'rma-1001',
  livemode: false,
  created_at: '2026-11-24T09:00:00.000Z',
};
const SUCCEEDED = { ...REFUND, status: 'succeeded' };
const FAILED = {
  ...REFUND,
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b72',
  amount: 1499,
  status: 'failed',
  failure_reason: 'refund_failed',
  reason: null,
  reference: null,
  created_at: '2026-11-24T09:05:00.000Z',
};

function json(schema: JsonObject | string, example: unknown): JsonObject {
  return { 'application/json': { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example } };
}
const answer = (description: string, schema: JsonObject | string, example: unknown): JsonObject => ({ description, content: json(schema, example) });

const paymentNotFound = problemResponse("payment_not_found (also for another merchant's payment).");

/** Cancels and refunds of payments of both interfaces, and the refunds as resources. */
export const afterSaleFragment: OpenApiFragment = {
  tags: [
    {
      name: 'Refunds',
      description:
        'Money given back on a captured payment, in part or in full; several partial refunds may follow one another. Refundable = amount.captured minus the refunds ' +
        "that are pending or succeeded. A refund is created pending and settles succeeded or failed (the processor's answer or notification); a failed one's " +
        'amount is refundable again. The payment shows amount.refunded (succeeded refunds) and stays captured. Events and webhooks: refund.created, ' +
        'refund.succeeded, refund.failed. Simulator: a refund settles after a short delay (PROCESSOR_SIMULATOR_REFUND_DELAY_MS); the card 4000000000005126 ' +
        'is captured normally and every refund of it fails (refund_failed).',
    },
  ],
  paths: {
    '/payments/{payment_id}/cancel': {
      post: {
        tags: ['Payments'],
        operationId: 'cancelPayment',
        summary: 'Cancel a payment: release an authorization, or close the checkout session of a payment whose consumer has not entered a card',
        description:
          'Allowed for an authorized payment of a manual-capture flow (its authorization is voided at the processor that made it, with an idempotency key; the void ' +
          'is listed as a transaction of kind void) and for a consumer-present payment whose consumer has not submitted a card yet (its session closes: a card ' +
          'submitted afterwards is refused and the hosted page says the payment was canceled). Answers the payment canceled, with cancellation_reason ' +
          'requested_by_merchant and the payment.canceled event and webhook. Adyen and Checkout.com confirm a void by notification (CANCELLATION, payment_voided): ' +
          'until it arrives the payment shows canceling (no event); a refused void leaves it authorized. Anything else answers 409 cancel_not_allowed: a captured ' +
          'payment is refunded, not canceled. An authorization left uncaptured for AUTHORIZATION_VALIDITY_SECONDS (7 days by default) is canceled the same way ' +
          'with cancellation_reason authorization_expired.',
        security,
        parameters: [paymentIdParameter],
        requestBody: { required: false, content: json('CancelRequest', { reference: 'order-77-canceled' }) },
        responses: {
          '200': answer('The payment, canceled (or canceling while the processor confirms the void).', 'AnyPayment', CANCELED),
          ...commonErrorResponses,
          '404': paymentNotFound,
          '409': problemResponse(
            'cancel_not_allowed (captured, failed, already canceled, or being processed with its card; a processor that refused the void).',
          ),
        },
      },
    },
    '/payments/{payment_id}/refunds': {
      post: {
        tags: ['Refunds'],
        operationId: 'createRefund',
        summary: 'Refund a captured payment, in part (amount) or the rest of the refundable amount (no amount)',
        security,
        parameters: [paymentIdParameter],
        requestBody: {
          required: false,
          content: json('RefundRequest', { amount: 500, currency_code: 'EUR', reference: 'rma-1001', reason: 'requested_by_customer' }),
        },
        responses: {
          '201': answer('The refund, pending.', 'Refund', REFUND),
          ...commonErrorResponses,
          '404': paymentNotFound,
          '409': problemResponse('refund_not_allowed (the payment is not captured).'),
          '422': problemResponse(
            `amount_exceeds_refundable (more than the captured amount less pending and succeeded refunds); currency_mismatch; ${AMOUNT_REFUSALS}; validation_failed naming the field.`,
          ),
        },
      },
      get: {
        tags: ['Refunds'],
        operationId: 'listPaymentRefunds',
        summary: 'The refunds of a payment, newest first',
        security,
        parameters: [paymentIdParameter],
        responses: {
          '200': answer('Every refund of the payment.', listOf('Refund'), { object: 'list', data: [FAILED, SUCCEEDED], has_more: false, next_cursor: null }),
          ...commonErrorResponses,
          '404': paymentNotFound,
        },
      },
    },
    '/refunds/{refund_id}': {
      get: {
        tags: ['Refunds'],
        operationId: 'getRefund',
        summary: 'Retrieve a refund',
        security,
        parameters: [refundIdParameter],
        responses: {
          '200': answer('The refund.', 'Refund', SUCCEEDED),
          ...commonErrorResponses,
          '404': problemResponse("refund_not_found (also for another merchant's refund, or one of the other mode)."),
        },
      },
    },
    '/refunds': {
      get: {
        tags: ['Refunds'],
        operationId: 'listRefunds',
        summary: 'List and search refunds, newest first (cursor pagination)',
        security,
        parameters: [
          ...pageParameters,
          { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['pending', 'succeeded', 'failed'] } },
          { name: 'payment_id', in: 'query', required: false, schema: uuid },
        ],
        responses: {
          '200': answer('A page of refunds.', listOf('Refund'), { object: 'list', data: [FAILED, SUCCEEDED], has_more: true, next_cursor: SUCCEEDED.id }),
          ...commonErrorResponses,
        },
      },
    },
  },
  components: {
    schemas: {
      CancelRequest: {
        type: 'object',
        additionalProperties: false,
        properties: { reference: { type: 'string', minLength: 1, maxLength: 255, description: 'Your reference of the cancel.' } },
      },
      RefundRequest: {
        type: 'object',
        additionalProperties: false,
        properties: {
          amount: requestAmount('The amount to refund; absent: the rest of the refundable amount.'),
          currency_code: { type: 'string', pattern: '^[A-Z]{3}$', description: "When given, the payment's currency (else 422 currency_mismatch)." },
          reference: { type: 'string', minLength: 1, maxLength: 255 },
          reason: { type: 'string', enum: ['requested_by_customer', 'duplicate', 'fraudulent'] },
        },
      },
      Refund: {
        type: 'object',
        required: ['id', 'object', 'payment_id', 'amount', 'currency_code', 'status', 'failure_reason', 'reason', 'reference', 'livemode', 'created_at'],
        additionalProperties: false,
        properties: {
          id: uuid,
          object: { const: 'refund' },
          payment_id: uuid,
          amount: { type: 'integer', minimum: 1 },
          currency_code: { type: 'string', pattern: '^[A-Z]{3}$' },
          status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
          failure_reason: {
            type: ['string', 'null'],
            description: 'Once failed: refund_failed (declined by the processor), refund_reversed (reversed after it succeeded), processor_request_rejected.',
          },
          reason: { type: ['string', 'null'], enum: ['requested_by_customer', 'duplicate', 'fraudulent', null] },
          reference: { type: ['string', 'null'] },
          livemode: { type: 'boolean', description: 'Made with a live key (true) or a test key (false).' },
          created_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};
