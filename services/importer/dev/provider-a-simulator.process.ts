/**
 * Starts the provider_a simulator in a child process (provider-a-simulator.main.ts) — dev tooling
 * for benchmarks, where the platform's stand-in must not share the measured process's event loop
 * and heap. Tests that need its stats, injected failures or pauses use startProviderASimulator
 * in-process instead.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { CONTROL_PREFIX, type InjectedFailure } from './provider-a-simulator';

/** stdout protocol of provider-a-simulator.main.ts: one line each, in this order. */
export const LISTENING_PREFIX = 'provider_a simulator listening on ';
export const CPU_PREFIX = 'provider_a simulator cpu ';

export interface SimulatorProcessOptions {
  apiKey: string;
  customers: number;
  cardsPerCustomer: number;
  accountTag?: string;
  /** Destinations enabled for the account from the start (more with enableForwardingTo). */
  forwardingDestinations?: string[];
  /** Lets destinations be plain http on a loopback host. */
  allowHttpLoopbackDestinations?: boolean;
  /** 0 (the default) picks a free port. */
  port?: number;
  startTimeoutMs?: number;
}

/** What the simulator process reports when it stops. */
export interface SimulatorProcessUsage {
  user_ms: number;
  system_ms: number;
  forward_requests: number;
  /** Forwards that really went out (the others were answered from a saved Idempotency-Key, or refused). */
  outbound_forwards: number;
  idempotent_replays: number;
  list_requests: number;
}

export interface SimulatorProcess {
  baseUrl: string;
  pid: number;
  /** Enables forwarding to this destination for the account (the platform's onboarding). */
  enableForwardingTo(url: string): Promise<void>;
  /** The next matching requests answer with an injected error (429 on demand, with or without Retry-After). */
  inject(failure: InjectedFailure): Promise<void>;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s); its CPU time when it could report it. */
  stop(): Promise<SimulatorProcessUsage | null>;
}

const MAIN = join(__dirname, 'provider-a-simulator.main.ts');

export function spawnProviderASimulator(options: SimulatorProcessOptions): Promise<SimulatorProcess> {
  // cwd here so that `--import tsx` resolves from this repository wherever the caller was started.
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: __dirname,
    env: {
      ...process.env,
      API_KEY: options.apiKey,
      CUSTOMERS: String(options.customers),
      CARDS_PER_CUSTOMER: String(options.cardsPerCustomer),
      ACCOUNT_TAG: options.accountTag ?? '',
      FORWARDING_DESTINATIONS: (options.forwardingDestinations ?? []).join(','),
      ALLOW_HTTP_LOOPBACK_DESTINATIONS: String(options.allowHttpLoopbackDestinations ?? false),
      PORT: String(options.port ?? 0),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never leave the simulator behind when the caller exits, however it exits.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let usage: SimulatorProcessUsage | null = null;
  // 'close', not 'exit': the CPU line may still be in the pipe when the process has exited.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void exited.then(() => process.removeListener('exit', killOnExit));

  return new Promise<SimulatorProcess>((resolve, reject) => {
    let listening = false;
    // Until it listens, what it says on stderr is kept for the error; afterwards it is passed on.
    let startupErrors = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (listening) process.stderr.write(chunk);
      else startupErrors = (startupErrors + chunk.toString('utf8')).slice(0, 4_000);
    });
    const timeout = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('provider_a simulator process did not start listening in time'));
    }, options.startTimeoutMs ?? 30_000);
    void exited.then(() => {
      clearTimeout(timeout);
      if (!listening)
        reject(new Error(`provider_a simulator process exited (code ${child.exitCode}) before listening: ${startupErrors.trim().split('\n')[0] ?? ''}`));
    });

    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith(CPU_PREFIX)) {
        usage = JSON.parse(line.slice(CPU_PREFIX.length)) as SimulatorProcessUsage;
        return;
      }
      if (listening || !line.startsWith(LISTENING_PREFIX)) return;
      listening = true;
      clearTimeout(timeout);
      const baseUrl = line.slice(LISTENING_PREFIX.length).split(' ')[0]!;
      const configure = async (path: string, body: unknown) => {
        const answer = await fetch(`${baseUrl}${CONTROL_PREFIX}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (answer.status !== 200) throw new Error(`provider_a simulator refused ${path}: ${answer.status} ${await answer.text()}`);
      };
      resolve({
        baseUrl,
        pid: child.pid!,
        enableForwardingTo: (url) => configure('/forwarding_destinations', { url }),
        inject: (failure) => configure('/failures', failure),
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
            await exited;
            clearTimeout(forced);
          }
          return usage;
        },
      });
    });
  });
}
