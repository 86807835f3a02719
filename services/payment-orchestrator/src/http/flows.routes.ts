import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import type { Mode } from '@vaultline/core';
import { answers, parseInput, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import { DEFAULT_FLOW, threeDsOf, type Flow } from '../domain/flows/flow';
import { THREE_DS_SETTINGS } from '../domain/payment-vocabulary/authentication';
import type { FlowMatrix } from '../domain/flows/flow-matrix';
import type { CreateFlow, GetFlow, GetFlowMatrix, ListFlows, NewFlow, PutFlowMatrix } from '../domain/flows/manage-flows';
import type { ExplainFlow } from '../domain/routing/explain-flow';
import { amount, currencyCode, metadata } from './payment.schemas';
import { choiceView } from './routing.view';

export interface FlowUseCases {
  createFlow: CreateFlow;
  getFlow: GetFlow;
  listFlows: ListFlows;
  putFlowMatrix: PutFlowMatrix;
  getFlowMatrix: GetFlowMatrix;
  explainFlow: ExplainFlow;
}

const flowName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { message: 'name must be 1–64 lower-case letters, digits, _ or -.' });

const processorId = z.string().min(1).max(64);

const flowStep = z
  .strictObject({
    kind: z.enum(['risk', 'authentication_3ri', 'authorization', 'capture']),
    /** One processor (and fallback), or `processors` (authorization steps): one of the two. */
    processor: processorId.optional(),
    processors: z.array(processorId).min(1).max(6).optional(),
    on_failure: z.enum(['stop', 'continue']).default('stop'),
    fallback: z.array(processorId).max(5).optional(),
    /** Authorization steps only (checked by the domain, naming the step). */
    three_ds: z.enum(THREE_DS_SETTINGS).optional(),
    /** Authorization steps only; their values are checked by the domain, so each problem names steps[i].on_decline[j]…. */
    strategy: z.string().max(32).optional(),
    weights: z.array(z.unknown()).max(6).optional(),
    on_decline: z
      .array(z.strictObject({ categories: z.array(z.unknown()).max(10), action: z.unknown() }))
      .max(20)
      .optional(),
  })
  .superRefine((step, context) => {
    if (step.processors && (step.processor !== undefined || step.fallback !== undefined)) {
      context.addIssue({ code: 'custom', path: ['processors'], message: 'Give processors, or processor (and fallback), not both.' });
    }
    if (!step.processors && step.processor === undefined)
      context.addIssue({ code: 'custom', path: ['processor'], message: 'processor (or processors) is required.' });
  })
  // The engine reads every step as processor and fallback: a processors list is its first and the rest.
  .transform(({ processors, processor, fallback, ...rest }) =>
    processors
      ? { ...rest, processor: processors[0]!, fallback: processors.slice(1), processors }
      : { ...rest, processor: processor!, fallback: fallback ?? [] },
  );

const flowBody = z.strictObject({
  name: flowName,
  capture_mode: z.enum(['automatic', 'manual']),
  steps: z.array(flowStep).min(2).max(8),
});

const matrixBody = z.strictObject({
  default_flow: z.string().min(1).max(64).default(DEFAULT_FLOW),
  rules: z
    .array(z.strictObject({ name: z.string().min(1).max(64), when: z.record(z.string(), z.unknown()).default({}), flow: z.string().min(1).max(64) }))
    .max(200)
    .default([]),
});

/**
 * Payment-shaped: a create request's body (its other fields, such as source or return_url, are
 * ignored) or a payment as answered (amount as {requested}, source.scheme not needed: give scheme).
 */
const explainBody = z.object({
  use_case: z.enum(['ONE_OFF', 'RECURRING', 'UNSCHEDULED', 'SUBSEQUENT_RECURRING', 'SUBSEQUENT_UNSCHEDULED']).default('ONE_OFF'),
  amount: z.union([amount, z.object({ requested: amount }).transform((value) => value.requested)]),
  currency_code: currencyCode,
  reference: z.string().max(255).nullish(),
  scheme: z.string().min(1).max(32).optional(),
  metadata: metadata.optional(),
  /** A draft matrix (PUT /flow-matrix's body) to explain instead of the saved one; nothing is saved. */
  matrix: matrixBody.optional(),
  /** The card's country of issue, for the routing segment (ISO 3166-1 alpha-2). */
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { message: 'country is an ISO 3166-1 alpha-2 code.' })
    .optional(),
});

/** Flows and matrices keep no mode of their own (built-in flows exist in both): theirs is the scope's they were read in. */
const toFlowView = (flow: Flow, mode: Mode) => ({
  name: flow.name,
  livemode: mode === 'live',
  capture_mode: flow.capture_mode,
  // A flow stored before three_ds existed shows the setting it runs with.
  steps: flow.steps.map((step) => (step.kind === 'authorization' ? { ...step, three_ds: threeDsOf(step) } : step)),
  built_in: flow.built_in,
  created_at: flow.created_at,
});
const toMatrixView = (matrix: FlowMatrix, mode: Mode) => ({
  livemode: mode === 'live',
  version: matrix.version,
  default_flow: matrix.default_flow,
  rules: matrix.rules,
  updated_at: matrix.updated_at,
});

/** Merchant flows and the flow matrix (the rules that choose a payment's flow). */
export function flowRoutes(router: Router, useCases: FlowUseCases): void {
  const merchant = requireScope(SCOPES.merchant);

  router.post(
    '/flows',
    merchant,
    answers(async (req) => {
      // The routing fields' values (strategy, weights, on_decline) are the domain's to check: it names each problem's field.
      const body = parseInput(flowBody, req.body) as NewFlow;
      const scope = scopeOfRequest(req);
      return reply(201, toFlowView(await useCases.createFlow(scope, body), scope.mode));
    }),
  );

  router.get('/flows', merchant, async (req, res) => {
    const scope = scopeOfRequest(req);
    res.json({ object: 'list', data: (await useCases.listFlows(scope)).map((flow) => toFlowView(flow, scope.mode)) });
  });

  router.get('/flows/:name', merchant, async (req, res) => {
    const scope = scopeOfRequest(req);
    res.json(toFlowView(await useCases.getFlow(scope, String(req.params.name)), scope.mode));
  });

  router.put('/flow-matrix', merchant, async (req, res) => {
    const body = parseInput(matrixBody, req.body);
    const scope = scopeOfRequest(req);
    res.json(toMatrixView(await useCases.putFlowMatrix(scope, body), scope.mode));
  });

  router.get('/flow-matrix', merchant, async (req, res) => {
    const scope = scopeOfRequest(req);
    res.json(toMatrixView(await useCases.getFlowMatrix(scope), scope.mode));
  });

  router.post(
    '/flow-matrix/explain',
    merchant,
    answers(async (req) => {
      const body = parseInput(explainBody, req.body);
      const choice = await useCases.explainFlow(
        scopeOfRequest(req),
        {
          use_case: body.use_case,
          amount: body.amount,
          currency_code: body.currency_code,
          reference: body.reference ?? null,
          scheme: body.scheme ?? null,
          metadata: body.metadata ?? null,
        },
        body.matrix,
        { country: body.country ?? null },
      );
      return reply(200, {
        flow: choice.flow,
        rule: choice.rule,
        matrix_version: choice.matrix_version,
        // Which processor the flow's authorization step would take first for this payment, and why.
        ...(choice.authorization ? { authorization: { strategy: choice.authorization.strategy, ...choiceView(choice.authorization) } } : {}),
      });
    }),
  );
}
