import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { isUuid } from '@vaultline/core';
import { answers, parseInput, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import type {
  CreateProcessorAccount,
  DeleteProcessorAccount,
  GetProcessorAccount,
  ListProcessorAccounts,
  UpdateProcessorAccount,
} from '../domain/processor-accounts/manage-processor-accounts';
import type { ProcessorAccountPolicy } from '../domain/processor-accounts/processor-account-ports';
import { ProcessorAccountNotFound, type ProcessorAccount } from '../domain/processor-accounts/processor-account';

export interface ProcessorAccountUseCases {
  createProcessorAccount: CreateProcessorAccount;
  getProcessorAccount: GetProcessorAccount;
  listProcessorAccounts: ListProcessorAccounts;
  updateProcessorAccount: UpdateProcessorAccount;
  deleteProcessorAccount: DeleteProcessorAccount;
}

const name = z.string().trim().min(1).max(64);
const credentials = z.record(z.string(), z.unknown());
const baseUrl = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/, { message: 'base_url must be an absolute http(s) URL without query or fragment.' });
// explicit_unscheduled, multiple_partial_captures: only on processors whose plugin takes them (rule 7 of the earlier interface is testable with the first).
// approval_rate, outage, seed: simulator accounts only (two simulator accounts can then differ, for routing in test mode).
const outageWindow = z
  .strictObject({ from: z.string().datetime({ offset: true }), to: z.string().datetime({ offset: true }) })
  .refine((window) => Date.parse(window.from) < Date.parse(window.to), { message: 'An outage window ends after it starts (from before to).', path: ['to'] })
  .transform((window) => ({ from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() }));
const settings = z.strictObject({
  base_url: baseUrl.nullable().default(null),
  explicit_unscheduled: z.boolean().optional(),
  multiple_partial_captures: z.boolean().optional(),
  approval_rate: z.number().min(0).max(1).optional(),
  outage: z.array(outageWindow).max(20).optional(),
  seed: z.string().min(1).max(100).nullable().optional(),
});

/** `processor`: one of the registered plugins' ids. */
const createBody = (processors: readonly string[]) =>
  z.strictObject({
    processor: z.enum(processors as [string, ...string[]]),
    name,
    credentials: credentials.default({}),
    settings: settings.default({ base_url: null }),
  });

const updateBody = z.strictObject({ name: name.optional(), credentials: credentials.optional(), settings: settings.optional() });

/** What a merchant sees of an account: never the credentials, only a hint and when they last changed; the settings with the processor's defaults. */
const toProcessorAccountView = (account: ProcessorAccount, policy: Pick<ProcessorAccountPolicy, 'settingsView'>) => ({
  id: account.id,
  livemode: account.mode === 'live',
  processor: account.processor,
  name: account.name,
  settings: policy.settingsView(account.processor, account.settings),
  credentials: { hint: account.credentials_hint, updated_at: account.credentials_updated_at },
  created_at: account.created_at,
  updated_at: account.updated_at,
});

function accountId(raw: unknown): string {
  const id = String(raw);
  if (!isUuid(id)) throw new ProcessorAccountNotFound();
  return id;
}

/** A merchant's accounts at processors; flows name them in their steps. */
export function processorAccountRoutes(
  router: Router,
  useCases: ProcessorAccountUseCases,
  policy: Pick<ProcessorAccountPolicy, 'processors' | 'settingsView'>,
): void {
  const merchant = requireScope(SCOPES.merchant);
  const createInput = createBody(policy.processors());
  const view = (account: ProcessorAccount) => toProcessorAccountView(account, policy);

  router.post(
    '/processor-accounts',
    merchant,
    answers(async (req) => {
      const body = parseInput(createInput, req.body);
      return reply(201, view(await useCases.createProcessorAccount(scopeOfRequest(req), body)));
    }),
  );

  router.get('/processor-accounts', merchant, async (req, res) => {
    res.json({ object: 'list', data: (await useCases.listProcessorAccounts(scopeOfRequest(req))).map(view) });
  });

  router.get('/processor-accounts/:id', merchant, async (req, res) => {
    res.json(view(await useCases.getProcessorAccount(scopeOfRequest(req), accountId(req.params.id))));
  });

  router.patch('/processor-accounts/:id', merchant, async (req, res) => {
    const body = parseInput(updateBody, req.body);
    res.json(view(await useCases.updateProcessorAccount(scopeOfRequest(req), accountId(req.params.id), body)));
  });

  router.delete('/processor-accounts/:id', merchant, async (req, res) => {
    await useCases.deleteProcessorAccount(scopeOfRequest(req), accountId(req.params.id));
    res.status(204).end();
  });
}
