import { jsonResponse, listOf, pageOf, pageParameters, problemResponse, schemaRef, type JsonObject, type OpenApiFragment } from '../openapi-fragment';

/** The services that keep dead letters and parked outbox messages, as /admin/<service>/… names them. */
const SERVICES = ['vault', 'forwarder', 'importer', 'payment-orchestrator', 'notifier'] as const;

const security = [{ AdminKey: [] }];
const errors: Record<string, JsonObject> = {
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
  '422': { $ref: '#/components/responses/ValidationFailed' },
};
const operationName = (service: string) =>
  service
    .split('-')
    .map((word) => `${word[0]!.toUpperCase()}${word.slice(1)}`)
    .join('');

const DEAD_LETTER = {
  id: '6f1c2a9e-3b4d-8e5f-9a7b-1c2d3e4f5a6b',
  object: 'dead_letter',
  group: 'notifier',
  topic: 'payments',
  key: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e71',
  event_id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e72',
  event_type: 'payment.captured',
  error: 'UnavailableError: the store did not answer',
  attempts: 12,
  failed_at: '2026-11-28T09:12:03.000Z',
  state: 'dead',
  replayed_at: null,
  replays: [],
};
const PARKED = {
  id: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e81',
  object: 'parked_outbox_message',
  topic: 'payments',
  key: '019ab2c4-0a1b-7c2d-8e3f-4a5b6c7d8e71',
  error: 'KafkaJSProtocolError: The request included a message larger than the max message size the server will accept',
  attempts: 20,
  parked_at: '2026-11-28T09:12:03.000Z',
};
const deadLetterId = { name: 'dead_letter_id', in: 'path', required: true, schema: schemaRef('ObjectId') };
const messageId = { name: 'message_id', in: 'path', required: true, schema: schemaRef('ObjectId') };

function servicePaths(service: string): Record<string, Record<string, JsonObject>> {
  const name = operationName(service);
  return {
    [`/admin/${service}/dead-letters`]: {
      get: {
        tags: ['Operations'],
        operationId: `list${name}DeadLetters`,
        summary: `The dead letters of the ${service}'s consumer groups, newest first`,
        security,
        parameters: [
          ...pageParameters,
          { name: 'group', in: 'query', schema: { type: 'string', maxLength: 200 }, description: 'Only this consumer group.' },
          { name: 'topic', in: 'query', schema: { type: 'string', maxLength: 200 }, description: 'Only messages of this topic.' },
          { name: 'state', in: 'query', schema: { type: 'string', enum: ['dead', 'replayed'] } },
        ],
        responses: { '200': jsonResponse('A page of dead letters.', listOf('DeadLetter'), pageOf([DEAD_LETTER])), ...errors },
      },
    },
    [`/admin/${service}/dead-letters/{dead_letter_id}`]: {
      get: {
        tags: ['Operations'],
        operationId: `get${name}DeadLetter`,
        summary: 'One dead letter, with the message as it was delivered',
        security,
        parameters: [deadLetterId],
        responses: {
          '200': jsonResponse('The dead letter.', 'DeadLetter', {
            ...DEAD_LETTER,
            message: { value: '{"id":"…","type":"payment.captured"}', headers: { 'event-type': 'payment.captured' } },
          }),
          ...errors,
        },
      },
    },
    [`/admin/${service}/dead-letters/{dead_letter_id}/replay`]: {
      post: {
        tags: ['Operations'],
        operationId: `replay${name}DeadLetter`,
        summary: 'Run a dead letter through the handler of the group that failed it, once',
        description:
          'No other group of the topic sees it again. Handled: the dead letter becomes `replayed`. Failed again: it stays `dead`, and the replay and its error are added to `replays`. Audited like every admin request.',
        security,
        parameters: [deadLetterId],
        responses: {
          '200': jsonResponse('The dead letter after the replay.', 'DeadLetter', {
            ...DEAD_LETTER,
            state: 'replayed',
            replayed_at: '2026-11-28T10:00:00.000Z',
            replays: [{ at: '2026-11-28T10:00:00.000Z', outcome: 'handled' }],
          }),
          '409': problemResponse(
            'dead_letter_already_replayed: its group handled it already; dead_letter_group_not_running: no consumer of its group runs in this service.',
          ),
          ...errors,
        },
      },
    },
    [`/admin/${service}/outbox/parked`]: {
      get: {
        tags: ['Operations'],
        operationId: `list${name}ParkedMessages`,
        summary: `The outbox messages the ${service}'s relay parked because the bus kept refusing them, newest first`,
        security,
        parameters: pageParameters,
        responses: { '200': jsonResponse('A page of parked messages.', listOf('ParkedOutboxMessage'), pageOf([PARKED])), ...errors },
      },
    },
    [`/admin/${service}/outbox/parked/{message_id}/unpark`]: {
      post: {
        tags: ['Operations'],
        operationId: `unpark${name}Message`,
        summary: 'Put a parked message back in the outbox (appended: it goes out after what was committed since)',
        security,
        parameters: [messageId],
        responses: { '200': jsonResponse('The message, back in the outbox.', 'ParkedOutboxMessage', { ...PARKED, unparked: true }), ...errors },
      },
    },
  };
}

