import { DuplicateKeyError } from '@vaultline/store';
import {
  BUILT_IN_FLOWS,
  builtInFlow,
  FlowExists,
  FlowLimitReached,
  FlowNotFound,
  MAX_FLOWS_PER_MERCHANT,
  validateFlow,
  withThreeDsDefault,
  type Flow,
  type FlowStep,
} from './flow';
import { currentMatrix, findFlow } from './flow-catalog';
import { validateFlowMatrix, type FlowMatrix } from './flow-matrix';
import type { Clock } from '@vaultline/core';
import type { FlowMatrixRepository, FlowRepository } from './flow-ports';
import type { ProcessorDirectory } from '../processor-port/processor-port';
import type { TransactionRunner } from '@vaultline/store';
import { ConflictError, type Scope } from '@vaultline/core';

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

export type CreateFlow = (scope: Scope, input: NewFlow) => Promise<Flow>;
export type GetFlow = (scope: Scope, name: string) => Promise<Flow>;
export type ListFlows = (scope: Scope) => Promise<Flow[]>;
export type PutFlowMatrix = (scope: Scope, input: Parameters<typeof validateFlowMatrix>[0]) => Promise<FlowMatrix>;
export type GetFlowMatrix = (scope: Scope) => Promise<FlowMatrix>;
/** A draft matrix, as PUT /flow-matrix takes it: explained without being saved. */
export type DraftFlowMatrix = Parameters<typeof validateFlowMatrix>[0];

/** Merchant flows are immutable once created (payments copy the flow they run; the matrix names them). */
export function createFlow({ flows, directory, transaction, clock }: ManageFlowsPorts): CreateFlow {
  return async (scope, input) => {
    if (builtInFlow(input.name) || (await flows.get(scope, input.name))) throw new FlowExists(input.name);
    // Two creations racing at 499 may both commit: the limit bounds the store, it is not a quota to the unit.
    if ((await flows.count(scope)) >= MAX_FLOWS_PER_MERCHANT) throw new FlowLimitReached();
    const flow: Flow = { ...input, steps: withThreeDsDefault(input.steps), built_in: false, created_at: clock.now().toISOString() };
    validateFlow(flow, await directory(scope, 'test'));
    try {
      await transaction((uow) => flows.insert(uow, scope, flow));
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw new FlowExists(input.name);
      throw error;
    }
    return flow;
  };
}

export function getFlow({ flows }: Pick<ManageFlowsPorts, 'flows'>): GetFlow {
  return async (scope, name) => {
    const flow = await findFlow(flows, scope, name);
    if (!flow) throw new FlowNotFound(name);
    return flow;
  };
}

export function listFlows({ flows }: Pick<ManageFlowsPorts, 'flows'>): ListFlows {
  return async (scope) => [...Object.values(BUILT_IN_FLOWS), ...(await flows.list(scope))];
}

/** Each PUT is a new version (the previous ones stay: payments name the version that chose their flow). */
export function putFlowMatrix({ flows, matrices, directory, transaction, clock }: ManageFlowsPorts): PutFlowMatrix {
  return async (scope, input) => {
    const matrix = await nextMatrix({ flows, matrices, directory }, scope, input, clock.now().toISOString());
    try {
      await transaction((uow) => matrices.insert(uow, scope, matrix));
    } catch (error) {
      if (error instanceof DuplicateKeyError)
        throw new ConflictError('flow_matrix_changed', 'Another update of the flow matrix committed first; read it again and retry.');
      throw error;
    }
    return matrix;
  };
}

export function getFlowMatrix({ matrices }: Pick<ManageFlowsPorts, 'matrices'>): GetFlowMatrix {
  return (scope) => currentMatrix(matrices, scope);
}

/** The matrix an input becomes: validated against the flows and processors in reach, one version after the current. */
export async function nextMatrix(
  { flows, matrices, directory }: Pick<ManageFlowsPorts, 'flows' | 'matrices' | 'directory'>,
  scope: Scope,
  input: DraftFlowMatrix,
  updatedAt: string | null,
): Promise<FlowMatrix> {
  const own = new Map((await flows.list(scope)).map((flow) => [flow.name, flow]));
  const valid = validateFlowMatrix(input, (name) => builtInFlow(name) ?? own.get(name), await directory(scope, 'test'));
  const previous = await currentMatrix(matrices, scope);
  return { ...valid, version: previous.version + 1, updated_at: updatedAt };
}
