import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { listResponse, parseInput, parsePageQuery, requireScope } from '@vaultline/http';
import type { AddDestination, ListDestinations, RemoveDestination } from '../domain/manage-destinations';
import { PLACEHOLDER_NAMES } from '../domain/placeholders';
import { toDestinationView } from './destination.view';

const merchantId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const addSchema = z
  .object({
    merchant_id: merchantId,
    url: z.string().min(1).max(2048),
    card_fields: z.record(z.string().min(1).max(200), z.enum(PLACEHOLDER_NAMES)).nullable().optional(),
    mode: z.enum(['test', 'live']).nullable().optional(),
  })
  .strict();
const merchantQuery = z.object({ merchant_id: merchantId });

export interface AdminDestinationUseCases {
  addDestination: AddDestination;
  listDestinations: ListDestinations;
  removeDestination: RemoveDestination;
}

/** Operators add destinations for one merchant: /admin/forwarder/destinations at the gateway. */
export function adminDestinationRoutes(router: Router, { addDestination, listDestinations, removeDestination }: AdminDestinationUseCases): void {
  router.post('/admin/destinations', requireScope(SCOPES.admin), async (req: Request, res: Response) => {
    const input = parseInput(addSchema, req.body);
    res
      .status(201)
      .json(toDestinationView(await addDestination(input.merchant_id, { url: input.url, cardFields: input.card_fields ?? null, mode: input.mode ?? null })));
  });
  router.get('/admin/destinations', requireScope(SCOPES.admin), async (req: Request, res: Response) => {
    const { merchant_id } = parseInput(merchantQuery, { merchant_id: req.query.merchant_id });
    res.json(listResponse(await listDestinations(merchant_id, parsePageQuery(req.query)), toDestinationView));
  });
  router.delete('/admin/destinations/:id', requireScope(SCOPES.admin), async (req: Request, res: Response) => {
    const { merchant_id } = parseInput(merchantQuery, { merchant_id: req.query.merchant_id });
    await removeDestination(merchant_id, String(req.params.id));
    res.status(204).end();
  });
}
