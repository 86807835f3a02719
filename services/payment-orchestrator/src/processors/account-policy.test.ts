import { accountPolicy as policyOf } from './account-policy';
import { processorPlugins } from './registry';

const accountPolicy = policyOf(processorPlugins);

const adyen = { api_key: 'AQEyhmfxK4_secret_9Qz1', merchant_account: 'ShopECOM', hmac_key: 'AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12' };

describe('processor account policy', () => {
  it('when Adyen credentials are complete, then they pass with the last four of the API key as hint', () => {
    expect(accountPolicy.validateCredentials('adyen', adyen)).toEqual({ ok: true, hint: '…9Qz1' });
  });

  it('when a credential is missing, malformed or unknown, then the field is named and the detail holds no value given', () => {
    expect(accountPolicy.validateCredentials('adyen', { ...adyen, merchant_account: undefined })).toMatchObject({
      ok: false,
      field: 'credentials.merchant_account',
    });
    const malformed = accountPolicy.validateCredentials('checkout', {
      secret_key: 'pk_sbox_leaky_value',
      processing_channel_id: 'pc_abc',
      webhook_secret: 'w0123456789abcdefghijklmnopqrstuvwxyzA',
    });
    expect(malformed).toMatchObject({ ok: false, field: 'credentials.secret_key' });
    expect(JSON.stringify(malformed)).not.toContain('leaky');
    expect(accountPolicy.validateCredentials('simulator', { api_key: 'x' })).toEqual({
      ok: false,
      field: 'credentials.api_key',
      detail: 'credentials.api_key is not a simulator credential.',
    });
  });

  it("when a notification secret is shorter than its processor's minimum, then it is refused with webhook_secret_too_short naming the field and not the value", () => {
    const refusals = [
      accountPolicy.validateCredentials('adyen', { ...adyen, hmac_key: 'C0FFEE' }),
      accountPolicy.validateCredentials('adyen', { ...adyen, hmac_key: 'AB'.repeat(31) }),
      accountPolicy.validateCredentials('stripe', { secret_key: 'sk_test_51Nv0abc', webhook_secret: 'whsec_C0FFEEshort' }),
      accountPolicy.validateCredentials('checkout', { secret_key: 'sk_sbox_abc', processing_channel_id: 'pc_abc', webhook_secret: 'C0FFEE-signing-key' }),
    ];
    expect(refusals.map((refusal) => refusal.ok === false && [refusal.field, refusal.code])).toEqual([
      ['credentials.hmac_key', 'webhook_secret_too_short'],
      ['credentials.hmac_key', 'webhook_secret_too_short'],
      ['credentials.webhook_secret', 'webhook_secret_too_short'],
      ['credentials.webhook_secret', 'webhook_secret_too_short'],
    ]);
    expect(JSON.stringify(refusals)).not.toContain('C0FFEE');
    // At the minimum it passes: 64 hex characters, whsec_ and 32, 32.
    expect(accountPolicy.validateCredentials('adyen', { ...adyen, hmac_key: 'AB'.repeat(32) }).ok).toBe(true);
    expect(accountPolicy.validateCredentials('stripe', { secret_key: 'sk_test_51Nv0abc', webhook_secret: `whsec_${'a'.repeat(32)}` }).ok).toBe(true);
    expect(
      accountPolicy.validateCredentials('checkout', { secret_key: 'sk_sbox_abc', processing_channel_id: 'pc_abc', webhook_secret: 'k'.repeat(32) }).ok,
    ).toBe(true);
  });

  it('when the simulator gets no credentials, then it passes without a hint', () => {
    expect(accountPolicy.validateCredentials('simulator', {})).toEqual({ ok: true, hint: null });
  });

  it("when a base URL is given, then the payments URL is the processor's payments path under it", () => {
    expect(accountPolicy.paymentsUrl('adyen', 'http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010/v69/payments');
    expect(accountPolicy.paymentsUrl('checkout', 'https://api.sandbox.checkout.com')).toBe('https://api.sandbox.checkout.com/payments');
  });
});
