import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { AppError, NotFoundError, ValidationError } from '@vaultline/core';
import { listResponse, parseInput, parsePageQuery, requireScope } from '@vaultline/http';
import type { DestinationDocument, DestinationRepository } from '../data/destination.repository';
import { ruleFromUrl } from '../domain/destination-policy';

const merchantId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const addSchema = z.object({ merchant_id: merchantId, url: z.string().min(1).max(2048) }).strict();
const merchantQuery = z.object({ merchant_id: merchantId });

export function toDestinationResource(doc: DestinationDocument) {
  return { id: doc.id, object: 'forward_destination' as const, merchant_id: doc.merchant_id, url: doc.url, created_at: doc.created_at };
}

/** Refuses what the forward-time policy would refuse: non-canonical URLs, IP literals, query strings, http in production. */
function validateDestinationUrl(url: string, httpsOnly: boolean): void {
  let protocol: string;
  try {
    protocol = ruleFromUrl('candidate', url, false).protocol;
  } catch (error) {
    if (error instanceof AppError) throw new ValidationError('url', error.message, 'invalid_destination');
    throw error;
  }
  if (httpsOnly && protocol !== 'https:') throw new ValidationError('url', 'Destinations must use https.', 'invalid_destination');
}

/** Operators add destinations for one merchant: /admin/forwarder/destinations at the gateway. */
export function adminDestinationRoutes(router: Router, destinations: DestinationRepository, httpsOnly: boolean): void {
  router.post('/admin/destinations', requireScope(SCOPES.admin), async (req: Request, res: Response) => {
    const input = parseInput(addSchema, req.body);
    validateDestinationUrl(input.url, httpsOnly);
    const doc = await destinations.add(input.merchant_id, input.url.trim());
    res.status(201).json(toDestinationResource(doc));
  });
  router.get('/admin/destinations', requireScope(SCOPES.admin), async (req: Request, res: Response) => {
    const { merchant_id } = parseInput(merchantQuery, { merchant_id: req.query.merchant_id });
    const page = parsePageQuery(req.query);
    res.json(listResponse(await destinations.list(merchant_id, page), toDestinationResource));
  });
  router.delete('/admin/destinations/:id', requireScope(SCOPES.admin), async (req: Request, res: Response) => {
    const { merchant_id } = parseInput(merchantQuery, { merchant_id: req.query.merchant_id });
    const removed = await destinations.remove(merchant_id, String(req.params.id));
    if (!removed) throw new NotFoundError('forward_destination');
    res.status(204).end();
  });
}
