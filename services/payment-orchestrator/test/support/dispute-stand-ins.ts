import { ADYEN_TEST_CARDS, startAdyenStandIn, type AdyenStandIn } from '../../src/processors/adyen/dev/adyen.stand-in';
import { CHECKOUT_TEST_CARDS, startCheckoutStandIn, type CheckoutStandIn, type CheckoutWebhook } from '../../src/processors/checkout/dev/checkout.stand-in';
import {
  STRIPE_TEST_CARDS,
  startStripeStandIn,
  stripeSignatureHeader,
  type StripeStandIn,
  type StripeWebhook,
} from '../../src/processors/stripe/dev/stripe.stand-in';
import type { ProcessorTransport } from '../../src/processors/transport-port';
import { MERCHANT, startOrchestrator, type Caller, type Harness, type Json } from './orchestrator-harness';
import { placeholderTransport } from './placeholder-transport';

export const HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
export const CREDENTIALS = {
  adyen: { api_key: 'AQE_dispute_key_5517', merchant_account: 'ShopECOM', hmac_key: HMAC_KEY },
  checkout: { secret_key: 'sk_sbox_dispute_key', processing_channel_id: 'pc_dispute1', webhook_secret: 'whsec_dispute_checkout0123456789abcdef' },
  stripe: { secret_key: 'sk_test_disputeKey7731', webhook_secret: 'whsec_disputeStripe0123456789abcdefghi' },
} as const;

export type RealProcessor = keyof typeof CREDENTIALS;

/** The card each stand-in approves, and how the payment's session shows it. */
const CARDS: Record<RealProcessor, { number: string; masked: string }> = {
  adyen: { number: ADYEN_TEST_CARDS.approved, masked: '411111******1111' },
  checkout: { number: CHECKOUT_TEST_CARDS.approved, masked: '424242******4242' },
  stripe: { number: STRIPE_TEST_CARDS.approved, masked: '424242******4242' },
};

/**
 * The three processors' stand-ins (test-e2e/support), started once per test file, and a transport that fills
 * the forwarder's placeholders with the approved card of the processor the URL belongs to (no forwarder here).
 */
export interface StandIns {
  adyen: AdyenStandIn;
  checkout: CheckoutStandIn;
  stripe: StripeStandIn;
  transport: ProcessorTransport;
  stop(): Promise<void>;
}

export async function startStandIns(): Promise<StandIns> {
  const [adyen, checkout, stripe] = await Promise.all([
    startAdyenStandIn({ apiKey: CREDENTIALS.adyen.api_key, merchantAccount: CREDENTIALS.adyen.merchant_account, hmacKey: HMAC_KEY }),
    startCheckoutStandIn({
      secretKey: CREDENTIALS.checkout.secret_key,
      processingChannelId: CREDENTIALS.checkout.processing_channel_id,
      webhookSecret: CREDENTIALS.checkout.webhook_secret,
    }),
    startStripeStandIn({ secretKey: CREDENTIALS.stripe.secret_key, webhookSecret: CREDENTIALS.stripe.webhook_secret }),
  ]);
  const processorOf = (url: string): RealProcessor => (url.startsWith(adyen.baseUrl) ? 'adyen' : url.startsWith(stripe.baseUrl) ? 'stripe' : 'checkout');
  const transport: ProcessorTransport = {
    forward: (request) => {
      const processor = processorOf(request.url);
      return placeholderTransport(
        { '*': { number: CARDS[processor].number, expiry_month: 3, expiry_year: 2030, security_code: '737' } },
        { integerExpiry: processor === 'checkout' },
      ).forward(request);
    },
    send: (request) => placeholderTransport({}).send(request),
  };
  return { adyen, checkout, stripe, transport, stop: async () => void (await Promise.all([adyen.stop(), checkout.stop(), stripe.stop()])) };
}

export interface DisputeWorld {
  h: Harness;
  /** The merchant's processor account at each stand-in. */
  accounts: Record<RealProcessor, string>;
  /** A payment captured on that processor's account (the flow matrix routes every payment there). */
  capturedOn(processor: RealProcessor, caller?: Caller): Promise<Json>;
  /** The processor's reference of the payment's authorization (Adyen pspReference, Checkout.com pay_, Stripe pi_). */
  referenceOf(processor: RealProcessor, payment: Json): string;
  deliverAdyen(notification: unknown, account?: string): Promise<void>;
  deliverCheckout(webhook: CheckoutWebhook, account?: string): Promise<number>;
  deliverStripe(webhook: StripeWebhook, account?: string): Promise<number>;
}

/**
 * The orchestrator with MERCHANT's accounts at the three stand-ins. Each payment is captured the way every
 * version of the capture settles it: Adyen and Stripe by a manual capture (Adyen's then confirmed by its
 * CAPTURE notification), Checkout.com automatically, confirmed by its payment_captured webhook.
 */
