/**
 * One admin request: who (the operator, null when the key was refused), what (method, path and the
 * ids it names or created), when, and the outcome (HTTP status). Never a request body: an admin body
 * can carry a merchant's name or a forwarding credential, and the log is kept for a long time.
 */
export interface AdminAuditEntry {
  id: string;
  at: string;
  operator_id: string | null;
  operator_name: string | null;
  method: string;
  path: string;
  target_ids: string[];
  status: number;
  request_id: string;
}

export type AdminAction = Omit<AdminAuditEntry, 'id' | 'at'>;

export interface AdminAuditFilter {
  operatorId?: string;
}
