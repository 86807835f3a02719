import type { KeyRotationRecord } from '../domain/keys/key-rotation-record';

export interface KeyRotationView {
  id: string;
  to_version: number;
  state: KeyRotationRecord['state'];
  total: number;
  rewrapped: number;
  remaining: number;
  started_at: string;
  completed_at: string | null;
}

export const toKeyRotationView = (r: KeyRotationRecord, remaining: number): KeyRotationView => ({
  id: r.id,
  to_version: r.to_version,
  state: r.state,
  total: r.total,
  rewrapped: r.rewrapped,
  remaining,
  started_at: r.started_at,
  completed_at: r.completed_at,
});
