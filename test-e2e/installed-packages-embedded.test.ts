import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { freePort, waitFor } from '@vaultline/core';
import { startShopCommand, stopGroup, type RunningShop } from './support/example-shop';
import { installPackedPackages, type InstalledPackages } from './support/installed-packages';
import { MERCHANT_API_KEY, startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV, SIMULATOR_CARDS, submitCard } from './support/payment-scenario';

/**
 * The SDK and the CLI as a merchant's own project gets them (issue 36): both packed with `pnpm pack`,
 * installed with npm from their tarballs into an empty folder outside the workspace (offline), and run
 * from there against the embedded service: `npx vaultline payments list` (its time printed), the SDK
 * imported by name and type-checked against its declarations, and `vaultline listen` forwarding a captured
 * payment's webhook to the example shop, which verifies it with the secret listen printed.
 */
const run = promisify(execFile);
const root = join(__dirname, '..');

describe('the packed SDK and CLI installed into a project of their own, against the embedded service', () => {
  let installed: InstalledPackages;
  let running: RunningSystem;
  let env: Record<string, string>;

  beforeAll(async () => {
    // No WEBHOOK_ALLOW_PRIVATE_URLS: listen needs no endpoint at all.
    [installed, running] = await Promise.all([
      installPackedPackages(),
      startSystem({ ...PAYMENT_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }, 'vaultline-installed-'),
    ]);
    env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', VAULTLINE_API_KEY: MERCHANT_API_KEY, VAULTLINE_BASE_URL: running.system.baseUrl };
    console.log(`npm install of the two tarballs (offline): ${Math.round(installed.installMs)} ms`);
  }, 180_000);
  afterAll(async () => {
    await running?.stop();
    installed?.remove();
  });

  it('when packed, then the manifests name the built files and keep no workspace: range', () => {
    const { node, cli } = installed.packed;
    expect(JSON.stringify([node, cli])).not.toContain('workspace:');
    expect(node).toMatchObject({ name: '@vaultline/node', type: 'module', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } });
    expect(JSON.stringify(node.exports)).not.toContain('src/');
    expect(cli).toMatchObject({ name: '@vaultline/cli', bin: { vaultline: 'dist/main.js' } });
    expect(cli.dependencies ?? {}).toEqual({});
    for (const file of ['node/dist/index.js', 'node/dist/index.d.ts', 'node/README.md', 'cli/dist/main.js', 'cli/README.md']) {
      expect({ file, exists: existsSync(join(installed.dir, 'node_modules/@vaultline', file)) }).toEqual({ file, exists: true });
    }
  });

  it('when the project runs npx vaultline payments list, then it lists the payments (the time it took is printed)', async () => {
    const payment = await running.merchant.call('POST', '/payments/one-off', {
      json: { amount: 1200, currency_code: 'EUR', reference: 'installed-cli-1', source: { type: 'vaultline' } },
    });
    expect(payment.status).toBe(200);
    const started = performance.now();
    const { stdout } = await run('npx', ['--no-install', 'vaultline', 'payments', 'list'], { cwd: installed.dir, env });
    const ms = performance.now() - started;
    expect(stdout).toMatch(/^ID\s+STATUS\s+AMOUNT/);
    expect(stdout).toContain('installed-cli-1');
    // A figure, not an assertion: the machine may be loaded (the target is under 1 s).
    console.log(`npx vaultline payments list (installed CLI, embedded service): ${Math.round(ms)} ms`);
    const direct = performance.now();
    await run(process.execPath, [join(installed.dir, 'node_modules/.bin/vaultline'), 'payments', 'list'], { cwd: installed.dir, env });
    console.log(`node_modules/.bin/vaultline payments list (without npx): ${Math.round(performance.now() - direct)} ms`);
    const help = await run('npx', ['--no-install', 'vaultline', '--help'], { cwd: installed.dir, env });
    for (const command of ['payments', 'refunds', 'customers', 'tokens', 'listen', 'trigger']) expect(help.stdout).toContain(command);
  });

  it('when the project imports @vaultline/node by name, then plain Node runs it and TypeScript checks it against the installed declarations', async () => {
    const script =
      "import { Vaultline } from '@vaultline/node'; const v = new Vaultline(process.env.VAULTLINE_API_KEY, { baseUrl: process.env.VAULTLINE_BASE_URL }); const page = await v.get('/payments', { params: { query: { limit: 1 } } }); console.log(JSON.stringify({ mode: v.mode, listed: page.data.length }));";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: installed.dir, env });
    expect(JSON.parse(stdout)).toEqual({ mode: 'test', listed: 1 });

    copyFileSync(join(root, 'packages/node/test/consumer/consumer.mts'), join(installed.dir, 'consumer.mts'));
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
      '--typeRoots',
      join(root, 'node_modules/@types'),
      'consumer.mts',
    ];
    const outcome = await run(process.execPath, args, { cwd: installed.dir }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: error.stdout }),
    );
    expect(outcome).toEqual({ code: 0, output: '' });
  }, 60_000);

  describe('vaultline listen forwarding to the example shop', () => {
    let listen: ChildProcess;
    let shop: RunningShop;
    let listenOut = '';
    let listenErr = '';

    afterAll(async () => {
      if (listen) await stopGroup(listen);
      await shop?.stop();
    });

    it('when a payment of the shop is captured, then the installed CLI forwards its webhook, signed with the secret it printed, and the shop marks the order paid', async () => {
      const shopPort = await freePort();
      const forwardTo = `http://localhost:${shopPort}/webhooks/vaultline`;
      listen = spawn('npx', ['--no-install', 'vaultline', 'listen', '--forward-to', forwardTo], {
        cwd: installed.dir,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      listen.stdout!.on('data', (chunk: Buffer) => (listenOut += chunk.toString()));
      listen.stderr!.on('data', (chunk: Buffer) => (listenErr += chunk.toString()));
      const secret = await waitFor(() => /signing secret is (whsec_\S+)/.exec(listenErr)?.[1] ?? null, 60_000, 50);
      expect(() => new Webhook(secret)).not.toThrow();

      shop = await startShopCommand({
        VAULTLINE_API_KEY: MERCHANT_API_KEY,
        VAULTLINE_BASE_URL: running.system.baseUrl,
        PORT: String(shopPort),
        VAULTLINE_WEBHOOK_SECRET: secret,
      });
      await waitFor(() => shop.output().includes('no endpoint registered'), 30_000, 50);

      const ordered = await fetch(`${shop.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'product_id=guji-250&quantity=1',
        redirect: 'manual',
      });
      expect(ordered.status).toBe(303);
      const checkoutPath = ordered.headers.get('location')!;
      const orderPath = checkoutPath.replace(/\/checkout$/, '');
      const checkoutPage = await (await fetch(`${shop.url}${checkoutPath}`)).text();
      const sessionId = /sessionId: "([^"]+)"/.exec(checkoutPage)![1]!;
      await submitCard(running.system.baseUrl, sessionId, SIMULATOR_CARDS.approved);

      await waitFor(async () => /id="order-status" class="status paid"/.test(await (await fetch(`${shop.url}${orderPath}`)).text()), 60_000, 200);
      const forwarded = await waitFor(() => /payment\.captured\s+(\S+)\s+--> \[(\d+)\] POST (\S+)/.exec(listenOut), 30_000, 50);
      expect({ status: forwarded[2], url: forwarded[3] }).toEqual({ status: '204', url: forwardTo });
      expect(listenOut).toMatch(/payment\.processing\s+\S+\s+--> \[204\]/);
    }, 180_000);
  });
});
