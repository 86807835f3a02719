import {
  ADYEN_NOTIFICATION_ACCEPTED,
  adyenSigningString,
  fromAdyenNotificationItem,
  parseAdyenNotification,
  signAdyenItem,
  verifyAdyenItem,
  type AdyenNotificationItem,
} from './adyen.notification';

const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';

const item = (overrides: Partial<AdyenNotificationItem> = {}): AdyenNotificationItem => ({
  amount: { value: 1130, currency: 'EUR' },
  eventCode: 'AUTHORISATION',
  merchantAccountCode: 'TestMerchant',
  merchantReference: 'TestPayment-1407325143704',
  pspReference: '7914073381342284',
  success: 'true',
  ...overrides,
});

const signed = (overrides: Partial<AdyenNotificationItem> = {}): AdyenNotificationItem => {
  const unsigned = item(overrides);
  return { ...unsigned, additionalData: { ...unsigned.additionalData, hmacSignature: signAdyenItem(unsigned, HMAC_KEY) } };
};

describe('Adyen notification signature', () => {
  it("when an item is signed, then the signing string is the eight fields in Adyen's order, an absent originalReference empty", () => {
    expect(adyenSigningString(item())).toBe('7914073381342284::TestMerchant:TestPayment-1407325143704:1130:EUR:AUTHORISATION:true');
  });

  it("when signed with the hex-decoded key, then the signature is HMAC-SHA256 in base64 (Adyen's documented example)", () => {
    // The example of Adyen's notification HMAC documentation: this key and item give this signature.
    expect(signAdyenItem(item(), HMAC_KEY)).toBe('coqCmt/IZ4E3CzPvMY8zTjQVL5hYJUiBRg8UU+iCWo0=');
  });

  it('when the signature is right, then the item verifies; when any signed field, the key or the signature differs, then it does not', () => {
    expect(verifyAdyenItem(signed(), HMAC_KEY)).toBe(true);
    expect(verifyAdyenItem({ ...signed(), amount: { value: 1, currency: 'EUR' } }, HMAC_KEY)).toBe(false);
    expect(verifyAdyenItem({ ...signed(), success: 'false' }, HMAC_KEY)).toBe(false);
    expect(verifyAdyenItem(signed(), 'AA'.repeat(32))).toBe(false);
    expect(verifyAdyenItem({ ...item(), additionalData: { hmacSignature: 'AAAA' } }, HMAC_KEY)).toBe(false);
    expect(verifyAdyenItem(item(), HMAC_KEY)).toBe(false);
  });
});