export async function startDisputeWorld(standIns: StandIns): Promise<DisputeWorld> {
  const h = await startOrchestrator({
    transport: standIns.transport,
    env: {
      FORWARD_EXTRA_DESTINATIONS: [
        `${standIns.adyen.baseUrl}/v69/payments`,
        `${standIns.checkout.baseUrl}/payments`,
        `${standIns.stripe.baseUrl}/v1/payment_intents`,
      ].join(','),
      PROCESSOR_ALLOW_PRIVATE_URLS: 'true',
    },
  });
  const accounts = {} as Record<RealProcessor, string>;
  for (const processor of Object.keys(CREDENTIALS) as RealProcessor[]) {
    const created = await h.call(MERCHANT, 'POST', '/processor-accounts', {
      processor,
      name: processor,
      credentials: CREDENTIALS[processor],
      settings: { base_url: standIns[processor].baseUrl },
    });
    if (created.status !== 201) throw new Error(`account ${processor}: ${created.status} ${JSON.stringify(created.body)}`);
    accounts[processor] = created.body.id;
    const capture_mode = processor === 'checkout' ? 'automatic' : 'manual';
    const steps = [
      { kind: 'authorization', processor: created.body.id },
      { kind: 'capture', processor: created.body.id },
    ];
    const flow = await h.call(MERCHANT, 'POST', '/flows', { name: `${processor}-flow`, capture_mode, steps });
    if (flow.status !== 201) throw new Error(`flow ${processor}: ${flow.status}`);
  }
  const deliverAdyen = async (notification: unknown, account = accounts.adyen) => {
    const answer = await h.postPublic(`/processor-notifications/adyen/${account}`, JSON.stringify(notification));
    if (answer.text !== '[accepted]') throw new Error(`Adyen notification answered ${answer.status} ${answer.text}`);
    await h.settle();
  };
  const deliverCheckout = async (webhook: CheckoutWebhook, account = accounts.checkout) => {
    const answer = await h.postPublic(`/processor-notifications/checkout/${account}`, webhook.rawBody, { 'cko-signature': webhook.signature });
    await h.settle();
    return answer.status;
  };
  // Signed again at the harness's clock: Stripe's signature carries its time, checked against ours.
  const deliverStripe = async (webhook: StripeWebhook, account = accounts.stripe) => {
    const signature = stripeSignatureHeader(webhook.rawBody, [CREDENTIALS.stripe.webhook_secret], h.clock.now());
    const answer = await h.postPublic(`/processor-notifications/stripe/${account}`, webhook.rawBody, { 'stripe-signature': signature });
    await h.settle();
    return answer.status;
  };
  const referenceOf = (processor: RealProcessor, payment: Json): string => {
    if (processor === 'adyen') return standIns.adyen.payments.find((p) => p.body.reference === payment.id)!.pspReference;
    if (processor === 'checkout') return standIns.checkout.payments.find((p) => p.body.reference === payment.id)!.id;
    return standIns.stripe.intents.find((intent) => (intent.object.metadata as Record<string, string>).payment_id === payment.id)!.id;
  };
  async function capturedOn(processor: RealProcessor, caller: Caller = MERCHANT): Promise<Json> {
    const routed = await h.call(caller, 'PUT', '/flow-matrix', { default_flow: `${processor}-flow`, rules: [] });
    if (routed.status !== 200) throw new Error(`flow matrix: ${routed.status}`);
    const payment = await h.payOneOff(caller, CARDS[processor].masked);
    if (processor === 'checkout') {
      const captured = [...standIns.checkout.webhooks]
        .reverse()
        .find(
          (w) =>
            (JSON.parse(w.rawBody) as { type: string; data: { reference?: string } }).type === 'payment_captured' &&
            (JSON.parse(w.rawBody) as { data: { reference?: string } }).data.reference === payment.id,
        )!;
      await deliverCheckout(captured);
    } else {
      const capture = await h.call(caller, 'POST', `/payments/${payment.id}/capture`, {});
      if (capture.status !== 200) throw new Error(`capture: ${capture.status} ${JSON.stringify(capture.body)}`);
      await h.settle();
      if (processor === 'adyen') {
        const psp = referenceOf('adyen', payment);
        const notification = [...standIns.adyen.notifications]
          .reverse()
          .find(
            (n) =>
              n.notificationItems[0]!.NotificationRequestItem.eventCode === 'CAPTURE' &&
              n.notificationItems[0]!.NotificationRequestItem.originalReference === psp,
          )!;
        await deliverAdyen(notification);
      }
    }
    const now = (await h.call(caller, 'GET', `/payments/${payment.id}`)).body;
    if (now.status !== 'captured') throw new Error(`payment on ${processor} is ${now.status}, not captured`);
    return now;
  }
  return { h, accounts, capturedOn, referenceOf, deliverAdyen, deliverCheckout, deliverStripe };
}

/**
 * A test file's world: the stand-ins for the whole file, a fresh orchestrator with its accounts for each test
 * (registered as jest hooks; read the fields inside tests).
 */
export function useDisputeWorld(): { readonly standIns: StandIns; readonly world: DisputeWorld; readonly h: Harness } {
  let standIns: StandIns | undefined;
  let world: DisputeWorld | undefined;
  beforeAll(async () => {
    standIns = await startStandIns();
  });
  afterAll(async () => {
    await standIns?.stop();
  });
  beforeEach(async () => {
    world = await startDisputeWorld(standIns!);
  });
  afterEach(async () => {
    await world?.h.stop();
  });
  return {
    get standIns() {
      return standIns!;
    },
    get world() {
      return world!;
    },
    get h() {
      return world!.h;
    },
  };
}
