import { VaultlineError, type Vaultline } from '@vaultline/node';
import type { Output } from '../output';
import { forwardEvent, type Event, type ForwardOutcome } from './forward-event';

export interface ListenOptions {
  forwardTo: string;
  /** Only these event types (the service filters). */
  events?: string[];
  secret: string;
  /** How long each poll waits on the service for an event (seconds). */
  waitSeconds: number;
  /** Stop after this many events (scripts, tests). */
  count?: number;
}

interface PollAnswer {
  data: Event[];
  has_more: boolean;
  last_event_id: string | null;
}

const RETRY_MS = 2_000;

/** One line per forwarded event: time, type, id and what the receiver answered (one JSON object with --json). */
export function describeForward(event: Event, url: string, outcome: ForwardOutcome, json: boolean): string {
  if (json)
    return JSON.stringify({
      event_id: event.id,
      type: event.type,
      url,
      ...('status' in outcome ? { status: outcome.status } : { error: outcome.error }),
      ms: outcome.ms,
    });
  const result = 'status' in outcome ? `[${outcome.status}]` : `[failed: ${outcome.error}]`;
  return `${new Date().toISOString()}  ${event.type.padEnd(27)} ${event.id}  --> ${result} POST ${url} (${outcome.ms} ms)`;
}

/**
 * Fixes where listening starts when no --after was given: after the newest event now (nothing when the
 * log is empty: from its beginning). Called before listen says it is ready, so an event caused once it
 * said so is never taken for history.
 */
export async function startFromNow(vaultline: Vaultline, cursor: { after?: string }): Promise<void> {
  if (cursor.after !== undefined) return;
  const newest = (await vaultline.get('/events', { params: { query: { limit: 1, order: 'desc' } } })).data[0]?.id;
  if (newest) cursor.after = newest;
}

/**
 * Follows the merchant's events over the API (GET /events/poll, a long poll resumable from an event id)
 * and forwards each to a local URL, signed with `secret`, one at a time in the order the service recorded
 * them. Errors of the API are said on stderr and retried; a receiver's failure is printed and not retried.
 * `cursor.after` is where it resumes (an event id; unset: after the newest event now, or from the beginning
 * while the log is empty) and, as it goes, the last event handled (what --after takes to resume).
 */
export async function listen(vaultline: Vaultline, output: Output, options: ListenOptions, cursor: { after?: string }): Promise<void> {
  await startFromNow(vaultline, cursor);
  let handled = 0;
  for (;;) {
    const after = cursor.after;
    let answer: PollAnswer;
    try {
      const query = { wait_seconds: options.waitSeconds, ...(after ? { after } : {}), ...(options.events?.length ? { type: options.events.join(',') } : {}) };
      answer = await vaultline.get('/events/poll', { params: { query } });
    } catch (error) {
      // A refusal (a wrong key, an --after of another merchant) does not change by asking again.
      if (error instanceof VaultlineError && error.status < 500 && error.status !== 429) throw error;
      process.stderr.write(`error: ${(error as Error).message}; asking again in ${RETRY_MS / 1000} s\n`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      continue;
    }
    for (const event of answer.data) {
      const outcome = await forwardEvent(options.forwardTo, event, options.secret);
      output.write(`${describeForward(event, options.forwardTo, outcome, output.json)}\n`);
      cursor.after = event.id;
      handled += 1;
      if (options.count !== undefined && handled >= options.count) return;
    }
    if (answer.last_event_id) cursor.after = answer.last_event_id;
  }
}
