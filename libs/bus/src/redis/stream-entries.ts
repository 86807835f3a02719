import type { BusMessage } from '../bus.port';

export interface StreamEntry {
  id: string;
  /** Null when the entry was deleted (trimmed) while pending: acknowledge and move on. */
  message: BusMessage | null;
}

/** Field layout of one bus message in a stream entry. */
export function toStreamFields(message: BusMessage): string[] {
  return ['key', message.key, 'value', message.value, 'headers', JSON.stringify(message.headers)];
}

/** Parses the reply of XREADGROUP (`[[stream, [[id, fields], …]]]` or null) for one stream. */
export function parseReadReply(topic: string, reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  const entries: StreamEntry[] = [];
  for (const stream of reply) {
    if (Array.isArray(stream) && Array.isArray(stream[1])) entries.push(...parseEntries(topic, stream[1]));
  }
  return entries;
}

/** Parses the reply of XAUTOCLAIM: `[nextStart, entries, deletedIds?]`. */
export function parseAutoClaimReply(topic: string, reply: unknown): { next: string; entries: StreamEntry[] } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string' || !Array.isArray(reply[1])) return { next: '0-0', entries: [] };
  return { next: reply[0], entries: parseEntries(topic, reply[1]) };
}

function parseEntries(topic: string, raw: unknown[]): StreamEntry[] {
  const entries: StreamEntry[] = [];
  for (const item of raw) {
    if (!Array.isArray(item) || typeof item[0] !== 'string') continue;
    entries.push({ id: item[0], message: Array.isArray(item[1]) ? toMessage(topic, item[1]) : null });
  }
  return entries;
}

function toMessage(topic: string, fields: unknown[]): BusMessage | null {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const name = fields[i];
    const value = fields[i + 1];
    if (typeof name === 'string' && typeof value === 'string') values.set(name, value);
  }
  const key = values.get('key');
  const value = values.get('value');
  if (key === undefined || value === undefined) return null;
  return { topic, key, value, headers: parseHeaders(values.get('headers')) };
}

function parseHeaders(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}
