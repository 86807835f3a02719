import { listen, type Listening } from './serve';

describe('listen', () => {
  let listening: Listening;
  beforeAll(async () => {
    listening = await listen('127.0.0.1', 0);
    listening.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  afterAll(() => listening.close());

  it('when the request headers are larger than Node accepts, then the answer is 431 problem+json, and the server keeps serving', async () => {
    const refused = await fetch(`${listening.url}/?q=${'x'.repeat(20_000)}`);

    expect(refused.status).toBe(431);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(await refused.json()).toMatchObject({ status: 431, code: 'headers_too_large' });
    expect((await fetch(`${listening.url}/`)).status).toBe(200);
  });
});
