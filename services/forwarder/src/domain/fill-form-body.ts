import type { CardData } from './card-data';
import { placeholdersIn, replaceInText, type PlaceholderName } from './placeholders';

interface FormPair {
  /** The pair exactly as received, kept when it holds no placeholder. */
  raw: string;
  key: string;
  value: string;
}

export interface ParsedFormBody {
  pairs: FormPair[];
  placeholders: PlaceholderName[];
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
export function encodeFormComponent(text: string): string {
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
      return { raw: part, key, value: decodeComponent(value) };
    });
  return { pairs, placeholders: pairs.flatMap((pair) => placeholdersIn(pair.value)) };
}

/** Substitutes placeholders in values (never in keys) and URL-encodes the filled values. */
export function fillFormBody(parsed: ParsedFormBody, card: CardData): string {
  return parsed.pairs
    .map((pair) => (placeholdersIn(pair.value).length === 0 ? pair.raw : `${pair.key}=${encodeFormComponent(replaceInText(pair.value, card))}`))
    .join('&');
}
