import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { listResponse, parseInput, parsePageQuery, requireScope, scopeOfRequest } from '@vaultline/http';
import { isUuid } from '@vaultline/core';
import type { GetEvent, ListEvents } from '../domain/event-log';
import type { PollEvents } from '../domain/event-feed';
import type { ListEventDeliveries } from '../domain/delivery-log';
import { toMerchantEventView } from './merchant-event.view';
import { toWebhookDeliveryView } from './webhook-delivery.view';

const eventsQuery = z.object({ type: z.string().min(1).max(100).optional() });

/** The longest a poll waits: well inside the gateway's upstream timeout (GATEWAY_UPSTREAM_TIMEOUT, 60 s). */
export const MAX_POLL_WAIT_SECONDS = 25;

const pollQuery = z.object({
  after: z.string().refine(isUuid, { message: 'must be an event id' }).optional(),
  type: z
    .string()
    .min(1)
    .max(2000)
    .transform((value) =>
      value
        .split(',')
        .map((type) => type.trim())
        .filter((type) => type !== ''),
    )
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  wait_seconds: z.coerce.number().int().min(0).max(MAX_POLL_WAIT_SECONDS).default(10),
});

export interface EventUseCases {
  listEvents: ListEvents;
  getEvent: GetEvent;
  pollEvents: PollEvents;
  listEventDeliveries: ListEventDeliveries;
}

/** The merchant event log, like Stripe's /v1/events: newest first, filter by type. */
export function eventRoutes(router: Router, { listEvents, getEvent, pollEvents, listEventDeliveries }: EventUseCases): void {
  const merchantOnly = requireScope(SCOPES.merchant);

  // Long poll on the feed (the log in recording order): answers as soon as an event is recorded after
  // `after`, or empty after wait_seconds; a reader that hangs up stops the wait.
  router.get('/events/poll', merchantOnly, async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const { after, type, limit, wait_seconds } = parseInput(pollQuery, {
      after: query.after,
      type: query.type,
      limit: query.limit,
      wait_seconds: query.wait_seconds,
    });
    const hangUp = new AbortController();
    res.on('close', () => hangUp.abort());
    const answer = await pollEvents(scopeOfRequest(req), {
      ...(after ? { after } : {}),
      ...(type ? { types: type } : {}),
      limit,
      waitMs: wait_seconds * 1000,
      signal: hangUp.signal,
    });
    if (hangUp.signal.aborted) return;
    res.json({ object: 'list', data: answer.events.map(toMerchantEventView), has_more: answer.hasMore, last_event_id: answer.lastEventId });
  });

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
