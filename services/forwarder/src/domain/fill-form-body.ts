import type { CardData } from './card-data';
import type { PlaceholderUse } from './card-fields';
import { hasPlaceholder, placeholderText, wholePlaceholderOf } from './placeholders';

interface FormPair {
  /** The pair exactly as received, kept when it holds no placeholder. */
  raw: string;
  /** The key as received (URL-encoded) and decoded. */
  key: string;
  name: string;
  value: string;
}

export interface ParsedFormBody {
  pairs: FormPair[];
  /** Every place placeholder text appears, for checkPlacement. */
  uses: PlaceholderUse[];
}

function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** application/x-www-form-urlencoded serialisation of one component (WHATWG: space as +). */
function encodeFormComponent(text: string): string {
  return new URLSearchParams([['', text]]).toString().slice(1);
}

/** Splits the form body keeping field order and the original bytes of every field. */
export function parseFormBody(raw: string): ParsedFormBody {
  const pairs: FormPair[] = raw
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      const key = eq === -1 ? part : part.slice(0, eq);
      const value = eq === -1 ? '' : part.slice(eq + 1);
      return { raw: part, key, name: decodeComponent(key), value: decodeComponent(value) };
    });
  const uses: PlaceholderUse[] = [];
  for (const pair of pairs) {
    if (hasPlaceholder(pair.name)) uses.push({ field: pair.name, path: [pair.name], whole: null });
    else if (hasPlaceholder(pair.value)) uses.push({ field: pair.name, path: [pair.name], whole: wholePlaceholderOf(pair.value) });
  }
  return { pairs, uses };
}

/** Fills the whole-value placeholders (once checkPlacement accepted them), URL-encoded; other pairs keep their bytes. */
export function fillFormBody(parsed: ParsedFormBody, card: CardData): string {
  return parsed.pairs
    .map((pair) => {
      const name = wholePlaceholderOf(pair.value);
      return name === null ? pair.raw : `${pair.key}=${encodeFormComponent(placeholderText(name, card))}`;
    })
    .join('&');
}
