import { AppError } from '@vaultline/core';
import { envelopeSchema, type EventEnvelope } from './envelope';
import { eventCatalog, type EventType } from './events/catalog';

export class InvalidEventError extends AppError {
  constructor(detail: string) {
    // Not retryable: a malformed event goes straight to the dead-letter topic.
    super('invalid_event', 422, detail);
  }
}

export function isKnownEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(eventCatalog, type);
}

/**
 * Parses a bus message value into an envelope and validates its data against the contract
 * of its type and version. Throws InvalidEventError with the failing path.
 */
export function parseEnvelope(value: string): EventEnvelope {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new InvalidEventError('event is not JSON');
  }
  return validateEnvelope(json);
}

/** parseEnvelope for a value already parsed from JSON (a consumer that peeked at it parses only once). */
export function validateEnvelope(json: unknown): EventEnvelope {
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    throw new InvalidEventError(`event envelope invalid at ${envelope.error.issues[0]?.path.join('.') ?? '?'}`);
  }
  const { type, version } = envelope.data;
  if (!isKnownEventType(type)) throw new InvalidEventError(`unknown event type ${type}`);
  const definition = eventCatalog[type];
  if (definition.version !== version) throw new InvalidEventError(`unsupported version ${version} of ${type}`);
  const data = definition.schema.safeParse(envelope.data.data);
  if (!data.success) {
    throw new InvalidEventError(`${type} data invalid at ${data.error.issues[0]?.path.join('.') ?? '?'}`);
  }
  return { ...envelope.data, data: data.data } as EventEnvelope;
}
