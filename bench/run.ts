// Runs every bench/*.bench.ts (or the ones named: pnpm bench tokens forward) one after another, each
// in its own process so one benchmark's heap and sockets do not disturb the next. That process starts with
// the embedded profile's node flags (EMBEDDED_NODE_FLAGS, what `pnpm start` passes): the benches measure
// the profile as it runs, and a baseline measured in the same process (bare express) runs under the same flags.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { EMBEDDED_NODE_FLAGS } from '../deploy/launcher/src/embedded-node-flags';

/** Names that run more than their own prefix: a payment's figures come with the flow matrix's decisions/s. */
const GROUPS: Record<string, string[]> = { payments: ['payments', 'flow-matrix'] };
const wanted = process.argv.slice(2).flatMap((name) => GROUPS[name] ?? [name]);
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, [...EMBEDDED_NODE_FLAGS, '--import', 'tsx', '--expose-gc', resolve(__dirname, file)], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  if (result.status !== 0) failed++;
}
if (failed > 0) {
  console.error(`${failed} benchmark(s) failed`);
  process.exit(1);
}
