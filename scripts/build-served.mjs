#!/usr/bin/env node
// Builds what the running service serves and what a newcomer uses beside it, when missing or stale:
// the dashboard (served at /dashboard/), the SDK (@vaultline/node: dist/ with its type declarations) and
// the CLI (vaultline: packages/cli/dist). Up to date (scripts/build-inputs.mjs): nothing is done.
//
//   node scripts/build-served.mjs            checks and builds (pnpm start and pnpm start:local run it first)
//   node scripts/build-served.mjs --install  the same from `pnpm install` (root `prepare`): only in a git
//                                            checkout, so an image that installs from copied sources
//                                            (deploy/Dockerfile) builds only what it asks for itself
//   node scripts/build-served.mjs <dir>…     checks and builds these packages (tests use it)
//
// Quiet: one line when it built something, nothing when all was up to date; the build's own output only
// when it fails. Safe beside `pnpm build` (CI runs both): a package is built by the same scripts/build.mjs
// either way, and one built by either is up to date for the other.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isUpToDate, root } from './build-inputs.mjs';

const SERVED = ['packages/dashboard', 'packages/node', 'packages/cli'];

const args = process.argv.slice(2);
const install = args.includes('--install');
const requested = args.filter((arg) => !arg.startsWith('--'));

if (install && !existsSync(join(root, '.git'))) process.exit(0);
try {
  // A production install (pnpm install --prod) has no build tools: nothing to do, and nothing to say.
  createRequire(join(root, 'package.json')).resolve('esbuild');
} catch {
  process.exit(0);
}

const started = performance.now();
const stale = (requested.length > 0 ? requested : SERVED).filter((dir) => existsSync(join(root, dir, 'package.json')) && !isUpToDate(dir));
if (stale.length === 0) process.exit(0);
try {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), ...stale], { cwd: root, stdio: 'pipe' });
} catch (error) {
  process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
  process.stderr.write(`vaultline: building ${stale.join(', ')} failed (above); fix it and run pnpm build\n`);
  process.exit(1);
}
console.log(`vaultline: built ${stale.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s (missing or stale)`);
