import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '@vaultline/core';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

// One freePort for the whole tree (libs/core); still offered here, where the tests import it from.
export { freePort };

/**
 * Starts a throwaway redis-server on a free loopback port (no persistence), or on `port` (a server
 * stopped by a test and started again where its clients look for it).
 * Needs the Debian package redis-server (.ci/run installs it).
 */
export async function startRedisServer(options: { port?: number } = {}): Promise<RunningRedis> {
  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (error) => reject(new Error(`cannot start redis-server (apt-get install redis-server): ${error.message}`))),
  );
  await Promise.race([waitForPort(port, 5_000), spawnError]);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
