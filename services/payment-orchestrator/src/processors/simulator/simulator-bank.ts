import { createHash } from 'node:crypto';
import { SIMULATOR_CHALLENGE } from '@vaultline/contracts';
import type { SimulatorAccount, SimulatorAuthentication, SimulatorRequest, SimulatorResponse } from './simulator.mapper';

/**
 * The simulator's fixed behaviour, by the card's first six and last four digits (all the orchestrator
 * knows of a card). A real card with the same digits gets the same answer: the simulator serves test
 * mode only.
 */
const TEST_CARDS = {
  '400000/0002': 'card_declined',
  '400000/9995': 'insufficient_funds',
  '400000/3220': '3ri_fails',
  '400000/0259': 'capture_fails',
  /** 4000000000000267: the payment's first capture fails (capture_failed); a capture asked again succeeds. */
  '400000/0267': 'capture_fails_once',
  '400000/0119': 'processor_error',
  /** 4000000000005126: captured normally, every refund of it fails (refund_failed). */
  '400000/5126': 'refund_fails',
  /** 4000000000003063: the issuer asks for a challenge (3-D Secure). */
  '400000/3063': 'challenge',
  /** 4000000000003097: authenticated without a challenge (frictionless). */
  '400000/3097': 'frictionless',
  /** 4000008400001629: the challenge completes, then the authorization is declined (card_declined). */
  '400000/1629': 'challenge_then_declined',
  /** 4000002760003184: the issuer's SCA soft decline (authentication_required) unless a challenge ran; approved once completed. */
  '400000/3184': 'authentication_required',
  /** 4000000000009979: reported stolen (card_blocked, lost_or_stolen: a hard decline, never retried). */
  '400000/9979': 'stolen',
  /** 4000000000000341: the consumer-present payment is approved; every merchant-initiated one is declined insufficient_funds. */
  '400000/0341': 'mit_insufficient_funds',
  /** 5105105105105100 (Mastercard): the consumer-present payment is approved; every merchant-initiated one is declined with MAC 03, do not try again. */
  '510510/5100': 'mit_do_not_try_again',
} as const;

type Behaviour = (typeof TEST_CARDS)[keyof typeof TEST_CARDS] | 'approved';

export function behaviourOf(card: SimulatorRequest['card']): Behaviour {
  return (TEST_CARDS as Record<string, Behaviour>)[`${card.bin}/${card.last4}`] ?? 'approved';
}

/**
 * A reference of letters only, derived from the idempotency key: a reference made of hex digits can hold a
 * 13–19-digit Luhn-valid run, which every card-data scan (and the log masking) rightly takes for a PAN.
 */
