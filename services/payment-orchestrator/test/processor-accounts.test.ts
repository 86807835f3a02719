import { newId } from '@vaultline/core';
import { validateAgainstOpenApi } from '@vaultline/contracts';
import { AesGcmSecretSealer } from '@vaultline/crypto';
import { openCredentials } from '../src/domain/processor-accounts/manage-processor-accounts';
import { processorPlugins } from '../src/processors/registry';
import { MERCHANT, OTHER_MERCHANT, TEST_SECRET_KEY, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator({ env: { FORWARD_EXTRA_DESTINATIONS: 'http://127.0.0.1:4010/v69/payments,http://127.0.0.1:4020/payments' } });
});
afterEach(async () => {
  await h.stop();
});

const API_KEY = 'AQEyhmfxK4PJaBFHw0m_adyen_api_key_Zz42';
const adyenAccount = (overrides: Record<string, unknown> = {}) => ({
  processor: 'adyen',
  name: 'Adyen EU',
  credentials: { api_key: API_KEY, merchant_account: 'ShopECOM', hmac_key: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056' },
  ...overrides,
});
const checkoutAccount = {
  processor: 'checkout',
  name: 'Checkout.com',
  credentials: {
    secret_key: 'sk_sbox_m73dzbpy7cf3gfd46xr4yj5xo4e',
    processing_channel_id: 'pc_q4dbxom5jbgudnjzjpz7j2z6uq',
    webhook_secret: 'whsec_checkout_secret_10123456789abcde',
  },
  settings: { base_url: 'http://127.0.0.1:4020' },
};

describe('processor accounts', () => {
  it("when GET /processors is asked, then it lists every registered processor as its manifest says (credential fields, the hint's secret, settings) with its capabilities, valid against the API document", async () => {
    const listed = await h.call(MERCHANT, 'GET', '/processors');
    expect(listed.status).toBe(200);
    expect(validateAgainstOpenApi('GET', '/processors', 200, listed.body)).toEqual({ valid: true, errors: [] });
    expect(listed.body.data.map((processor: Json) => processor.id)).toEqual(Object.keys(processorPlugins));
    for (const plugin of Object.values(processorPlugins)) {
      const view = listed.body.data.find((processor: Json) => processor.id === plugin.manifest.id);
      expect(view).toMatchObject({
        display_name: plugin.manifest.display_name,
        credentials: { secret_field: plugin.manifest.credentials.secret_field },
        notifies: plugin.notifications !== undefined,
        capabilities: { modes: [...plugin.capabilities.modes], multiple_captures: plugin.capabilities.multipleCaptures },
      });
      expect(view.credentials.fields.map((field: Json) => [field.name, field.secret, field.required])).toEqual(
        plugin.manifest.credentials.fields.map((field) => [field.name, field.secret, field.required]),
      );
      expect(view.settings.map((setting: Json) => [setting.name, setting.default])).toEqual(
        plugin.manifest.settings.map((setting) => [setting.name, setting.default]),
      );
    }
  });

  it('when a merchant creates an Adyen account, then it answers 201 with an id, the settings and only a masked hint of the credentials', async () => {
    const created = await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      livemode: false,
      processor: 'adyen',
      name: 'Adyen EU',
      settings: { base_url: null, multiple_partial_captures: false },
      credentials: { hint: '…Zz42', updated_at: '2026-06-01T10:00:00.000Z' },
      created_at: '2026-06-01T10:00:00.000Z',
      updated_at: '2026-06-01T10:00:00.000Z',
    });
  });

  it('when a simulator account is created without settings, then it shows approval_rate 1 and no outage; an Adyen account given approval_rate answers 422 naming settings.approval_rate', async () => {
    const simulator = await h.call(MERCHANT, 'POST', '/processor-accounts', { processor: 'simulator', name: 'sim', settings: {} });
    expect(simulator.status).toBe(201);
    expect(simulator.body.settings).toEqual({ base_url: null, explicit_unscheduled: true, approval_rate: 1, outage: [], seed: null });
    const adyen = await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount({ settings: { approval_rate: 0.5 } }));
    expect(adyen).toMatchObject({ status: 422, body: { field: 'settings.approval_rate' } });
  });

  it('when accounts are listed or read, then no answer and no stored document holds a credential in the clear', async () => {
    const created = await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount());
    await h.call(MERCHANT, 'POST', '/processor-accounts', checkoutAccount);
    const list = await h.call(MERCHANT, 'GET', '/processor-accounts');
    expect(list.body.data.map((a: Json) => a.processor)).toEqual(['adyen', 'checkout']);
    const one = await h.call(MERCHANT, 'GET', `/processor-accounts/${created.body.id}`);
    expect(one.body.name).toBe('Adyen EU');
    // The answers are what the OpenAPI document says.
    expect(validateAgainstOpenApi('GET', '/processor-accounts', 200, list.body)).toEqual({ valid: true, errors: [] });
    expect(validateAgainstOpenApi('GET', '/processor-accounts/{processor_account_id}', 200, one.body)).toEqual({ valid: true, errors: [] });
    const everything = JSON.stringify([
      list.body,
      one.body,
      await h.store.collection('processor_accounts').list({ merchantId: MERCHANT.merchantId, mode: 'test' }, {}, { limit: 10 }),
    ]);
    for (const secret of [API_KEY, '44782DEF547AAA06', 'sk_sbox_m73dzbpy', 'whsec_checkout_secret_1']) expect(everything).not.toContain(secret);
  });

  it('when another merchant asks for, changes or deletes the account, then 404 processor_account_not_found', async () => {
    const { id } = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'mine' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await h.call(OTHER_MERCHANT, method, `/processor-accounts/${id}`, body);
      expect([answer.status, answer.body.code]).toEqual([404, 'processor_account_not_found']);
    }
    expect((await h.call(OTHER_MERCHANT, 'GET', '/processor-accounts')).body.data).toEqual([]);
    expect((await h.call(MERCHANT, 'GET', '/processor-accounts/not-a-uuid')).status).toBe(404);
  });

  it('when credentials are rotated, then the hint and credentials.updated_at change and the name stays', async () => {
    const { id } = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    await h.advance(60_000);
    const patched = await h.call(MERCHANT, 'PATCH', `/processor-accounts/${id}`, {
      credentials: { ...adyenAccount().credentials, api_key: 'AQE_rotated_key_value_Yy77' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Adyen EU',
      credentials: { hint: '…Yy77', updated_at: '2026-06-01T10:01:00.000Z' },
      created_at: '2026-06-01T10:00:00.000Z',
      updated_at: '2026-06-01T10:01:00.000Z',
    });
  });

  it('when an account is deleted, then 204 and it is gone', async () => {
    const { id } = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    expect((await h.call(MERCHANT, 'DELETE', `/processor-accounts/${id}`)).status).toBe(204);
    expect((await h.call(MERCHANT, 'GET', `/processor-accounts/${id}`)).status).toBe(404);
  });

  it('when a flow names the account (as authorizer or fallback), then deleting it answers 409 processor_account_in_use naming the flows, and the account stays', async () => {
    const { id } = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    const steps = (processor: string, fallback: string[]) => [
      { kind: 'authorization', processor, fallback },
      { kind: 'capture', processor },
    ];
    expect((await h.call(MERCHANT, 'POST', '/flows', { name: 'adyen-first', capture_mode: 'automatic', steps: steps(id, []) })).status).toBe(201);
    expect(
      (await h.call(MERCHANT, 'POST', '/flows', { name: 'simulator-then-adyen', capture_mode: 'automatic', steps: steps('simulator', [id]) })).status,
    ).toBe(201);
    expect((await h.call(MERCHANT, 'POST', '/flows', { name: 'simulator-only', capture_mode: 'automatic', steps: steps('simulator', []) })).status).toBe(201);
    const refused = await h.call(MERCHANT, 'DELETE', `/processor-accounts/${id}`);
    expect([refused.status, refused.headers.get('content-type'), refused.body.code, refused.body.flows]).toEqual([
      409,
      expect.stringContaining('application/problem+json'),
      'processor_account_in_use',
      ['adyen-first', 'simulator-then-adyen'],
    ]);
    expect(refused.body.detail).toContain('adyen-first, simulator-then-adyen');
    expect((await h.call(MERCHANT, 'GET', `/processor-accounts/${id}`)).status).toBe(200);
  });

  it('when more than 500 flows were stored before the limit and only the 507th names the account, then deleting it still answers 409 processor_account_in_use, and GET /flows lists all 507', async () => {
    const { id } = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    const flowDoc = (n: number, processor: string) => {
      const flow = {
        name: `legacy-${String(n).padStart(3, '0')}`,
        capture_mode: 'automatic',
        built_in: false,
        created_at: '2026-05-01T00:00:00.000Z',
        steps: [
          { kind: 'authorization', processor, on_failure: 'stop', fallback: [] },
          { kind: 'capture', processor, on_failure: 'stop', fallback: [] },
        ],
      };
      return { id: newId(), merchant_id: MERCHANT.merchantId, mode: 'test' as const, name: flow.name, flow };
    };
    await h.store.transaction((uow) => {
      for (let n = 1; n <= 507; n++) uow.insert('flows', flowDoc(n, n === 507 ? id : 'simulator'));
    });
    const refused = await h.call(MERCHANT, 'DELETE', `/processor-accounts/${id}`);
    expect([refused.status, refused.body?.code, refused.body?.flows]).toEqual([409, 'processor_account_in_use', ['legacy-507']]);
    expect((await h.call(MERCHANT, 'GET', `/processor-accounts/${id}`)).status).toBe(200);
    expect((await h.call(MERCHANT, 'GET', '/flows')).body.data.filter((flow: Json) => !flow.built_in)).toHaveLength(507);
  });

  it.each([
    [
      'no merchant_account',
      { credentials: { api_key: API_KEY, hmac_key: 'ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB' } },
      'credentials.merchant_account',
      'invalid_credentials',
    ],
    ['an hmac_key that is not hex', { credentials: { ...adyenAccount().credentials, hmac_key: 'not hex' } }, 'credentials.hmac_key', 'invalid_credentials'],
    ['a one-byte hmac_key', { credentials: { ...adyenAccount().credentials, hmac_key: 'AB' } }, 'credentials.hmac_key', 'webhook_secret_too_short'],
    ['an unknown credential', { credentials: { ...adyenAccount().credentials, password: 'p' } }, 'credentials.password', 'invalid_credentials'],
    ['an unknown processor', { processor: 'worldpay' }, 'processor', 'validation_failed'],
    ['an empty name', { name: '' }, 'name', 'validation_failed'],
    ['a base_url that is not http(s)', { settings: { base_url: 'ftp://x' } }, 'settings.base_url', 'validation_failed'],
  ])('when the body has %s, then 422 names the field', async (_label, overrides, field, code) => {
    const answer = await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount(overrides));
    expect([answer.status, answer.body.field, answer.body.code]).toEqual([422, field, code]);
    expect(JSON.stringify(answer.body)).not.toContain(API_KEY);
  });

  it('when settings.base_url gives a payments URL the forwarder allows (built-in or FORWARD_EXTRA_DESTINATIONS), then it is accepted; any other is refused', async () => {
    expect((await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount({ settings: { base_url: 'http://127.0.0.1:4010' } }))).status).toBe(201);
    expect((await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount({ settings: { base_url: 'https://checkout-test.adyen.com' } }))).status).toBe(
      201,
    );
    expect((await h.call(MERCHANT, 'POST', '/processor-accounts', checkoutAccount)).status).toBe(201);
    const refused = await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount({ settings: { base_url: 'http://127.0.0.1:9999' } }));
    expect([refused.status, refused.body.code, refused.body.field]).toEqual([422, 'destination_not_allowed', 'settings.base_url']);
    const { id } = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    expect((await h.call(MERCHANT, 'PATCH', `/processor-accounts/${id}`, { settings: { base_url: 'https://evil.example' } })).body.code).toBe(
      'destination_not_allowed',
    );
  });

  it('when a merchant reaches the account limit, then the next create answers 409', async () => {
    await h.stop();
    h = await startOrchestrator({ env: { PROCESSOR_ACCOUNTS_MAX_PER_MERCHANT: '2' } });
    await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount());
    await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount());
    const third = await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount());
    expect([third.status, third.body.code]).toEqual([409, 'processor_account_limit_reached']);
  });
});

describe('processor account credentials at rest', () => {
  it('when stored, then they open only with the service key and the account they were sealed for', async () => {
    const a = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    const b = (await h.call(MERCHANT, 'POST', '/processor-accounts', adyenAccount())).body;
    const stored = await h.store.collection<Json>('processor_accounts').get({ merchantId: MERCHANT.merchantId, mode: 'test' }, a.id);
    const other = await h.store.collection<Json>('processor_accounts').get({ merchantId: MERCHANT.merchantId, mode: 'test' }, b.id);
    const sealer = new AesGcmSecretSealer(Buffer.from(TEST_SECRET_KEY, 'base64'));
    expect(openCredentials(sealer, stored)).toEqual(adyenAccount().credentials);
    expect(() => openCredentials(sealer, { ...other, sealed_credentials: stored.sealed_credentials })).toThrow();
    expect(() => openCredentials(new AesGcmSecretSealer(Buffer.alloc(32, 1)), stored)).toThrow();
  });
});
