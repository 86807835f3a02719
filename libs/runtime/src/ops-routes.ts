import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import {
  DEAD_LETTERS_COLLECTION,
  PARKED_OUTBOX_COLLECTION,
  getDeadLetter,
  listDeadLetters,
  listParkedMessages,
  replayDeadLetter,
  unparkMessage,
  type DeadLetterRecord,
  type ParkedOutboxMessage,
} from '@vaultline/bus';
import { listResponse, parseInput, parsePageQuery, requireScope } from '@vaultline/http';
import type { DocumentStore } from '@vaultline/store';

const id = z.uuid({ message: 'must be a UUID' });
const deadLetterQuery = z.object({
  group: z.string().min(1).max(200).optional(),
  topic: z.string().min(1).max(200).optional(),
  state: z.enum(['dead', 'replayed']).optional(),
});

/** A dead letter as an operator sees it: the message's event and failure, not its body (GET one shows that). */
function toDeadLetterView(record: DeadLetterRecord, withMessage = false) {
  return {
    id: record.id,
    object: 'dead_letter',
    group: record.group,
    topic: record.topic,
    key: record.key,
    event_id: record.event_id,
    event_type: record.event_type,
    error: record.error,
    attempts: record.attempts,
    failed_at: record.failed_at,
    state: record.state,
    replayed_at: record.replayed_at,
    replays: record.replays,
    ...(withMessage ? { message: { value: record.value, headers: record.headers } } : {}),
  };
}

const toParkedView = (parked: ParkedOutboxMessage) => ({
  id: parked.id,
  object: 'parked_outbox_message',
  topic: parked.topic,
  key: parked.key,
  error: parked.error,
  attempts: parked.attempts,
  parked_at: parked.parked_at,
});

/**
 * Every service's operations API (scope admin; /admin/<service>/<rest> at the gateway, which audits each call):
 * its groups' dead letters, listed and replayed, and the outbox messages its relay parked, put back.
 */
export function opsRoutes(router: Router, deps: { store: DocumentStore; now?: () => Date }): void {
  const now = deps.now ?? (() => new Date());
  // A service without consumers (or that never parked anything) has not registered these collections yet.
  let registered: Promise<unknown> | null = null;
  router.use('/admin', (_req, _res, next) => {
    registered ??= Promise.all([deps.store.register({ name: DEAD_LETTERS_COLLECTION }), deps.store.register({ name: PARKED_OUTBOX_COLLECTION })]).catch(
      (error: unknown) => {
        registered = null;
        throw error;
      },
    );
    registered.then(() => next(), next);
  });

  router.get('/admin/dead-letters', requireScope(SCOPES.admin), async (req, res) => {
    const filter = parseInput(deadLetterQuery, { group: req.query.group, topic: req.query.topic, state: req.query.state });
    const page = await listDeadLetters(deps.store, filter, { ...parsePageQuery(req.query), order: 'desc' });
    res.json(listResponse(page, (record) => toDeadLetterView(record)));
  });

  router.get('/admin/dead-letters/:id', requireScope(SCOPES.admin), async (req, res) => {
    res.json(toDeadLetterView(await getDeadLetter(deps.store, parseInput(id, req.params.id)), true));
  });

  router.post('/admin/dead-letters/:id/replay', requireScope(SCOPES.admin), async (req, res) => {
    res.json(toDeadLetterView(await replayDeadLetter(deps.store, parseInput(id, req.params.id), now)));
  });

  router.get('/admin/outbox/parked', requireScope(SCOPES.admin), async (req, res) => {
    res.json(listResponse(await listParkedMessages(deps.store, { ...parsePageQuery(req.query), order: 'desc' }), toParkedView));
  });

  router.post('/admin/outbox/parked/:id/unpark', requireScope(SCOPES.admin), async (req, res) => {
    res.json({ ...toParkedView(await unparkMessage(deps.store, parseInput(id, req.params.id))), unparked: true });
  });
}
