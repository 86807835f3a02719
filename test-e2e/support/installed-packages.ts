import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '../..');

/** The SDK and the CLI as a merchant's project gets them: their tarballs installed with npm into an empty folder. */
export interface InstalledPackages {
  /** The project folder (outside the workspace), with node_modules/@vaultline/{node,cli}. */
  dir: string;
  /** The package.json of each tarball, as packed. */
  packed: { node: Record<string, unknown>; cli: Record<string, unknown> };
  /** How long `npm install` took (ms). */
  installMs: number;
  remove(): void;
}

interface InstalledDependency {
  name: string;
  dir: string;
}

/** Where a package's dependency `name` is installed: the nearest node_modules above it that holds it (pnpm's layout included). */
function installedDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} (a dependency of ${from}) is not installed`);
  }
}

/** Every package the SDK needs at run time, transitively, as the workspace installed it (the lockfile's versions). */
function runtimeDependencies(packageDir: string): InstalledDependency[] {
  const found = new Map<string, InstalledDependency>();
  const visit = (dir: string) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (found.has(name)) continue;
      const installed = installedDir(name, dir);
      found.set(name, { name, dir: installed });
      visit(installed);
    }
  };
  visit(packageDir);
  return [...found.values()];
}

const tarballIn = (dir: string, prefix: string): string => {
  const name = readdirSync(dir).find((file) => file.startsWith(prefix) && file.endsWith('.tgz'));
  if (!name) throw new Error(`no ${prefix}*.tgz in ${dir}`);
  return join(dir, name);
};

/**
 * Builds the SDK and the CLI when missing or stale, packs them with `pnpm pack` (which rewrites the
 * workspace: ranges), and installs both tarballs with npm into an empty folder outside the workspace,
 * offline: the CLI is self-contained (its npm packages are inlined in its bundle), and the SDK's runtime
 * dependencies (openapi-fetch, standardwebhooks and theirs), which its users get from the npm registry,
 * come here from tarballs packed from the workspace's own installed copies (the lockfile's versions), given
 * to npm as overrides: no registry, no network.
 */
export async function installPackedPackages(): Promise<InstalledPackages> {
  await run(process.execPath, [join(root, 'scripts/build-served.mjs'), 'packages/node', 'packages/cli'], { cwd: root });
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-installed-'));
  const packs = join(dir, 'packs');
  const deps = join(dir, 'deps');
  const project = join(dir, 'project');
  for (const folder of [packs, deps, project]) mkdirSync(folder);
  await Promise.all(['packages/node', 'packages/cli'].map((pkg) => run('pnpm', ['pack', '--pack-destination', packs], { cwd: join(root, pkg) })));
  const nodeTarball = tarballIn(packs, 'vaultline-node-');
  const cliTarball = tarballIn(packs, 'vaultline-cli-');
  const overrides: Record<string, string> = {};
  for (const dependency of runtimeDependencies(join(root, 'packages/node'))) {
    // Packed from a copy: pnpm's store hard-links identical files, and npm packs the second link of an
    // inode as an empty hard-link entry, which npm's own install then drops (index.d.ts and index.d.mts).
    const copy = join(dir, 'copies', dependency.name);
    cpSync(dependency.dir, copy, { recursive: true, dereference: true });
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', deps, copy], { cwd: dir });
    overrides[dependency.name] = `file:${join(deps, stdout.trim().split('\n').pop()!)}`;
  }
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'merchant-project',
        private: true,
        type: 'module',
        dependencies: { '@vaultline/node': `file:${nodeTarball}`, '@vaultline/cli': `file:${cliTarball}` },
        overrides,
      },
      null,
      2,
    ),
  );
  const started = performance.now();
  await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
  const installMs = performance.now() - started;
  const packed = (pkg: string) => JSON.parse(readFileSync(join(project, 'node_modules/@vaultline', pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { dir: project, packed: { node: packed('node'), cli: packed('cli') }, installMs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
