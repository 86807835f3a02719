import { createServer } from 'node:net';
import { freePort } from './free-port';

describe('freePort', () => {
  it('when ports are picked, then each is below the ephemeral range and can be listened on', async () => {
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when many ports are picked before any is bound, then no port is handed out twice (a launcher binds its 14 only as its processes start)', async () => {
    const picked: number[] = [];
    // 500 random picks from 12,768 ports would repeat one with a probability above 99.99 %.
    for (let i = 0; i < 500; i++) picked.push(await freePort());
    expect(new Set(picked).size).toBe(picked.length);
  });
});
