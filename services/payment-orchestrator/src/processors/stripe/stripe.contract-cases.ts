import { STRIPE_TEST_CARDS, startStripeStandIn } from './dev/stripe.stand-in';
import { placeholderTransport } from '../../../test/support/placeholder-transport';
import type { RedirectAction } from '../../domain/payment-vocabulary/authentication';
import type { ProcessorContractCases } from '../processor.contract';
import { stripe } from '.';

export const STRIPE_CONTRACT_CREDENTIALS = { secret_key: 'sk_test_contractKey4821', webhook_secret: 'whsec_contractSigningSecret0123456789a' };
export const STRIPE_APPROVED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000e1';
const DECLINED_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000e2';
const THREE_DS_TOKEN = '01a208ee-5f6c-74c8-b99c-0000000000e3';

/** The transport of the contract: the forwarder's placeholders filled from test tokens (Stripe takes text expiry fields). */
export const stripeContractTransport = () =>
  placeholderTransport({
    [STRIPE_APPROVED_TOKEN]: { number: STRIPE_TEST_CARDS.approved, expiry_month: 3, expiry_year: 2030, security_code: '123' },
    [DECLINED_TOKEN]: { number: STRIPE_TEST_CARDS.declined, expiry_month: 3, expiry_year: 2030, security_code: '123' },
    [THREE_DS_TOKEN]: { number: STRIPE_TEST_CARDS.threeDs, expiry_month: 3, expiry_year: 2030, security_code: '123' },
  });

/** The consumer on the stand-in's issuer page: completes or fails the challenge and comes back with what Stripe appends to return_url. */
async function answerStripeChallenge(action: RedirectAction, outcome: 'completed' | 'failed'): Promise<Record<string, string>> {
  const back = await fetch(`${action.url}/complete?outcome=${outcome}`, { redirect: 'manual' });
  const location = back.headers.get('location');
  if (back.status !== 302 || !location) throw new Error(`the issuer page answered ${back.status}`);
  return Object.fromEntries(new URL(location).searchParams);
}

/** The Stripe plugin against its stand-in. */
export const contractCases: ProcessorContractCases = {
  async start() {
    const credentials = STRIPE_CONTRACT_CREDENTIALS;
    const standIn = await startStripeStandIn({ secretKey: credentials.secret_key, webhookSecret: credentials.webhook_secret });
    const transport = stripeContractTransport();
    return {
      plugin: stripe,
      options: { credentials, base_url: standIn.baseUrl, mode: 'test' },
      invalidOptions: { credentials: { ...credentials, secret_key: 'pk_test_publishable' }, base_url: null, mode: 'test' },
      credentials,
      otherCredentials: { ...credentials, webhook_secret: 'whsec_anotherEndpoint0123456789abcdefg' },
      invalidCredentials: { ...credentials, webhook_secret: 'not-a-signing-secret' },
      approved: { token_id: STRIPE_APPROVED_TOKEN, security_code_available: true, cardholder_name: 'Ada Lovelace', capture_mode: 'manual' },
      declined: { token_id: DECLINED_TOKEN, security_code_available: true },
      context: { transport },
      sentUrls: () => transport.sent.map((sent) => sent.url),
      notification: () => {
        const webhook = standIn.webhooks.at(-1)!;
        return { rawBody: Buffer.from(webhook.rawBody), headers: { 'stripe-signature': webhook.signature } };
      },
      threeDs: { challenged: { token_id: THREE_DS_TOKEN, security_code_available: true, capture_mode: 'manual' }, consumerReturns: answerStripeChallenge },
      stop: () => standIn.stop(),
    };
  },
};
