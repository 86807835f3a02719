import type { ProcessorContractCases } from '../processor.contract';
import { simulator } from '.';

/** The simulator itself: no network, no notifications, no credentials. */
export const contractCases: ProcessorContractCases = {
  start: async () => ({
    plugin: simulator,
    options: { capture_delay_ms: 0 },
    invalidOptions: { capture_delay_ms: -1 },
    credentials: {},
    otherCredentials: {},
    invalidCredentials: { api_key: 'x' },
    approved: { masked_account_number: '424242******4242' },
    declined: { masked_account_number: '400000******0002' },
    threeDs: {
      challenged: { masked_account_number: '400000******3063' },
      // What the simulator's challenge page gives back: its buttons add the consumer's choice to the return address.
      consumerReturns: async (_action, outcome) => ({ simulator_challenge: outcome }),
    },
    stop: async () => undefined,
  }),
};
