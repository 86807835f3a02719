import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateApiKey } from '@vaultline/auth';

const root = join(__dirname, '../../..');
const bundle = join(__dirname, '../dist/main-embedded.js');
const START_TIMEOUT_MS = 20_000;

/** Resolves with the base URL the profile prints once it listens; rejects if it exits first. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the compiled profile exited with ${code}:\n${output}`));
    });
  });
}

const exitCodeOf = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));

describe('the compiled embedded profile', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-compiled-'));
  const apiKey = generateApiKey('test');
  let child: ChildProcess | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build.mjs'), 'deploy/launcher'], { cwd: root });
    // Plain node on the bundle: no tsx, no TypeScript loader.
    child = spawn(process.execPath, ['--enable-source-maps', bundle], {
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'warn',
        BOOTSTRAP_API_KEY: apiKey,
        // The default: the importer and the notifier on worker threads of their own, run from their own compiled bundle.
      },
    });
    baseUrl = await listeningUrl(child);
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await exitCodeOf(child);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when started with node from dist/, then it answers /health, lists imports from the importer thread, tokenizes a card, serves the checkout SDK and stops cleanly on SIGTERM', async () => {
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    // The importer answers from its thread (no tsx there either).
    const imports = await fetch(`${baseUrl}/tokens/imports`, { headers: { 'x-api-key': apiKey } });
    expect(imports.status).toBe(200);

    const created = await fetch(`${baseUrl}/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ card: { number: '4242424242424242', exp_month: 12, exp_year: 2030 } }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ masked_account_number: '424242******4242', scheme: 'VISA' });

    // Read at run time from next to the code (__dirname): the build copies it into dist/.
    const sdk = await fetch(`${baseUrl}/sdk/v1/checkout.js`);
    expect(sdk.status).toBe(200);

    child!.kill('SIGTERM');
    expect(await exitCodeOf(child!)).toBe(0);
  });
});
