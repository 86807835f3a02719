import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

export interface RunningShop {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Runs the shop's documented command (`pnpm --filter @vaultline/example-shop start`) with this environment;
 * resolves once the shop says where it listens (its webhook endpoint registered, unless it was given a
 * `vaultline listen` secret).
 */
export function startShopCommand(env: Record<string, string>): Promise<RunningShop> {
  const child: ChildProcess = spawn('pnpm', ['--silent', '--filter', '@vaultline/example-shop', 'start'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    // Its own process group: pnpm, tsx and node stop together.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening) resolve({ url: listening[1]!, output: () => output, stop: () => stopGroup(child) });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the shop exited ${code} before listening:\n${output}`)));
  });
}

/** Stops a process started in a group of its own (detached), and waits for it to exit. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}
