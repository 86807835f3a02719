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
    stop: async () => undefined,
  }),
};
