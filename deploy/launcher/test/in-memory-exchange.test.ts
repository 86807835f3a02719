import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { exchangeInMemory } from '../src/service-thread/in-memory-exchange';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const json = (value: unknown) => {
  const body = Buffer.from(JSON.stringify(value));
  return { headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body };
};

describe('a request exchanged in memory with an express app', () => {
  const finished: string[] = [];
  const app = express();
  app.use((req, res, next) => {
    res.on('finish', () => finished.push(`${req.method} ${req.path} ${res.statusCode}`));
    next();
  });
  app.post('/tokens', express.json(), (req, res) => {
    res.status(201).json({ received: req.body as unknown, ip: req.ip, forwarded: req.get('x-forwarded-for') });
  });
  app.get('/streamed', (_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.write('first ');
    res.write(Buffer.from('second '));
    res.end('third', 'utf8');
  });
  app.get('/head-written', (_req, res) => {
    res.writeHead(202, { 'x-written': 'by writeHead', 'content-type': 'text/plain' });
    res.end('accepted');
  });
  app.get('/broken', () => {
    throw new Error('the handler broke');
  });
  app.get('/page', (_req, res) => {
    res.type('html').send('<p>hello</p>');
  });

  it('when a JSON body is posted, then the app parses it and its status, headers and body come back, and its finish listeners run', async () => {
    const { headers, body } = json({ card: { number: 'redacted' } });

    const answer = await exchangeInMemory(app, { method: 'POST', url: '/tokens?x=1', headers: { ...headers, 'x-forwarded-for': '203.0.113.9' }, body }, '127.0.0.1');

    expect(answer.status).toBe(201);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(JSON.parse(text(answer.body))).toEqual({ received: { card: { number: 'redacted' } }, ip: '127.0.0.1', forwarded: '203.0.113.9' });
    expect(finished).toContain('POST /tokens 201');
  });

  it('when the app writes its answer in pieces, then the whole body comes back with its length', async () => {
    const answer = await exchangeInMemory(app, { method: 'GET', url: '/streamed', headers: {}, body: null }, '127.0.0.1');
    expect(text(answer.body)).toBe('first second third');
    expect(answer.headers['content-length']).toBe(answer.body.length);
  });

  it('when the app calls writeHead with headers, then the status and those headers come back', async () => {
    const answer = await exchangeInMemory(app, { method: 'GET', url: '/head-written', headers: {}, body: null }, '127.0.0.1');
    expect(answer.status).toBe(202);
    expect(answer.headers['x-written']).toBe('by writeHead');
    expect(text(answer.body)).toBe('accepted');
  });

  it('when the handler throws, then the app’s error handling answers 500', async () => {
    const answer = await exchangeInMemory(app, { method: 'GET', url: '/broken', headers: {}, body: null }, '127.0.0.1');
    expect(answer.status).toBe(500);
  });

  it('when the request is HEAD, then headers come back without a body', async () => {
    const answer = await exchangeInMemory(app, { method: 'HEAD', url: '/page', headers: {}, body: null }, '127.0.0.1');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/text\/html/);
    expect(answer.body.length).toBe(0);
  });

  it('when the same app also serves real connections, then those are answered as before (no prototype is changed)', async () => {
    const { headers, body } = json({ n: 1 });
    await exchangeInMemory(app, { method: 'POST', url: '/tokens', headers, body }, '127.0.0.1');
    const server: Server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/tokens`, { method: 'POST', headers, body });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ received: { n: 1 } });
    } finally {
      server.close();
    }
  });
});
