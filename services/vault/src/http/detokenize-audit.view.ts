import type { DetokenizeAuditRecord } from '../domain/audit/detokenize-audit';

export interface DetokenizeAuditView {
  id: string;
  token_id: string;
  merchant_id: string;
  caller: string;
  purpose: string;
  outcome: DetokenizeAuditRecord['outcome'];
  security_code_status: DetokenizeAuditRecord['security_code_status'];
  request_id: string;
  client_request_id: string | null;
  occurred_at: string;
}

export const toDetokenizeAuditView = (r: DetokenizeAuditRecord): DetokenizeAuditView => ({
  id: r.id,
  token_id: r.token_id,
  merchant_id: r.token_merchant_id,
  caller: r.caller,
  purpose: r.purpose,
  outcome: r.outcome,
  security_code_status: r.security_code_status,
  request_id: r.request_id,
  client_request_id: r.client_request_id ?? null,
  occurred_at: r.occurred_at,
});
