import { processorContract, type ProcessorContractCases } from './processor.contract';
import { processorPlugins } from './registry';

// Every registered plugin passes the one contract, against the cases in its folder (<id>/<id>.contract-cases.ts):
// a plugin registered without them fails here.
for (const id of Object.keys(processorPlugins)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { contractCases } = require(`./${id}/${id}.contract-cases`) as { contractCases: ProcessorContractCases };
  processorContract(id, contractCases);
}
