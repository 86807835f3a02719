import { z } from 'zod';

/** "true"/"false" (also 1/0, yes/no), case-insensitive. */
export function envBoolean() {
  return z.string().transform((value, ctx) => {
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(v)) return true;
    if (['false', '0', 'no'].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be true or false' });
    return z.NEVER;
  });
}

/** A base-10 integer, optionally bounded. */
export function envInteger(options: { min?: number; max?: number } = {}) {
  return z.string().transform((value, ctx) => {
    const v = value.trim();
    if (!/^-?\d+$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be an integer' });
      return z.NEVER;
    }
    const n = Number(v);
    if (options.min !== undefined && n < options.min) {
      ctx.addIssue({ code: 'custom', message: `must be at least ${options.min}` });
      return z.NEVER;
    }
    if (options.max !== undefined && n > options.max) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${options.max}` });
      return z.NEVER;
    }
    return n;
  });
}

/** A TCP port, 0–65535 (0 = any free port). */
export function envPort() {
  return envInteger({ min: 0, max: 65535 });
}

/** Comma-separated list; blanks dropped, items trimmed. */
export function envList() {
  return z.string().transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  );
}

/** An absolute URL, optionally restricted to some protocols (e.g. ['http:', 'https:']). */
export function envUrl(protocols?: string[]) {
  return z.string().transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute URL' });
      return z.NEVER;
    }
    if (protocols && !protocols.includes(url.protocol)) {
      ctx.addIssue({ code: 'custom', message: `must use ${protocols.join(' or ')}` });
      return z.NEVER;
    }
    return value.trim();
  });
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in milliseconds: "1500", "1500ms", "30s", "5m", "2h", "1d". */
export function envDurationMs() {
  return z.string().transform((value, ctx) => {
    const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim().toLowerCase());
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'must be a duration such as 500ms, 30s, 5m, 2h or a number of milliseconds' });
      return z.NEVER;
    }
    return Number(match[1]) * (DURATION_UNITS[match[2] ?? 'ms'] ?? 1);
  });
}