function lettersOf(key: string): string {
  return Array.from(createHash('sha256').update(key).digest().subarray(0, 24), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
}

/**
 * A number in [0, 1) derived from the words given (the account and the request's idempotency key): an
 * account's approval_rate declines the same payments every time, and two accounts decline independently.
 */
export function drawOf(...words: string[]): number {
  return createHash('sha256').update(words.join('\u0000')).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The draw an account's approval_rate is compared with. By default from the account's id and the request's
 * idempotency key (new ids in every run). With a seed: from the seed, the payment's reference (its id when it
 * has none) and the attempt's part of the key (`:authorization`, `:authorization:attempt-2`), so a test suite or
 * a benchmark that sends the same references gets the same answers in every run, and two accounts with
 * different seeds still decline independently.
 */
function approvalDraw(account: SimulatorAccount, request: SimulatorRequest): number {
  if (account.seed === undefined) return drawOf(account.id, request.idempotency_key);
  const separator = request.idempotency_key.indexOf(':');
  const payment = separator < 0 ? request.idempotency_key : request.idempotency_key.slice(0, separator);
  const attempt = separator < 0 ? '' : request.idempotency_key.slice(separator);
  return drawOf(account.seed, request.reference ?? payment, attempt);
}

/** Whether the simulator account is in one of its outage windows at the payment's effective time (the test clock's for a test-clock payment). */
function inOutage(request: SimulatorRequest): boolean {
  const at = request.effective_at ? Date.parse(request.effective_at) : Number.NaN;
  return !Number.isNaN(at) && (request.account?.outages ?? []).some((window) => Date.parse(window.from) <= at && at < Date.parse(window.to));
}

/** Deterministic: the same request gets the same answer, references derived from the idempotency key. */
export function simulate(request: SimulatorRequest, captureDelayMs: number, refundDelayMs = captureDelayMs): SimulatorResponse {
  const behaviour = behaviourOf(request.card);
  const psp_reference = `sim_${lettersOf(request.idempotency_key)}`;
  if (behaviour === 'processor_error') return { result: 'error', error_code: 'processor_unavailable' };
  // An account in an outage answers nothing at all (as a processor that is down): a technical error, never a decline.
  if (inOutage(request)) return { result: 'error', error_code: 'processor_unavailable' };
  switch (request.operation) {
    case 'risk':
      return { result: 'approved', psp_reference };
    case 'authentication_3ri':
      // A 3RI authentication of a merchant-initiated payment: no liability shift, its result goes on to the authorization.
      return behaviour === '3ri_fails'
        ? {
            result: 'declined',
            psp_reference,
            decline_code: 'authentication_failed',
            authentication: { ...authenticationOf(psp_reference, 'failed'), eci: '07' },
          }
        : { result: 'approved', psp_reference, authentication: { ...authenticationOf(psp_reference, 'authenticated'), eci: '07', liability_shift: false } };
    case 'authorization': {
      const issuer = issuerAuthentication(request, behaviour);
      if (issuer === 'challenge') {
        return {
          result: 'challenge',
          psp_reference,
          challenge_url: new URL(SIMULATOR_CHALLENGE.path, request.three_ds!.return_url).href,
          return_parameter: SIMULATOR_CHALLENGE.parameter,
        };
      }
      return authorized(request, behaviour, psp_reference, issuer);
    }
    case 'authorization_resume': {
      if (request.challenge_result !== 'completed')
        return { result: 'declined', psp_reference, decline_code: 'authentication_failed', authentication: authenticationOf(psp_reference, 'failed') };
      // The soft-declining card asked for exactly this: once authenticated, it is an ordinary card.
      const after = behaviour === 'challenge_then_declined' ? 'card_declined' : behaviour === 'authentication_required' ? 'approved' : behaviour;
      return authorized(request, after, psp_reference, authenticationOf(psp_reference, 'authenticated'));
    }
    case 'capture':
      return { result: 'pending', psp_reference: `${psp_reference}_capture`, check_after_ms: captureDelayMs };
    case 'capture_status':
      return behaviour === 'capture_fails' || (behaviour === 'capture_fails_once' && isFirstCapture(request.idempotency_key))
        ? { result: 'declined', psp_reference, decline_code: 'capture_failed' }
        : { result: 'approved', psp_reference };
    case 'void':
      return { result: 'approved', psp_reference: `${psp_reference}_void` };
    case 'refund':
      return { result: 'pending', psp_reference: `${psp_reference}_refund`, check_after_ms: refundDelayMs };
    case 'refund_status':
      return behaviour === 'refund_fails' ? { result: 'declined', psp_reference, decline_code: 'refund_failed' } : { result: 'approved', psp_reference };
  }
}

/** The engine's key of a payment's first capture is `<payment>:capture`; a later capture's (a retry too) `<payment>:capture:<n>`. */
function isFirstCapture(idempotencyKey: string): boolean {
  return idempotencyKey.endsWith(':capture');
}

const CHALLENGE_CARDS: readonly Behaviour[] = ['challenge', 'challenge_then_declined'];
/** Cards the issuer challenges only when a challenge is asked for (three_ds always, or a step-up): otherwise it soft-declines them. */
const CHALLENGE_WHEN_ASKED: readonly Behaviour[] = ['authentication_required'];

/**
 * What the simulator's issuer says of 3-D Secure before authorizing: under if_required it asks a challenge
 * of the two challenge cards and authenticates the frictionless card at once, and every other card needs
 * none; under always every card is challenged; off (or no consumer): no authentication at all.
 */
function issuerAuthentication(request: SimulatorRequest, behaviour: Behaviour): 'challenge' | SimulatorAuthentication | null {
  const setting = request.three_ds?.setting ?? 'off';
  if (setting === 'off') return null;
  if (CHALLENGE_WHEN_ASKED.includes(behaviour)) return setting === 'always' ? 'challenge' : null;
  if (setting === 'always' || CHALLENGE_CARDS.includes(behaviour) || behaviour === 'frictionless') {
    return setting === 'if_required' && behaviour === 'frictionless' ? authenticationOf(lettersOf(request.idempotency_key), 'authenticated') : 'challenge';
  }
  return { version: null, status: 'not_required', eci: null, liability_shift: false, authentication_value: null, ds_transaction_id: null };
}

function authorized(request: SimulatorRequest, behaviour: Behaviour, psp_reference: string, authentication: SimulatorAuthentication | null): SimulatorResponse {
  const withAuthentication = authentication ? { authentication } : {};
  const declined = (decline_code: string, advice_code?: string): SimulatorResponse => ({
    result: 'declined',
    psp_reference,
    decline_code,
    ...(advice_code ? { advice_code } : {}),
    ...withAuthentication,
  });
  if (behaviour === 'card_declined' || behaviour === 'insufficient_funds') return declined(behaviour);
  // No challenge ran for it (three_ds off or if_required): the issuer wants the consumer authenticated.
  if (behaviour === 'authentication_required') return declined('authentication_required');
  if (behaviour === 'stolen') return declined('stolen_card');
  if (behaviour === 'mit_insufficient_funds' && request.merchant_initiated) return declined('insufficient_funds');
  if (behaviour === 'mit_do_not_try_again' && request.merchant_initiated) return declined('card_declined', '03');
  // An account's approval_rate declines that share of ordinary cards, the same ones every time (do not honour, the issuer's generic no).
  const rate = request.account?.approval_rate ?? 1;
  if (rate < 1 && approvalDraw(request.account!, request) >= rate) return declined('card_declined');
  return {
    result: 'approved',
    psp_reference,
    network_transaction_reference: request.network_transaction_reference ?? `SIMNTR${psp_reference.slice(4, 28).toUpperCase()}`,
    ...withAuthentication,
  };
}

/** A 3-D Secure 2.2 result as a Visa issuer gives it (ECI 05 authenticated, 07 failed), values derived from the reference. */
function authenticationOf(seed: string, status: 'authenticated' | 'failed'): SimulatorAuthentication {
  const letters = lettersOf(`3ds:${seed}`);
  return {
    version: '2.2.0',
    status,
    eci: status === 'authenticated' ? '05' : '07',
    liability_shift: status === 'authenticated',
    authentication_value: status === 'authenticated' ? `SIMCAVV${letters.slice(0, 21).toUpperCase()}` : null,
    ds_transaction_id: `sim-ds-${letters.slice(0, 8)}-${letters.slice(8, 12)}-${letters.slice(12, 16)}-${letters.slice(16, 24)}`,
  };
}
