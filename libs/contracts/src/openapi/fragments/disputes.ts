import {
  EVIDENCE_CONTENT_TYPES,
  EVIDENCE_FILE_FIELDS,
  EVIDENCE_FILE_MAX_BYTES,
  EVIDENCE_TEXT_FIELDS,
  EVIDENCE_TEXT_MAX,
  EVIDENCE_TEXT_TOTAL_MAX,
  FRAUD_TYPES,
} from '../../dispute-evidence-fields';
import { commonErrorResponses, listOf, pageParameters, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

const security = [{ ApiKey: [] }];
const uuid: JsonObject = { type: 'string', format: 'uuid' };
const STATUSES = ['needs_response', 'under_review', 'won', 'lost'];
const REASONS = [
  'fraudulent',
  'unrecognized',
  'duplicate',
  'subscription_canceled',
  'product_not_received',
  'product_unacceptable',
  'credit_not_processed',
  'incorrect_amount',
  'general',
];

const json = (schema: JsonObject | string, example: unknown): JsonObject => ({
  'application/json': { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example },
});

const DISPUTE = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6d01',
  object: 'dispute',
  payment_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
  amount: 1999,
  currency_code: 'EUR',
  status: 'needs_response',
  reason: 'fraudulent',
  kind: 'chargeback',
  processor_reference: 'DSP9TQ4HRL5N8C3X',
  evidence_due_by: '2026-12-09T22:59:59.000Z',
  evidence_submitted_at: null,
  livemode: false,
  created_at: '2026-11-25T08:00:00.000Z',
  updated_at: '2026-11-25T08:00:00.000Z',
};
const WON = {
  ...DISPUTE,
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6d02',
  status: 'won',
  reason: 'product_not_received',
  processor_reference: 'dsp_rbhwd2qrg13uhrp2newf',
  updated_at: '2026-11-26T09:30:00.000Z',
};
const UNDER_REVIEW = { ...DISPUTE, status: 'under_review', evidence_submitted_at: '2026-11-26T10:00:00.000Z', updated_at: '2026-11-26T10:00:00.000Z' };
const ACCEPTED = { ...DISPUTE, status: 'lost', updated_at: '2026-11-26T10:00:00.000Z' };
const EVIDENCE_INPUT = {
  evidence: {
    product_description: 'Wool scarf, blue, order 1001',
    customer_name: 'Ada Lovelace',
    shipping_carrier: 'DHL',
    shipping_tracking_number: 'JJD000390007742712',
    receipt: { filename: 'receipt-1001.pdf', content_type: 'application/pdf', data: 'JVBERi0xLjQKJcOkw7zDtsOfCg==' },
  },
  defense_reason_code: 'SupplyDefenseMaterial',
  submit: true,
};
const WARNING = {
  id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6e01',
  object: 'early_fraud_warning',
  payment_id: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01',
  fraud_type: 'made_with_stolen_card',
  actionable: true,
  processor_reference: 'issfr_1Pgc79B7WZ01zgkWxwDzEIPX',
  livemode: false,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
};
const warningIdParameter: JsonObject = { name: 'early_fraud_warning_id', in: 'path', required: true, schema: uuid };
const disputeFilterParameters: JsonObject[] = [
  { name: 'status', in: 'query', required: false, description: 'Only disputes in this status.', schema: { type: 'string', enum: STATUSES } },
  { name: 'payment_id', in: 'query', required: false, description: 'Only the disputes of this payment.', schema: uuid },
];
const warningFilterParameters: JsonObject[] = [
  { name: 'payment_id', in: 'query', required: false, description: 'Only the warnings of this payment.', schema: uuid },
  { name: 'fraud_type', in: 'query', required: false, schema: { type: 'string', enum: [...FRAUD_TYPES] } },
  {
    name: 'actionable',
    in: 'query',
    required: false,
    description: 'true: the payment can still be refunded to head a dispute off.',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
];
const answerErrors = {
  '404': problemResponse("dispute_not_found (also for another merchant's dispute, one of the other mode, or an id that is not a UUID)."),
  '409': problemResponse(
    'dispute_closed (the dispute is won or lost), dispute_under_review (evidence was submitted already), evidence_deadline_passed (after evidence_due_by), ' +
      "dispute_action_refused (the processor refused it; its message in detail), dispute_answer_not_supported (the reporting account is gone: answer in the processor's dashboard).",
  ),
  '503': problemResponse('processor_unavailable: the processor did not answer (timeout, 5xx); send the request again.'),
};

const paymentIdParameter: JsonObject = { name: 'payment_id', in: 'path', required: true, schema: uuid };
const disputeIdParameter: JsonObject = { name: 'dispute_id', in: 'path', required: true, schema: uuid };

/**
 * Disputes (chargebacks and inquiries) as the processors report them, answered here (accepted, or evidence
 * sent to the processor); the issuers' early fraud warnings; and the test-mode route that plays the processor's part.
 */
export const disputesFragment: OpenApiFragment = {
  tags: [
    {
      name: 'Disputes',
      description:
        'Chargebacks and inquiries reported by the processors (Adyen dispute notifications, Checkout.com dispute_* webhooks, Stripe charge.dispute.*), on the payments each ' +
        "processor account handled. A merchant answers them here: POST /disputes/{dispute_id}/accept gives one up, POST /disputes/{dispute_id}/evidence sends evidence (in Stripe's " +
        'evidence fields; files base64 in the JSON body) to the processor that reported it. Webhooks: dispute.created, dispute.updated, dispute.closed. While a chargeback is ' +
        'open or lost the payment shows it in amount.disputed and a refund answers 409 payment_disputed.',
    },
    {
      name: 'Early fraud warnings',
      description:
        "An issuer's report that a payment was fraudulent (Visa TC40, Mastercard SAFE), as Stripe's radar.early_fraud_warning.* and Adyen's NOTIFICATION_OF_FRAUD carry it. " +
        'Not a dispute: nothing is debited and nothing is answered; refunding an actionable one may head a chargeback off. Webhooks: early_fraud_warning.created, early_fraud_warning.updated.',
    },
  ],
  paths: {
    '/disputes': {
      get: {
        tags: ['Disputes'],
        operationId: 'listDisputes',
        summary: "The merchant's disputes in the key's mode, newest first, filtered by status and payment",
        description: 'Filters combine: every one given must hold. A bad value answers 422 naming the parameter.',
        security,
        parameters: [...pageParameters, ...disputeFilterParameters],
        responses: {
          '200': {
            description: 'A page of disputes.',
            content: json(listOf('Dispute'), { object: 'list', data: [WON, DISPUTE], has_more: false, next_cursor: null }),
          },
          ...commonErrorResponses,
        },
      },
    },
    '/disputes/{dispute_id}/accept': {
      post: {
        tags: ['Disputes'],
        operationId: 'acceptDispute',
        summary: 'Accept a dispute: the processor closes it, lost',
        description:
          "Sent to the processor that reported the dispute (Stripe POST /v1/disputes/{id}/close, Adyen acceptDispute, Checkout.com POST /disputes/{id}/accept; the simulator's " +
          'disputes take it at once). Only a dispute in needs_response can be accepted. The dispute is then lost: dispute.updated, then dispute.closed.',
        security,
        parameters: [disputeIdParameter],
        requestBody: { required: false, content: json({ type: 'object', additionalProperties: false, properties: {} }, {}) },
        responses: {
          '200': { description: 'The dispute, lost.', content: json('Dispute', ACCEPTED) },
          ...commonErrorResponses,
          ...answerErrors,
        },
      },
    },
    '/disputes/{dispute_id}/evidence': {
      post: {
        tags: ['Disputes'],
        operationId: 'submitDisputeEvidence',
        summary: 'Send evidence for a dispute to its processor, staged or submitted for review',
        description:
          "Evidence in Stripe's words: text fields and file fields (each file base64 in `data`, at most " +
          `${EVIDENCE_FILE_MAX_BYTES} bytes once decoded, PDF, JPEG, PNG or TIFF, and what its content type says; the whole body at most 1 MB, so larger sets go in several ` +
          'requests with submit false, then one with submit true). Each processor takes what its API takes: Stripe every field (files uploaded to files.stripe.com first); ' +
          'Checkout.com its evidence categories, one file and at most 500 characters of text each (files to its files host, PUT then POST /disputes/{id}/evidence); Adyen ' +
          'documents only (supplyDefenseDocument: receipt as TIDorInvoice, others as DefenseMaterial unless document_type says), and defendDispute with defense_reason_code. ' +
          'What a processor cannot take is refused before anything is sent: 422 evidence_not_supported naming the field. Files are held only while they are sent on: never ' +
          'stored, never logged. submit true (the default): the dispute is under_review (dispute.updated); false: staged at the processor, the dispute unchanged.',
        security,
        parameters: [disputeIdParameter],
        requestBody: { required: true, content: json('DisputeEvidenceInput', EVIDENCE_INPUT) },
        responses: {
          '200': { description: 'The dispute as it now stands (under_review once submitted).', content: json('Dispute', UNDER_REVIEW) },
          ...commonErrorResponses,
          '422': problemResponse(
            "validation_failed naming the field (an unknown field, a file that is not base64, too large, or not what its content type says); evidence_not_supported naming what the dispute's processor cannot take.",
          ),
          ...answerErrors,
        },
      },
    },
    '/early-fraud-warnings': {
      get: {
        tags: ['Early fraud warnings'],
        operationId: 'listEarlyFraudWarnings',
        summary: "The merchant's early fraud warnings in the key's mode, newest first",
        description: 'Filters combine: every one given must hold. A bad value answers 422 naming the parameter.',
        security,
        parameters: [...pageParameters, ...warningFilterParameters],
        responses: {
          '200': {
            description: 'A page of early fraud warnings.',
            content: json(listOf('EarlyFraudWarning'), { object: 'list', data: [WARNING], has_more: false, next_cursor: null }),
          },
          ...commonErrorResponses,
        },
      },
    },
    '/early-fraud-warnings/{early_fraud_warning_id}': {
      get: {
        tags: ['Early fraud warnings'],
        operationId: 'getEarlyFraudWarning',
        summary: 'One early fraud warning',
        security,
        parameters: [warningIdParameter],
        responses: {
          '200': { description: 'The warning.', content: json('EarlyFraudWarning', WARNING) },
          ...commonErrorResponses,
          '404': problemResponse("early_fraud_warning_not_found (also for another merchant's, one of the other mode, or an id that is not a UUID)."),
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
          '404': problemResponse("dispute_not_found (also for another merchant's dispute, one of the other mode, or an id that is not a UUID)."),
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
          '200': {
            description: "A page of the payment's disputes.",
            content: json(listOf('Dispute'), { object: 'list', data: [DISPUTE], has_more: false, next_cursor: null }),
          },
          ...commonErrorResponses,
          '404': problemResponse("payment_not_found (also for another merchant's payment or one of the other mode)."),
        },
      },
    },
    '/payments/{payment_id}/test/dispute': {
      post: {
        tags: ['Disputes'],
        operationId: 'openTestDispute',
        summary: 'Test mode: open or move a simulated dispute on a captured payment',
        description:
          "Plays the processor's part with a test key: the first call opens the payment's simulated dispute (status needs_response unless given), later calls move it " +
          '(under_review, then won or lost) with the same events and webhooks as a real chargeback; a move backwards changes nothing. evidence_due_by (default a week on) ' +
          'lets the evidence deadline be tested; POST /disputes/{dispute_id}/accept and /evidence answer the simulated dispute as a processor would.',
        security,
        parameters: [paymentIdParameter],
        requestBody: {
          required: false,
          content: json('TestDisputeInput', { status: 'needs_response', reason: 'product_not_received' }),
        },
        responses: {
          '200': {
            description: 'The dispute as it now stands.',
            content: json('Dispute', { ...DISPUTE, reason: 'product_not_received', processor_reference: 'sim_dp_019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6b01' }),
          },
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
        required: [
          'id',
          'object',
          'payment_id',
          'amount',
          'currency_code',
          'status',
          'reason',
          'kind',
          'processor_reference',
          'evidence_due_by',
          'evidence_submitted_at',
          'livemode',
          'created_at',
          'updated_at',
        ],
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
              'needs_response: the processor asks for evidence (POST /disputes/{dispute_id}/evidence, or accept it); under_review: evidence is being reviewed; won, lost: decided (a second chargeback or arbitration may move it again).',
          },
          reason: { type: 'string', enum: REASONS },
          kind: {
            type: 'string',
            enum: ['inquiry', 'chargeback'],
            description:
              "inquiry: the issuer asks (Stripe's warning_ disputes, Adyen's REQUEST_FOR_INFORMATION), nothing is debited and the payment may still be refunded; chargeback: the money is held or taken.",
          },
          processor_reference: {
            type: 'string',
            description:
              "The processor's id of the dispute (Adyen's dispute pspReference, Checkout.com's dsp_ id, Stripe's dp_ id; sim_dp_… for simulated ones).",
          },
          evidence_due_by: {
            type: ['string', 'null'],
            format: 'date-time',
            description:
              'Until when the processor takes evidence, when it said (Stripe evidence_details.due_by, Adyen defensePeriodEndsAt, Checkout.com evidence_required_by).',
          },
          evidence_submitted_at: { type: ['string', 'null'], format: 'date-time', description: "When the merchant's evidence was submitted through this API." },
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
          evidence_due_by: {
            type: 'string',
            format: 'date-time',
            description: 'Until when evidence is taken (default a week after the dispute opens); a past time tests 409 evidence_deadline_passed.',
          },
        },
      },
      DisputeEvidenceInput: {
        type: 'object',
        additionalProperties: false,
        properties: {
          evidence: {
            type: 'object',
            additionalProperties: false,
            description: `Stripe's dispute evidence fields (https://docs.stripe.com/api/disputes/evidence_object): text fields of at most ${EVIDENCE_TEXT_MAX} characters (${EVIDENCE_TEXT_TOTAL_MAX} together), file fields each one file.`,
            properties: {
              ...Object.fromEntries(EVIDENCE_TEXT_FIELDS.map((name) => [name, { type: 'string', minLength: 1, maxLength: EVIDENCE_TEXT_MAX }])),
              ...Object.fromEntries(EVIDENCE_FILE_FIELDS.map((name) => [name, schemaRef('EvidenceFile')])),
            },
          },
          defense_reason_code: {
            type: 'string',
            pattern: '^[A-Za-z0-9_-]{1,64}$',
            description: 'Adyen only, required to submit there: the defense reason (such as SupplyDefenseMaterial); other processors ignore it.',
          },
          submit: {
            type: 'boolean',
            default: true,
            description: "true: submitted for the issuer's review; false: staged at the processor (more evidence may follow).",
          },
        },
      },
      EvidenceFile: {
        type: 'object',
        additionalProperties: false,
        required: ['filename', 'content_type', 'data'],
        properties: {
          filename: { type: 'string', minLength: 1, maxLength: 100 },
          content_type: {
            type: 'string',
            enum: [...EVIDENCE_CONTENT_TYPES],
            description: 'Stripe and Checkout.com take PDF, JPEG and PNG; Adyen PDF, JPEG and TIFF.',
          },
          data: { type: 'string', contentEncoding: 'base64', description: `The file, base64: at most ${EVIDENCE_FILE_MAX_BYTES} bytes once decoded.` },
          document_type: {
            type: 'string',
            pattern: '^[A-Za-z0-9_-]{1,64}$',
            description: 'Adyen only: the defenseDocumentTypeCode (default TIDorInvoice for receipt, DefenseMaterial otherwise).',
          },
        },
      },
      EarlyFraudWarning: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'object', 'payment_id', 'fraud_type', 'actionable', 'processor_reference', 'livemode', 'created_at', 'updated_at'],
        properties: {
          id: uuid,
          object: { const: 'early_fraud_warning' },
          payment_id: uuid,
          fraud_type: {
            type: 'string',
            enum: [...FRAUD_TYPES],
            description: "The issuer's fraud type in Stripe's words (Adyen's reason mapped to them; misc when none fits).",
          },
          actionable: {
            type: 'boolean',
            description:
              'The payment can still be refunded to head a dispute off (Stripe says; otherwise: captured, not fully refunded, no chargeback holding it).',
          },
          processor_reference: {
            type: 'string',
            description: "The processor's id of the report (Stripe's issfr_, Adyen's pspReference of the NOTIFICATION_OF_FRAUD; sim_efw_… for simulated ones).",
          },
          livemode: { type: 'boolean' },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};
