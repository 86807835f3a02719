import { commonErrorResponses, listOf, pageParameters, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

const security = [{ ApiKey: [] }];
const uuid: JsonObject = { type: 'string', format: 'uuid' };
const STATUSES = ['needs_response', 'under_review', 'won', 'lost'];
const REASONS = ['fraudulent', 'unrecognized', 'duplicate', 'subscription_canceled', 'product_not_received', 'product_unacceptable', 'credit_not_processed', 'incorrect_amount', 'general'];

const json = (schema: JsonObject | string, example: unknown): JsonObject => ({ 'application/json': { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example } });

const DISPUTE = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6d01',
  object: 'dispute',
  payment_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
  amount: 1999,
  currency_code: 'EUR',
  status: 'needs_response',
  reason: 'fraudulent',
  processor_reference: 'DSP9TQ4HRL5N8C3X',
  livemode: false,
  created_at: '2026-11-25T08:00:00.000Z',
  updated_at: '2026-11-25T08:00:00.000Z',
};
const WON = { ...DISPUTE, id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6d02', status: 'won', reason: 'product_not_received', processor_reference: 'dsp_rbhwd2qrg13uhrp2newf', updated_at: '2026-11-26T09:30:00.000Z' };

const paymentIdParameter: JsonObject = { name: 'payment_id', in: 'path', required: true, schema: uuid };
const disputeIdParameter: JsonObject = { name: 'dispute_id', in: 'path', required: true, schema: uuid };

/**
 * Disputes (chargebacks) as the processors report them; read-only, since a merchant answers with evidence
 * in the processor's own dashboard. Plus the test-mode route that plays the processor's part.
 */
export const disputesFragment: OpenApiFragment = {
  tags: [
    {
      name: 'Disputes',
      description:
        'Chargebacks reported by the processors (Adyen dispute notifications, Checkout.com dispute_* webhooks). Responding with evidence happens in the processor\'s own dashboard ' +
        '(Adyen Customer Area, Checkout.com Dashboard); here a merchant sees where each dispute stands and gets dispute.created, dispute.updated and dispute.closed webhooks.',
    },
  ],
  paths: {
    '/disputes': {
      get: {
        tags: ['Disputes'],
        operationId: 'listDisputes',
        summary: 'The merchant\'s disputes in the key\'s mode, newest first',
        security,
        parameters: pageParameters,
        responses: {
          '200': { description: 'A page of disputes.', content: json(listOf('Dispute'), { object: 'list', data: [WON, DISPUTE], has_more: false, next_cursor: null }) },
          ...commonErrorResponses,
        },
      },
    },
    '/disputes/{dispute_id}': {
      get: {
        tags: ['Disputes'],
        operationId: 'getDispute',
        summary: 'One dispute',
        security,
        parameters: [disputeIdParameter],
        responses: {
          '200': { description: 'The dispute.', content: json('Dispute', DISPUTE) },
          ...commonErrorResponses,
          '404': problemResponse('dispute_not_found (also for another merchant\'s dispute, one of the other mode, or an id that is not a UUID).'),
        },
      },
    },
    '/payments/{payment_id}/disputes': {
      get: {
        tags: ['Disputes'],
        operationId: 'listPaymentDisputes',
        summary: 'The disputes of one payment, newest first',
        security,
        parameters: [paymentIdParameter, ...pageParameters],
        responses: {
          '200': { description: 'A page of the payment\'s disputes.', content: json(listOf('Dispute'), { object: 'list', data: [DISPUTE], has_more: false, next_cursor: null }) },
          ...commonErrorResponses,
          '404': problemResponse('payment_not_found (also for another merchant\'s payment or one of the other mode).'),
        },
      },
    },
    '/payments/{payment_id}/test/dispute': {
      post: {
        tags: ['Disputes'],
        operationId: 'openTestDispute',
        summary: 'Test mode: open or move a simulated dispute on a captured payment',
        description:
          'Plays the processor\'s part with a test key: the first call opens the payment\'s simulated dispute (status needs_response unless given), later calls move it ' +
          '(under_review, then won or lost) with the same events and webhooks as a real chargeback; a move backwards changes nothing.',
        security,
        parameters: [paymentIdParameter],
        requestBody: {
          required: false,
          content: json('TestDisputeInput', { status: 'needs_response', reason: 'product_not_received' }),
        },
        responses: {
          '200': { description: 'The dispute as it now stands.', content: json('Dispute', { ...DISPUTE, reason: 'product_not_received', processor_reference: 'sim_dp_019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01' }) },
          ...commonErrorResponses,
          '403': problemResponse('test_mode_only: a live key; live disputes come from the processor.'),
          '404': problemResponse('payment_not_found.'),
          '409': problemResponse('dispute_not_allowed: the payment is not captured.'),
        },
      },
    },
  },
  components: {
    schemas: {
      Dispute: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'object', 'payment_id', 'amount', 'currency_code', 'status', 'reason', 'processor_reference', 'livemode', 'created_at', 'updated_at'],
        properties: {
          id: uuid,
          object: { const: 'dispute' },
          payment_id: uuid,
          amount: { type: 'integer', minimum: 0, description: 'The disputed amount in minor units.' },
          currency_code: { type: 'string', pattern: '^[A-Z]{3}$' },
          status: {
            type: 'string',
            enum: STATUSES,
            description:
              'needs_response: the processor asks for evidence (answer in its dashboard); under_review: evidence is being reviewed; won, lost: decided (a second chargeback or arbitration may move it again).',
          },
          reason: { type: 'string', enum: REASONS },
          processor_reference: { type: 'string', description: 'The processor\'s id of the dispute (Adyen\'s dispute pspReference, Checkout.com\'s dsp_ id; sim_dp_… for simulated ones).' },
          livemode: { type: 'boolean' },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
      TestDisputeInput: {
        type: 'object',
        additionalProperties: false,
        properties: {
          status: { type: 'string', enum: STATUSES, default: 'needs_response' },
          reason: { type: 'string', enum: REASONS, default: 'fraudulent' },
          amount: { type: 'integer', minimum: 1, description: 'Default: the captured amount.' },
        },
      },
    },
  },
};
