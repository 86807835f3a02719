/**
 * What kafkajs's errors mean to the bus. kafkajs wraps the error that ended a retried operation
 * (KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded) with the original as `cause`; the protocol
 * error a broker answered is a KafkaJSProtocolError with the code's name as `type` (protocol/error.js).
 */
type KafkaishError = Error & { type?: unknown; cause?: unknown };

function* causeChain(error: unknown): Generator<KafkaishError> {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    yield current as KafkaishError;
    current = (current as KafkaishError).cause;
  }
}

/**
 * Answers after which an idempotent producer can never send again (kafkajs issue #598): its sequence numbers
 * or producer id no longer agree with the broker's, and kafkajs keeps sending with them. Only a new producer
 * (a new producer id, sequences from 0) gets through.
 */
const FATAL_PRODUCER_ERRORS = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'DUPLICATE_SEQUENCE_NUMBER',
  'INVALID_PRODUCER_EPOCH',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_ID_MAPPING',
  'PRODUCER_FENCED',
]);

/** The protocol error type that makes this producer unusable, or undefined. */
export function fatalProducerError(error: unknown): string | undefined {
  for (const entry of causeChain(error)) if (typeof entry.type === 'string' && FATAL_PRODUCER_ERRORS.has(entry.type)) return entry.type;
  return undefined;
}

/** The bus's own: a broker that did not answer within the time the bus gives it. */
export class KafkaTimeoutError extends Error {
  override readonly name = 'KafkaTimeoutError';
  constructor(what: string, ms: number) {
    super(`${what}: no answer from Kafka within ${ms} ms`);
  }
}

const UNREACHABLE = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaTimeoutError',
]);

/** Whether the error says no broker answered (as opposed to a broker that answered no). */
export function isBrokerUnreachable(error: unknown): boolean {
  const chain = [...causeChain(error)];
  // A retried operation that ended on a broker's answer (an authorization failure, a fatal producer error) is an answer.
  if (chain.some((entry) => typeof entry.type === 'string')) return false;
  return chain.some((entry) => UNREACHABLE.has(entry.name));
}

/** A broker answered with an error it marks retriable (a topic being created, a coordinator loading). */
export function isRetriableAnswer(error: unknown): boolean {
  return [...causeChain(error)].some((entry) => typeof entry.type === 'string' && (entry as { retriable?: unknown }).retriable === true);
}

/** The error's kind and message, for logs and /ready (kafkajs puts the broker's address in connection errors; this drops it). */
export function describeKafkaError(error: unknown): string {
  const chain = [...causeChain(error)];
  const root = chain.at(-1);
  if (!root) return String(error);
  const kind = typeof root.type === 'string' ? root.type : root.name;
  const message = root.message.replace(/\b\d{1,3}(?:\.\d{1,3}){3}:\d+\b/g, '<broker>').replace(/\b[a-z0-9.-]+:\d{2,5}\b/gi, '<broker>');
  return `${kind}: ${message}`.slice(0, 300);
}

/** `work`, or a KafkaTimeoutError after `ms` (the work goes on unobserved; its late result is dropped). */
export function withTimeout<T>(what: string, ms: number, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new KafkaTimeoutError(what, ms)), ms);
    timer.unref();
    work().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
