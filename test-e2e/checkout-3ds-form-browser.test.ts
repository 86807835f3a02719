import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { eventMessage } from '@vaultline/bus';
import { paymentActionRequiredV1, topics } from '@vaultline/contracts';
import { waitFor } from '@vaultline/core';
import { captureTopics, MERCHANT_SCOPE, PUBLIC, startVault, type VaultHarness } from '../services/vault/test/vault-harness';
import { openSession, paymentStatusMessage } from '../services/vault/test/checkout-helpers';
import { axeFindings, startFront } from './support/checkout-front';
import { launchChromium } from './support/payment-scenario';

/**
 * A bank whose 3-D Secure page takes a POST (Adyen's action.data, an ACS's creq): in Chromium, the hosted
 * page's way to the bank posts the form under its own form-action policy, the bank (a stand-in on loopback)
 * receives exactly the fields, and the consumer comes back to the hosted page with the bank's parameter.
 */
const OUTPUT = join(__dirname, '..', 'test-output', 'three-d-secure');

describe('3-D Secure with a bank page that takes a POST, in Chromium', () => {
  let vault: VaultHarness;
  let front: { url: string; close(): Promise<void> };
  let browser: Browser;
  let bank: { url: string; posted: string[]; server: Server };

  beforeAll(async () => {
    vault = await startVault();
    front = await startFront(vault, () => '<!doctype html><title>Shop</title>');
    browser = await launchChromium();
    const posted: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        posted.push(`${req.method} ${Buffer.concat(chunks).toString('utf8')}`);
        const back = new URL(req.url ?? '/', 'http://bank').searchParams.get('back') ?? '';
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><html lang="en"><title>Bank</title><main><h1>Your bank</h1><a href="${back}?PaRes=pares-value-1&other=x">Done</a></main></html>`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    bank = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posted, server };
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => bank?.server.close(resolve));
    await front?.close();
    await vault?.stop();
  });

  it('when the bank asks for a POST, then Chromium posts its form to the bank, and back on the return address the hosted page passes only the named parameter on and shows the payment going on', async () => {
    const returned = await captureTopics(vault.runtime.bus, [topics.checkoutSessionsCompleted]);
    const { sessionId, paymentId } = await openSession(vault, { returnUrl: null });
    const page = await browser.newPage({ viewport: { width: 420, height: 760 } });
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    await page.goto(`${front.url}/checkout/${sessionId}`);
    await page.getByLabel('Card number').pressSequentially('4000000000003063');
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /Pay/ }).click();
    await waitFor(async () => (await vault.call(PUBLIC, 'GET', `/sessions/${sessionId}/status`)).body.state === 'completed', 15_000, 50);

    // The orchestrator's word: the consumer must authenticate, on a bank page that takes a POST.
    const processing = JSON.parse(paymentStatusMessage(paymentId, 'processing').value) as { data: Record<string, unknown> };
    const action = {
      type: 'redirect' as const,
      url: `${bank.url}/acs?back=${encodeURIComponent(`${front.url}/checkout/${sessionId}/return`)}`,
      method: 'POST' as const,
      data: { creq: 'eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEifQ', MD: 'md & more' },
      return_parameters: ['PaRes'],
    };
    await vault.runtime.bus.publish([eventMessage(paymentActionRequiredV1, { scope: MERCHANT_SCOPE, data: { ...processing.data, action } as never })]);

    await page.getByRole('heading', { name: 'Your bank' }).waitFor({ timeout: 20_000 });
    expect(bank.posted.filter((request) => request.startsWith('POST'))).toEqual(['POST creq=eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjEifQ&MD=md+%26+more']);
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Checking with your bank…' }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).search).toBe('');
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, '3ds-back-checking.png') });
    expect(await axeFindings(page)).toEqual([]);
    await waitFor(() => returned.events().some((e) => e.type === 'checkout.session.returned'), 10_000, 20);
    expect(returned.events().find((e) => e.type === 'checkout.session.returned')).toMatchObject({
      data: { session_id: sessionId, payment_id: paymentId, parameters: { PaRes: 'pares-value-1' } },
    });
    for (const address of addresses) expect(address).not.toContain('4000000000003063');
    await returned.stop();
    await page.close();
  }, 90_000);
});
