import { failedBeforeAuthorization, type ActionRequiredOutcome, type AuthenticationResult } from '../payment-vocabulary/authentication';
import {
  awaitingConsumer,
  canAwaitConsumer,
  consumerAuthenticationOf,
  isAbandoned,
  keptAfterAuthorization,
  ranAuthentication,
  recordReturn,
} from './consumer-authentication';
import { aPayment } from '../../../test/support/payment-builder';

const NOW = new Date('2026-06-01T10:00:00.000Z');
const returnUrlOf = (sessionId: string) => `https://pay.example/checkout/${sessionId}/return`;

const challenge: ActionRequiredOutcome = {
  status: 'action_required',
  action: { type: 'redirect', url: 'https://acs.bank.example/challenge', method: 'POST', data: { creq: 'eyJ0aHJlZURT' } },
  processor_reference: 'psp_1',
  resume: { paymentData: 'Ab02b4c0' },
  return_parameters: ['redirectResult'],
};

const authenticated: AuthenticationResult = {
  type: '3ds',
  version: '2.2.0',
  status: 'authenticated',
  eci: '05',
  liability_shift: true,
  authentication_value: 'AAABBJkZUQAAAABnAAAAAAAAAAA=',
  ds_transaction_id: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
};

describe('what an authorization is told about 3-D Secure', () => {
  it("when a one-off payment with a hosted page is authorized, then it is told the setting, the browser, the hosted page's return address and that it is no first of a series", () => {
    const browser = {
      user_agent: 'UA',
      accept_header: 'text/html',
      language: 'de-DE',
      screen_width: 390,
      screen_height: 844,
      color_depth: 24,
      time_zone_offset: -120,
      java_enabled: false,
      ip_address: '203.0.113.9',
    };
    const told = consumerAuthenticationOf(
      aPayment({ session: { id: 's1', expires_at: '2026-06-01T10:30:00.000Z', return_url: null, browser } }),
      'if_required',
      returnUrlOf,
    );
    expect(told).toEqual({ three_ds: 'if_required', browser, return_url: 'https://pay.example/checkout/s1/return', first_of_series: false });
  });

  it.each([
    ['RECURRING', true],
    ['UNSCHEDULED', true],
    ['ONE_OFF', false],
  ] as const)('when the use case is %s, then first_of_series is %s (a card stored for a series asks for a mandated challenge)', (useCase, first) => {
    expect(consumerAuthenticationOf(aPayment({ use_case: useCase }), 'always', returnUrlOf)?.first_of_series).toBe(first);
  });

  it('when the payment is merchant-initiated or has no hosted page, then nothing is told (no consumer can authenticate)', () => {
    expect(consumerAuthenticationOf(aPayment({ use_case: 'SUBSEQUENT_RECURRING' }), 'always', returnUrlOf)).toBeNull();
    expect(consumerAuthenticationOf(aPayment({ session: null }), 'always', returnUrlOf)).toBeNull();
  });
});

describe('whether the payment can wait for its consumer', () => {
  const told = consumerAuthenticationOf(aPayment(), 'if_required', returnUrlOf);

  it('when the processor asks under if_required with an https issuer page and named return parameters, then the payment waits', () => {
    expect(canAwaitConsumer(told, challenge)).toBe(true);
  });

  it.each([
    ['three_ds is off', { ...told!, three_ds: 'off' as const }, challenge],
    ['no consumer was told (merchant-initiated)', null, challenge],
    ['the issuer page is javascript:', told, { ...challenge, action: { ...challenge.action, url: 'javascript:alert(1)' } }],
    ['the issuer page is plain http off loopback', told, { ...challenge, action: { ...challenge.action, url: 'http://acs.bank.example/challenge' } }],
    ['the issuer page carries credentials', told, { ...challenge, action: { ...challenge.action, url: 'https://user:pass@acs.bank.example/' } }],
    ['no return parameter is named', told, { ...challenge, return_parameters: [] }],
    [
      'more return parameters are named than the hosted page passes on',
      told,
      { ...challenge, return_parameters: Array.from({ length: 11 }, (_, i) => `p${i}`) },
    ],
  ])('when %s, then it cannot (the payment fails authentication_required)', (_case, consumer, outcome) => {
    expect(canAwaitConsumer(consumer, outcome)).toBe(false);
  });
});

