import { processorContract } from '../processor.contract';
import { simulator } from '.';

processorContract('simulator', {
  plugin: simulator,
  options: { capture_delay_ms: 0 },
  invalidOptions: { capture_delay_ms: -1 },
  approved: { masked_account_number: '424242******4242' },
  declined: { masked_account_number: '400000******0002' },
});
