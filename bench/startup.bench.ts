// Start-up time and idle memory of the embedded profile: TypeScript through tsx (what `pnpm start` runs)
// against the compiled bundle on plain node, as images run it (`pnpm build` first, done here).
// tsx keeps its compiled files in a disk cache, so its runs here start warm, unlike a fresh container.
//
//   pnpm bench startup            (or: pnpm exec tsx bench/startup.bench.ts [runs])
//
// Start-up: from spawning node to the first 200 from GET /health (wall clock; module loading included).
// Idle RSS: the process's resident set (/proc/<pid>/status VmRSS, Linux) IDLE_MS after that answer.
// Each run starts on an empty DATA_DIR, so each pays for creating its SQLite files and keys alike.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_NODE_FLAGS } from '../deploy/launcher/src/embedded-node-flags';

const root = join(__dirname, '..');
const RUNS = Number(process.argv[2] ?? 3);
const IDLE_MS = 3_000;

interface Variant {
  name: string;
  args: string[];
  env: Record<string, string>;
}

const variants: Variant[] = [
  {
    name: 'tsx, no service thread',
    args: [...EMBEDDED_NODE_FLAGS, '--import', 'tsx', 'deploy/launcher/src/main-embedded.ts'],
    env: { EMBEDDED_SERVICE_THREADS: 'none' },
  },
  {
    name: 'node dist/, no service thread',
    args: [...EMBEDDED_NODE_FLAGS, '--enable-source-maps', 'deploy/launcher/dist/main-embedded.js'],
    env: { EMBEDDED_SERVICE_THREADS: 'none' },
  },
  // Today's default (the importer on a thread of its own); the compiled build has no thread entry yet.
  { name: 'tsx, importer thread (default)', args: [...EMBEDDED_NODE_FLAGS, '--import', 'tsx', 'deploy/launcher/src/main-embedded.ts'], env: {} },
];

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}

async function untilHealthy(url: string): Promise<void> {
  for (;;) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const rssMb = (pid: number): number => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
};

async function once(variant: Variant): Promise<{ startMs: number; rss: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-startup-'));
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', ...variant.env },
  });
  try {
    const url = await listeningUrl(child);
    await untilHealthy(url);
    const startMs = Math.round(performance.now() - started);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { startMs, rss: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['scripts/build.mjs', 'deploy/launcher'], { cwd: root, stdio: 'inherit' });
  console.log(`embedded profile, ${RUNS} runs each; start-up = spawn to first 200 on /health, RSS ${IDLE_MS / 1000} s after`);
  // Round after round, every variant once per round: a busy spell on the machine hits them all alike.
  const runs = new Map(variants.map((variant) => [variant, [] as Array<{ startMs: number; rss: number }>]));
  for (let i = 0; i < RUNS; i++) for (const variant of variants) runs.get(variant)!.push(await once(variant));
  for (const [variant, results] of runs) {
    console.log(`${variant.name.padEnd(32)} start-up ${results.map((r) => r.startMs).join(' / ')} ms   idle RSS ${results.map((r) => r.rss).join(' / ')} MB`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
