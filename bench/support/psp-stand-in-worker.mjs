// The worker half of bench/support/psp-stand-ins.ts (plain JavaScript: worker threads do not inherit
// tsx's loader, so the TypeScript stand-ins are imported through tsx's API). One PSP stand-in per thread.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { processor, options } = workerData;
const server =
  processor === 'adyen'
    ? await (await tsImport('../../test-e2e/support/adyen-stand-in.ts', import.meta.url)).startAdyenStandIn(options)
    : await (await tsImport('../../test-e2e/support/checkout-stand-in.ts', import.meta.url)).startCheckoutStandIn(options);

parentPort.on('message', (message) => {
  if (message.type === 'webhook-url') {
    server.webhookUrl = message.url;
    parentPort.postMessage({ type: 'webhook-url-set' });
  } else if (message.type === 'stop') {
    void server.stop().then(() => parentPort.close());
  }
});
parentPort.postMessage({ type: 'started', baseUrl: server.baseUrl });
