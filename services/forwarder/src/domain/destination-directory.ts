import { BUILT_IN_DESTINATIONS, type DestinationRule } from './destination-policy';

/** Port: the destinations one merchant added through the admin API. */
export interface MerchantDestinationSource {
  rulesOf(merchantId: string): Promise<DestinationRule[]>;
}

/** Catalog + operator list (FORWARD_EXTRA_DESTINATIONS) + the merchant's own destinations. */
export function createDestinationDirectory(operatorRules: readonly DestinationRule[], merchantRules: MerchantDestinationSource) {
  return {
    async rulesFor(merchantId: string): Promise<DestinationRule[]> {
      return [...BUILT_IN_DESTINATIONS, ...operatorRules, ...(await merchantRules.rulesOf(merchantId))];
    },
  };
}

export type DestinationDirectory = ReturnType<typeof createDestinationDirectory>;
