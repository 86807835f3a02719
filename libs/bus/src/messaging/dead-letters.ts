import { createHash } from 'node:crypto';
import { ConflictError, NotFoundError } from '@vaultline/core';
import { DuplicateKeyError, SYSTEM_SCOPE, type DocumentStore, type PageRequest, type StoredDocument, type Where } from '@vaultline/store';
import { DEAD_LETTER_HEADERS, type BusMessage, type Delivery } from '../bus.port';
import { describeError } from '../retry/deliver-with-retry';
import { PARKED_OUTBOX_COLLECTION, type ParkedOutboxMessage } from './outbox-relay';

/**
 * The dead letters of a service's consumer groups, kept in the service's own store (SYSTEM_SCOPE) beside the
 * `<topic>.dead-letter` message the bus keeps, so an operator can list them and run them again once what
 * failed is fixed (`vaultline ops dead-letters`). A replay runs the message through the handler of the group
 * that failed it, in this service, once: no other group of the topic sees it again, and no service needs to
 * write to another's topics. Parked outbox messages (the relay's, PARKED_OUTBOX_COLLECTION) are put back in
 * the outbox the same way (`vaultline ops outbox unpark`).
 */
export const DEAD_LETTERS_COLLECTION = 'dead_letters';

/** Replays kept on a dead letter (the latest ones). */
const REPLAYS_KEPT = 20;

export interface DeadLetterReplay {
  at: string;
  outcome: 'handled' | 'failed';
  /** The handler's error, masked and cut (describeError). */
  error?: string;
}

export interface DeadLetterRecord extends StoredDocument {
  group: string;
  topic: string;
  key: string;
  /** The message as it was delivered (an event envelope: never card data), without the dead-letter headers. */
  value: string;
  headers: Record<string, string>;
  event_id: string | null;
  event_type: string | null;
  error: string;
  attempts: number;
  failed_at: string;
  /** dead: waiting for an operator; replayed: its group handled it on a replay. */
  state: 'dead' | 'replayed';
  replayed_at: string | null;
  replays: DeadLetterReplay[];
}

/** Runs one delivery through a group's handler (the event consumer's, with its processed mark). */
export type GroupHandler = (delivery: Delivery) => Promise<void>;

/** The handlers of the groups consuming into each store: what a replay runs. Filled by createEventConsumer. */
const handlersByStore = new WeakMap<DocumentStore, Map<string, GroupHandler>>();

export function registerGroupHandler(store: DocumentStore, group: string, handler: GroupHandler): void {
  const handlers = handlersByStore.get(store) ?? new Map<string, GroupHandler>();
  handlers.set(group, handler);
  handlersByStore.set(store, handlers);
}

/** Same group, topic, key and message: the same dead letter (a redelivery that fails again updates it). */
export function deadLetterIdOf(group: string, message: Pick<BusMessage, 'topic' | 'key' | 'value'>): string {
  const hex = createHash('sha256').update([group, message.topic, message.key, message.value].join('\u0000')).digest('hex');
  // A UUID (version 8: custom), so ids look like every other id of the API.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function envelopeOf(value: string): { id: string | null; type: string | null } {
  try {
    const parsed = JSON.parse(value) as { id?: unknown; type?: unknown };
    return { id: typeof parsed.id === 'string' ? parsed.id : null, type: typeof parsed.type === 'string' ? parsed.type : null };
  } catch {
    return { id: null, type: null };
  }
}

const withoutDeadLetterHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !(Object.values(DEAD_LETTER_HEADERS) as string[]).includes(name)));

