import { request } from 'node:http';
import { listen } from './serve';

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('draining a listener', () => {
  it('when a listener drains with a request in flight, then that request is answered in full, new connections are refused, and drain resolves after the answer', async () => {
    const listening = await listen('127.0.0.1', 0);
    let answer: () => void = () => undefined;
    listening.handle((_req, res) => {
      answer = () => res.end('done');
    });
    const inFlight = get(`${listening.url}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));

    let drained = false;
    const draining = listening.drain().then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(get(`${listening.url}/new`)).rejects.toThrow(/ECONNREFUSED/);
    expect(drained).toBe(false);

    answer();
    await expect(inFlight).resolves.toEqual({ status: 200, body: 'done' });
    await draining;
    expect(drained).toBe(true);
  });
});
