import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { eventCatalog, parseEnvelope, validateEnvelope, type EventData, type EventEnvelope, type EventType } from '@vaultline/contracts';
import type { Logger } from '@vaultline/logger';
import { DuplicateKeyError, type DocumentStore, type UnitOfWork } from '@vaultline/store';
import type { Bus, Delivery, SubscribeOptions, Subscription } from '../bus.port';
import { describeError, isRetryable } from '../retry/deliver-with-retry';
import { DEAD_LETTERS_COLLECTION, recordDeadLetter, registerGroupHandler } from './dead-letters';

export type EventOf<T extends EventType> = EventEnvelope<EventData<(typeof eventCatalog)[T]>, T>;

export type EventHandler<T extends EventType> = (event: EventOf<T>, uow: UnitOfWork) => void | Promise<void>;

/** Handlers by event type, each typed with its own event's data. */
export type EventHandlers = { [T in EventType]?: EventHandler<T> };

export interface EventConsumerOptions {
  bus: Bus;
  store: DocumentStore;
  /** The consumer group; also the dedupe scope of processed-event marks. */
  group: string;
  logger: Logger;
  handlers: EventHandlers;
  maxAttempts?: number;
  retryDelayMs?: SubscribeOptions['retryDelayMs'];
  /**
   * A cheap test on the event as parsed, before it is validated or looked up among the processed
   * ones: false means the event is none of this consumer's business and it is acknowledged at once.
   * For consumers that act on a small part of a busy type (the importer on token.created events that
   * belong to an import job). An invalid event that fails this test is left to the groups it concerns.
   */
  interested?: (event: RawEvent) => boolean;
}

/** An event as parsed from the bus, not yet validated: every field may be missing or of another type. */
export interface RawEvent {
  type: string;
  data?: unknown;
}

const tracer = trace.getTracer('@vaultline/bus');

/**
 * Subscribes `group` to the topics of the handled event types, in one subscription. For each delivery: the envelope
 * is validated (an invalid one is not retryable and goes to the dead-letter topic); types this
 * consumer does not handle are acknowledged and skipped; an event already processed by the group
 * is skipped; otherwise the handler runs in one unit of work with the processed mark, so its
 * effect and the mark commit together (effectively once). A handler that writes nothing commits
 * nothing (most consumers ignore most events of a shared topic: that costs no write). The handler runs in a span
 * `consume <type>` that continues the publisher's trace.
 */
export async function createEventConsumer(options: EventConsumerOptions): Promise<Subscription> {
  const { bus, group, handlers } = options;
  const handled = Object.keys(handlers).filter((type): type is EventType => Object.prototype.hasOwnProperty.call(eventCatalog, type));
  const unknown = Object.keys(handlers).filter((type) => !handled.includes(type as EventType));
  if (unknown.length > 0) throw new Error(`createEventConsumer(${group}): unknown event types ${unknown.join(', ')}`);
  const topicsToSubscribe = [...new Set(handled.map((type) => eventCatalog[type].topic))];
  await bus.ensureTopics(topicsToSubscribe);
  await options.store.register({ name: DEAD_LETTERS_COLLECTION });
  // What a replay of this group's dead letters runs (vaultline ops dead-letters replay).
  registerGroupHandler(options.store, group, (delivery) => consume(options, delivery));
  // One subscription over all the topics: on Kafka a group's members must subscribe to the same topics.
  return bus.subscribe({
    topics: topicsToSubscribe,
    group,
    handler: (delivery) => consumeOrKeepDeadLetter(options, delivery),
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.retryDelayMs ? { retryDelayMs: options.retryDelayMs } : {}),
  });
}

/**
 * consume; when it fails for the last time (the retry policy's last attempt, or an error that is not retried),
 * the dead letter is also kept in the service's store, where an operator lists and replays it. The bus still
 * publishes it to `<topic>.dead-letter`: a record that cannot be written (the store down) is logged, and the
 * message is not lost.
 */
