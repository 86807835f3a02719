import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn } from './dev/checkout.stand-in';
import { answerIssuerChallenge } from '@vaultline/testing/psp-stand-ins';
import { placeholderTransport } from '../../../test/support/placeholder-transport';
import type { CaptureOutcome } from '../../domain/processor-port/processor-port';
import type { ProcessorContractCases } from '../processor.contract';
import { checkout } from '.';
import { fromCheckoutWebhook, verifyCheckoutWebhook } from './checkout.webhook';

export const CHECKOUT_CONTRACT_CREDENTIALS = {
  secret_key: 'sk_sbox_contract_key',
  processing_channel_id: 'pc_contract1',
  webhook_secret: 'whsec_contract0123456789abcdefghijklmn',
};
export const CHECKOUT_APPROVED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000c1';
const DECLINED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000c2';
export const CHECKOUT_CHALLENGE_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000003c5';

/** The transport of the contract: the forwarder's placeholders filled from the test tokens (approved, declined, a 3-D Secure challenge), expiry typed as integers (Checkout.com's). */
export const checkoutContractTransport = () =>
  placeholderTransport(
    {
      [CHECKOUT_APPROVED_TOKEN]: { number: CHECKOUT_TEST_CARDS.approved, expiry_month: 3, expiry_year: 2030, security_code: '100' },
      [DECLINED_TOKEN]: { number: CHECKOUT_TEST_CARDS.declined, expiry_month: 3, expiry_year: 2030, security_code: '100' },
      [CHECKOUT_CHALLENGE_TOKEN]: { number: CHECKOUT_TEST_CARDS.threeDsChallenge, expiry_month: 3, expiry_year: 2030, security_code: '100' },
    },
    { integerExpiry: true },
  );

/** A capture settles by the payment_captured webhook: the stand-in's, its Cko-Signature verified and mapped as the route will. */
const settleByWebhook =
  (standIn: CheckoutStandIn, webhookSecret: string) =>
  async (_connection: unknown, _payment: unknown, pending: CaptureOutcome): Promise<CaptureOutcome> => {
    if (pending.status !== 'pending') return pending;
    const webhook = standIn.webhooks.find((w) => (JSON.parse(w.rawBody) as { data: { action_id: string } }).data.action_id === pending.processor_reference);
    if (!webhook || !verifyCheckoutWebhook(webhook.rawBody, webhook.signature, webhookSecret))
      return { status: 'failed', failure_reason: 'webhook_not_verified', processor_reference: null };
    const event = fromCheckoutWebhook(JSON.parse(webhook.rawBody));
    return event?.kind === 'capture_succeeded'
      ? { status: 'succeeded', processor_reference: event.capture_reference }
      : { status: 'failed', failure_reason: 'capture_failed', processor_reference: null };
  };

/** The Checkout.com plugin against its stand-in. */
export const contractCases: ProcessorContractCases = {
  async start() {
    const credentials = CHECKOUT_CONTRACT_CREDENTIALS;
    const standIn = await startCheckoutStandIn({
      secretKey: credentials.secret_key,
      processingChannelId: credentials.processing_channel_id,
      webhookSecret: credentials.webhook_secret,
    });
    const transport = checkoutContractTransport();
    return {
      plugin: checkout,
      options: { credentials, base_url: standIn.baseUrl, mode: 'test' },
      invalidOptions: { credentials: { ...credentials, secret_key: 'pk_wrong' }, base_url: null, mode: 'test' },
      credentials,
      otherCredentials: { ...credentials, webhook_secret: 'whsec_another_account0123456789abcdefg' },
      invalidCredentials: { ...credentials, processing_channel_id: 'channel' },
      approved: { token_id: CHECKOUT_APPROVED_TOKEN, security_code_available: true, capture_mode: 'manual' },
      declined: { token_id: DECLINED_TOKEN, security_code_available: true },
      threeDs: {
        challenged: { token_id: CHECKOUT_CHALLENGE_TOKEN, security_code_available: true, cardholder_name: 'Ada Lovelace' },
        consumerReturns: answerIssuerChallenge,
      },
      context: { transport },
      sentUrls: () => transport.sent.map((sent) => sent.url),
      settle: settleByWebhook(standIn, credentials.webhook_secret),
      notification: () => {
        const webhook = standIn.webhooks.at(-1)!;
        return { rawBody: Buffer.from(webhook.rawBody), headers: { 'cko-signature': webhook.signature } };
      },
      stop: () => standIn.stop(),
    };
  },
};