describe('Adyen notification parsing', () => {
  it('when the body is a standard notification, then its items come out; when it is not, then null', () => {
    const body = { live: 'false', notificationItems: [{ NotificationRequestItem: signed() }] };
    expect(parseAdyenNotification(body)).toEqual([signed()]);
    expect(parseAdyenNotification({ live: 'false', notificationItems: [] })).toBeNull();
    expect(parseAdyenNotification({ notificationItems: [{ NotificationRequestItem: { eventCode: 'AUTHORISATION' } }] })).toBeNull();
    expect(ADYEN_NOTIFICATION_ACCEPTED).toBe('[accepted]');
  });

  it('when an AUTHORISATION arrives, then it names the payment by merchantReference and its own pspReference', () => {
    expect(fromAdyenNotificationItem(item())).toEqual({
      kind: 'authorization_succeeded',
      dedupe_key: 'adyen:7914073381342284:AUTHORISATION:true',
      payment_reference: 'TestPayment-1407325143704',
      processor_reference: '7914073381342284',
    });
    expect(fromAdyenNotificationItem(item({ success: 'false', reason: 'Not enough balance' }))).toMatchObject({
      kind: 'authorization_failed',
      failure_reason: 'insufficient_funds',
    });
  });

  it('when a CAPTURE arrives, then the payment is the originalReference and the capture its own pspReference; unsuccessful or CAPTURE_FAILED is a failed capture', () => {
    expect(
      fromAdyenNotificationItem(item({ eventCode: 'CAPTURE', pspReference: 'CAP1', originalReference: 'PAY1', amount: { value: 700, currency: 'EUR' } })),
    ).toEqual({
      kind: 'capture_succeeded',
      dedupe_key: 'adyen:CAP1:CAPTURE:true',
      payment_reference: 'TestPayment-1407325143704',
      processor_reference: 'PAY1',
      capture_reference: 'CAP1',
      amount: 700,
    });
    expect(fromAdyenNotificationItem(item({ eventCode: 'CAPTURE', success: 'false', pspReference: 'CAP1', originalReference: 'PAY1' }))).toMatchObject({
      kind: 'capture_failed',
      processor_reference: 'PAY1',
    });
    expect(fromAdyenNotificationItem(item({ eventCode: 'CAPTURE_FAILED', pspReference: 'CAP1', originalReference: 'PAY1' }))).toMatchObject({
      kind: 'capture_failed',
      capture_reference: 'CAP1',
      failure_reason: 'capture_failed',
    });
  });

  it('when the same event is delivered twice, then both have the same dedupe key; another event code does not', () => {
    expect(fromAdyenNotificationItem(item()).dedupe_key).toBe(fromAdyenNotificationItem(signed()).dedupe_key);
    expect(fromAdyenNotificationItem(item({ eventCode: 'REPORT_AVAILABLE' }))).toEqual({
      kind: 'ignored',
      dedupe_key: 'adyen:7914073381342284:REPORT_AVAILABLE:true',
      event_type: 'REPORT_AVAILABLE',
    });
  });
});

describe('Adyen refund and cancel notifications', () => {
  const refundId = '01a208ee-5f6c-74c8-b99c-0000000000f1';

  it('when REFUND succeeds, then it is a succeeded refund named by the refund id (merchantReference) and its own pspReference', () => {
    expect(
      fromAdyenNotificationItem(
        item({ eventCode: 'REFUND', merchantReference: refundId, pspReference: 'REF1', originalReference: 'PAY1', amount: { value: 200, currency: 'EUR' } }),
      ),
    ).toEqual({
      kind: 'refund_succeeded',
      dedupe_key: 'adyen:REF1:REFUND:true',
      payment_reference: refundId,
      processor_reference: 'PAY1',
      capture_reference: 'REF1',
      amount: 200,
    });
  });

  it.each([
    ['REFUND', 'false', 'refund_failed'],
    ['REFUND_FAILED', 'true', 'refund_failed'],
    ['REFUNDED_REVERSED', 'true', 'refund_reversed'],
  ] as const)('when %s arrives with success %s, then the refund fails with %s', (eventCode, success, failure_reason) => {
    expect(fromAdyenNotificationItem(item({ eventCode, success, merchantReference: refundId, pspReference: 'REF1', originalReference: 'PAY1' }))).toEqual({
      kind: 'refund_failed',
      dedupe_key: `adyen:REF1:${eventCode}:${success}`,
      payment_reference: refundId,
      processor_reference: 'PAY1',
      capture_reference: 'REF1',
      failure_reason,
    });
  });

  it('when CANCELLATION arrives, then it confirms (success true) or refuses (false) the void of the authorisation named by originalReference', () => {
    expect(fromAdyenNotificationItem(item({ eventCode: 'CANCELLATION', merchantReference: 'p1', pspReference: 'VOID1', originalReference: 'PAY1' }))).toEqual({
      kind: 'void_succeeded',
      dedupe_key: 'adyen:VOID1:CANCELLATION:true',
      payment_reference: 'p1',
      processor_reference: 'PAY1',
      capture_reference: 'VOID1',
    });
    expect(
      fromAdyenNotificationItem(
        item({ eventCode: 'CANCELLATION', success: 'false', merchantReference: 'p1', pspReference: 'VOID1', originalReference: 'PAY1' }),
      ),
    ).toMatchObject({ kind: 'void_failed', failure_reason: 'void_failed' });
  });
});
