// What a package's build is made from, as one hash: so a build that is up to date is not made again
// (scripts/build-served.mjs, run by `pnpm install` and `pnpm start`), and one that is stale is.
//
// The inputs of a package: its own files and those of every workspace package it depends on (dependencies
// and devDependencies, transitively: the sources its bundle inlines), without dist/, node_modules/, tests,
// test folders, images and Markdown; plus what decides how it is built (build.config.mjs, scripts/build.mjs, tsconfig.json)
// and the lockfile (the npm packages' versions). scripts/build.mjs writes the hash into <package>/dist/
// when it has built the package; a package is stale when that file is missing or differs.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export const root = join(import.meta.dirname, '..');
export const STAMP = '.build-inputs';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-output', 'test', 'screenshots', 'docs']);
// Tests, images and prose are not built: a README edit leaves the build up to date.
const SKIP_FILES = /\.test\.[a-z]+$|\.(png|md)$/;
const SHARED = ['build.config.mjs', 'scripts/build.mjs', 'scripts/build-inputs.mjs', 'tsconfig.json', 'pnpm-lock.yaml'];

/** Workspace package folders by package name (pnpm-workspace.yaml's globs of one level). */
function workspaceDirs() {
  const globs = [...readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s*-\s*["']?([^"'\n]+)["']?\s*$/gm)].map((m) => m[1]);
  // A folder may be absent (an image's build stage copies only what it builds: no examples/, no packages/cli).
  const children = (parent) => (existsSync(join(root, parent)) ? readdirSync(join(root, parent)).map((name) => `${parent}/${name}`) : []);
  const dirs = globs.flatMap((glob) => (glob.endsWith('/*') ? children(glob.slice(0, -2)) : [glob]));
  const byName = new Map();
  for (const dir of dirs) {
    const manifest = join(root, dir, 'package.json');
    if (existsSync(manifest)) byName.set(JSON.parse(readFileSync(manifest, 'utf8')).name, dir);
  }
  return byName;
}

/** The package folder and the folders of the workspace packages it depends on, transitively. */
function dependencyDirs(dir, byName) {
  const found = new Set();
  const visit = (current) => {
    if (found.has(current)) return;
    found.add(current);
    const manifest = JSON.parse(readFileSync(join(root, current, 'package.json'), 'utf8'));
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) if (byName.has(name)) visit(byName.get(name));
  };
  visit(dir);
  return [...found].sort();
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) yield* files(join(dir, entry.name));
    } else if (!SKIP_FILES.test(entry.name)) yield join(dir, entry.name);
  }
}

/** The hash of everything the package's build reads. */
export function inputsHash(dir) {
  const byName = workspaceDirs();
  const paths = [...dependencyDirs(dir, byName).flatMap((d) => [...files(join(root, d))]), ...SHARED.map((file) => join(root, file)).filter(existsSync)];
  const hash = createHash('sha256');
  for (const path of paths.sort()) hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
  return hash.digest('hex');
}

export const stampOf = (dir) => join(root, dir, 'dist', STAMP);

/** True when the package's dist/ was built from exactly the inputs it has now. */
export function isUpToDate(dir) {
  const stamp = stampOf(dir);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash(dir);
}
