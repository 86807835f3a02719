import type { Scope } from '@vaultline/core';
import type { FlowMatrixRepository, FlowRepository } from './flow-ports';
import { builtInFlow, FlowNotFound, type Flow } from './flow';
import { EMPTY_MATRIX, chooseFlow, type FlowMatrix, type PaymentFacts } from './flow-matrix';

/** The flow decision, recorded with the payment (the matrix version and rule that chose it). */
export interface FlowDecision {
  flow: Flow;
  matrix_version: number;
  rule: string | null;
}

export interface FlowCatalogPorts {
  flows: FlowRepository;
  matrices: FlowMatrixRepository;
}

/** A merchant's flows: the built-in ones, then the merchant's own. */
export async function findFlow(flows: FlowRepository, scope: Scope, name: string): Promise<Flow | undefined> {
  return builtInFlow(name) ?? (await flows.get(scope, name)) ?? undefined;
}

export async function currentMatrix(matrices: FlowMatrixRepository, scope: Scope): Promise<FlowMatrix> {
  return (await matrices.current(scope)) ?? EMPTY_MATRIX;
}

/** The merchant's matrix decides; the flow is copied into the decision so a payment keeps running the flow it was given. */
export async function decideFlow({ flows, matrices }: FlowCatalogPorts, scope: Scope, facts: PaymentFacts): Promise<FlowDecision> {
  const choice = chooseFlow(await currentMatrix(matrices, scope), facts);
  const flow = await findFlow(flows, scope, choice.flow);
  // Flows are immutable and never deleted, and the matrix is validated against them: a miss is a bug.
  if (!flow) throw new FlowNotFound(choice.flow);
  return { flow, matrix_version: choice.matrix_version, rule: choice.rule };
}
