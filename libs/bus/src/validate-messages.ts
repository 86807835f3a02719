import type { BusMessage } from './bus.port';

/** Rejects malformed messages before they reach a transport (a programming error, not a retry case). */
export function validateMessages(messages: BusMessage[]): void {
  for (const message of messages) {
    if (typeof message.topic !== 'string' || message.topic.length === 0) throw new TypeError('bus message needs a topic');
    if (typeof message.key !== 'string') throw new TypeError(`bus message on ${message.topic} needs a string key`);
    if (typeof message.value !== 'string') throw new TypeError(`bus message on ${message.topic} needs a string value`);
    for (const [name, value] of Object.entries(message.headers ?? {})) {
      if (typeof value !== 'string') throw new TypeError(`bus message header ${name} must be a string`);
    }
  }
}
