import type { Mode } from '@vaultline/core';
import type { StoredDocument } from '@vaultline/store';

/**
 * pending:   an attempt is ahead (due at next_attempt_at, or in flight); the message has a queue entry.
 * succeeded: a 2xx was received.
 * failed:    the schedule is exhausted, the receiver answered 410, or the endpoint is gone/disabled.
 */
export type MessageStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryAttempt {
  attempted_at: string;
  /** The receiver's HTTP status, or null when no response came back. */
  status_code: number | null;
  duration_ms: number;
  /** null on success; otherwise a short reason such as http_500, timeout, unreachable. */
  error: string | null;
  trigger: 'scheduled' | 'replay';
}

/**
 * One event for one endpoint. Its id is the webhook-id header: stable across retries and replays,
 * so receivers dedupe on it.
 */
export interface WebhookMessage extends StoredDocument {
  /** Its event's mode, which is its endpoint's too. */
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON body sent on every attempt: {type, timestamp, data}. */
  payload: string;
  status: MessageStatus;
  /** Epoch ms of the next scheduled attempt while pending; null when final. */
  next_attempt_at: number | null;
  /** Attempts of the current run (a replay starts a new run); indexes the retry schedule. */
  run_attempts: number;
  /** Every attempt ever made, replays included. */
  attempt_count: number;
  /** Whether the current run was started by a replay. */
  replayed: boolean;
  last_attempt_at: string | null;
  failure_reason: string | null;
  /** The most recent attempts, oldest first (capped at MAX_ATTEMPTS_KEPT). */
  attempts: DeliveryAttempt[];
  created_at: string;
  updated_at: string;
}

export const MAX_ATTEMPTS_KEPT = 50;

export function appendAttempt(attempts: DeliveryAttempt[], attempt: DeliveryAttempt): DeliveryAttempt[] {
  const next = [...attempts, attempt];
  return next.length > MAX_ATTEMPTS_KEPT ? next.slice(next.length - MAX_ATTEMPTS_KEPT) : next;
}
