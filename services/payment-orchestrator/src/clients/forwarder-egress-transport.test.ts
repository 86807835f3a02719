import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateInternalKeyPair, InternalTokenSigner, InternalTokenVerifier } from '@vaultline/auth';
import type { ForwardPaymentRequest, ForwarderInternalApi } from '@vaultline/contracts';
import { createEgressClient } from '@vaultline/egress';
import { InternalClient } from '@vaultline/http';
import { createProcessorTransport, httpForwardPayment, inProcessForwardPayment } from './forwarder-egress-transport';
import { forwardedHeadersOf, PROCESSOR_DESTINATIONS } from '@vaultline/contracts';
import { hostModeCheck } from '../processors/processor-destinations';

const orchestratorKeys = generateInternalKeyPair();
const signer = new InternalTokenSigner('payment-orchestrator', orchestratorKeys.privateKeyPem);
const verifier = new InternalTokenVerifier('forwarder', { 'payment-orchestrator': orchestratorKeys.publicKeyPem });

/** The forwarder's side as far as this client can see it: the token's claims and the call. */
function fakeForwarder(): ForwarderInternalApi & { calls: Array<{ request: ForwardPaymentRequest; claims: ReturnType<InternalTokenVerifier['verify']> }> } {
  const calls: Array<{ request: ForwardPaymentRequest; claims: ReturnType<InternalTokenVerifier['verify']> }> = [];
  return {
    calls,
    async forwardPayment(request) {
      calls.push({ request, claims: verifier.verify(request.bearerToken) });
      return { status: 200, content_type: 'application/json', body: '{"resultCode":"Authorised","pspReference":"PSPONE"}' };
    },
  };
}

let server: Server;
let origin: string;
const received: Array<{ url: string | undefined; headers: Record<string, unknown>; body: string }> = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ url: req.url, headers: req.headers, body });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"status":"received","pspReference":"CAPONE"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const egress = (allowPrivate: boolean) =>
  createEgressClient({ allowPrivate, httpsOnly: false, connectTimeoutMs: 1_000, totalTimeoutMs: 2_000, maxResponseBytes: 1_000_000 });

describe('processor transport', () => {
  it("when a card-data request is forwarded in process, then the forwarder gets a token from the payment orchestrator with forward:payments, the merchant and the payment's mode, only credential and idempotency headers pass (the forwarder sets the content type), and the answer comes back parsed", async () => {
    const forwarder = fakeForwarder();
    const transport = createProcessorTransport({
      forwardPayment: inProcessForwardPayment(forwarder, signer),
      egress: egress(false),
      assertHostServesMode: hostModeCheck(PROCESSOR_DESTINATIONS),
      forwardedHeaders: forwardedHeadersOf(),
    });
    const answer = await transport.forward({
      scope: { merchantId: 'mer_a', mode: 'live' },
      tokenId: 't1',
      url: 'https://checkout-test.adyen.com/v69/payments',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'idempotency-key': 'p1:authorization' },
      body: { a: 1 },
    });
    expect(answer).toEqual({ status: 200, body: { resultCode: 'Authorised', pspReference: 'PSPONE' } });
    const [{ request, claims }] = forwarder.calls as [(typeof forwarder.calls)[number]];
    expect(claims).toMatchObject({ issuer: 'payment-orchestrator', merchantId: 'mer_a', scopes: ['forward:payments'], mode: 'live' });
    expect(request).toMatchObject({
      tokenId: 't1',
      destinationUrl: 'https://checkout-test.adyen.com/v69/payments',
      headers: { 'x-api-key': 'k', 'idempotency-key': 'p1:authorization' },
      body: { a: 1 },
    });
  });

  it('when a request without card data is sent and private addresses are allowed (PROCESSOR_ALLOW_PRIVATE_URLS), then it reaches the loopback processor through egress', async () => {
    const client = egress(true);
    const transport = createProcessorTransport({
      forwardPayment: inProcessForwardPayment(fakeForwarder(), signer),
      egress: client,
      assertHostServesMode: hostModeCheck(PROCESSOR_DESTINATIONS),
      forwardedHeaders: forwardedHeadersOf(),
    });
    const answer = await transport.send({
      mode: 'test',
      url: `${origin}/v69/payments/PSPONE/captures`,
      method: 'POST',
      headers: { 'x-api-key': 'k', 'idempotency-key': 'p1:capture' },
      body: { amount: { value: 1, currency: 'EUR' } },
    });
    expect(answer).toEqual({ status: 201, body: { status: 'received', pspReference: 'CAPONE' } });
    expect(received.at(-1)).toMatchObject({
      url: '/v69/payments/PSPONE/captures',
      headers: { 'idempotency-key': 'p1:capture' },
      body: '{"amount":{"value":1,"currency":"EUR"}}',
    });
    await client.close();
  });

  it('when private addresses are not allowed, then a loopback processor is not reached', async () => {
    const client = egress(false);
    const before = received.length;
    const transport = createProcessorTransport({
      forwardPayment: inProcessForwardPayment(fakeForwarder(), signer),
      egress: client,
      assertHostServesMode: hostModeCheck(PROCESSOR_DESTINATIONS),
      forwardedHeaders: forwardedHeadersOf(),
    });
    await expect(transport.send({ mode: 'test', url: `${origin}/v69/payments/PSPONE/captures`, method: 'POST', headers: {}, body: {} })).rejects.toThrow();
    expect(received.length).toBe(before);
    await client.close();
  });
});

