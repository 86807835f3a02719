import { apiKeyPrefix, generateAdminKey, hashApiKey } from '@vaultline/auth';
import { ConflictError, NotFoundError, UnauthorizedError, constantTimeEquals, newId, type Clock } from '@vaultline/core';
import type { OperatorRepository, PageOf, PageRequest, PepperSource } from './ports';
import type { Operator } from './operator';

export const BOOTSTRAP_OPERATOR = 'bootstrap';

/** No admin key is shorter (ADMIN_API_KEY is refused at start, a shorter X-Admin-Key before any lookup); generated ones have 38. */
export const ADMIN_KEY_MIN_LENGTH = 32;

export class OperatorNameTaken extends ConflictError {
  constructor() {
    super('operator_name_taken', 'An operator with this name exists already; names identify operators in the audit log.', { field: 'name' });
  }
}

export type CreateOperator = (name: string) => Promise<{ operator: Operator; adminKey: string }>;

export function createOperator({
  operators,
  clock,
  pepper,
}: {
  operators: Pick<OperatorRepository, 'findByName' | 'insert'>;
  clock: Clock;
  pepper: PepperSource;
}): CreateOperator {
  return async (name) => {
    if (await operators.findByName(name)) throw new OperatorNameTaken();
    const adminKey = generateAdminKey();
    const operator: Operator = {
      id: newId(),
      name,
      key_hash: hashApiKey(adminKey, pepper()),
      prefix: apiKeyPrefix(adminKey),
      created_at: clock.now().toISOString(),
      revoked_at: null,
    };
    await operators.insert(operator);
    return { operator, adminKey };
  };
}

export type ListOperators = (page: PageRequest) => Promise<PageOf<Operator>>;

export const listOperators =
  ({ operators }: { operators: Pick<OperatorRepository, 'list'> }): ListOperators =>
  (page) =>
    operators.list(page);

export type RevokeOperator = (id: string) => Promise<Operator>;

export function revokeOperator({ operators, clock }: { operators: Pick<OperatorRepository, 'get' | 'update'>; clock: Clock }): RevokeOperator {
  return async (id) => {
    const operator = await operators.get(id);
    if (!operator) throw new NotFoundError('operator');
    if (operator.revoked_at) throw new ConflictError('operator_revoked', 'The operator is already revoked.');
    return operators.update({ ...operator, revoked_at: clock.now().toISOString() });
  };
}

export type AuthenticateOperator = (adminKey: string | undefined) => Promise<Operator>;

/** X-Admin-Key → its operator: lookup by hash, then a constant-time comparison of the hashes. */
export function authenticateOperator({ operators, pepper }: { operators: Pick<OperatorRepository, 'findByHash'>; pepper: PepperSource }): AuthenticateOperator {
  return async (adminKey) => {
    if (!adminKey) throw new UnauthorizedError('The X-Admin-Key header is required.', 'missing_admin_key');
    const invalid = new UnauthorizedError('The admin key is not valid.', 'invalid_admin_key');
    if (adminKey.length < ADMIN_KEY_MIN_LENGTH || adminKey.length > 200) throw invalid;
    const hash = hashApiKey(adminKey, pepper());
    const operator = await operators.findByHash(hash);
    if (!operator || !constantTimeEquals(operator.key_hash, hash) || operator.revoked_at) throw invalid;
    return operator;
  };
}

export type ResolveOperatorById = (id: string) => Promise<Operator>;

/** The operator a dashboard session was opened by, read again on every request: a revoked operator's session stops at once. */
export function resolveOperatorById({ operators }: { operators: Pick<OperatorRepository, 'get'> }): ResolveOperatorById {
  return async (id) => {
    const operator = await operators.get(id);
    if (!operator || operator.revoked_at) throw new UnauthorizedError('The admin key is not valid.', 'invalid_admin_key');
    return operator;
  };
}

export type EnsureBootstrapOperator = (adminApiKey: string) => Promise<Operator>;

/**
 * ADMIN_API_KEY as the operator "bootstrap". A changed ADMIN_API_KEY replaces its hash (and lifts a
 * revocation: setting a new key is how the bootstrap operator is rotated); the same key keeps it as it is.
 */
export function ensureBootstrapOperator({
  operators,
  clock,
  pepper,
}: {
  operators: Pick<OperatorRepository, 'findByName' | 'insert' | 'update'>;
  clock: Clock;
  pepper: PepperSource;
}): EnsureBootstrapOperator {
  return async (adminApiKey) => {
    const keyHash = hashApiKey(adminApiKey, pepper());
    const existing = await operators.findByName(BOOTSTRAP_OPERATOR);
    if (existing && constantTimeEquals(existing.key_hash, keyHash)) return existing;
    if (existing) return operators.update({ ...existing, key_hash: keyHash, prefix: apiKeyPrefix(adminApiKey), revoked_at: null });
    const operator: Operator = {
      id: newId(),
      name: BOOTSTRAP_OPERATOR,
      key_hash: keyHash,
      prefix: apiKeyPrefix(adminApiKey),
      created_at: clock.now().toISOString(),
      revoked_at: null,
    };
    await operators.insert(operator);
    return operator;
  };
}

/** The operator use cases as the admin router takes them (built in app.ts). */
export interface Operators {
  create: CreateOperator;
  list: ListOperators;
  revoke: RevokeOperator;
  authenticate: AuthenticateOperator;
  resolveById: ResolveOperatorById;
}
