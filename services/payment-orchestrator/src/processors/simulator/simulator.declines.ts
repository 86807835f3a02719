import { declineOf, type Decline, type DeclineCategory } from '../../domain/declines/decline';

/**
 * The simulator's decline codes (its own list: simulator-bank.ts answers them for its test cards and for
 * the declines of an account's approval_rate) → our decline. Every code has a case in
 * simulator.declines.test.ts.
 */
export const SIMULATOR_DECLINES: Readonly<Record<string, { category: DeclineCategory; code: string; message: string }>> = {
  /** 4000 0000 0000 0002, and what an account's approval_rate declines: the issuer's generic "do not honour". */
  card_declined: { category: 'do_not_honor', code: 'card_declined', message: 'Do not honour' },
  /** 4000 0000 0000 9995, and 4000 0000 0000 0341's merchant-initiated payments. */
  insufficient_funds: { category: 'insufficient_funds', code: 'insufficient_funds', message: 'Insufficient funds' },
  /** 4000 0027 6000 3184 without a challenge: the issuer's SCA soft decline. */
  authentication_required: { category: 'authentication_required', code: 'authentication_required', message: 'Authentication required (SCA soft decline)' },
  /** 4000 0000 0000 9979: reported stolen. */
  stolen_card: { category: 'lost_or_stolen', code: 'card_blocked', message: 'Stolen card, pick up' },
};

/**
 * A simulator decline as the engine takes it. `advice_code`: what the simulator's issuer advised (MAC 03 on
 * 5105 1051 0510 5100's merchant-initiated payments). An unknown code is a plain decline.
 */
export function simulatorDecline(declineCode: string, adviceCode: string | null = null): Decline {
  const entry = SIMULATOR_DECLINES[declineCode] ?? { category: 'other' as const, code: declineCode, message: declineCode };
  return declineOf(entry, { processor_code: declineCode, processor_message: entry.message, advice_code: adviceCode });
}
