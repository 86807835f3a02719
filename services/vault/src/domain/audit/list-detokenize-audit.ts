import type { Page, PageRequest } from '@vaultline/store';
import type { AuditRepository } from '../ports';
import type { DetokenizeAuditRecord } from './detokenize-audit';

export type ListDetokenizeAudit = (filter: { tokenId?: string; caller?: string }, page: PageRequest) => Promise<Page<DetokenizeAuditRecord>>;

/** The operator's view of card-data access (admin API): every merchant's entries. */
export function listDetokenizeAudit({ audit }: { audit: Pick<AuditRepository, 'list'> }): ListDetokenizeAudit {
  return (filter, page) => audit.list(filter, page);
}
