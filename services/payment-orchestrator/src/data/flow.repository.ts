import { newId, type Scope } from '@vaultline/core';
import type { DocumentStore, StoredDocument, UnitOfWork } from '@vaultline/store';
import type { FlowMatrixRepository, FlowRepository } from '../domain/flows/flow-ports';
import type { Flow } from '../domain/flows/flow';
import type { FlowMatrix } from '../domain/flows/flow-matrix';
import { FLOWS, FLOW_MATRICES } from './collections';

interface FlowDocument extends StoredDocument {
  name: string;
  flow: Flow;
}

interface FlowMatrixDocument extends StoredDocument {
  /** The store owns `version` (optimistic locking); the matrix's own version is this. */
  matrix_version: number;
  matrix: FlowMatrix;
}

/** Flows are read a page at a time; a merchant has at most 500 (MAX_FLOWS_PER_MERCHANT), but earlier versions stored more. */
const PAGE = 500;

export class StoreFlowRepository implements FlowRepository {
  constructor(private readonly store: DocumentStore) {}

  async get(scope: Scope, name: string): Promise<Flow | null> {
    return (await this.store.collection<FlowDocument>(FLOWS).findOne(scope, { name }))?.flow ?? null;
  }

  async list(scope: Scope): Promise<Flow[]> {
    const flows: Flow[] = [];
    for (let after: string | undefined, more = true; more;) {
      const page = await this.store.collection<FlowDocument>(FLOWS).list(scope, {}, { limit: PAGE, ...(after ? { after } : {}) });
      flows.push(...page.items.map((doc) => doc.flow));
      [after, more] = [page.next_cursor, page.has_more && page.next_cursor !== undefined];
    }
    return flows;
  }

  count(scope: Scope): Promise<number> {
    return this.store.collection<FlowDocument>(FLOWS).count(scope, {});
  }

  insert(uow: UnitOfWork, scope: Scope, flow: Flow): void {
    uow.insert<FlowDocument>(FLOWS, { id: newId(), merchant_id: scope.merchantId, mode: scope.mode, name: flow.name, flow });
  }
}

export class StoreFlowMatrixRepository implements FlowMatrixRepository {
  constructor(private readonly store: DocumentStore) {}

  async current(scope: Scope): Promise<FlowMatrix | null> {
    const page = await this.store.collection<FlowMatrixDocument>(FLOW_MATRICES).list(scope, {}, { limit: 1, order: 'desc' });
    return page.items[0]?.matrix ?? null;
  }

  insert(uow: UnitOfWork, scope: Scope, matrix: FlowMatrix): void {
    uow.insert<FlowMatrixDocument>(FLOW_MATRICES, { id: newId(), merchant_id: scope.merchantId, mode: scope.mode, matrix_version: matrix.version, matrix });
  }
}
