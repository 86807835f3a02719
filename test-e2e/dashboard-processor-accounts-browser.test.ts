import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PROCESSOR_MANIFESTS } from '@vaultline/contracts';
import { createMerchantOfBothModes, startSystem, type MerchantOfBothModes, type RunningSystem } from './support/merchant-api';
import { launchChromium } from './support/payment-scenario';

const ROOT = join(__dirname, '..');
const OUTPUT = join(ROOT, 'test-output', 'dashboard');

interface ProcessorView {
  id: string;
  display_name: string;
  credentials: { secret_field: string | null; fields: Array<{ name: string; label: string; secret: boolean; required: boolean }> };
  settings: Array<{ name: string; default: boolean }>;
  capabilities: { modes: string[] };
}

/**
 * The processor-account form is built from GET /processors (each processor's manifest): its processors
 * are the ones the API lists for the key's mode, its fields their credential fields (secret ones masked),
 * its checkboxes their settings. The dashboard's code names no processor, so a processor added to the
 * registry appears here with no dashboard change.
 */
describe('the processor-account form in a real browser (headless Chromium, embedded profile)', () => {
  let running: RunningSystem;
  let shop: MerchantOfBothModes;
  let browser: Browser;
  let page: Page;
  let processors: ProcessorView[];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), 'packages/dashboard'], { cwd: ROOT, stdio: 'ignore' });
    [running, browser] = await Promise.all([startSystem({}, 'vaultline-processor-form-'), launchChromium()]);
    shop = await createMerchantOfBothModes(running.system, 'Babbage Instruments');
    processors = (await shop.test.call('GET', '/processors')).json<{ data: ProcessorView[] }>().data;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  async function signIn(apiKey: string) {
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${running.system.baseUrl}/dashboard/#/processor-accounts`);
    await page.getByLabel('API key').fill(apiKey);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Processor accounts' }).waitFor();
    await page.getByRole('button', { name: 'Add an account' }).waitFor();
  }

  it('when GET /processors is asked, then it lists every processor of the manifests with its credential fields, settings and capabilities, and no host', async () => {
    expect(processors.map((processor) => processor.id)).toEqual(expect.arrayContaining(PROCESSOR_MANIFESTS.map((manifest) => manifest.id)));
    for (const manifest of PROCESSOR_MANIFESTS) {
      const listed = processors.find((processor) => processor.id === manifest.id)!;
      expect(listed).toMatchObject({
        display_name: manifest.display_name,
        credentials: { secret_field: manifest.credentials.secret_field },
        settings: manifest.settings.map(({ name }) => expect.objectContaining({ name })),
      });
      expect(listed.credentials.fields.map((field) => field.name)).toEqual(manifest.credentials.fields.map((field) => field.name));
      expect(Object.keys(listed).sort()).toEqual(['capabilities', 'credentials', 'display_name', 'id', 'notifies', 'object', 'settings']);
    }
  });

  it('when a merchant adds an account in test mode, then the form offers the processors of the API by name with their own fields, and the account is listed with its hint', async () => {
    await signIn(shop.test.apiKey);
    await page.getByRole('button', { name: 'Add an account' }).click();
    const offered = await page.getByLabel('Processor', { exact: true }).locator('option').allInnerTexts();
    expect(offered).toEqual(processors.filter((processor) => processor.capabilities.modes.includes('test')).map((processor) => processor.display_name));

    const chosen = PROCESSOR_MANIFESTS.find(
      (manifest) => manifest.credentials.fields.some((field) => !field.secret) && manifest.credentials.fields.some((field) => field.secret),
    )!;
    await page.getByLabel('Processor', { exact: true }).selectOption(chosen.id);
    for (const field of chosen.credentials.fields) {
      const input = page.locator(`#credential-${field.name}`);
      expect([field.name, await input.getAttribute('type'), await input.evaluate((element) => (element as { required: boolean }).required)]).toEqual([
        field.name,
        field.secret ? 'password' : 'text',
        field.required,
      ]);
      if (field.required) await input.fill(field.example);
    }
    for (const setting of chosen.settings) expect(await page.locator(`#setting-${setting.name}`).isChecked()).toBe(setting.default);
    await page.getByLabel('Name', { exact: true }).fill(`${chosen.display_name} from the dashboard`);
    await page.screenshot({ path: join(OUTPUT, 'processor-account-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Add the account' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT, 'processor-account-form-end.png'), fullPage: true });
    await page.getByRole('button', { name: 'Add the account' }).click();

    const row = page.getByRole('row', { name: new RegExp(`${chosen.display_name} from the dashboard`) });
    await row.waitFor();
    expect(await row.innerText()).toContain(chosen.display_name);
    const accounts = (await shop.test.call('GET', '/processor-accounts')).json<{
      data: Array<{ processor: string; name: string; credentials: { hint: string | null } }>;
    }>().data;
    const secret = chosen.credentials.fields.find((field) => field.name === chosen.credentials.secret_field)!.example;
    expect(accounts).toEqual([expect.objectContaining({ processor: chosen.id, credentials: expect.objectContaining({ hint: `…${secret.slice(-4)}` }) })]);
    await page.screenshot({ path: join(OUTPUT, 'processor-accounts-listed.png'), fullPage: true });
  }, 60_000);

  it('when a merchant signs in with a live key, then the form offers only the processors that serve live mode', async () => {
    await signIn(shop.live.apiKey);
    await page.getByRole('button', { name: 'Add an account' }).click();
    const offered = await page.getByLabel('Processor', { exact: true }).locator('option').allInnerTexts();
    expect(offered).toEqual(processors.filter((processor) => processor.capabilities.modes.includes('live')).map((processor) => processor.display_name));
    expect(offered.length).toBeLessThan(processors.length);
  }, 60_000);
});
