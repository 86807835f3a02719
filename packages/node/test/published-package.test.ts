import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The package as its users get it: built into dist/ (ESM and .d.ts), imported by name from plain Node
 * without the workspace's source condition, and type-checked the way a NodeNext project checks it.
 */
const run = promisify(execFile);
const packageDir = join(__dirname, '..');
const root = join(packageDir, '../..');

describe('the published SDK', () => {
  beforeAll(async () => {
    // Built when missing or stale only: another test may be using dist/ right now.
    await run(process.execPath, [join(root, 'scripts/build-served.mjs'), 'packages/node'], { cwd: root });
  }, 120_000);

  it('when plain Node imports @vaultline/node, then it gets the built ES module with its classes', async () => {
    const script =
      "import { Vaultline, VaultlineError, webhooks } from '@vaultline/node'; const v = new Vaultline('sk_live_x'); console.log(JSON.stringify([v.mode, v.livemode, typeof VaultlineError, typeof webhooks.verify, import.meta.resolve('@vaultline/node')]));";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir });
    const [mode, livemode, errorClass, verify, resolved] = JSON.parse(stdout) as [string, boolean, string, string, string];
    expect({ mode, livemode, errorClass, verify }).toEqual({ mode: 'live', livemode: true, errorClass: 'function', verify: 'function' });
    expect(resolved).toMatch(/\/dist\/index\.js$/);
  });

  it('when a NodeNext TypeScript project uses it, then its calls type-check and wrong paths and bodies do not', async () => {
    const tsc = require.resolve('typescript/bin/tsc');
    const args = [
      tsc,
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--skipLibCheck',
      '--types',
      'node',
      'test/consumer/consumer.mts',
    ];
    const outcome = await run(process.execPath, args, { cwd: packageDir }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
    );
    expect(outcome).toEqual({ code: 0, output: '' });
  }, 60_000);
});
