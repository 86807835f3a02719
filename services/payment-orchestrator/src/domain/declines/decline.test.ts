import { adviceForbidsRetry, declineOf, declineOfReason, isHardDecline, type Decline } from './decline';
import { mastercardRetryAfterMs, merchantAdviceCodeOf, visaForbidsRetry } from './scheme-rules';

const sent = { processor_code: '05', processor_message: 'Do not honour', advice_code: null };

describe('declines', () => {
  it.each(['lost_or_stolen', 'suspected_fraud', 'invalid_card'] as const)(
    'when a decline is %s, then it is hard and never retryable, whatever the processor said',
    (category) => {
      const decline = declineOf({ category, code: 'x' }, sent);
      expect(decline.retryable).toBe(false);
      expect(isHardDecline(decline)).toBe(true);
    },
  );

  it.each(['03', '21', 'do_not_try_again', 'DO_NOT_TRY_AGAIN'])(
    "when the advice is %s (Mastercard MAC 03 or 21, Checkout.com's recommendation 03, Stripe's do_not_try_again), then a soft decline is not retryable",
    (advice) => {
      expect(adviceForbidsRetry(advice)).toBe(true);
      const decline = declineOf({ category: 'do_not_honor', code: 'card_declined' }, { ...sent, advice_code: advice });
      expect(decline.retryable).toBe(false);
      expect(isHardDecline(decline)).toBe(true);
    },
  );

  it.each([null, '01', '02', '24', 'try_again_later', 'confirm_card_data'])('when the advice is %s, then it does not forbid a retry', (advice) => {
    expect(adviceForbidsRetry(advice)).toBe(false);
    expect(declineOf({ category: 'insufficient_funds', code: 'insufficient_funds' }, { ...sent, advice_code: advice }).retryable).toBe(true);
  });

  it('when the plugin found the scheme forbids a retry (Visa category 1), then the decline is not retryable', () => {
    expect(declineOf({ category: 'do_not_honor', code: 'card_declined' }, { ...sent, scheme_forbids_retry: true }).retryable).toBe(false);
  });

  it('when a plugin marked a decline not retryable, then the engine takes it as hard even if its category is soft', () => {
    const decline: Decline = {
      category: 'do_not_honor',
      code: 'card_declined',
      processor_code: null,
      processor_message: null,
      advice_code: null,
      retryable: false,
    };
    expect(isHardDecline(decline)).toBe(true);
  });

  it.each([
    ['card_declined', 'do_not_honor'],
    ['insufficient_funds', 'insufficient_funds'],
    ['authentication_required', 'authentication_required'],
    ['card_blocked', 'lost_or_stolen'],
    ['expired_card', 'expired_card'],
    ['processor_timeout', 'processor_unavailable'],
    ['processor_request_rejected', 'processor_unavailable'],
    ['cancelled', 'other'],
  ])('when an outcome names no decline and its failure reason is %s, then its category is %s', (reason, category) => {
    expect(declineOfReason(reason)).toMatchObject({ category, code: reason });
  });
});

describe("the schemes' words", () => {
  it.each(['04', '07', '12', '14', '15', '41', '43', '46', '57', 'R0', 'R1', 'R3', 'r1', '4'])(
    'when a Visa card is answered %s (category 1), then Visa forbids a retry',
    (code) => {
      expect(visaForbidsRetry('VISA', code)).toBe(true);
    },
  );

  it.each([
    ['VISA', '51'],
    ['VISA', '05'],
    ['VISA', '54'],
    ['MASTERCARD', '04'],
    ['VISA', null],
  ] as const)("when a %s card is answered %s, then Visa's category 1 does not apply", (scheme, code) => {
    expect(visaForbidsRetry(scheme, code)).toBe(false);
  });

  it.each([
    ['24', 3_600_000],
    ['25', 86_400_000],
    ['26', 172_800_000],
    ['27', 345_600_000],
    ['28', 518_400_000],
    ['29', 691_200_000],
    ['30', 864_000_000],
    ['03', null],
    [null, null],
  ] as const)('when Mastercard advises %s, then the next attempt waits %s ms', (advice, wait) => {
    expect(mastercardRetryAfterMs(advice)).toBe(wait);
  });

  it.each([
    ['03: Do not try again', '03'],
    ['21', '21'],
    [' 24: Retry after 1 hour', '24'],
    ['Do not try again', null],
    [42, null],
  ] as const)('when a processor writes the advice %j, then its code is %s', (text, code) => {
    expect(merchantAdviceCodeOf(text)).toBe(code);
  });
});