async function consumeOrKeepDeadLetter(options: EventConsumerOptions, delivery: Delivery): Promise<void> {
  try {
    await consume(options, delivery);
  } catch (error) {
    if (delivery.lastAttempt || !isRetryable(error)) {
      await recordDeadLetter(options.store, options.group, delivery, error, new Date()).catch((recordError: unknown) =>
        options.logger.error(
          { group: options.group, topic: delivery.topic, error: describeError(recordError) },
          'dead letter not recorded in the store (it is on the dead-letter topic)',
        ),
      );
    }
    throw error;
  }
}

async function consume(options: EventConsumerOptions, delivery: Delivery): Promise<void> {
  const { store, group, logger, handlers } = options;
  // Parsed once: the type decides whether to validate at all, the same value is then validated.
  const json = parseJson(delivery.value);
  const peeked = typeOf(json);
  // Another type on a shared topic: not this consumer's business (and not an error).
  if (peeked !== undefined && !Object.prototype.hasOwnProperty.call(handlers, peeked)) return;
  if (peeked !== undefined && options.interested && !options.interested(json as RawEvent)) return;
  const event = json === NOT_JSON ? parseEnvelope(delivery.value) : validateEnvelope(json);
  const handler = handlers[event.type as EventType] as EventHandler<EventType> | undefined;
  if (!handler) return;

  await context.with(parentContextOf(delivery, event), () =>
    tracer.startActiveSpan(
      `consume ${event.type}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'vaultline-bus',
          'messaging.destination.name': delivery.topic,
          'messaging.consumer.group.name': group,
          'messaging.message.id': event.id,
          'vaultline.delivery.attempt': delivery.attempt,
        },
      },
      async (span) => {
        try {
          if (await store.isProcessed(group, event.id)) {
            span.setAttribute('vaultline.event.duplicate', true);
            return;
          }
          await applyOnce(store, group, event, handler);
        } catch (error) {
          span.recordException(describeError(error));
          span.setStatus({ code: SpanStatusCode.ERROR, message: describeError(error) });
          throw error;
        } finally {
          span.end();
        }
      },
    ),
  );
  logger.debug({ group, event_id: event.id, type: event.type, attempt: delivery.attempt }, 'event consumed');
}

async function applyOnce(store: DocumentStore, group: string, event: EventEnvelope, handler: EventHandler<EventType>): Promise<void> {
  try {
    await store.transaction(async (uow) => {
      await handler(event as EventOf<EventType>, uow);
      // A handler that changed nothing had no effect to protect: no mark, and so no commit at all.
      // A redelivery then decides afresh; an effect, if it ever has one, still commits with its mark.
      if (uow.hasChanges) uow.markProcessed(group, event.id);
    });
  } catch (error) {
    // A concurrent delivery of the same event committed first: its effect is in, ours is not needed.
    if (error instanceof DuplicateKeyError && (await store.isProcessed(group, event.id))) return;
    throw error;
  }
}

function parentContextOf(delivery: Delivery, event: EventEnvelope): Context {
  const carrier: Record<string, string> = {
    ...(event.trace?.traceparent ? { traceparent: event.trace.traceparent } : {}),
    ...(event.trace?.tracestate ? { tracestate: event.trace.tracestate } : {}),
  };
  // Headers win over the envelope copy (a transport may rewrite them, e.g. a tracing proxy).
  if (delivery.headers.traceparent) {
    carrier.traceparent = delivery.headers.traceparent;
    if (delivery.headers.tracestate) carrier.tracestate = delivery.headers.tracestate;
  }
  return propagation.extract(ROOT_CONTEXT, carrier);
}

const NOT_JSON = Symbol('not JSON');

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Not JSON: parseEnvelope reports it.
    return NOT_JSON;
  }
}

function typeOf(parsed: unknown): string | undefined {
  if (parsed && typeof parsed === 'object' && 'type' in parsed && typeof parsed.type === 'string') return parsed.type;
  return undefined;
}