describe('waiting, coming back, abandoning', () => {
  it('when the payment waits, then it stays processing and is due again when its session expires', () => {
    const waiting = awaitingConsumer(aPayment(), 'adyen_acct_1', challenge, NOW);
    expect(waiting).toMatchObject({
      status: 'processing',
      next_run_at: '2026-06-01T10:30:00.000Z',
      pending_authentication: { processor: 'adyen_acct_1', resume: { paymentData: 'Ab02b4c0' }, returned: null },
    });
  });

  it('when the consumer comes back, then only the named parameters are kept and the payment is due at once; a second return changes nothing', () => {
    const waiting = awaitingConsumer(aPayment(), 'adyen_acct_1', challenge, NOW);
    const later = new Date(NOW.getTime() + 60_000);
    const first = recordReturn(waiting, { redirectResult: 'X3ds', sessionData: 'not-named' }, later, 8_192);
    expect(first).toMatchObject({
      recorded: true,
      payment: { next_run_at: later.toISOString(), pending_authentication: { returned: { parameters: { redirectResult: 'X3ds' }, at: later.toISOString() } } },
    });
    expect(recordReturn(first.payment, { redirectResult: 'other' }, later, 8_192)).toMatchObject({ recorded: false, reason: 'already_returned' });
  });

  it('when a parameter is longer than allowed, then it is not kept', () => {
    const waiting = awaitingConsumer(aPayment(), 'adyen_acct_1', challenge, NOW);
    expect(recordReturn(waiting, { redirectResult: 'x'.repeat(10) }, NOW, 5).payment.pending_authentication?.returned?.parameters).toEqual({});
  });

  it('when the payment does not wait (no authentication asked, or it moved on), then a return is not recorded', () => {
    expect(recordReturn(aPayment(), { redirectResult: 'X' }, NOW, 8_192)).toMatchObject({ recorded: false, reason: 'not_waiting' });
    const failed = { ...awaitingConsumer(aPayment(), 'a', challenge, NOW), status: 'failed' as const };
    expect(recordReturn(failed, { redirectResult: 'X' }, NOW, 8_192)).toMatchObject({ recorded: false, reason: 'not_waiting' });
  });

  it('when the session expired before the consumer came back, then the payment is abandoned; once back, never', () => {
    const waiting = awaitingConsumer(aPayment(), 'a', challenge, NOW);
    expect(isAbandoned(waiting, new Date('2026-06-01T10:29:59.999Z'))).toBe(false);
    expect(isAbandoned(waiting, new Date('2026-06-01T10:30:00.000Z'))).toBe(true);
    const back = recordReturn(waiting, { redirectResult: 'X' }, NOW, 8_192).payment;
    expect(isAbandoned(back, new Date('2026-06-01T11:00:00.000Z'))).toBe(false);
  });
});

describe('what the payment keeps of a result', () => {
  it('when the authorization answered, then the authentication value is dropped and the rest kept', () => {
    expect(keptAfterAuthorization(authenticated)).toEqual({ ...authenticated, authentication_value: null });
  });

  it('when no authentication ran (not_required), then it is worth no transaction', () => {
    expect(ranAuthentication({ ...authenticated, status: 'not_required' })).toBe(false);
    expect(ranAuthentication(authenticated)).toBe(true);
    expect(ranAuthentication(null)).toBe(false);
  });

  it('when the outcome is authentication_failed, then no authorization was asked for; a decline after authentication was', () => {
    expect(failedBeforeAuthorization({ status: 'failed', failure_reason: 'authentication_failed' })).toBe(true);
    expect(failedBeforeAuthorization({ status: 'failed', failure_reason: 'card_declined' })).toBe(false);
    expect(failedBeforeAuthorization({ status: 'succeeded' })).toBe(false);
  });
});
