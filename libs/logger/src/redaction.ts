/**
 * Keys whose values never reach a log line, at any depth, compared case-insensitively.
 * exp_month / exp_year are deliberately absent: an expiry alone is not card data we must hide.
 */
export const REDACTED_KEYS: readonly string[] = [
  'number',
  'pan',
  'account_number',
  'card_number',
  'cvc',
  'cvv',
  'security_code',
  'authorization',
  'x-api-key',
  'x-admin-key',
  'x-api-key-value',
  'x-forward-authorization',
  'x-service-token-secret',
  'api_key',
  'apikey',
  'api_key_pepper',
  'admin_api_key',
  'bootstrap_api_key',
  'password',
  'secret',
  'client_secret',
  'private_key',
  'privatekeypem',
  'cookie',
  'set-cookie',
  'kek',
];

export const CENSOR = '[REDACTED]';

const KEY_SET = new Set(REDACTED_KEYS.map((key) => key.toLowerCase()));
const MAX_DEPTH = 12;

/** True for keys to redact: the list above, plus any `x-api-key-<provider>-value` header. */
export function isRedactedKey(key: string): boolean {
  const lower = key.toLowerCase();
  return KEY_SET.has(lower) || /^x-api-key-[a-z0-9_-]+-value$/.test(lower);
}

/**
 * pino `redact` paths: each key at the top level and under one or two wildcard levels.
 * Deeper nesting is covered by `redactDeep`, applied as the log formatter.
 */
export function redactPaths(): string[] {
  const paths: string[] = [];
  for (const key of REDACTED_KEYS) {
    const segment = /^[a-z_][a-z0-9_]*$/i.test(key) ? key : `["${key}"]`;
    const join = (prefix: string) => (segment.startsWith('[') ? `${prefix}${segment}` : `${prefix}.${segment}`);
    paths.push(segment.startsWith('[') ? `${segment}` : segment, join('*'), join('*.*'));
  }
  return paths;
}

/** A copy of `value` with every redacted key censored at any depth; other values shared. */
export function redactDeep(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = redactDeep(item, depth + 1, seen);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const next = isRedactedKey(key) && item !== undefined ? CENSOR : redactDeep(item, depth + 1, seen);
    if (next !== item) {
      out ??= { ...(value as Record<string, unknown>) };
      out[key] = next;
    }
  }
  return out ?? value;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
