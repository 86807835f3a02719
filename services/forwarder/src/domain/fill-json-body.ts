import type { CardData } from './card-data';
import { InvalidForwardBodyError } from './forward-errors';
import { PLACEHOLDER_PATTERN, placeholderValue, placeholdersIn, replaceInText, type PlaceholderName } from './placeholders';

/** How a quoted placeholder that is a whole JSON string value is typed (see docs in placeholders.ts). */
export type WholeValueTyping = 'string' | 'integer-expiry';

const BARE_MARK = '\u0000vaultline-bare:';

/**
 * Rewrites placeholders that stand outside any JSON string (`"expiry_month": {{ expiration_month }}`)
 * into marked JSON strings so the document can be parsed. A small scanner tracks string state and
 * escapes; only text outside strings is touched.
 */
function markBarePlaceholders(text: string): string {
  let out = '';
  let inString = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') {
        out += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (ch === '"') inString = false;
      i += 1;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      i += 1;
      continue;
    }
    if (ch === '{' && text[i + 1] === '{') {
      const pattern = new RegExp(PLACEHOLDER_PATTERN.source, 'y');
      pattern.lastIndex = i;
      const match = pattern.exec(text);
      if (match) {
        out += JSON.stringify(`${BARE_MARK}${match[1]}`);
        i += match[0].length;
        continue;
      }
    }
    out += ch;
    i += 1;
  }
  return out;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface ParsedJsonBody {
  document: Json;
  placeholders: PlaceholderName[];
}

/** Parses the merchant's JSON body (bare placeholders allowed) and lists the placeholders it holds. */
export function parseJsonBody(raw: string): ParsedJsonBody {
  let document: Json;
  try {
    document = JSON.parse(markBarePlaceholders(raw)) as Json;
  } catch {
    throw new InvalidForwardBodyError('The body is not valid JSON (placeholders may stand bare or inside strings).');
  }
  const placeholders: PlaceholderName[] = [];
  visitStrings(document, (value) => {
    if (value.startsWith(BARE_MARK)) placeholders.push(value.slice(BARE_MARK.length) as PlaceholderName);
    else placeholders.push(...placeholdersIn(value));
  });
  return { document, placeholders };
}

function visitStrings(value: Json, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) value.forEach((item) => visitStrings(item, visit));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((item) => visitStrings(item, visit));
}

const WHOLE_PLACEHOLDER = new RegExp(`^${PLACEHOLDER_PATTERN.source}$`);

/**
 * Substitutes inside the parsed document and serialises again, so no card value can break out of
 * its string. Types: a bare placeholder takes its typed value (month/year integers, number and
 * code strings); a placeholder inside a string is text ("03", "2030"), except that a destination
 * documented to want integer expiry fields (Checkout.com) gets integers for a whole-string expiry
 * placeholder as well.
 */
export function fillJsonBody(parsed: ParsedJsonBody, card: CardData, typing: WholeValueTyping = 'string'): string {
  const fill = (value: Json): Json => {
    if (typeof value === 'string') {
      if (value.startsWith(BARE_MARK)) return placeholderValue(value.slice(BARE_MARK.length) as PlaceholderName, card);
      const whole = WHOLE_PLACEHOLDER.exec(value);
      if (whole && typing === 'integer-expiry' && (whole[1] === 'expiration_month' || whole[1] === 'expiration_year')) {
        return placeholderValue(whole[1], card);
      }
      return value.includes('{{') ? replaceInText(value, card) : value;
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object') {
      const out: { [key: string]: Json } = {};
      for (const [key, item] of Object.entries(value)) out[key] = fill(item);
      return out;
    }
    return value;
  };
  return JSON.stringify(fill(parsed.document));
}
