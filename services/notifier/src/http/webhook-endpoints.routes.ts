import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { answers, listResponse, parseInput, parsePageQuery, reply, requireScope, scopeOfRequest } from '@vaultline/http';
import type { GetDelivery, ListDeliveries, ReplayDelivery } from '../domain/delivery-log';
import type { CreateEndpoint, DeleteEndpoint, GetEndpoint, ListEndpoints, RotateEndpointSecret, UpdateEndpoint } from '../domain/manage-endpoints';
import { toWebhookDeliveryView } from './webhook-delivery.view';
import { toWebhookEndpointView } from './webhook-endpoint.view';
import type { SendTestEvent } from '../domain/test-event';

const url = z.string().min(1).max(2048);
const events = z.array(z.string().min(1).max(100)).max(100);
const description = z.string().max(500).nullable();

const createEndpointBody = z.strictObject({ url, events: events.optional(), description: description.optional() });
const updateEndpointBody = z
  .strictObject({ url: url.optional(), events: events.optional(), description: description.optional(), enabled: z.boolean().optional() })
  .refine((body) => Object.keys(body).length > 0, { message: 'Give at least one of url, events, description, enabled.' });
const rotateSecretBody = z.strictObject({
  /** How long the replaced secret keeps signing; default WEBHOOK_SECRET_ROTATION_GRACE_MS. */
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .optional(),
});
const deliveriesQuery = z.object({ status: z.enum(['pending', 'succeeded', 'failed']).optional() });

export interface WebhookEndpointUseCases {
  createEndpoint: CreateEndpoint;
  listEndpoints: ListEndpoints;
  getEndpoint: GetEndpoint;
  updateEndpoint: UpdateEndpoint;
  deleteEndpoint: DeleteEndpoint;
  rotateEndpointSecret: RotateEndpointSecret;
  listDeliveries: ListDeliveries;
  getDelivery: GetDelivery;
  replayDelivery: ReplayDelivery;
  sendTestEvent: SendTestEvent;
}

export function webhookEndpointRoutes(router: Router, useCases: WebhookEndpointUseCases): void {
  const { createEndpoint, listEndpoints, getEndpoint, updateEndpoint, deleteEndpoint, rotateEndpointSecret } = useCases;
  const { listDeliveries, getDelivery, replayDelivery } = useCases;
  const merchantOnly = requireScope(SCOPES.merchant);

  router.post(
    '/webhook-endpoints',
    merchantOnly,
    answers(async (req) => {
      const input = parseInput(createEndpointBody, req.body);
      const { endpoint, secret } = await createEndpoint(scopeOfRequest(req), input);
      return reply(201, { ...toWebhookEndpointView(endpoint), secret });
    }),
  );

  router.get('/webhook-endpoints', merchantOnly, async (req, res) => {
    const page = await listEndpoints(scopeOfRequest(req), parsePageQuery(req.query));
    res.json(listResponse(page, toWebhookEndpointView));
  });

  router.get('/webhook-endpoints/:id', merchantOnly, async (req, res) => {
    res.json(toWebhookEndpointView(await getEndpoint(scopeOfRequest(req), req.params.id as string)));
  });

  router.patch('/webhook-endpoints/:id', merchantOnly, async (req, res) => {
    const input = parseInput(updateEndpointBody, req.body);
    res.json(toWebhookEndpointView(await updateEndpoint(scopeOfRequest(req), req.params.id as string, input)));
  });

  router.delete('/webhook-endpoints/:id', merchantOnly, async (req, res) => {
    const id = req.params.id as string;
    await deleteEndpoint(scopeOfRequest(req), id);
    res.json({ id, object: 'webhook_endpoint', deleted: true });
  });

  router.post(
    '/webhook-endpoints/:id/rotate-secret',
    merchantOnly,
    answers(async (req) => {
      const input = parseInput(rotateSecretBody, req.body ?? {});
      const graceMs = input.grace_period_seconds === undefined ? undefined : input.grace_period_seconds * 1_000;
      const rotated = await rotateEndpointSecret(scopeOfRequest(req), req.params.id as string, graceMs);
      return reply(200, { ...toWebhookEndpointView(rotated.endpoint), secret: rotated.secret, previous_secret_expires_at: rotated.previousSecretExpiresAt });
    }),
  );

  router.get('/webhook-endpoints/:id/deliveries', merchantOnly, async (req, res) => {
    const { status } = parseInput(deliveriesQuery, { status: (req.query as Record<string, unknown>).status });
    const page = await listDeliveries(scopeOfRequest(req), req.params.id as string, status, parsePageQuery(req.query));
    res.json(listResponse(page, toWebhookDeliveryView));
  });

  router.get('/webhook-endpoints/:id/deliveries/:deliveryId', merchantOnly, async (req, res) => {
    res.json(toWebhookDeliveryView(await getDelivery(scopeOfRequest(req), req.params.id as string, req.params.deliveryId as string)));
  });

  router.post(
    '/webhook-endpoints/:id/deliveries/:deliveryId/replay',
    merchantOnly,
    answers(async (req) => {
      const message = await replayDelivery(scopeOfRequest(req), req.params.id as string, req.params.deliveryId as string);
      return reply(202, toWebhookDeliveryView(message));
    }),
  );

  /** "Send a test event": a webhook_endpoint.test event delivered to this endpoint only; answers its delivery, pending. */
  router.post(
    '/webhook-endpoints/:id/test-events',
    merchantOnly,
    answers(async (req) => {
      const message = await useCases.sendTestEvent(scopeOfRequest(req), req.params.id as string);
      return reply(202, toWebhookDeliveryView(message));
    }),
  );
}
