import { AppError, newId, NotFoundError, ValidationError, type Clock } from '@vaultline/core';
import type { Page, PageRequest } from '@vaultline/store';
import { ruleFromUrl } from './destination-policy';
import type { MerchantDestination, NewDestination } from './merchant-destination';
import type { DestinationRepository, TransactionRunner } from './ports';

/** POST /admin/destinations: refuses what the forward-time policy would refuse. */
export type AddDestination = (merchantId: string, destination: NewDestination) => Promise<MerchantDestination>;

export interface AddDestinationPorts {
  destinations: Pick<DestinationRepository, 'insert'>;
  transaction: TransactionRunner;
  clock: Clock;
  /** FORWARD_HTTPS_ONLY: destinations must use https. */
  httpsOnly: boolean;
}

export function addDestination({ destinations, transaction, clock, httpsOnly }: AddDestinationPorts): AddDestination {
  return async (merchantId, { url, cardFields, mode }) => {
    validateDestinationUrl(url, httpsOnly);
    return transaction((uow) =>
      destinations.insert(uow, { id: newId(), merchant_id: merchantId, url: url.trim(), card_fields: cardFields, mode, created_at: clock.now().toISOString() }),
    );
  };
}

/** GET /admin/destinations?merchant_id=… */
export type ListDestinations = (merchantId: string, page: PageRequest) => Promise<Page<MerchantDestination>>;

export function listDestinations({ destinations }: { destinations: Pick<DestinationRepository, 'list'> }): ListDestinations {
  return (merchantId, page) => destinations.list(merchantId, page);
}

/** DELETE /admin/destinations/{id}?merchant_id=…; another merchant's destination is not found. */
export type RemoveDestination = (merchantId: string, id: string) => Promise<void>;

export function removeDestination({
  destinations,
  transaction,
}: {
  destinations: Pick<DestinationRepository, 'get' | 'delete'>;
  transaction: TransactionRunner;
}): RemoveDestination {
  return async (merchantId, id) => {
    const existing = await destinations.get(merchantId, id);
    if (!existing) throw new NotFoundError('forward_destination');
    await transaction((uow) => destinations.delete(uow, existing));
  };
}

/** Refuses what the forward-time policy would refuse: non-canonical URLs, IP literals, query strings, http in production. */
function validateDestinationUrl(url: string, httpsOnly: boolean): void {
  let protocol: string;
  try {
    protocol = ruleFromUrl('candidate', url, false).protocol;
  } catch (error) {
    if (error instanceof AppError) throw new ValidationError('url', error.message, 'invalid_destination');
    throw error;
  }
  if (httpsOnly && protocol !== 'https:') throw new ValidationError('url', 'Destinations must use https.', 'invalid_destination');
}
