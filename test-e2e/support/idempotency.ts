import type { HttpAnswer, MerchantApi } from './merchant-api';

/**
 * One kind of effect a POST with an Idempotency-Key must cause exactly once, however many identical
 * requests race: how to send the request (always the same key and body), and how to count the effect
 * where it lands (tokens in the vault, requests at a destination, payments at the processor…).
 * The counting suite runs every row against every TTL store; a new route is a new row.
 */
export interface IdempotentEffect<Context> {
  name: string;
  /** Sends the one request; called concurrently, so it must not change anything itself. */
  send(context: Context, merchant: MerchantApi, idempotencyKey: string): Promise<HttpAnswer>;
  /** How many times the effect happened so far. */
  count(context: Context, merchant: MerchantApi, idempotencyKey: string): Promise<number>;
}

export interface RaceOutcome {
  /** Answers the service produced (no Idempotent-Replayed header). */
  ran: HttpAnswer[];
  /** The first answer again, with Idempotent-Replayed: true. */
  replayed: HttpAnswer[];
  /** 409 idempotency_key_in_use: the first was still running. */
  inUse: HttpAnswer[];
  /** Anything else (must stay empty). */
  other: HttpAnswer[];
}

/** Sends `n` identical requests at once and sorts the answers. */
export async function race(n: number, send: () => Promise<HttpAnswer>): Promise<RaceOutcome> {
  const answers = await Promise.all(Array.from({ length: n }, send));
  const outcome: RaceOutcome = { ran: [], replayed: [], inUse: [], other: [] };
  for (const answer of answers) {
    if (answer.headers.get('idempotent-replayed') === 'true') outcome.replayed.push(answer);
    else if (answer.status === 409 && answer.json<{ code?: string }>().code === 'idempotency_key_in_use') outcome.inUse.push(answer);
    else if (answer.status < 400) outcome.ran.push(answer);
    else outcome.other.push(answer);
  }
  return outcome;
}

/** "ran 1, replayed 12, in use 37" — what a run printed. */
export function describeRace(outcome: RaceOutcome): string {
  return `ran ${outcome.ran.length}, replayed ${outcome.replayed.length}, in use ${outcome.inUse.length}, other ${outcome.other.length}`;
}