/** Keeps the record of a delivery its group's handler failed for the last time (called before the bus dead-letters it). */
export async function recordDeadLetter(store: DocumentStore, group: string, delivery: Delivery, error: unknown, now: Date): Promise<DeadLetterRecord> {
  const id = deadLetterIdOf(group, delivery);
  const envelope = envelopeOf(delivery.value);
  const failure = { error: describeError(error), attempts: delivery.attempt, failed_at: now.toISOString(), state: 'dead' as const };
  const collection = store.collection<DeadLetterRecord>(DEAD_LETTERS_COLLECTION);
  for (;;) {
    const existing = await collection.get(SYSTEM_SCOPE, id);
    try {
      return await store.transaction((uow) =>
        existing
          ? uow.update<DeadLetterRecord>(DEAD_LETTERS_COLLECTION, { ...existing, ...failure })
          : uow.insert<DeadLetterRecord>(DEAD_LETTERS_COLLECTION, {
              id,
              merchant_id: SYSTEM_SCOPE,
              group,
              topic: delivery.topic,
              key: delivery.key,
              value: delivery.value,
              headers: withoutDeadLetterHeaders(delivery.headers),
              event_id: envelope.id,
              event_type: envelope.type,
              ...failure,
              replayed_at: null,
              replays: [],
            }),
      );
    } catch (caught) {
      // Another replica recorded it meanwhile: update that one.
      if (!(caught instanceof DuplicateKeyError)) throw caught;
    }
  }
}

export interface DeadLetterFilter {
  group?: string;
  topic?: string;
  state?: DeadLetterRecord['state'];
}

export function listDeadLetters(store: DocumentStore, filter: DeadLetterFilter, page: PageRequest) {
  const where: Where = {};
  if (filter.group) where.group = filter.group;
  if (filter.topic) where.topic = filter.topic;
  if (filter.state) where.state = filter.state;
  return store.collection<DeadLetterRecord>(DEAD_LETTERS_COLLECTION).list(SYSTEM_SCOPE, where, page);
}

export async function getDeadLetter(store: DocumentStore, id: string): Promise<DeadLetterRecord> {
  const record = await store.collection<DeadLetterRecord>(DEAD_LETTERS_COLLECTION).get(SYSTEM_SCOPE, id);
  if (!record) throw new NotFoundError('dead_letter');
  return record;
}

/**
 * Runs a dead letter through its group's handler once. Handled: the record is `replayed`. Failed: it stays
 * `dead`, the replay and its error are kept on it, and the operator can try again.
 */
export async function replayDeadLetter(store: DocumentStore, id: string, now: () => Date): Promise<DeadLetterRecord> {
  const record = await getDeadLetter(store, id);
  if (record.state === 'replayed')
    throw new ConflictError('dead_letter_already_replayed', `Dead letter ${id} was replayed at ${record.replayed_at}: its group handled it.`);
  const handler = handlersByStore.get(store)?.get(record.group);
  if (!handler)
    throw new ConflictError('dead_letter_group_not_running', `No consumer of group ${record.group} runs in this service: it cannot be replayed here.`);
  let replay: DeadLetterReplay;
  try {
    await handler({ topic: record.topic, key: record.key, value: record.value, headers: { ...record.headers }, attempt: 1, lastAttempt: true });
    replay = { at: now().toISOString(), outcome: 'handled' };
  } catch (error) {
    replay = { at: now().toISOString(), outcome: 'failed', error: describeError(error) };
  }
  const latest = await getDeadLetter(store, id);
  return store.transaction((uow) =>
    uow.update<DeadLetterRecord>(DEAD_LETTERS_COLLECTION, {
      ...latest,
      replays: [...latest.replays, replay].slice(-REPLAYS_KEPT),
      ...(replay.outcome === 'handled' ? { state: 'replayed' as const, replayed_at: replay.at } : {}),
    }),
  );
}

export function listParkedMessages(store: DocumentStore, page: PageRequest) {
  return store.collection<ParkedOutboxMessage>(PARKED_OUTBOX_COLLECTION).list(SYSTEM_SCOPE, {}, page);
}

/**
 * Puts a parked outbox message back in the outbox, appended (it goes out after what was committed since it was
 * parked: its key's later messages have already overtaken it), and removes its parked record, in one commit.
 */
export async function unparkMessage(store: DocumentStore, id: string): Promise<ParkedOutboxMessage> {
  const parked = await store.collection<ParkedOutboxMessage>(PARKED_OUTBOX_COLLECTION).get(SYSTEM_SCOPE, id);
  if (!parked) throw new NotFoundError('parked_message');
  await store.transaction((uow) => {
    uow.delete(PARKED_OUTBOX_COLLECTION, SYSTEM_SCOPE, id, parked.version);
    uow.publish({ topic: parked.topic, key: parked.key, value: parked.value, headers: parked.headers });
  });
  return parked;
}
