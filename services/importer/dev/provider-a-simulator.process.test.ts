import { paymentMethodId } from './provider-a-catalogue';
import { spawnProviderASimulator } from './provider-a-simulator.process';

const API_KEY = 'sk_test_own_process';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the provider_a simulator in a process of its own', () => {
  it('when started, then another process serves the account at the base URL it printed, and stop ends that process and reports what it did', async () => {
    const simulator = await spawnProviderASimulator({ apiKey: API_KEY, customers: 2, cardsPerCustomer: 3, accountTag: 'own' });
    let usage;
    try {
      expect(simulator.pid).not.toBe(process.pid);
      const answer = await fetch(`${simulator.baseUrl}/v1/customers/cus_simown000001/payment_methods?type=card`, {
        headers: { authorization: `Bearer ${API_KEY}` },
      });
      expect(answer.status).toBe(200);
      const list = (await answer.json()) as { data: { id: string }[] };
      expect(list.data.map((method) => method.id)).toEqual([0, 1, 2].map((card) => paymentMethodId(1, card, 'own')));
    } finally {
      usage = await simulator.stop();
    }

    expect(usage).toEqual(expect.objectContaining({ list_requests: 1, forward_requests: 0 }));
    expect(isRunning(simulator.pid)).toBe(false);
  });

  it('when forwarding and failures are configured through its control routes, then the process applies them', async () => {
    const simulator = await spawnProviderASimulator({ apiKey: API_KEY, customers: 1, cardsPerCustomer: 1, allowHttpLoopbackDestinations: true });
    try {
      await expect(simulator.enableForwardingTo('http://vault.example/cde-import')).rejects.toThrow('400');
      await simulator.enableForwardingTo('http://127.0.0.1:9/cde-import');
      await simulator.inject({ status: 429, count: 1 });

      const limited = await fetch(`${simulator.baseUrl}/v1/customers`, { headers: { authorization: `Bearer ${API_KEY}` } });

      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeNull();
    } finally {
      await simulator.stop();
    }
  });

  it('when stopped twice, then the second stop answers the same report', async () => {
    const simulator = await spawnProviderASimulator({ apiKey: API_KEY, customers: 1, cardsPerCustomer: 1 });

    const first = await simulator.stop();
    const second = await simulator.stop();

    expect(second).toEqual(first);
  });

  it('when the process cannot start, then starting fails with its exit instead of waiting', async () => {
    await expect(spawnProviderASimulator({ apiKey: API_KEY, customers: -1, cardsPerCustomer: 1 })).rejects.toThrow(
      "exited (code 1) before listening: Error: CUSTOMERS must be a non-negative integer, got '-1'",
    );
  });
});
