#!/usr/bin/env node
// Compiles what production runs into plain JavaScript, one bundle per entry, so images and `node` need
// neither tsx nor TypeScript (`pnpm start` keeps tsx for development).
//
//   node scripts/build.mjs                  builds every package below (pnpm build)
//   node scripts/build.mjs <package dir>…   builds those (each package's `pnpm build` passes its own folder)
//
// esbuild bundles each entry with the workspace libraries (@vaultline/*) inlined, as they are TypeScript
// source, and every npm package left external: it is required from node_modules at run time, so native
// modules (better-sqlite3) keep working and OpenTelemetry can still patch express and http as they load.
//
// A bundle's npm packages must resolve from <package>/dist/, so a built package lists in its
// dependencies the npm packages of the workspace libraries it inlines (scripts/package-deps.mjs derives
// them); `pnpm deploy --prod` then gives an image exactly what its bundle requires.
//
// Output: <package>/dist/<entry>.js with a source map (node runs it with --enable-source-maps), and
// dist/.build-inputs, the hash of what it was built from (scripts/build-inputs.mjs), which tells
// scripts/build-served.mjs whether the build is up to date.
// What is built (entries, and files copied next to them) is listed in build.config.mjs.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUILDS } from '../build.config.mjs';
import { inputsHash, stampOf } from './build-inputs.mjs';

const root = join(import.meta.dirname, '..');

const npmPackagesExternal = {
  name: 'npm-packages-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@vaultline/') ? undefined : { path: args.path, external: true }));
  },
};

/** Fails the build when a bundle requires an npm package its package's node_modules does not hold. */
function assertExternalsResolve(dir, metafile) {
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    const requireFromBundle = createRequire(join(root, dir, output));
    for (const { path, external } of imports) {
      if (!external || path.startsWith('node:') || builtinModules.includes(path)) continue;
      try {
        requireFromBundle.resolve(path);
      } catch {
        throw new Error(`${output} requires ${path}, which ${dir}/node_modules lacks: node scripts/package-deps.mjs --write, then pnpm install`);
      }
    }
  }
}

async function buildPackage(dir) {
  const spec = BUILDS[dir];
  if (!spec) {
    console.log(`${dir}: nothing to build (bundled into the packages that import it)`);
    return;
  }
  const outdir = join(root, dir, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  // Taken before building: an input changed during the build leaves the package stale, not marked fresh.
  const inputs = inputsHash(dir);
  await compile(dir, spec, outdir);
  writeFileSync(stampOf(dir), `${inputs}\n`);
}

async function compile(dir, spec, outdir) {
  const started = performance.now();
  if (spec.web) {
    // A web app for browsers (packages/dashboard): its own esbuild build, hashed assets and an index.html.
    const { buildDashboard } = await import(pathToFileURL(join(root, dir, spec.web)).href);
    const { script, stylesheet, gzippedBytes } = await buildDashboard(outdir);
    console.log(
      `${dir}: dist/index.html, dist/assets/${script}, dist/assets/${stylesheet} and chunks, ${(gzippedBytes / 1024).toFixed(1)} KiB of JS and CSS gzipped (${Math.round(performance.now() - started)} ms)`,
    );
    return;
  }
  if (spec.tsc) {
    // A library published for others (packages/node): tsc writes ES modules and their type declarations.
    execFileSync(process.execPath, [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', join(root, dir, spec.tsc)], { stdio: 'inherit' });
    console.log(`${dir}: dist/ by tsc -p ${spec.tsc} (${Math.round(performance.now() - started)} ms)`);
    return;
  }
  const result = await build({
    absWorkingDir: join(root, dir),
    entryPoints: spec.entries,
    outdir,
    outbase: 'src',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    // Error names and class names stay readable in logs and problem details.
    keepNames: true,
    // Workspace packages that publish dist/ (packages/node) are inlined from their source.
    conditions: ['vaultline-source'],
    // A self-contained package (the CLI) inlines its npm packages too; the others require them at run time.
    plugins: spec.selfContained ? [] : [npmPackagesExternal],
    logLevel: 'warning',
    metafile: true,
  });
  if (!spec.selfContained) assertExternalsResolve(dir, result.metafile);
  for (const asset of spec.assets ?? []) cpSync(join(root, asset.from), join(outdir, asset.to), { recursive: true });
  console.log(
    `${dir}: ${spec.entries.map((e) => `dist/${e.replace(/^src\//, '').replace(/\.ts$/, '.js')}`).join(', ')} (${Math.round(performance.now() - started)} ms)`,
  );
}

const requested = process.argv.slice(2);
const dirs = requested.length > 0 ? requested.map((dir) => relative(root, resolve(dir)).split('\\').join('/')) : Object.keys(BUILDS);
for (const dir of dirs) await buildPackage(dir);
