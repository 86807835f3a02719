#!/usr/bin/env node
// Each workspace package lists exactly what its code imports: `dependencies` for what src/ imports
// (minus tests and src/testing/, the contract suites other packages' tests load), `devDependencies`
// for what its tests, dev/ and bench/ code import. A package built into bundles (build.config.mjs)
// also lists the npm packages of the workspace libraries it inlines: its bundles require them from its
// own node_modules. A self-contained one (the CLI) inlines every package: it lists them all as devDependencies. The lists are derived from the import statements, so they cannot drift from the code:
//
//   node scripts/package-deps.mjs          checks (pnpm lint runs this); exits 1 and names each difference
//   node scripts/package-deps.mjs --write  rewrites the package.json files; then run `pnpm install`
//
// Version ranges are kept from the package's own list, else taken from another package that lists the
// same dependency, else from the root devDependencies. It also fails on a cycle between workspace
// packages (pnpm warns about those on every install).
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { BUILDS } from '../build.config.mjs';

const root = join(import.meta.dirname, '..');
const write = process.argv.includes('--write');

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-output']);
// Loaded by a package's scripts rather than imported; the root's devDependencies provide them.
const TOOLING = new Set(['tsx', 'typescript', 'jest', 'eslint', 'esbuild']);
// The root package holds the tools every package's scripts run (and the configs load), the type
// declarations tsc needs (tsc runs from the root), and what the root's own code imports (bench/, scripts/,
// deploy/kafka/: the Kafka file generators).
const ROOT_TOOLING = [...TOOLING, '@eslint/js', 'typescript-eslint', 'globals', '@swc/core', '@swc/jest', '@redocly/cli', 'prettier'];
const ROOT_CODE = ['bench', 'scripts', 'deploy/kafka'];

function workspacePackageDirs() {
  const globs = [...readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s*-\s*["']?([^"'\n]+)["']?\s*$/gm)].map((m) => m[1]);
  return globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const parent = glob.slice(0, -2);
    return readdirSync(join(root, parent))
      .map((name) => `${parent}/${name}`)
      .filter((dir) => statSync(join(root, dir, 'package.json'), { throwIfNoEntry: false }));
  });
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name)) yield path;
  }
}

/**
 * Production code: under src/, not a test, not a contract suite exported for other packages' tests, not a
 * dev/ folder (a processor's stand-in in its own folder, src/processors/<id>/dev/) nor a plugin's contract
 * cases (<id>.contract-cases.ts, which start that stand-in for the plugin contract).
 */
const isRuntime = (file) =>
  file.startsWith('src/') &&
  !/\.test\.[a-z]+$/.test(file) &&
  !file.startsWith('src/testing/') &&
  !/(^|\/)dev\//.test(file) &&
  !/\.contract-cases\.ts$/.test(file);

const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm, // import x from 'a'; export { y } from 'b'
  /^\s*import\s*['"]([^'"]+)['"]/gm, // import 'a' (side effects)
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // await import('a')
  /\brequire(?:\.resolve)?\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // require('a'), require.resolve('a')
  /\bcreateRequire\([^)]*\)(?:\.resolve)?\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // createRequire(__filename)('a')
];

const SPECIFIER = /^(@[\w.-]+\/)?[\w.-]+(\/[\w.-]+)*$/;

function packageNameOf(specifier) {
  if (!SPECIFIER.test(specifier)) return undefined;
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/\s.*$/gm, '');
  return IMPORT_PATTERNS.flatMap((pattern) => [...code.matchAll(pattern)].map((m) => packageNameOf(m[1]))).filter(Boolean);
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const rootManifest = readJson(join(root, 'package.json'));
const packages = workspacePackageDirs().map((dir) => ({ dir, path: join(root, dir, 'package.json'), manifest: readJson(join(root, dir, 'package.json')) }));
const workspaceNames = new Set(packages.map((p) => p.manifest.name));

const knownRanges = new Map(Object.entries(rootManifest.devDependencies ?? {}));
for (const { manifest } of packages) {
  for (const [name, range] of Object.entries({ ...manifest.devDependencies, ...manifest.dependencies })) {
    if (!range.startsWith('workspace:')) knownRanges.set(name, range);
  }
}

function rangeFor(manifest, name) {
  if (workspaceNames.has(name)) return 'workspace:*';
  const own = manifest.dependencies?.[name] ?? manifest.devDependencies?.[name];
  const range = own ?? knownRanges.get(name);
  if (!range) throw new Error(`${manifest.name} imports ${name}, which no package.json lists: pnpm add ${name} --filter ${manifest.name}`);
  return range;
}

// @types/* packages and tooling stay in the root devDependencies: tsc, jest and eslint run from the root.
const sorted = (names, manifest) => Object.fromEntries([...names].sort().map((name) => [name, rangeFor(manifest, name)]));

