import type { Scope } from '@vaultline/core';
import { authorizersTaking, builtInFlow, stepOf } from '../flows/flow';
import { currentMatrix, findFlow } from '../flows/flow-catalog';
import { chooseFlow, type FlowChoice, type PaymentFacts } from '../flows/flow-matrix';
import { nextMatrix, type DraftFlowMatrix, type ManageFlowsPorts } from '../flows/manage-flows';
import { strategyOf } from '../flows/step-routing';
import { AmountNotSupported } from '../processor-port/processor-amounts';
import type { RoutingChoice } from './choose-processor';
import { decideRoute, type RoutingPorts } from './routing-ports';
import { segmentOf } from './segment';

export type ExplainFlow = (scope: Scope, facts: PaymentFacts, draft?: DraftFlowMatrix, card?: { country: string | null }) => Promise<FlowExplanation>;

/** The flow the matrix chooses, and which processor its authorization step would go to first, and why. */
export interface FlowExplanation extends FlowChoice {
  authorization: RoutingChoice | null;
}

/**
 * The flow the current matrix chooses, or the one a draft would choose once saved: the draft is validated
 * exactly as PUT validates it (the same errors), and its version is the one a PUT would give it. Nothing is
 * saved: the dashboard's editor previews a change with it before saving. It sits in routing/ because it
 * asks routing which processor goes first; flows/ knows nothing of routing's decisions.
 */
export function explainFlow(ports: Pick<ManageFlowsPorts, 'flows' | 'matrices' | 'directory'> & { routing: RoutingPorts }): ExplainFlow {
  return async (scope, facts, draft, card) => {
    const own = draft ? new Map((await ports.flows.list(scope)).map((flow) => [flow.name, flow])) : null;
    const choice = chooseFlow(draft ? await nextMatrix(ports, scope, draft, null) : await currentMatrix(ports.matrices, scope), facts);
    const flow = own ? (builtInFlow(choice.flow) ?? own.get(choice.flow)) : await findFlow(ports.flows, scope, choice.flow);
    const step = flow ? stepOf(flow, 'authorization') : undefined;
    if (!flow || !step) return { ...choice, authorization: null };
    // Which processor a payment of these facts would go to first (no draw: the exploiting choice, its rates or weights).
    const processors = await ports.directory(scope, scope.mode);
    let candidates: string[];
    try {
      candidates = authorizersTaking(flow, processors, facts.amount, facts.currency_code);
    } catch (error) {
      if (error instanceof AmountNotSupported)
        return { ...choice, authorization: { strategy: strategyOf(step), order: [], reason: 'step_order', detail: error.message } };
      throw error;
    }
    const segment = segmentOf({
      card_scheme: facts.scheme,
      card_country: card?.country ?? null,
      currency_code: facts.currency_code,
      amount: { requested: facts.amount },
    });
    return { ...choice, authorization: await decideRoute(ports.routing, scope, step, candidates, segment, true) };
  };
}
