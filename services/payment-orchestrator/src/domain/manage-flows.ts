import { DuplicateKeyError } from '@vaultline/store';
import { BUILT_IN_FLOWS, builtInFlow, FlowExists, FlowLimitReached, FlowNotFound, MAX_FLOWS_PER_MERCHANT, validateFlow, type Flow, type FlowStep } from './flows/flow';
import { currentMatrix, findFlow } from './flows/flow-catalog';
import { chooseFlow, validateFlowMatrix, type FlowChoice, type FlowMatrix, type PaymentFacts } from './flows/flow-matrix';
import type { Clock, FlowMatrixRepository, FlowRepository, ProcessorDirectory, TransactionRunner } from './ports';
import { ConflictError, scopeOf } from '@vaultline/core';

export interface ManageFlowsPorts {
  flows: FlowRepository;
  matrices: FlowMatrixRepository;
  /** Flows name built-in processors or the merchant's processor accounts; their capabilities do not depend on the mode. */
  directory: ProcessorDirectory;
  transaction: TransactionRunner;
  clock: Clock;
}

export interface NewFlow {
  name: string;
  capture_mode: Flow['capture_mode'];
  steps: FlowStep[];
}

export type CreateFlow = (merchantId: string, input: NewFlow) => Promise<Flow>;
export type GetFlow = (merchantId: string, name: string) => Promise<Flow>;
export type ListFlows = (merchantId: string) => Promise<Flow[]>;
export type PutFlowMatrix = (merchantId: string, input: Parameters<typeof validateFlowMatrix>[0]) => Promise<FlowMatrix>;
export type GetFlowMatrix = (merchantId: string) => Promise<FlowMatrix>;
export type ExplainFlow = (merchantId: string, facts: PaymentFacts) => Promise<FlowChoice>;

/** Merchant flows are immutable once created (payments copy the flow they run; the matrix names them). */
export function createFlow({ flows, directory, transaction, clock }: ManageFlowsPorts): CreateFlow {
  return async (merchantId, input) => {
    if (builtInFlow(input.name) || (await flows.get(merchantId, input.name))) throw new FlowExists(input.name);
    // Flows have no mode of their own yet: counted in the test scope, which the store reads per merchant.
    // Two creations racing at 499 may both commit: the limit bounds the store, it is not a quota to the unit.
    if ((await flows.count(scopeOf(merchantId, 'test'))) >= MAX_FLOWS_PER_MERCHANT) throw new FlowLimitReached();
    const flow: Flow = { ...input, built_in: false, created_at: clock.now().toISOString() };
    validateFlow(flow, await directory(merchantId, 'test'));
    try {
      await transaction((uow) => flows.insert(uow, merchantId, flow));
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new FlowExists(input.name);
      throw error;
    }
    return flow;
  };
}

export function getFlow({ flows }: Pick<ManageFlowsPorts, 'flows'>): GetFlow {
  return async (merchantId, name) => {
    const flow = await findFlow(flows, merchantId, name);
    if (!flow) throw new FlowNotFound(name);
    return flow;
  };
}

export function listFlows({ flows }: Pick<ManageFlowsPorts, 'flows'>): ListFlows {
  return async (merchantId) => [...Object.values(BUILT_IN_FLOWS), ...(await flows.list(merchantId))];
}

/** Each PUT is a new version (the previous ones stay: payments name the version that chose their flow). */
export function putFlowMatrix({ flows, matrices, directory, transaction, clock }: ManageFlowsPorts): PutFlowMatrix {
  return async (merchantId, input) => {
    const own = new Map((await flows.list(merchantId)).map((flow) => [flow.name, flow]));
    const valid = validateFlowMatrix(input, (name) => builtInFlow(name) ?? own.get(name), await directory(merchantId, 'test'));
    const previous = await currentMatrix(matrices, merchantId);
    const matrix: FlowMatrix = { ...valid, version: previous.version + 1, updated_at: clock.now().toISOString() };
    try {
      await transaction((uow) => matrices.insert(uow, merchantId, matrix));
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new ConflictError('flow_matrix_changed', 'Another update of the flow matrix committed first; read it again and retry.');
      throw error;
    }
    return matrix;
  };
}

export function getFlowMatrix({ matrices }: Pick<ManageFlowsPorts, 'matrices'>): GetFlowMatrix {
  return (merchantId) => currentMatrix(matrices, merchantId);
}

export function explainFlow({ matrices }: Pick<ManageFlowsPorts, 'matrices'>): ExplainFlow {
  return async (merchantId, facts) => chooseFlow(await currentMatrix(matrices, merchantId), facts);
}
