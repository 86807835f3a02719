import { BUILT_IN_DESTINATIONS, ruleFromUrl, type DestinationRule } from './destination-policy';
import type { DestinationRepository } from './ports';

/** The destinations one merchant may forward to. */
export interface DestinationDirectory {
  rulesFor(merchantId: string): Promise<DestinationRule[]>;
}

/** Most destinations a merchant's own list holds that forwarding looks at. */
const MERCHANT_DESTINATIONS_READ = 200;

/** Catalog + operator list (FORWARD_EXTRA_DESTINATIONS) + the merchant's own destinations. */
export function destinationDirectory({ operatorRules, destinations }: { operatorRules: readonly DestinationRule[]; destinations: Pick<DestinationRepository, 'list'> }): DestinationDirectory {
  return {
    async rulesFor(merchantId) {
      const own = await destinations.list(merchantId, { limit: MERCHANT_DESTINATIONS_READ });
      return [...BUILT_IN_DESTINATIONS, ...operatorRules, ...own.items.map((destination) => ruleFromUrl(`merchant:${destination.id}`, destination.url, false))];
    },
  };
}
