import { inspect } from 'node:util';

const REDACTED = '[REDACTED]';

/**
 * Wraps a secret (card data, credentials) so that it cannot leak by accident:
 * string conversion, JSON serialisation and util.inspect all print [REDACTED].
 * Only code that calls `reveal()` sees the value.
 */
export class Sensitive<T> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return REDACTED;
  }
}

export const sensitive = <T>(value: T): Sensitive<T> => new Sensitive(value);
