// The dashboard's build (run by scripts/build.mjs, so by `pnpm build`): esbuild bundles src/main.tsx with
// Preact, Chart.js and the SDK into one script and one stylesheet, named by their content hash so a browser
// may cache them forever; dist/index.html names them. The gateway serves dist/ at /dashboard with a policy
// of script-src 'self' and style-src 'self': nothing inline, nothing from another origin.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

/** The path the gateway serves the dashboard under; the page's assets are named from it. */
export const DASHBOARD_PATH = '/dashboard';

/** Builds into outdir: index.html and assets/main-<hash>.js, assets/main-<hash>.css. Answers the file names and sizes. */
export async function buildDashboard(outdir) {
  const here = import.meta.dirname;
  const result = await build({
    absWorkingDir: here,
    entryPoints: ['src/main.tsx'],
    outdir: join(outdir, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // The SDK is inlined from its TypeScript source, as the CLI's bundle does.
    conditions: ['vaultline-source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith('.js'));
  const stylesheet = outputs.find((name) => name.endsWith('.css'));
  if (!script || !stylesheet) throw new Error(`the dashboard build made no script or no stylesheet: ${outputs.join(', ')}`);
  const page = readFileSync(join(here, 'src', 'index.html'), 'utf8')
    .replace('%SCRIPT%', `${DASHBOARD_PATH}/assets/${script}`)
    .replace('%STYLESHEET%', `${DASHBOARD_PATH}/assets/${stylesheet}`);
  writeFileSync(join(outdir, 'index.html'), page);
  return { script, stylesheet };
}
