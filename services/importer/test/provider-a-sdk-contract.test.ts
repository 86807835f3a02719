import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { customerId, paymentMethodId } from '../dev/provider-a-catalogue';
import { startProviderASimulator, type ProviderASimulator } from '../dev/provider-a-simulator';
import { PROVIDER_A_API_VERSION, REPLACEMENTS } from '../src/providers/provider-a/provider-a.mapper';

const KEY = 'sk_test_sdk_contract';

/**
 * The platform's official Node SDK (`stripe`) against the simulator, for every call the importer
 * makes: if the simulator drifted from the platform's shapes, the SDK would notice here.
 */
describe('the official SDK against the provider_a simulator', () => {
  let simulator: ProviderASimulator;
  let destination: Server;
  let destinationUrl: string;
  let sdk: Stripe;
  const received: Record<string, unknown>[] = [];

  beforeAll(async () => {
    destination = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(text) as unknown });
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"tok_sdk"}');
      });
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    destinationUrl = `http://127.0.0.1:${(destination.address() as AddressInfo).port}/cde-import`;
    simulator = await startProviderASimulator({
      apiKey: KEY,
      customers: 5,
      cardsPerCustomer: 3,
      forwardingDestinations: [destinationUrl],
      allowHttpLoopbackDestinations: true,
    });
    const { port } = new URL(simulator.baseUrl);
    sdk = new Stripe(KEY, { host: '127.0.0.1', port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  });
  afterAll(async () => {
    await simulator.stop();
    await new Promise<void>((resolve) => destination.close(() => resolve()));
  });

  const sdkError = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the SDK to throw');
      },
      (error: unknown) => error as Stripe.errors.StripeError,
    );

  it("when the SDK lists customers page by page (limit, starting_after, ending_before), then it reads the simulator's list objects", async () => {
    const first = await sdk.customers.list({ limit: 2 });
    const second = await sdk.customers.list({ limit: 2, starting_after: first.data[1]!.id });
    const back = await sdk.customers.list({ limit: 2, ending_before: customerId(4) });

    expect(first).toMatchObject({ object: 'list', has_more: true });
    expect(first.data.map((c) => c.id)).toEqual([customerId(0), customerId(1)]);
    expect(second.data.map((c) => c.id)).toEqual([customerId(2), customerId(3)]);
    expect(back.data.map((c) => c.id)).toEqual([customerId(2), customerId(3)]);
  });

  it("when the SDK lists a customer's card payment methods, then they come with the card fields the SDK types declare", async () => {
    const page = await sdk.customers.listPaymentMethods(customerId(1), { type: 'card', limit: 2 });
    const rest = await sdk.customers.listPaymentMethods(customerId(1), { type: 'card', limit: 2, starting_after: page.data[1]!.id });

    expect(page.has_more).toBe(true);
    expect([...page.data, ...rest.data].map((pm) => pm.id)).toEqual([0, 1, 2].map((card) => paymentMethodId(1, card)));
    expect(page.data[0]).toMatchObject({
      object: 'payment_method',
      type: 'card',
      customer: customerId(1),
      card: { last4: expect.any(String), exp_month: expect.any(Number), exp_year: expect.any(Number) },
    });
  });

  it('when the SDK creates a forwarding request with an idempotency key, then the card reaches the destination once, metadata is kept, and the replay answers the same object', async () => {
    const params: Stripe.Forwarding.RequestCreateParams = {
      payment_method: paymentMethodId(2, 0),
      url: destinationUrl,
      replacements: [...REPLACEMENTS],
      request: { headers: [{ name: 'X-API-Key', value: 'vk_job' }], body: JSON.stringify({ metadata: { business_key: paymentMethodId(2, 0) }, card: {} }) },
      metadata: { correlation_id: 'job_1' },
    };

    const forwarded = await sdk.forwarding.requests.create(params, { idempotencyKey: 'sdk-key-1' });
    const replayed = await sdk.forwarding.requests.create(params, { idempotencyKey: 'sdk-key-1' });

    expect(forwarded).toMatchObject({
      object: 'forwarding.request',
      payment_method: paymentMethodId(2, 0),
      metadata: { correlation_id: 'job_1' },
      response_details: { status: 201 },
    });
    expect(replayed.id).toBe(forwarded.id);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ headers: { 'x-api-key': 'vk_job' }, body: { card: { number: simulator.cardFor(paymentMethodId(2, 0))!.number } } });
  });

  it('when the SDK sends its Stripe-Version, then it is the version the importer pins', async () => {
    await sdk.customers.list({ limit: 1 });
    expect(Stripe.API_VERSION).toBe(PROVIDER_A_API_VERSION);
    expect(simulator.stats.stripeVersions.get(PROVIDER_A_API_VERSION)).toBeGreaterThan(0);
  });

  it("when the simulator refuses, then the SDK reads its errors as the platform's: invalid request (code, param), authentication, idempotency and rate limit errors", async () => {
    const unknown = await sdkError(sdk.customers.list({ limit: 2, page: 3 } as Stripe.CustomerListParams));
    const limit = await sdkError(sdk.customers.list({ limit: 101 }));
    const cursor = await sdkError(sdk.customers.list({ starting_after: 'cus_nobody' }));
    const destinationRefused = await sdkError(
      sdk.forwarding.requests.create({
        payment_method: paymentMethodId(0, 0),
        url: 'https://elsewhere.example/cde-import',
        replacements: ['card_number'],
        request: { body: '{}' },
      }),
    );
    const wrongKey = await sdkError(
      new Stripe('sk_test_wrong', {
        host: '127.0.0.1',
        port: Number(new URL(simulator.baseUrl).port),
        protocol: 'http',
        maxNetworkRetries: 0,
      }).customers.list(),
    );
    simulator.inject({ status: 429, count: 1 });
    const limited = await sdkError(sdk.customers.list());
    const reused = await sdkError(
      sdk.forwarding.requests.create(
        { payment_method: paymentMethodId(0, 1), url: destinationUrl, replacements: ['card_number'], request: { body: '{}' } },
        { idempotencyKey: 'sdk-key-1' },
      ),
    );

    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'page' });
    expect(limit).toMatchObject({ type: 'StripeInvalidRequestError', param: 'limit' });
    expect(cursor).toMatchObject({ type: 'StripeInvalidRequestError', code: 'resource_missing', param: 'starting_after' });
    expect(destinationRefused).toMatchObject({ type: 'StripeInvalidRequestError', param: 'url' });
    expect(wrongKey).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(limited).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(reused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});
