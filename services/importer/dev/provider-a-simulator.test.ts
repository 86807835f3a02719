import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { customerId, paymentMethodId } from './provider-a-catalogue';
import { startProviderASimulator, type ProviderASimulator } from './provider-a-simulator';

const KEY = 'sk_test_strict';

/** The fields of the platform's answers these tests read. */
interface PlatformAnswerBody {
  data: { id: string }[];
  has_more: boolean;
  metadata: Record<string, string>;
  error: { type: string; code?: string; param?: string; message: string };
}

/** A destination that records what the platform sent it and answers 201. */
async function startDestination(): Promise<{ url: string; bodies: Record<string, unknown>[]; headers: Record<string, unknown>[]; stop(): Promise<void> }> {
  const bodies: Record<string, unknown>[] = [];
  const headers: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      headers.push({ ...req.headers });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"tok_1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cde-import`,
    bodies,
    headers,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the provider_a simulator, as strict as the documented platform', () => {
  let simulator: ProviderASimulator;
  let destination: Awaited<ReturnType<typeof startDestination>>;
  const get = async (path: string) => {
    const answer = await fetch(`${simulator.baseUrl}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
    return { status: answer.status, headers: answer.headers, body: (await answer.json()) as PlatformAnswerBody };
  };
  const forward = async (fields: Record<string, string>, idempotencyKey?: string) => {
    const answer = await fetch(`${simulator.baseUrl}/v1/forwarding/requests`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: answer.status, headers: answer.headers, body: (await answer.json()) as PlatformAnswerBody };
  };
  const forwardOf = (pm: string, extra: Record<string, string> = {}) => ({
    payment_method: pm,
    url: destination.url,
    'request[body]': JSON.stringify({ card: {} }),
    'replacements[0]': 'card_number',
    'replacements[1]': 'card_expiry',
    'replacements[2]': 'card_cvc',
    ...extra,
  });

  beforeEach(async () => {
    destination = await startDestination();
    simulator = await startProviderASimulator({
      apiKey: KEY,
      customers: 5,
      cardsPerCustomer: 3,
      forwardingDestinations: [destination.url],
      allowHttpLoopbackDestinations: true,
      paymentMethodsWithoutCvc: [paymentMethodId(4, 0)],
    });
  });
  afterEach(async () => {
    await simulator.stop();
    await destination.stop();
  });

  it('when a list request carries an unknown parameter, then it answers 400 parameter_unknown naming it, with a documented error type', async () => {
    const answer = await get('/v1/customers?limit=2&page=3');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ type: 'invalid_request_error', code: 'parameter_unknown', param: 'page', message: 'Received unknown parameter: page' });
  });

  it.each(['0', '101', 'ten', '2.5'])('when limit is %s, then it answers 400 naming limit', async (limit) => {
    const answer = await get(`/v1/customers?limit=${limit}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: 'limit' });
  });

  it('when ending_before names an object, then the page holds the objects just before it; an unknown cursor answers 400 resource_missing', async () => {
    const before = await get(`/v1/customers?limit=2&ending_before=${customerId(3)}`);
    expect(before.body.data.map((c) => c.id)).toEqual([customerId(1), customerId(2)]);
    expect(before.body.has_more).toBe(true);

    const unknown = await get('/v1/customers?starting_after=cus_nobody');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param: 'starting_after' });
    const both = await get(`/v1/customers?starting_after=${customerId(1)}&ending_before=${customerId(3)}`);
    expect(both.status).toBe(400);
  });

  it('when a forward goes to a url the account has not configured, or the account has none, or is not https, then it answers 400 naming url and sends nothing', async () => {
    const other = await forward(forwardOf(paymentMethodId(0, 0), { url: 'http://127.0.0.1:1/elsewhere' }));
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ type: 'invalid_request_error', param: 'url' });

    const strictSimulator = await startProviderASimulator({ apiKey: KEY, customers: 1, cardsPerCustomer: 1 });
    try {
      const answer = await fetch(`${strictSimulator.baseUrl}/v1/forwarding/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...forwardOf(paymentMethodId(0, 0)), url: 'https://vault.example/cde-import' }).toString(),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { message: string; param: string } }).error).toMatchObject({
        param: 'url',
        message: expect.stringContaining('not enabled'),
      });
      expect(() => strictSimulator.enableForwardingTo('http://vault.example/cde-import')).toThrow('https');
    } finally {
      await strictSimulator.stop();
    }
    expect(simulator.stats.outboundForwards).toBe(0);
  });

  it('when a forward names an undocumented replacement or an unknown parameter, then it answers 400 naming it', async () => {
    const replacement = await forward(forwardOf(paymentMethodId(0, 0), { 'replacements[3]': 'card_pin' }));
    expect(replacement.body.error).toMatchObject({ type: 'invalid_request_error', param: 'replacements[3]' });
    const unknown = await forward(forwardOf(paymentMethodId(0, 0), { destination: 'x' }));
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'destination' });
  });

  it("when a card is forwarded twice, then only the first forward carries its security code; a card stored past the code's lifetime never does", async () => {
    const pm = paymentMethodId(1, 1);
    await forward(forwardOf(pm));
    await forward(forwardOf(pm));
    await forward(forwardOf(paymentMethodId(4, 0)));

    const cvcs = destination.bodies.map((body) => (body.card as { cvc: string }).cvc);
    expect(cvcs[0]).toBe(simulator.cardFor(pm)!.cvc);
    expect(cvcs.slice(1)).toEqual(['', '']);
    expect(simulator.stats.forwardsWithCvc.get(pm)).toBe(1);
  });

  it('when the same Idempotency-Key comes again, then the saved answer is replayed without a second outbound request; with other parameters it answers 400 idempotency_error', async () => {
    const first = await forward(forwardOf(paymentMethodId(0, 0), { 'metadata[business_key]': 'pm_a' }), 'key-1');
    const again = await forward(forwardOf(paymentMethodId(0, 0), { 'metadata[business_key]': 'pm_a' }), 'key-1');
    const other = await forward(forwardOf(paymentMethodId(0, 1)), 'key-1');

    expect(first.status).toBe(200);
    expect(first.body.metadata).toEqual({ business_key: 'pm_a' });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(other.status).toBe(400);
    expect(other.body.error.type).toBe('idempotency_error');
    expect(simulator.stats.outboundForwards).toBe(1);
  });

  it('when a failure is injected after the platform executed a forward, then the client sees it, and a retry with the same key gets the saved answer without a second outbound request', async () => {
    simulator.inject({ status: 503, count: 1, pathPrefix: '/v1/forwarding/requests', afterExecution: true, shouldRetry: true });

    const lost = await forward(forwardOf(paymentMethodId(2, 2)), 'key-2');
    const retried = await forward(forwardOf(paymentMethodId(2, 2)), 'key-2');

    expect(lost.status).toBe(503);
    expect(lost.headers.get('stripe-should-retry')).toBe('true');
    expect(lost.body.error.type).toBe('api_error');
    expect(retried.status).toBe(200);
    expect(simulator.stats.outboundForwards).toBe(1);
  });

  it('when 429 is injected with and without Retry-After, then the answers say so, with the documented error type', async () => {
    simulator.inject({ status: 429, count: 1, retryAfterSeconds: 2 });
    simulator.inject({ status: 429, count: 1 });

    const withHeader = await get('/v1/customers');
    const without = await get('/v1/customers');

    expect([withHeader.status, without.status]).toEqual([429, 429]);
    expect(withHeader.headers.get('retry-after')).toBe('2');
    expect(without.headers.get('retry-after')).toBeNull();
    expect(without.body.error).toMatchObject({ type: 'invalid_request_error', code: 'rate_limit' });
  });
});
