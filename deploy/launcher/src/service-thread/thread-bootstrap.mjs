// Entry of a service thread: registers tsx in this worker (whatever loaded the parent: tsx, or jest
// with its own transform), for import and require as `node --import tsx` does, then loads the module
// named in workerData.entry.
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

registerEsm();
registerCjs();
await import(pathToFileURL(workerData.entry).href);
