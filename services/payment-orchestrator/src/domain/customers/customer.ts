import type { Mode } from '@vaultline/core';
import { NotFoundError } from '@vaultline/core';

/** A merchant's customer (earlier interface): whom stored cards and mandates belong to. */
export interface Customer {
  id: string;
  merchant_id: string;
  /** The mode of the key that made it: a key of the other mode never sees it. */
  mode: Mode;
  version: number;
  name: string;
  email: string | null;
  metadata: Record<string, string> | null;
  created_at: string;
}

export class CustomerNotFound extends NotFoundError {
  constructor() {
    super('customer');
  }
}
