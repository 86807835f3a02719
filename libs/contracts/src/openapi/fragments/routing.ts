import { DECLINE_CATEGORIES } from '../../events/catalog';
import { commonErrorResponses, livemodeProperty, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

const security = [{ ApiKey: [] }];
const AMOUNT_BANDS = ['under_10', '10_to_100', '100_to_1000', '1000_and_over'];
const STRATEGIES = ['ordered', 'weighted', 'success_rate'];
const DECISION_REASONS = ['step_order', 'weighted', 'best_rate', 'exploration', 'no_data'];
const SEGMENT_LEVELS = ['segment', 'any_country', 'any_amount', 'currency', 'all'];

const SEGMENT = { scheme: 'VISA', country: 'unknown', currency_code: 'EUR', amount_band: '10_to_100' };
const DECISIONS = { step_order: 0, weighted: 0, best_rate: 212, exploration: 11, no_data: 20 };
const STATS = {
  object: 'routing_stats',
  livemode: false,
  window_seconds: 3600,
  since: '2026-11-28T09:00:00.000Z',
  until: '2026-11-28T10:00:00.000Z',
  group_by: 'segment',
  data: [
    {
      processor: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6a01',
      segment: SEGMENT,
      attempts: 40,
      approved: 31,
      declined: 9,
      errors: 0,
      authorization_rate: 0.775,
      recent_authorization_rate: 0.7912,
      decisions: { ...DECISIONS, best_rate: 0, exploration: 11, no_data: 9 },
    },
    {
      processor: '019ab2c4-4d1e-7a10-9c3b-5f2e8d7a6a02',
      segment: SEGMENT,
      attempts: 223,
      approved: 206,
      declined: 17,
      errors: 0,
      authorization_rate: 0.9238,
      recent_authorization_rate: 0.9311,
      decisions: { ...DECISIONS, exploration: 0, no_data: 11 },
    },
  ],
};

const amountBand: JsonObject = {
  type: 'string',
  enum: AMOUNT_BANDS,
  description: 'The amount in major units of its currency: under 10, 10 to 100, 100 to 1000, 1000 and over.',
};

const filterParameters: JsonObject[] = [
  {
    name: 'processor',
    in: 'query',
    required: false,
    description: "Only this processor (a built-in processor's id or a processor account's id).",
    schema: { type: 'string' },
  },
  {
    name: 'scheme',
    in: 'query',
    required: false,
    description: 'Only this card scheme (VISA, MASTERCARD…; case-insensitive), or unknown.',
    schema: { type: 'string' },
  },
  {
    name: 'country',
    in: 'query',
    required: false,
    description: 'Only cards issued in this country (ISO 3166-1 alpha-2), or unknown.',
    schema: { type: 'string', pattern: '^([A-Za-z]{2}|unknown)$' },
  },
  { name: 'currency_code', in: 'query', required: false, schema: { type: 'string', pattern: '^[A-Z]{3}$' } },
  { name: 'amount_band', in: 'query', required: false, schema: amountBand },
  {
    name: 'group_by',
    in: 'query',
    required: false,
    description: 'segment (the default): a row per processor and segment, as success-rate decisions compare them; processor: a row per processor.',
    schema: { type: 'string', enum: ['segment', 'processor'], default: 'segment' },
  },
];

/**
 * Routing: the declines every failed authorization carries, the routing a payment shows (why each attempt
 * went where it went), the flow step's on_decline rules and strategies, and GET /routing/stats, the
 * authorization outcomes success-rate routing compares.
 */
export const routingFragment: OpenApiFragment = {
  tags: [
    {
      name: 'Routing',
      description:
        "Which processor of a flow's authorization step a payment goes to, and what a decline does. A step names `processors` with a `strategy`: ordered (the step's order), " +
        "weighted (`weights`: a volume split) or success_rate (the processor with the best recent authorization rate for the payment's segment — card scheme, country of issue " +
        "where known, currency, amount band — with a small share of exploration, from this merchant's own outcomes in this mode over ROUTING_STATS_WINDOW). `on_decline` rules " +
        'send a decline on: step_up_3ds (consumer present: a 3-D Secure challenge on the hosted page), next_processor, stop. Hard declines (lost_or_stolen, suspected_fraud, ' +
        'invalid_card, an advice that forbids a retry: Mastercard MAC 03/21, Visa category 1) are never retried. Every failed authorization carries a normalised `decline`; every ' +
        'payment says in `routing` why each attempt went where it went.',
    },
  ],
  paths: {
    '/routing/stats': {
      get: {
        tags: ['Routing'],
        operationId: 'getRoutingStats',
        summary: 'The authorization outcomes success-rate routing compares now, per processor and segment (or per processor)',
        description:
          "Counted from this merchant's payments in the key's mode over the window success-rate decisions read (ROUTING_STATS_WINDOW, 1 hour by default, in buckets of a twelfth " +
          "of it): each card's first answer at a processor in a payment's route (approved, declined, or not answered: errors count as failures; a retry after a decline asks about a card an issuer already refused and is not counted), and how often decisions chose each processor " +
          "first, by reason. Decisions weigh recent outcomes more (recent_authorization_rate: a bucket's weight halves every ROUTING_STATS_HALF_LIFE, 10 minutes by default). A decision compares the narrowest segment in which every processor of the step has ROUTING_MIN_ATTEMPTS recent outcomes (100 by default, weighed by age as the rates are), widening to any " +
          'country, any amount, the currency, then everything. Filters combine; an unknown one answers 422 unknown_filter.',
        security,
        parameters: filterParameters,
        responses: {
          '200': { description: 'The counts.', content: { 'application/json': { schema: schemaRef('RoutingStats'), example: STATS } } },
          ...commonErrorResponses,
        },
      },
    },
  },
  components: {
    schemas: {
      Decline: {
        type: 'object',
        required: ['category', 'code', 'processor_code', 'processor_message', 'advice_code', 'retryable'],
        additionalProperties: false,
        description:
          "A declined (or unanswered) authorization, normalised across processors: on the payment's transactions, on a failed payment, on last_failed_attempt, in payment.failed " +
          "and payment.attempt_failed. Each processor's documented codes map into it (Adyen refusal reasons, Stripe decline codes, Checkout.com response codes).",
        properties: {
          category: {
            type: 'string',
            enum: [...DECLINE_CATEGORIES],
            description: "What kind of decline: what on_decline rules name. processor_unavailable: the processor (or the issuer's host) did not answer.",
          },
          code: { type: 'string', description: 'Ours: the failure_reason (card_declined, insufficient_funds, card_blocked, authentication_required…).' },
          processor_code: {
            type: ['string', 'null'],
            description: "The processor's own code: Adyen's refusalReasonCode, Stripe's decline_code, Checkout.com's response_code.",
          },
          processor_message: { type: ['string', 'null'], description: "The processor's words for it (refusalReason, message, response_summary)." },
          advice_code: {
            type: ['string', 'null'],
            description:
              "The issuer's or scheme's advice as the processor passed it on: a Mastercard Merchant Advice Code (01, 02, 03, 21, 24–30), Stripe's advice_code " +
              '(try_again_later, do_not_try_again, confirm_card_data), a Checkout.com recommendation code (01, 02, 03).',
          },
          retryable: {
            type: 'boolean',
            description: 'false: a hard decline (its category, an advice that forbids a retry, Visa category 1): never retried anywhere.',
          },
        },
      },
      OnDeclineRule: {
        type: 'object',
        required: ['categories', 'action'],
        additionalProperties: false,
        description:
          'What a decline of these categories does (the first rule naming its category; none: the decline stands). step_up_3ds (authentication_required only; consumer present, ' +
          'three_ds not off, every processor of the step runs 3-D Secure): the same processor again with a challenge on the hosted page. next_processor: the next processor of the ' +
          "decision's order (merchant-initiated payments within the schemes' retry limits). stop: the decline stands. Hard categories take stop only.",
        properties: {
          categories: { type: 'array', items: { type: 'string', enum: [...DECLINE_CATEGORIES] }, minItems: 1, uniqueItems: true },
          action: { type: 'string', enum: ['step_up_3ds', 'next_processor', 'stop'] },
        },
      },
      RoutingSegment: {
        type: 'object',
        required: ['scheme', 'country', 'currency_code', 'amount_band'],
        additionalProperties: false,
        description:
          'The payments a success-rate decision compares: the same card scheme, country of issue (unknown until a processor reported it), currency and amount band.',
        properties: { scheme: { type: 'string' }, country: { type: 'string' }, currency_code: { type: 'string' }, amount_band: amountBand },
      },
      RoutingChoice: {
        type: 'object',
        required: ['processors', 'reason', 'detail'],
        description: 'Which processor goes first, and why: the processors in the order they are tried, and what the decision compared.',
        properties: {
          processors: { type: 'array', items: { type: 'string' }, description: 'In the order they are tried; the first is the choice.' },
          reason: { type: 'string', enum: DECISION_REASONS },
          detail: { type: 'string', description: 'The choice and its reason in words.' },
          segment: schemaRef('RoutingSegment'),
          segment_level: { type: 'string', enum: SEGMENT_LEVELS, description: 'How far the segment was widened for every processor to have enough outcomes.' },
          rates: {
            type: 'array',
            items: {
              type: 'object',
              required: ['processor', 'attempts', 'approved', 'declined', 'errors', 'authorization_rate'],
              properties: {
                processor: { type: 'string' },
                attempts: { type: 'integer', minimum: 0 },
                approved: { type: 'integer', minimum: 0 },
                declined: { type: 'integer', minimum: 0 },
                errors: { type: 'integer', minimum: 0 },
                authorization_rate: { type: ['number', 'null'], minimum: 0, maximum: 1 },
              },
            },
          },
          weights: {
            type: 'array',
            items: {
              type: 'object',
              required: ['processor', 'weight'],
              properties: { processor: { type: 'string' }, weight: { type: 'integer', minimum: 0 } },
            },
          },
        },
      },
      PaymentRouting: {
        type: 'object',
        required: ['strategy', 'decisions', 'attempts'],
        additionalProperties: false,
        description:
          'Why each authorization attempt went where it went: the decision for each card, and every attempt with what came of it and what the flow did next.',
        properties: {
          strategy: { type: 'string', enum: STRATEGIES },
          decisions: {
            type: 'array',
            items: {
              allOf: [schemaRef('RoutingChoice')],
              properties: {
                card_attempt: { type: 'integer', minimum: 1, description: 'The card (attempt on the hosted page) it was made for.' },
                decided_at: { type: 'string', format: 'date-time' },
              },
            },
          },
          attempts: {
            type: 'array',
            items: {
              type: 'object',
              required: ['processor', 'reason', 'result'],
              properties: {
                processor: { type: 'string' },
                card_attempt: { type: 'integer', minimum: 1 },
                reason: { type: 'string', description: 'Why this attempt went to this processor.' },
                three_ds: {
                  type: 'string',
                  const: 'step_up',
                  description: 'The same processor again with a 3-D Secure challenge, after the issuer asked for authentication.',
                },
                result: {
                  type: 'string',
                  enum: ['authorized', 'declined', 'error', 'authentication'],
                  description: 'authentication: the consumer was sent to authenticate (the answer came with their return).',
                },
                decline: schemaRef('Decline'),
                then: {
                  type: 'object',
                  required: ['action', 'reason'],
                  properties: { action: { type: 'string', enum: ['next_processor', 'step_up_3ds', 'stopped'] }, reason: { type: 'string' } },
                  description: 'What the flow did next, and why (a stop says which rule or limit).',
                },
              },
            },
          },
        },
      },
      RoutingStats: {
        type: 'object',
        required: ['object', 'livemode', 'window_seconds', 'since', 'until', 'group_by', 'data'],
        additionalProperties: false,
        properties: {
          object: { type: 'string', const: 'routing_stats' },
          livemode: livemodeProperty('the counts are of payments made in'),
          window_seconds: { type: 'integer', minimum: 60 },
          since: { type: 'string', format: 'date-time' },
          until: { type: 'string', format: 'date-time' },
          group_by: { type: 'string', enum: ['segment', 'processor'] },
          data: {
            type: 'array',
            items: {
              type: 'object',
              required: ['processor', 'attempts', 'approved', 'declined', 'errors', 'authorization_rate', 'recent_authorization_rate', 'decisions'],
              additionalProperties: false,
              properties: {
                processor: { type: 'string' },
                segment: schemaRef('RoutingSegment'),
                attempts: { type: 'integer', minimum: 0 },
                approved: { type: 'integer', minimum: 0 },
                declined: { type: 'integer', minimum: 0 },
                errors: { type: 'integer', minimum: 0, description: 'Attempts the processor did not answer (timeouts, 5xx, an outage).' },
                authorization_rate: { type: ['number', 'null'], minimum: 0, maximum: 1, description: 'approved / attempts; null without attempts.' },
                recent_authorization_rate: {
                  type: ['number', 'null'],
                  minimum: 0,
                  maximum: 1,
                  description:
                    "The rate decisions compare: the share of answered attempts approved, each bucket's outcomes weighing 0.5^(age / ROUTING_STATS_HALF_LIFE), times the share of " +
                    'attempts answered now (unanswered ones weigh by a half-life of a minute), so a change shows within minutes and an outage at once; 4 decimals.',
                },
                decisions: {
                  type: 'object',
                  required: DECISION_REASONS,
                  additionalProperties: false,
                  description: 'How often a decision chose this processor first, by reason.',
                  properties: Object.fromEntries(DECISION_REASONS.map((reason) => [reason, { type: 'integer', minimum: 0 }])),
                },
              },
            },
          },
        },
      },
    },
  },
};
