/**
 * Commits per second of the hot-path unit of work: one insert plus one outbox message,
 * on a SqliteDocumentStore file in the temp directory. With several callers, their commits are
 * grouped into shared transactions (group commit); with one, each commit is its own transaction.
 *   npx tsx libs/store/bench/sqlite-commit.bench.ts [commits] [concurrent callers]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@vaultline/core';
import { SqliteDocumentStore } from '../src';

async function main(): Promise<void> {
  const commits = Number(process.argv[2] ?? 20_000);
  const callers = Number(process.argv[3] ?? 1);
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-bench-'));
  const store = await SqliteDocumentStore.open(join(dir, 'bench.db'));
  await store.register({ name: 'payments', indexes: [{ fields: ['reference'] }, { fields: ['idempotency_key'], unique: true }] });
  const payload = { amount: { currency: 'EUR', value: 1250 }, status: 'authorized', processor: 'simulator', description: 'x'.repeat(300) };

  const commit = (n: number): Promise<void> =>
    store.transaction((uow) => {
      const id = newId();
      uow.insert('payments', { id, merchant_id: `merchant-${n % 10}`, reference: `order-${n}`, idempotency_key: id, ...payload });
      uow.publish({
        topic: 'payments.v1',
        key: id,
        value: JSON.stringify({ id, type: 'payment.authorized', data: payload }),
        headers: { 'content-type': 'application/json' },
      });
    });

  let next = 0;
  const run = async (count: number): Promise<void> => {
    const end = next + count;
    const caller = async (): Promise<void> => {
      while (next < end) await commit(next++);
    };
    await Promise.all(Array.from({ length: callers }, caller));
  };

  await run(1_000); // warm-up: statements prepared, JIT settled
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await run(commits);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);

  process.stdout.write(
    `${commits} commits by ${callers} caller(s) in ${seconds.toFixed(2)} s: ${Math.round(commits / seconds)} commits/s, ` +
      `${((used.user + used.system) / commits).toFixed(0)} µs CPU per commit (1 insert + 1 outbox message each, WAL, synchronous=NORMAL)\n`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

void main();
