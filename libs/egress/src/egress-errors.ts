import { AppError } from '@vaultline/core';

/** Why an outgoing request was refused before any byte left the process. */
export type EgressBlockReason =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'userinfo_not_allowed'
  | 'private_address'
  | 'unresolvable_address'
  /** The egress proxy (EGRESS_PROXY_URL) refused the destination: not on its allowlist. */
  | 'proxy_refused';

/** The destination (or an address it resolves to) is not one we may call. Nothing was sent. */
export class EgressBlockedError extends AppError {
  readonly reason: EgressBlockReason;
  constructor(reason: EgressBlockReason, detail = 'The destination is not allowed.') {
    super('destination_not_allowed', 403, detail, { reason });
    this.reason = reason;
  }
}

/** The caller asked for a header we refuse to send (CR/LF injection, invalid name). Nothing was sent. */
export class EgressInvalidHeaderError extends AppError {
  readonly header: string;
  constructor(header: string) {
    super('invalid_outgoing_header', 400, 'An outgoing header has an invalid name or a value with control characters.', {
      field: `headers.${header.replace(/[^\x21-\x7e]/g, '?')}`,
    });
    this.header = header;
  }
}

export type EgressTimeoutPhase = 'connect' | 'response';

/** Connecting (DNS + TCP + TLS) or waiting for the whole response took too long. Safe to retry. */
export class EgressTimeoutError extends AppError {
  readonly phase: EgressTimeoutPhase;
  constructor(phase: EgressTimeoutPhase) {
    super(
      'destination_timeout',
      504,
      phase === 'connect' ? 'Connecting to the destination timed out.' : 'The destination did not answer in time.',
      { phase },
      true,
    );
    this.phase = phase;
  }
}

/** DNS failed, the connection was refused or reset. Safe to retry. */
export class EgressUnreachableError extends AppError {
  constructor(detail = 'The destination could not be reached.') {
    super('destination_unreachable', 502, detail, {}, true);
  }
}

/** The response body exceeded maxResponseBytes; the connection was dropped while streaming. */
export class EgressResponseTooLargeError extends AppError {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super('destination_response_too_large', 502, `The destination's response exceeded ${limitBytes} bytes.`, { limit_bytes: limitBytes });
    this.limitBytes = limitBytes;
  }
}
