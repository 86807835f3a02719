import type { Operator } from '../domain/operator';

/** An operator as listed: the key's prefix, never its hash. */
export const toOperatorView = (o: Operator) => ({ id: o.id, name: o.name, prefix: o.prefix, created_at: o.created_at, revoked_at: o.revoked_at });
