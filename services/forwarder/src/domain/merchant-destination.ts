import type { StoredDocument } from '@vaultline/store';
import type { CardFields, ProcessorDestination } from '@vaultline/contracts';
import { ruleFromUrl, type DestinationRule } from './destination-policy';

/** A destination an operator allowed for one merchant, besides the catalog and the operator list. */
export interface MerchantDestination extends Omit<StoredDocument, 'mode'> {
  url: string;
  /** Its own card fields; null: those of the catalog entry whose path ends its path. Absent on records written before. */
  card_fields?: CardFields | null;
  /** The one API key mode it serves; null: both. */
  mode?: 'test' | 'live' | null;
  created_at: string;
}

export interface NewDestination {
  url: string;
  cardFields: CardFields | null;
  mode: 'test' | 'live' | null;
}

/** The forward-time rule of a merchant destination (card fields from the catalog when it names none). */
export function merchantDestinationRule(destination: MerchantDestination, catalog: readonly ProcessorDestination[]): DestinationRule {
  return ruleFromUrl(`merchant:${destination.id}`, destination.url, false, {
    cardFields: destination.card_fields ?? undefined,
    mode: destination.mode ?? undefined,
    catalog,
  });
}
