import { AppError, maskPans, newId, type Clock } from '@vaultline/core';
import { EgressBlockedError, EgressResponseTooLargeError, EgressTimeoutError, EgressUnreachableError, type EgressClient } from '@vaultline/egress';
import type { CardDataSource } from './card-data';
import type { DestinationDirectory } from './destination-directory';
import { resolveDestination } from './destination-policy';
import { fillFormBody, parseFormBody } from './fill-form-body';
import { fillJsonBody, parseJsonBody } from './fill-json-body';
import { DestinationNotAllowedError, InvalidForwardBodyError } from './forward-errors';
import type { ForwardRecord, ForwardRecorder } from './forward-record';
import { assertFillable } from './placeholders';

export type ForwardBodyFormat = 'json' | 'form';

export interface ForwardCommand {
  merchantId: string;
  requestId: string;
  tokenId: string;
  destinationUrl: string;
  format: ForwardBodyFormat;
  body: Buffer;
  /** Destination credential (from the X-API-KEY-…-NAME/VALUE pair or the merchant's Authorization). */
  credentialHeaders: Record<string, string>;
  /** Other merchant headers meant for the destination (Idempotency-Key, Stripe-Version…). */
  passThroughHeaders: Record<string, string>;
}

export interface ForwardResult {
  status: number;
  contentType: string | undefined;
  body: Buffer;
  addedMs: number;
  destinationMs: number;
}

export interface ForwardDeps {
  cards: CardDataSource;
  destinations: DestinationDirectory;
  egress: Pick<EgressClient, 'request'>;
  recorder: ForwardRecorder;
  clock: Clock;
  /** Called when the audit write fails: the merchant still gets the answer (or the error). */
  onRecordFailure: (error: unknown, record: ForwardRecord) => void;
}

/** Masks PANs byte-exactly: latin1 maps bytes 1:1, and UTF-8 multi-byte sequences never contain ASCII digits. */
export function maskResponseBody(body: Buffer): Buffer {
  const text = body.toString('latin1');
  const masked = maskPans(text);
  return masked === text ? body : Buffer.from(masked, 'latin1');
}

function outcomeOf(error: unknown): ForwardRecord['outcome'] {
  if (error instanceof EgressTimeoutError) return 'timeout';
  if (error instanceof EgressUnreachableError || error instanceof EgressResponseTooLargeError) return 'unreachable';
  return 'rejected';
}

/**
 * POST /forward: checks the destination, fills the placeholders with the token's card data and
 * sends the request through the egress client. Nothing is sent when the destination is not allowed
 * or a placeholder cannot be filled. Every attempt is recorded and published as forward.completed.
 *
 * The record is written while the answer goes back, not before: its commit (and the outbox relay and
 * consumers it wakes) would otherwise sit in the merchant's latency. That loses nothing: the answer
 * never depended on the write (a failed write is reported through onRecordFailure and the answer
 * still goes out), and a crash before the commit loses the record whether or not the answer was
 * awaited. `recordsWritten()` lets the composition root wait for writes in flight before it stops.
 */
export function createForwardUseCase(deps: ForwardDeps) {
  const writing = new Set<Promise<void>>();
  const writeRecord = (record: ForwardRecord): void => {
    const written: Promise<void> = deps.recorder
      .record(record)
      .catch((error: unknown) => deps.onRecordFailure(error, record))
      .finally(() => writing.delete(written));
    writing.add(written);
  };

  async function forward(command: ForwardCommand): Promise<ForwardResult> {
    const started = performance.now();
    let destinationHost = '';
    let destinationPath = '';
    let destinationMs = 0;
    const baseRecord = () => ({
      id: newId(),
      merchantId: command.merchantId,
      tokenId: command.tokenId,
      destinationHost,
      destinationPath,
      createdAt: deps.clock.now().toISOString(),
    });
    try {
      const { url, rule } = resolveDestination(command.destinationUrl, await deps.destinations.rulesFor(command.merchantId));
      destinationHost = url.host;
      destinationPath = url.pathname;

      const raw = command.body.toString('utf8');
      const json = command.format === 'json' ? parseJsonBody(raw) : undefined;
      const form = command.format === 'form' ? parseFormBody(raw) : undefined;
      if (!json && !form) throw new InvalidForwardBodyError('Unsupported body format.');

      const card = await deps.cards.reveal(command.merchantId, command.tokenId, command.requestId);
      assertFillable(json?.placeholders ?? form?.placeholders ?? [], card);
      const body = json ? fillJsonBody(json, card, rule.typing) : fillFormBody(form!, card);

      const sendStarted = performance.now();
      let response;
      try {
        response = await deps.egress.request({
          url: url.href,
          method: 'POST',
          headers: {
            ...command.passThroughHeaders,
            ...command.credentialHeaders,
            'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
            // The answer is masked before it leaves: it must arrive uncompressed.
            'accept-encoding': 'identity',
          },
          body,
        });
      } finally {
        destinationMs = performance.now() - sendStarted;
      }
      destinationMs = response.timings.totalMs;
      const masked = maskResponseBody(response.body);
      const addedMs = Math.max(0, performance.now() - started - destinationMs);
      const record: ForwardRecord = {
        ...baseRecord(),
        status: response.status,
        outcome: 'delivered',
        errorCode: null,
        durationMs: destinationMs,
        addedMs,
      };
      writeRecord(record);
      return { status: response.status, contentType: response.headers['content-type'], body: masked, addedMs, destinationMs };
    } catch (error) {
      const translated = error instanceof EgressBlockedError ? new DestinationNotAllowedError(error.message) : error;
      const record: ForwardRecord = {
        ...baseRecord(),
        status: null,
        outcome: outcomeOf(error),
        errorCode: translated instanceof AppError ? translated.code : 'internal_error',
        durationMs: destinationMs,
        addedMs: Math.max(0, performance.now() - started - destinationMs),
      };
      writeRecord(record);
      throw translated;
    }
  }

  return Object.assign(forward, {
    /** Resolves once every record started so far is written (or its failure reported). */
    async recordsWritten(): Promise<void> {
      await Promise.all(writing);
    },
  });
}

export type ForwardUseCase = ReturnType<typeof createForwardUseCase>;
