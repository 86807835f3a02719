import { join } from 'node:path';
import { AppError, RelayTimeoutError } from '@vaultline/core';
import { openServiceThread, type ServiceThread } from '../src/service-thread/service-thread';

const config = { env: {}, storeUrl: 'sqlite::memory:', busUrl: 'sqlite::memory:', ttlUrl: 'memory://', logLevel: 'silent', privateKeyPem: '', trustedPublicKeys: {} };
const hooks = { writeLogLine: () => undefined, onFailure: () => undefined };
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('the request port between the main thread and a service thread', () => {
  let thread: ServiceThread;
  let reached: Awaited<ReturnType<ServiceThread['start']>>;
  beforeAll(async () => {
    thread = await openServiceThread('vault', hooks, join(__dirname, 'fixtures/relaying-service-thread.ts'));
    reached = await thread.start(config, {} as never, 'http://localhost');
  });
  afterAll(() => thread?.stop());

  it('when a request is relayed, then the service’s express app gets its method, path, headers and body, and its status, headers and body come back', async () => {
    const body = Buffer.from(JSON.stringify({ amount: 1999 }));

    const answer = await reached.channel.relay({ method: 'POST', url: '/echo/tok_1?x=1', headers: { 'content-type': 'application/json', 'content-length': String(body.length), authorization: 'Bearer internal' }, body }, 5_000);

    expect(answer.status).toBe(201);
    expect(answer.headers['x-echo']).toBe('yes');
    expect(JSON.parse(text(answer.body))).toEqual({ id: 'tok_1', body: { amount: 1999 }, authorization: 'Bearer internal', client: '127.0.0.1' });
  });

  it('when many requests are relayed at once, then each gets its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => {
        const body = Buffer.from(JSON.stringify({ i }));
        return reached.channel.relay({ method: 'POST', url: `/echo/${i}`, headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body }, 5_000);
      }),
    );
    expect(answers.map((answer) => (JSON.parse(text(answer.body)) as { id: string }).id)).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
  });

  it('when a path has no route, then the service’s own 404 comes back', async () => {
    const answer = await reached.channel.relay({ method: 'GET', url: '/nowhere', headers: {}, body: null }, 5_000);
    expect(answer.status).toBe(404);
  });

  it('when the thread does not answer in time, then the relay fails with RelayTimeoutError', async () => {
    const started = Date.now();
    const late = await reached.channel.relay({ method: 'GET', url: '/slow', headers: {}, body: null }, 100).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(RelayTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('when an exposed API is called, then the thread’s object answers, and its typed errors arrive as AppError with their code and status', async () => {
    const vault = reached.apis.vault!;
    await expect(vault.detokenize({ tokenId: 'tok_9' } as never)).resolves.toEqual({ token_id: 'tok_9' });

    const refused = await vault.detokenize({ tokenId: 'forbidden' } as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'insufficient_scope', status: 403, message: 'Only the forwarder may detokenize.' });

    const broken = await vault.detokenize({ tokenId: 'broken' } as never).catch((error: unknown) => error);
    expect(broken).not.toBeInstanceOf(AppError);
    expect((broken as Error).message).toBe('the store broke');
  });
});

describe('a service thread that stops', () => {
  it('when calls are still waiting, then they fail, and later calls fail at once', async () => {
    const thread = await openServiceThread('vault', hooks, join(__dirname, 'fixtures/relaying-service-thread.ts'));
    const { channel } = await thread.start(config, {} as never, 'http://localhost');
    const waiting = channel.relay({ method: 'GET', url: '/slow', headers: {}, body: null }, 5_000);

    await thread.stop();

    await expect(waiting).rejects.toThrow(/vault thread has stopped/);
    await expect(channel.relay({ method: 'GET', url: '/slow', headers: {}, body: null }, 5_000)).rejects.toThrow(/vault thread has stopped/);
  });
});