const problems = [];
const graph = new Map();
const imports = new Map(); // package name -> { runtime, dev }
for (const pkg of packages) {
  const runtime = new Set();
  const dev = new Set();
  for (const file of sourceFiles(join(root, pkg.dir))) {
    const rel = relative(join(root, pkg.dir), file).split('\\').join('/');
    for (const name of importsOf(readFileSync(file, 'utf8'))) {
      if (name === pkg.manifest.name || TOOLING.has(name)) continue;
      (isRuntime(rel) ? runtime : dev).add(name);
    }
  }
  for (const name of runtime) dev.delete(name);
  imports.set(pkg.manifest.name, { runtime, dev });
  graph.set(
    pkg.manifest.name,
    [...runtime, ...dev].filter((name) => workspaceNames.has(name)),
  );
}

/**
 * A built package ships as bundles with the workspace libraries inlined (build.config.mjs), so the npm
 * packages those libraries import are required from the built package's own node_modules: they are its
 * dependencies too. Each comes with the range of the library that imports it.
 */
function bundledNpmPackages(name) {
  const found = new Map();
  const seen = new Set();
  const walk = (current) => {
    if (seen.has(current)) return;
    seen.add(current);
    const manifest = packages.find((p) => p.manifest.name === current).manifest;
    for (const dep of imports.get(current).runtime) {
      if (workspaceNames.has(dep)) walk(dep);
      else if (current !== name && !found.has(dep)) found.set(dep, rangeFor(manifest, dep));
    }
  };
  walk(name);
  return found;
}

for (const pkg of packages) {
  const { runtime, dev } = imports.get(pkg.manifest.name);
  const wanted = { dependencies: sorted(runtime, pkg.manifest), devDependencies: sorted(dev, pkg.manifest) };
  if (BUILDS[pkg.dir]?.selfContained) {
    // Everything is inlined into its bundle at build time: nothing is required at run time.
    wanted.devDependencies = sorted(new Set([...runtime, ...dev]), pkg.manifest);
    wanted.dependencies = {};
  } else if (pkg.dir in BUILDS) {
    for (const [name, range] of bundledNpmPackages(pkg.manifest.name)) {
      if (!(name in wanted.dependencies)) wanted.dependencies[name] = pkg.manifest.dependencies?.[name] ?? range;
      delete wanted.devDependencies[name];
    }
    wanted.dependencies = Object.fromEntries(Object.entries(wanted.dependencies).sort(([a], [b]) => a.localeCompare(b)));
  }

  for (const field of ['dependencies', 'devDependencies']) {
    const have = pkg.manifest[field] ?? {};
    const want = wanted[field];
    for (const name of Object.keys(want)) if (!(name in have)) problems.push(`${pkg.dir}: ${name} is imported (or required by its bundle) but not in ${field}`);
    for (const name of Object.keys(have)) if (!(name in want)) problems.push(`${pkg.dir}: ${name} is in ${field} but not imported there`);
  }
  if (write) {
    const next = {};
    for (const [key, value] of Object.entries(pkg.manifest)) {
      if (key === 'dependencies' || key === 'devDependencies') continue;
      next[key] = value;
    }
    if (Object.keys(wanted.dependencies).length > 0) next.dependencies = wanted.dependencies;
    if (Object.keys(wanted.devDependencies).length > 0) next.devDependencies = wanted.devDependencies;
    writeFileSync(pkg.path, `${JSON.stringify(next, null, 2)}\n`);
  }
}

{
  const imported = new Set(ROOT_TOOLING);
  for (const dir of ROOT_CODE) for (const file of sourceFiles(join(root, dir))) for (const name of importsOf(readFileSync(file, 'utf8'))) imported.add(name);
  const have = rootManifest.devDependencies ?? {};
  for (const name of imported)
    if (!ROOT_TOOLING.includes(name) && !(name in have)) problems.push(`root: ${name} is imported by ${ROOT_CODE.join('/ or ')}/ but not in devDependencies`);
  for (const name of Object.keys(have)) {
    if (!imported.has(name) && !name.startsWith('@types/'))
      problems.push(`root: ${name} is in devDependencies but neither a tool nor imported by ${ROOT_CODE.join('/ or ')}/`);
  }
  if (write) {
    rootManifest.devDependencies = Object.fromEntries(
      Object.keys(have)
        .filter((name) => imported.has(name) || name.startsWith('@types/'))
        .sort()
        .map((name) => [name, have[name]]),
    );
    writeFileSync(join(root, 'package.json'), `${JSON.stringify(rootManifest, null, 2)}\n`);
  }
}

// A cycle between workspace packages, dependencies and devDependencies alike.
const cycles = [];
const state = new Map();
const visit = (name, path) => {
  if (state.get(name) === 'done') return;
  if (state.get(name) === 'open') {
    cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '));
    return;
  }
  state.set(name, 'open');
  for (const next of graph.get(name) ?? []) visit(next, [...path, name]);
  state.set(name, 'done');
};
for (const name of graph.keys()) visit(name, []);
for (const cycle of cycles) problems.push(`workspace cycle: ${cycle}`);

if (write) {
  console.log(
    `package.json files rewritten from the imports; now run pnpm install${cycles.length ? `\n${cycles.map((c) => `workspace cycle: ${c}`).join('\n')}` : ''}`,
  );
  process.exit(cycles.length ? 1 : 0);
}
if (problems.length > 0) {
  console.error(`${problems.join('\n')}\n\npackage.json lists differ from the imports: node scripts/package-deps.mjs --write, then pnpm install`);
  process.exit(1);
}
