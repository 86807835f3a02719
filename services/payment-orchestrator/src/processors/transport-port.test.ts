import { authorizationInputOf } from '../../test/support/processor-fixtures';
import type { ProcessorTransport } from './transport-port';
import { sendMapped } from './transport-port';
import { CARD_PLACEHOLDERS, withoutSecurityCode, type ProcessorHttpRequest } from './processor-wire';

const request: ProcessorHttpRequest = {
  method: 'POST',
  path: '/v69/payments',
  headers: { 'x-api-key': 'k', 'idempotency-key': 'p1:authorization' },
  body: { reference: 'p1', paymentMethod: { type: 'scheme', number: CARD_PLACEHOLDERS.account_number, cvc: CARD_PLACEHOLDERS.security_code } },
  carries_card_data: true,
};

/** A forwarder that refuses any body asking for the security code with `code`, and answers 200 otherwise. */
function forwarderRefusing(code: string): ProcessorTransport & { bodies: unknown[] } {
  const bodies: unknown[] = [];
  return {
    bodies,
    async forward({ body }) {
      bodies.push(body);
      if (JSON.stringify(body).includes(CARD_PLACEHOLDERS.security_code)) throw Object.assign(new Error('refused'), { code });
      return { status: 200, body: { resultCode: 'Authorised', pspReference: 'PSPONE' } };
    },
    send: () => Promise.reject(new Error('not used')),
  };
}

describe('sending an authorization through the forwarder', () => {
  it.each(['security_code_expired', 'security_code_unavailable'])(
    'when the forwarder refuses with %s (the vault no longer holds the code), then the same request goes once more without the security code',
    async (code) => {
      const forwarder = forwarderRefusing(code);
      const answer = await sendMapped(forwarder, 'https://checkout-test.adyen.com', authorizationInputOf(), request);
      expect(answer).toEqual({ status: 200, body: { resultCode: 'Authorised', pspReference: 'PSPONE' } });
      expect(forwarder.bodies).toEqual([request.body, { reference: 'p1', paymentMethod: { type: 'scheme', number: CARD_PLACEHOLDERS.account_number } }]);
    },
  );

  it('when the forwarder refuses for another reason, then nothing is sent again and the attempt is a retryable 503', async () => {
    const forwarder = forwarderRefusing('destination_not_allowed');
    expect(await sendMapped(forwarder, 'https://checkout-test.adyen.com', authorizationInputOf(), request)).toEqual({ status: 503, body: null });
    expect(forwarder.bodies).toHaveLength(1);
  });
});

describe('a template without its security code', () => {
  it('when the template holds the security code placeholder (nested), then only that member goes; when it holds none, then null', () => {
    expect(withoutSecurityCode({ source: { number: CARD_PLACEHOLDERS.account_number, cvv: CARD_PLACEHOLDERS.security_code }, amount: 1 })).toEqual({
      source: { number: CARD_PLACEHOLDERS.account_number },
      amount: 1,
    });
    expect(withoutSecurityCode({ source: { number: CARD_PLACEHOLDERS.account_number } })).toBeNull();
  });
});
