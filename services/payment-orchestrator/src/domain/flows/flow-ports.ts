import type { Scope } from '@vaultline/core';
import type { UnitOfWork } from '@vaultline/store';
import type { Flow } from './flow';
import type { FlowMatrix } from './flow-matrix';

export interface FlowRepository {
  /** Merchant-defined flows only (the built-in ones live in code). */
  get(scope: Scope, name: string): Promise<Flow | null>;
  /** Every one of them, however many were stored (earlier versions had no limit). */
  list(scope: Scope): Promise<Flow[]>;
  count(scope: Scope): Promise<number>;
  insert(uow: UnitOfWork, scope: Scope, flow: Flow): void;
}

export interface FlowMatrixRepository {
  /** The newest version, or null when the merchant never set one. */
  current(scope: Scope): Promise<FlowMatrix | null>;
  /** Inserts a new version; a concurrent insert of the same version fails the commit (DuplicateKeyError). */
  insert(uow: UnitOfWork, scope: Scope, matrix: FlowMatrix): void;
}
