import { cardFieldsForPath, type CardFieldProfile, type CardFields, type ProcessorDestination } from '@vaultline/contracts';
import { PlaceholderNotAllowedError } from './forward-errors';
import type { PlaceholderName } from './placeholders';

/**
 * The card fields of a destination (the processors' manifests declare them, libs/contracts processor-manifest.ts): each
 * field that may hold card data and the one placeholder it takes. A placeholder anywhere else — inside
 * other text, in another field, in a key — could make a destination echo card data back to the merchant,
 * so it is refused.
 */

const NO_CARD_FIELDS: CardFieldProfile = { fields: {}, typing: 'string' };

/**
 * The card fields of the catalog entry whose path ends `path` (the longest wins, so `/stand-in/v69/payments`
 * takes those of `/v69/payments` rather than `/payments`); none when no path matches.
 */
export function profileForPath(path: string, catalog: readonly ProcessorDestination[]): CardFieldProfile {
  return cardFieldsForPath(path, catalog) ?? NO_CARD_FIELDS;
}

/** A field as declared: its key path for JSON bodies, its name for form bodies. */
function cardFieldPath(field: string): string[] {
  return field.split('.');
}

/** One place in a body where placeholder text appears. */
export interface PlaceholderUse {
  /** The field as a merchant reads it (`paymentMethod.number`, `items[0].name`, `card[number]`). */
  field: string;
  /** JSON: the keys and indexes down to the value; form: the field name alone. */
  path: ReadonlyArray<string | number>;
  /** The placeholder when it is the whole value (quoted or bare); null for text around it, several, or a key. */
  whole: PlaceholderName | null;
}

/** The placeholders a body may be filled with, once every use is a whole value of its own card field. */
export function checkPlacement(uses: readonly PlaceholderUse[], fields: CardFields, format: 'json' | 'form'): PlaceholderName[] {
  const names: PlaceholderName[] = [];
  for (const use of uses) {
    const declared = use.whole === null ? undefined : declaredField(use, fields, format);
    if (declared === undefined || fields[declared] !== use.whole) throw new PlaceholderNotAllowedError(use.field, Object.keys(fields));
    names.push(use.whole!);
  }
  return names;
}

function declaredField(use: PlaceholderUse, fields: CardFields, format: 'json' | 'form'): string | undefined {
  if (format === 'form') return typeof use.path[0] === 'string' && use.path.length === 1 && Object.hasOwn(fields, use.path[0]) ? use.path[0] : undefined;
  // Compared key by key: a key that itself contains a dot never passes for a nested field.
  return Object.keys(fields).find((field) => {
    const keys = cardFieldPath(field);
    return keys.length === use.path.length && keys.every((key, i) => use.path[i] === key);
  });
}
