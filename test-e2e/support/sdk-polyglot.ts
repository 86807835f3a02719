import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '@vaultline/contracts';
import { STAND_IN_CREDENTIALS, startDestinationStandIns, type DestinationStandIns } from './destination-stand-ins';
import { MERCHANT_API_KEY, startSystem, type RunningSystem } from './merchant-api';
import { PAYMENT_ENV } from './payment-scenario';
import { merchantRoutes } from './sdk-answers';

/**
 * What the Python and Go SDKs' tests need from the repository: their dependencies installed
 * (sdks/install-test-deps, a no-op when up to date), the embedded service with the destination stand-in the
 * shared scenario forwards to, and the environment that names them; the merchant route count and the API's
 * version from the OpenAPI document, to compare with what each SDK's test prints.
 */
export const ROOT = join(__dirname, '../..');
export const SDKS = join(ROOT, 'sdks');
export const SDK_VENV = process.env.VAULTLINE_SDK_VENV ?? join(process.env.VAULTLINE_CACHE ?? join(homedir(), '.cache/vaultline'), 'sdk-python-venv');

export interface CommandResult {
  code: number | null;
  output: string;
}

/**
 * A command run without blocking this process (the embedded service answers from it meanwhile), its
 * stdout and stderr kept together; `minutes` bounds it, generously (a loaded machine is slow, never stuck).
 */
export function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string>; minutes: number }): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.minutes * 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export async function installSdkTestDeps(): Promise<void> {
  const result = await run(join(SDKS, 'install-test-deps'), [], { cwd: SDKS, minutes: 10 });
  if (result.code !== 0) throw new Error(`sdks/install-test-deps failed:\n${result.output}`);
}

/** The merchant routes of the OpenAPI document (the operator API, X-Admin-Key, is not the SDKs'). */
export const merchantRouteCount = (): number => merchantRoutes.length;

export const apiVersion = (): string => (buildOpenApiDocument().info as { version: string }).version;

export interface ContractService {
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** The embedded service on a free port with the Adyen stand-in allowed as a forward destination, as the Node SDK's contract test runs it. */
export async function startContractService(dataDirPrefix: string): Promise<ContractService> {
  const standIns: DestinationStandIns = await startDestinationStandIns();
  let running: RunningSystem;
  try {
    running = await startSystem({ ...PAYMENT_ENV, ...standIns.forwarderEnv }, dataDirPrefix);
  } catch (error) {
    await standIns.stop();
    throw error;
  }
  return {
    env: {
      VAULTLINE_BASE_URL: running.system.baseUrl,
      VAULTLINE_API_KEY: MERCHANT_API_KEY,
      VAULTLINE_FORWARD_URL: standIns.adyen.url,
      VAULTLINE_FORWARD_API_KEY: STAND_IN_CREDENTIALS.adyenApiKey,
      VAULTLINE_API_VERSION: apiVersion(),
    },
    stop: async () => {
      await running.stop();
      await standIns.stop();
    },
  };
}

/** The lines of a run worth keeping in CI's log: the route count, failures and the runner's closing line. */
export function logWorthy(output: string, pattern: RegExp): string {
  return output
    .split('\n')
    .filter((line) => pattern.test(line))
    .join('\n');
}
