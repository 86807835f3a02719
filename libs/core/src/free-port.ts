import { createServer, type AddressInfo } from 'node:net';

/**
 * A loopback port nothing listens on right now (the kernel's choice), for a server that starts later
 * or in another thread or process. Another program may take it in between; callers start soon after.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
