import { AppError } from '@vaultline/core';
import type { RelayedRequest } from '@vaultline/runtime';

/**
 * The port between the main thread and a service thread that carries merchant requests (relayed by
 * the gateway to the service's express app) and calls of the service's in-process APIs (the vault's
 * detokenization for the forwarder). Card data crosses it only in memory, never into a log or store.
 */
export type Ask = { kind: 'relay'; request: RelayedRequest } | { kind: 'call'; api: string; method: string; args: unknown[] };
export type ToService = Ask & { id: number };
export type FromService = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

export interface SerializedError {
  message: string;
  /** Set for AppError, which callers read (status, code) exactly as on the service's own thread. */
  app?: { code: string; status: number; extensions: Record<string, unknown>; retryable: boolean };
}

/** The names of the APIs a service exposes, with their methods: what the main thread rebuilds as proxies. */
export type ExposedApiMethods = Record<string, string[]>;


export function serializeError(error: unknown): SerializedError {
  if (error instanceof AppError) {
    return { message: error.message, app: { code: error.code, status: error.status, extensions: { ...error.extensions }, retryable: error.retryable } };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

export function deserializeError(error: SerializedError): Error {
  if (error.app) return new AppError(error.app.code, error.app.status, error.message, error.app.extensions, error.app.retryable);
  return new Error(error.message);
}
