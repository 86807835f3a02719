import type { Request, Response, Router } from 'express';
import { BadRequestError, isUuid, UnauthorizedError } from '@vaultline/core';
import { clientAddressOf } from '@vaultline/http';
import {
  NotificationsRateLimited,
  type NotificationReceipt,
  type ReceiveProcessorNotification,
} from '../domain/processor-notifications/receive-processor-notification';
import { ProcessorAccountNotFound } from '../domain/processor-accounts/processor-account';
import type { NotificationAnswer } from '../processors/processor-plugin';

function accountId(raw: unknown): string {
  const id = String(raw);
  if (!isUuid(id)) throw new ProcessorAccountNotFound();
  return id;
}

const rawBody = (body: unknown): Buffer => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

/** A notifying processor as the route needs it: the headers its verification reads, and what it is answered. */
export interface NotificationReceiver {
  headers: readonly string[];
  answer(receipt: NotificationReceipt): NotificationAnswer;
}

/**
 * Processors' notifications, one route for all: `POST /processor-notifications/{processor}/{processor_account_id}`.
 * Public at the gateway (no API key); the signature with the account's own key is the authentication,
 * checked over the raw body by the processor's plugin, which also says what the processor is answered. The
 * sender's address and the account are rate limited (429 with Retry-After: processors deliver again later).
 * An unknown processor, or an account of another processor, is 404.
 */
export function processorNotificationRoutes(
  router: Router,
  { receive, receivers }: { receive: ReceiveProcessorNotification; receivers: (processor: string) => NotificationReceiver | undefined },
): void {
  router.post('/processor-notifications/:processor/:account_id', async (req: Request, res: Response) => {
    const processor = String(req.params.processor);
    const receiver = receivers(processor);
    if (!receiver) throw new ProcessorAccountNotFound();
    const headers = Object.fromEntries(receiver.headers.map((name) => [name, req.get(name)]));
    let receipt: NotificationReceipt;
    try {
      receipt = await receive({
        processor,
        headers,
        accountId: accountId(req.params.account_id),
        rawBody: rawBody(req.body),
        clientAddress: clientAddressOf(req),
      });
    } catch (error) {
      if (error instanceof NotificationsRateLimited) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
    const answer = receiver.answer(receipt);
    if ('refused' in answer) {
      if (answer.refused === 'invalid_signature') throw new UnauthorizedError(answer.detail, 'invalid_signature');
      throw new BadRequestError(answer.detail, 'invalid_notification');
    }
    res.status(answer.status).type(answer.contentType).send(answer.body);
  });
}
