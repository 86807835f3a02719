import { NotFoundError } from '@vaultline/core';
import { SYSTEM_SCOPE, type DocumentStore, type StoredDocument } from '@vaultline/store';
import type { Operator } from '../domain/operator';
import type { OperatorRepository, PageOf, PageRequest } from '../domain/ports';
import { OPERATORS } from './collections';

type OperatorDocument = StoredDocument & Operator;

const toOperator = ({ version: _version, merchant_id: _scope, ...operator }: OperatorDocument): Operator => operator;

export class StoreOperatorRepository implements OperatorRepository {
  constructor(private readonly store: DocumentStore) {}

  private get operators() {
    return this.store.collection<OperatorDocument>(OPERATORS);
  }

  async insert(operator: Operator): Promise<void> {
    await this.store.transaction((uow) => uow.insert<OperatorDocument>(OPERATORS, { ...operator, merchant_id: SYSTEM_SCOPE }));
  }

  async get(id: string): Promise<Operator | null> {
    const doc = await this.operators.get(SYSTEM_SCOPE, id);
    return doc ? toOperator(doc) : null;
  }

  async findByName(name: string): Promise<Operator | null> {
    const doc = await this.operators.findOne(SYSTEM_SCOPE, { name });
    return doc ? toOperator(doc) : null;
  }

  async findByHash(keyHash: string): Promise<Operator | null> {
    const doc = await this.operators.findOne(SYSTEM_SCOPE, { key_hash: keyHash });
    return doc ? toOperator(doc) : null;
  }

  async list(page: PageRequest): Promise<PageOf<Operator>> {
    const result = await this.operators.list(SYSTEM_SCOPE, {}, page);
    return { ...result, items: result.items.map(toOperator) };
  }

  async update(operator: Operator): Promise<Operator> {
    const doc = await this.operators.get(SYSTEM_SCOPE, operator.id);
    if (!doc) throw new NotFoundError('operator');
    return toOperator(await this.store.transaction((uow) => uow.update<OperatorDocument>(OPERATORS, { ...doc, ...operator })));
  }
}
