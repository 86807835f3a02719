import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { listResponse, parseInput, parsePageQuery, requireScope, scopeOfRequest } from '@vaultline/http';
import type { GetEvent, ListEvents } from '../domain/event-log';
import type { ListEventDeliveries } from '../domain/delivery-log';
import { toMerchantEventView } from './merchant-event.view';
import { toWebhookDeliveryView } from './webhook-delivery.view';

const eventsQuery = z.object({ type: z.string().min(1).max(100).optional() });

export interface EventUseCases {
  listEvents: ListEvents;
  getEvent: GetEvent;
  listEventDeliveries: ListEventDeliveries;
}

/** The merchant event log, like Stripe's /v1/events: newest first, filter by type. */
export function eventRoutes(router: Router, { listEvents, getEvent, listEventDeliveries }: EventUseCases): void {
  const merchantOnly = requireScope(SCOPES.merchant);

  router.get('/events', merchantOnly, async (req, res) => {
    const { type } = parseInput(eventsQuery, { type: (req.query as Record<string, unknown>).type });
    const page = await listEvents(scopeOfRequest(req), type, parsePageQuery(req.query));
    res.json(listResponse(page, toMerchantEventView));
  });

  router.get('/events/:id', merchantOnly, async (req, res) => {
    res.json(toMerchantEventView(await getEvent(scopeOfRequest(req), req.params.id as string)));
  });

  /** Where the event went: its delivery to each endpoint that received it, with their attempts (the dashboard's event page). */
  router.get('/events/:id/deliveries', merchantOnly, async (req, res) => {
    const deliveries = await listEventDeliveries(scopeOfRequest(req), req.params.id as string);
    res.json({ object: 'list', data: deliveries.map(toWebhookDeliveryView), has_more: false, next_cursor: null });
  });
}
