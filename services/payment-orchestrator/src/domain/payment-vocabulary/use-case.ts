/** Why a payment is made: consumer-present (one-off, or the first of a series) or merchant-initiated (a subsequent one). */
export type UseCase = 'ONE_OFF' | 'RECURRING' | 'UNSCHEDULED' | 'SUBSEQUENT_RECURRING' | 'SUBSEQUENT_UNSCHEDULED';

const CONSUMER_PRESENT_USE_CASES: readonly UseCase[] = ['ONE_OFF', 'RECURRING', 'UNSCHEDULED'];

export function isConsumerPresent(useCase: UseCase): boolean {
  return CONSUMER_PRESENT_USE_CASES.includes(useCase);
}