/** Each service's operations API: dead letters listed and replayed, parked outbox messages put back (`vaultline ops`). */
export const adminOpsFragment: OpenApiFragment = {
  tags: [
    {
      name: 'Operations',
      description:
        "Every service's dead letters (messages its consumer groups failed to handle after BUS_RETRY_MAX_ATTEMPTS) and the outbox messages its relay parked, under /admin/<service>/. The CLI: `vaultline ops dead-letters list|replay`, `vaultline ops outbox list|unpark`.",
    },
  ],
  paths: Object.assign({}, ...SERVICES.map(servicePaths)) as Record<string, Record<string, JsonObject>>,
  components: {
    schemas: {
      DeadLetter: {
        type: 'object',
        required: ['id', 'object', 'group', 'topic', 'key', 'event_id', 'event_type', 'error', 'attempts', 'failed_at', 'state', 'replayed_at', 'replays'],
        properties: {
          id: schemaRef('ObjectId'),
          object: { type: 'string', const: 'dead_letter' },
          group: { type: 'string', description: 'The consumer group that failed it.' },
          topic: { type: 'string' },
          key: { type: 'string' },
          event_id: { type: ['string', 'null'], description: 'The event it carries (null when the message was not an event envelope).' },
          event_type: { type: ['string', 'null'] },
          error: { type: 'string', description: "The handler's last error, card numbers masked, at most 500 characters." },
          attempts: { type: 'integer', minimum: 1 },
          failed_at: schemaRef('Timestamp'),
          state: { type: 'string', enum: ['dead', 'replayed'] },
          replayed_at: { type: ['string', 'null'], format: 'date-time' },
          replays: {
            type: 'array',
            description: 'The latest 20 replays.',
            items: {
              type: 'object',
              required: ['at', 'outcome'],
              properties: { at: schemaRef('Timestamp'), outcome: { type: 'string', enum: ['handled', 'failed'] }, error: { type: 'string' } },
            },
          },
          message: {
            type: 'object',
            description: 'GET of one dead letter only: the message as it was delivered (an event: never card data).',
            required: ['value', 'headers'],
            properties: { value: { type: 'string' }, headers: { type: 'object', additionalProperties: { type: 'string' } } },
          },
        },
      },
      ParkedOutboxMessage: {
        type: 'object',
        required: ['id', 'object', 'topic', 'key', 'error', 'attempts', 'parked_at'],
        properties: {
          id: schemaRef('ObjectId'),
          object: { type: 'string', const: 'parked_outbox_message' },
          topic: { type: 'string' },
          key: { type: 'string' },
          error: { type: 'string', description: "The bus's last refusal." },
          attempts: { type: 'integer', minimum: 1 },
          parked_at: schemaRef('Timestamp'),
          unparked: { type: 'boolean', description: 'In the answer to unpark: the message is back in the outbox.' },
        },
      },
    },
  },
};
