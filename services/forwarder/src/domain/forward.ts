import { AppError, isAppError, maskPans, newId, type Clock, type Scope } from '@vaultline/core';
import type { CardDataSource } from './card-data';
import type { DestinationDirectory } from './destination-directory';
import { assertModeAllowed, resolveDestination } from './destination-policy';
import { checkPlacement } from './card-fields';
import { fillFormBody, parseFormBody } from './fill-form-body';
import { fillJsonBody, parseJsonBody } from './fill-json-body';
import { DestinationNotAllowedError, InvalidForwardBodyError } from './forward-errors';
import type { ForwardRecord } from './forward-record';
import type { ForwardAudit } from './record-forward';
import { assertFillable } from './placeholders';
import type { DestinationClient } from './ports';

export type ForwardBodyFormat = 'json' | 'form';

export interface ForwardCommand {
  /** The merchant and the mode of its API key: the token is read, and the destination allowed, in this mode only. */
  scope: Scope;
  /** The request id the call came with (the client's X-Request-Id when it sent a well-formed one). */
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

export interface ForwardRequestPorts {
  cards: CardDataSource;
  destinations: DestinationDirectory;
  egress: DestinationClient;
  /** Every attempt is recorded, off the merchant's path (see ForwardAudit). */
  audit: Pick<ForwardAudit, 'write'>;
  clock: Clock;
}

/** Masks PANs byte-exactly: latin1 maps bytes 1:1, and UTF-8 multi-byte sequences never contain ASCII digits. */
function maskResponseBody(body: Buffer): Buffer {
  const text = body.toString('latin1');
  const masked = maskPans(text);
  return masked === text ? body : Buffer.from(masked, 'latin1');
}

/** How a failed forward went, from the code of the destination client's error (see DestinationClient). */
function outcomeOf(error: unknown): ForwardRecord['outcome'] {
  const code = isAppError(error) ? error.code : undefined;
  if (code === 'destination_timeout') return 'timeout';
  if (code === 'destination_unreachable' || code === 'destination_response_too_large') return 'unreachable';
  return 'rejected';
}

/** A destination the client refused to reach (a private address…) answers as one the policy refused: 403 naming the header. */
function asForwardError(error: unknown): unknown {
  if (error instanceof DestinationNotAllowedError || !isAppError(error) || error.code !== 'destination_not_allowed') return error;
  return new DestinationNotAllowedError(error.message);
}

/**
 * POST /forward: checks the destination, fills the placeholders with the token's card data and
 * sends the request through the egress client. Nothing is sent when the destination is not allowed
 * or a placeholder cannot be filled. Every attempt is recorded and published as forward.completed,
 * while the answer goes back.
 */
export type ForwardRequest = (command: ForwardCommand) => Promise<ForwardResult>;

export function forwardRequest({ cards, destinations, egress, audit, clock }: ForwardRequestPorts): ForwardRequest {
  async function forward(command: ForwardCommand): Promise<ForwardResult> {
    const started = performance.now();
    const forwardId = newId();
    let destinationHost = '';
    let destinationPath = '';
    let destinationMs = 0;
    const baseRecord = () => ({
      id: forwardId,
      scope: command.scope,
      tokenId: command.tokenId,
      destinationHost,
      destinationPath,
      createdAt: clock.now().toISOString(),
    });
    try {
      const { url, rule } = resolveDestination(command.destinationUrl, await destinations.rulesFor(command.scope.merchantId));
      destinationHost = url.host;
      destinationPath = url.pathname;
      assertModeAllowed(rule, command.scope.mode);

      const raw = command.body.toString('utf8');
      const json = command.format === 'json' ? parseJsonBody(raw) : undefined;
      const form = command.format === 'form' ? parseFormBody(raw) : undefined;
      if (!json && !form) throw new InvalidForwardBodyError('Unsupported body format.');

      // Before anything is revealed or sent: placeholders stand only as whole values of the destination's card fields.
      const placeholders = checkPlacement(json?.uses ?? form!.uses, rule.card.fields, command.format);

      let body: string | Buffer = command.body;
      // Card data is read only when the body asks for it: no placeholder, no detokenization (nor its audit entry).
      if (placeholders.length > 0) {
        const card = await cards.reveal(command.scope, command.tokenId, { requestId: forwardId, clientRequestId: command.requestId });
        assertFillable(placeholders, card);
        body = json ? fillJsonBody(json, card, rule.card.typing) : fillFormBody(form!, card);
      }

      const sendStarted = performance.now();
      let response;
      try {
        response = await egress.request({
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
      audit.write(record);
      return { status: response.status, contentType: response.headers['content-type'], body: masked, addedMs, destinationMs };
    } catch (error) {
      const translated = asForwardError(error);
      const record: ForwardRecord = {
        ...baseRecord(),
        status: null,
        outcome: outcomeOf(error),
        errorCode: translated instanceof AppError ? translated.code : 'internal_error',
        durationMs: destinationMs,
        addedMs: Math.max(0, performance.now() - started - destinationMs),
      };
      audit.write(record);
      throw translated;
    }
  }

  return forward;
}
