import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpBalancer {
  port: number;
  close(): Promise<void>;
}

/**
 * What a Kubernetes Service does for the replicas of one service, on loopback: each connection to `port` goes
 * to the next replica in turn, and to the one after it when that one refuses (killed, restarting). Bytes pass
 * through untouched, so mutual TLS stays between the caller and the replica.
 */
export async function startTcpBalancer(host: string, port: number, backends: () => number[]): Promise<TcpBalancer> {
  let next = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.pause();
    const ports = backends();
    const tryBackend = (attempt: number): void => {
      if (attempt >= ports.length) {
        client.destroy();
        return;
      }
      const backendPort = ports[(next + attempt) % ports.length]!;
      const backend = connect(backendPort, host);
      backend.once('connect', () => {
        next = (next + attempt + 1) % ports.length;
        sockets.add(backend);
        backend.once('close', () => sockets.delete(backend));
        backend.on('error', () => client.destroy());
        client.on('error', () => backend.destroy());
        client.pipe(backend).pipe(client);
        client.resume();
      });
      backend.once('error', (error: NodeJS.ErrnoException) => {
        if (backend.connecting || error.code === 'ECONNREFUSED') tryBackend(attempt + 1);
      });
    };
    tryBackend(0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
