import type { ProcessorDestination } from '@vaultline/contracts';
import { catalogRules, type DestinationRule } from './destination-policy';
import { merchantDestinationRule } from './merchant-destination';
import type { DestinationRepository } from './ports';

/** The destinations one merchant may forward to. */
export interface DestinationDirectory {
  rulesFor(merchantId: string): Promise<DestinationRule[]>;
}

/** Most destinations a merchant's own list holds that forwarding looks at. */
const MERCHANT_DESTINATIONS_READ = 200;

/** Catalog (the processors' card-data destinations) + operator list (FORWARD_EXTRA_DESTINATIONS) + the merchant's own destinations. */
export function destinationDirectory({
  catalog,
  operatorRules,
  destinations,
}: {
  catalog: readonly ProcessorDestination[];
  operatorRules: readonly DestinationRule[];
  destinations: Pick<DestinationRepository, 'list'>;
}): DestinationDirectory {
  const builtIn = catalogRules(catalog);
  return {
    async rulesFor(merchantId) {
      const own = await destinations.list(merchantId, { limit: MERCHANT_DESTINATIONS_READ });
      return [...builtIn, ...operatorRules, ...own.items.map((destination) => merchantDestinationRule(destination, catalog))];
    },
  };
}
