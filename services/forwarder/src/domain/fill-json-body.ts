import type { CardData } from './card-data';
import type { WholeValueTyping } from '@vaultline/contracts';
import type { PlaceholderUse } from './card-fields';
import { BodyTooDeepError } from '@vaultline/core';
import { InvalidForwardBodyError } from './forward-errors';
import { PLACEHOLDER_PATTERN, hasPlaceholder, placeholderText, placeholderValue, wholePlaceholderOf, type PlaceholderName } from './placeholders';

/** Deepest nesting of objects and arrays a forwarded JSON body may have (PSP bodies use a handful). */
export const MAX_JSON_DEPTH = 64;

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
type Container = Json[] | { [key: string]: Json };

/** A whole-value placeholder: where it stands (container and key, as JSON.stringify's replacer sees them). */
interface Slot {
  name: PlaceholderName;
  /** Written bare in the body (`{{ expiration_month }}` rather than `"{{ expiration_month }}"`). */
  bare: boolean;
}

export interface ParsedJsonBody {
  document: Json;
  /** Every place placeholder text appears, for checkPlacement. */
  uses: PlaceholderUse[];
  slots: Map<object, Map<string, Slot>>;
}

function fieldOf(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return 'body';
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}

/**
 * Parses the merchant's JSON body (bare placeholders allowed) and lists where placeholder text
 * appears. The walk is iterative and refuses nesting deeper than MAX_JSON_DEPTH, so a hostile
 * body (a 100k-deep array) is a 422, never a stack overflow here or in JSON.stringify later.
 */
export function parseJsonBody(raw: string): ParsedJsonBody {
  let document: Json;
  try {
    document = JSON.parse(markBarePlaceholders(raw)) as Json;
  } catch {
    throw new InvalidForwardBodyError('The body is not valid JSON (placeholders may stand bare or inside strings).');
  }
  const uses: PlaceholderUse[] = [];
  const slots = new Map<object, Map<string, Slot>>();
  const note = (container: Container | null, key: string | number | null, value: string, path: Array<string | number>) => {
    const bare = value.startsWith(BARE_MARK);
    const whole = bare ? (value.slice(BARE_MARK.length) as PlaceholderName) : wholePlaceholderOf(value);
    if (whole === null && !hasPlaceholder(value)) return;
    uses.push({ field: fieldOf(path), path, whole });
    if (whole !== null && container !== null && key !== null) {
      let inContainer = slots.get(container);
      if (!inContainer) slots.set(container, (inContainer = new Map()));
      inContainer.set(String(key), { name: whole, bare });
    }
  };

  if (typeof document === 'string') note(null, null, document, []);
  const pending: Array<{ container: Container; path: Array<string | number>; depth: number }> = [];
  if (document !== null && typeof document === 'object') pending.push({ container: document, path: [], depth: 1 });
  while (pending.length > 0) {
    const { container, path, depth } = pending.pop()!;
    if (depth > MAX_JSON_DEPTH) throw new BodyTooDeepError(MAX_JSON_DEPTH);
    const entries: Array<[string | number, Json]> = Array.isArray(container) ? container.map((item, index) => [index, item]) : Object.entries(container);
    for (const [key, value] of entries) {
      const childPath = [...path, key];
      if (typeof key === 'string' && hasPlaceholder(key)) uses.push({ field: fieldOf(childPath), path: childPath, whole: null });
      if (typeof value === 'string') note(container, key, value, childPath);
      else if (value !== null && typeof value === 'object') pending.push({ container: value, path: childPath, depth: depth + 1 });
    }
  }
  return { document, uses, slots };
}

/**
 * Fills the whole-value placeholders (call it once checkPlacement accepted them) and serialises
 * the document again, so no card value can break out of its string. Types: a bare placeholder
 * takes its typed value (month and year integers, number and code strings); a quoted one is text
 * ("03", "2030"), except that a destination documented to want integer expiry fields (Checkout.com)
 * gets integers for a quoted expiry placeholder as well.
 */
export function fillJsonBody(parsed: ParsedJsonBody, card: CardData, typing: WholeValueTyping = 'string'): string {
  return JSON.stringify(parsed.document, function (this: object, key: string, value: unknown) {
    if (typeof value !== 'string') return value;
    const slot = parsed.slots.get(this)?.get(key);
    if (!slot) return value;
    const typed = slot.bare || (typing === 'integer-expiry' && (slot.name === 'expiration_month' || slot.name === 'expiration_year'));
    return typed ? placeholderValue(slot.name, card) : placeholderText(slot.name, card);
  });
}
