// The dashboard's build (run by scripts/build.mjs, so by `pnpm build`): esbuild bundles src/main.tsx with
// Preact, Chart.js and the SDK into one script and one stylesheet, named by their content hash so a browser
// may cache them forever; dist/index.html names them. The gateway serves dist/ at /dashboard with a policy
// of script-src 'self' and style-src 'self': nothing inline, nothing from another origin.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The path the gateway serves the dashboard under; the page's assets are named from it. */
export const DASHBOARD_PATH = '/dashboard';

/** Builds into outdir: index.html, assets/main-<hash>.js and its chunks, assets/main-<hash>.css. Answers the entry's file names and the gzipped size of all scripts and styles. */
export async function buildDashboard(outdir) {
  const here = import.meta.dirname;
  const result = await build({
    absWorkingDir: here,
    entryPoints: ['src/main.tsx'],
    outdir: join(outdir, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    // Chart.js is most of the weight and only the overview draws: it is a chunk of its own, loaded there.
    splitting: true,
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
  const outputs = Object.entries(result.metafile.outputs);
  const script = outputs.find(([, output]) => output.entryPoint === 'src/main.tsx')?.[0];
  const stylesheet = outputs.find(([path]) => path.endsWith('.css'))?.[0];
  if (!script || !stylesheet) throw new Error(`the dashboard build made no script or no stylesheet: ${outputs.map(([path]) => path).join(', ')}`);
  const page = readFileSync(join(here, 'src', 'index.html'), 'utf8')
    .replace('%SCRIPT%', `${DASHBOARD_PATH}/assets/${basename(script)}`)
    .replace('%STYLESHEET%', `${DASHBOARD_PATH}/assets/${basename(stylesheet)}`);
  writeFileSync(join(outdir, 'index.html'), page);
  // What a browser downloads, compressed: every script and stylesheet (the overview's chart chunk included).
  const gzippedBytes = outputs
    .filter(([path]) => /\.(js|css)$/.test(path))
    .reduce((sum, [path]) => sum + gzipSync(readFileSync(join(here, path)), { level: 9 }).length, 0);
  return { script: basename(script), stylesheet: basename(stylesheet), gzippedBytes };
}
