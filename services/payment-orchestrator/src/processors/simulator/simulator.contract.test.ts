import { processorContract } from '../processor.contract';
import { simulator } from '.';

processorContract('simulator', {
  plugin: simulator,
  options: { capture_delay_ms: 0 },
  invalidOptions: { capture_delay_ms: -1 },
  approved: { masked_account_number: '424242******4242' },
  declined: { masked_account_number: '400000******0002' },
  threeDs: {
    challenged: { masked_account_number: '400000******3063' },
    // What the simulator's challenge page gives back: its buttons add the consumer's choice to the return address.
    consumerReturns: async (_action, outcome) => ({ simulator_challenge: outcome }),
  },
});
