import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDED_NODE_FLAGS } from '../src/embedded-node-flags';

const root = join(__dirname, '../../..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the embedded profile node flags', () => {
  it('are what `pnpm start` passes to node, before the launcher it runs', () => {
    const start = scripts.start ?? '';
    const launch = /tsx (.*) deploy\/launcher\/src\/main-embedded\.ts/.exec(start);
    expect(launch).not.toBeNull();
    expect((launch?.[1] ?? '').split(' ')).toEqual([...EMBEDDED_NODE_FLAGS]);
  });

  it('are flags node accepts', () => {
    for (const flag of EMBEDDED_NODE_FLAGS) expect(process.allowedNodeEnvironmentFlags.has(flag.split('=')[0] ?? flag)).toBe(true);
  });
});
