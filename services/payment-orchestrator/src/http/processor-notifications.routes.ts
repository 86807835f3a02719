import type { Request, Response, Router } from 'express';
import { BadRequestError, isUuid, UnauthorizedError } from '@vaultline/core';
import { clientAddressOf } from '@vaultline/http';
import { NotificationsRateLimited, type ProcessorNotificationRequest, type ReceiveProcessorNotification } from '../domain/receive-processor-notification';
import { ProcessorAccountNotFound } from '../domain/processor-accounts/processor-account';
import { ADYEN_NOTIFICATION_ACCEPTED } from '../processors/adyen/adyen.notification';

function accountId(raw: unknown): string {
  const id = String(raw);
  if (!isUuid(id)) throw new ProcessorAccountNotFound();
  return id;
}

const rawBody = (body: unknown): Buffer => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

/**
 * Processors' notifications: public at the gateway (no API key); the signature with the account's own
 * key is the authentication, checked over the raw body. The sender's address and the account are rate
 * limited (429 with Retry-After: processors deliver again later).
 */
export function processorNotificationRoutes(router: Router, { receive }: { receive: ReceiveProcessorNotification }): void {
  const received = async (req: Request, res: Response, notification: Pick<ProcessorNotificationRequest, 'processor' | 'headers'>) => {
    try {
      return await receive({ ...notification, accountId: accountId(req.params.account_id), rawBody: rawBody(req.body), clientAddress: clientAddressOf(req) });
    } catch (error) {
      if (error instanceof NotificationsRateLimited) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
  };

  router.post('/processor-notifications/adyen/:account_id', async (req, res) => {
    const receipt = await received(req, res, { processor: 'adyen', headers: {} });
    if (receipt.malformed) throw new BadRequestError('The body is not an Adyen standard notification.', 'invalid_notification');
    // Adyen retries until it reads this; refused items are counted and never retried into acceptance.
    res.type('text/plain').send(ADYEN_NOTIFICATION_ACCEPTED);
  });

  router.post('/processor-notifications/checkout/:account_id', async (req, res) => {
    const receipt = await received(req, res, { processor: 'checkout', headers: { 'cko-signature': req.get('cko-signature') } });
    if (receipt.refused > 0) throw new UnauthorizedError('The Cko-Signature does not verify with the account\'s webhook secret.', 'invalid_signature');
    if (receipt.malformed) throw new BadRequestError('The body is not a Checkout.com webhook.', 'invalid_notification');
    res.status(200).json({ received: true });
  });
}