describe("processor transport over the forwarder's internal HTTP route", () => {
  let forwarder: Server;
  let url: string;
  const seen: Array<{ path: string | undefined; claims: ReturnType<InternalTokenVerifier['verify']>; body: unknown }> = [];
  beforeAll(async () => {
    forwarder = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const claims = verifier.verify(String(req.headers.authorization).replace(/^Bearer /, ''));
        seen.push({ path: req.url, claims, body: JSON.parse(body) as unknown });
        const refused = (JSON.parse(body) as { token_id: string }).token_id === 'refused';
        res
          .writeHead(refused ? 403 : 200, { 'content-type': 'application/json' })
          .end(
            JSON.stringify(
              refused ? { code: 'destination_not_allowed' } : { status: 200, content_type: 'application/json', body: '{"id":"pay_one","status":"Authorized"}' },
            ),
          );
      });
    });
    await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => forwarder.close(() => resolve()));
  });

  it('when forwarded over HTTP, then POST /internal/forward/payments carries the token claims (mode included) and the template; a refusal throws', async () => {
    const client = new InternalClient({ signer, audience: 'forwarder', baseUrl: url });
    const transport = createProcessorTransport({
      forwardPayment: httpForwardPayment(client),
      egress: egress(false),
      assertHostServesMode: hostModeCheck(PROCESSOR_DESTINATIONS),
      forwardedHeaders: forwardedHeadersOf(),
    });
    const answer = await transport.forward({
      scope: { merchantId: 'mer_a', mode: 'test' },
      tokenId: 't1',
      url: 'https://api.sandbox.checkout.com/payments',
      headers: { authorization: 'Bearer sk_sbox_x' },
      body: { amount: 1 },
    });
    expect(answer).toEqual({ status: 200, body: { id: 'pay_one', status: 'Authorized' } });
    expect(seen.at(-1)).toMatchObject({
      path: '/internal/forward/payments',
      claims: { issuer: 'payment-orchestrator', merchantId: 'mer_a', scopes: ['forward:payments'], mode: 'test' },
      body: {
        token_id: 't1',
        destination_url: 'https://api.sandbox.checkout.com/payments',
        headers: { authorization: 'Bearer sk_sbox_x' },
        body: { amount: 1 },
      },
    });
    await expect(
      transport.forward({ scope: { merchantId: 'mer_a', mode: 'test' }, tokenId: 'refused', url: 'https://x', headers: {}, body: {} }),
    ).rejects.toMatchObject({ status: 403, code: 'destination_not_allowed' });
    await client.close();
  });
});
