// The worker half of bench/support/psp-stand-ins.ts (plain JavaScript: worker threads do not inherit
// tsx's loader, so the TypeScript stand-in is imported through tsx's API). One processor's stand-in per
// thread: `module` is its folder's dev/<id>.bench.ts, which exports `benchStandIn`.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { module, options } = workerData;
const { benchStandIn } = await tsImport(pathToFileURL(module).href, import.meta.url);
const server = await benchStandIn.start(options);

parentPort.on('message', (message) => {
  if (message.type === 'webhook-url') {
    server.webhookUrl = message.url;
    parentPort.postMessage({ type: 'webhook-url-set' });
  } else if (message.type === 'stop') {
    void server.stop().then(() => parentPort.close());
  }
});
parentPort.postMessage({ type: 'started', baseUrl: server.baseUrl, credentials: benchStandIn.credentials });
