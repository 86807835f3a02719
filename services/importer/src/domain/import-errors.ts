import { AppError, sleepFailingOnAbort, ValidationError } from '@vaultline/core';

export class UnknownProviderError extends ValidationError {
  constructor(provider: string) {
    super('provider', `The provider ${JSON.stringify(provider.slice(0, 40))} is not supported.`, 'unknown_provider');
  }
}

/** The platform refused the merchant's key (401). The job fails; retrying cannot help. */
export class ProviderAuthenticationError extends AppError {
  constructor() {
    super('provider_authentication_failed', 502, 'The platform rejected the API key given for the import.');
  }
}

/** The platform stayed unreachable (or kept answering 5xx) after every retry. */
export class ProviderUnreachableError extends AppError {
  constructor(detail = 'The platform could not be reached after retries.') {
    super('provider_unreachable', 502, detail, {}, true);
  }
}

/** The platform answered a request with a 4xx other than 401/429 (e.g. a payment method that vanished). */
export class ProviderRequestError extends AppError {
  constructor(
    readonly httpStatus: number,
    /** The platform's error code, else its error type. */
    readonly providerCode: string | null,
    /** The parameter the platform named, if any. */
    readonly param: string | null = null,
    /** The platform's error type (provider_a: invalid_request_error, idempotency_error …). */
    readonly errorType: string | null = null,
  ) {
    super('provider_request_failed', 502, `The platform refused the request (HTTP ${httpStatus}).`);
  }
}

/**
 * The platform refuses to forward to our /cde-import: its forwarding function or this destination is
 * not enabled for the account. Every card would be refused alike, so the job fails; `detail` says
 * what the merchant must ask the platform for.
 */
export class ForwardingNotEnabledError extends AppError {
  constructor(detail: string) {
    super('forwarding_not_enabled', 502, detail);
  }
}

/** The gateway could not mint (or revoke) the job-scoped import key. */
export class ImportCredentialError extends AppError {
  constructor(detail: string) {
    super('import_credential_unavailable', 503, detail, {}, true);
  }
}

/** The job was stopped (service shutting down); it resumes from its checkpoint later. */
export class ImportInterruptedError extends Error {
  constructor() {
    super('import interrupted');
    this.name = 'ImportInterruptedError';
  }
}

/** Waits ms, or rejects with ImportInterruptedError as soon as the signal aborts: the job stops where it stands. */
export const pauseImport = (ms: number, signal: AbortSignal): Promise<void> => sleepFailingOnAbort(ms, signal, () => new ImportInterruptedError());
