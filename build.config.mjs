// What `pnpm build` compiles (scripts/build.mjs): the one list of production entry points.
// Each package below gets <package>/dist/<entry>.js, one esbuild bundle per entry, with the workspace
// libraries (@vaultline/*) inlined and npm packages required from node_modules at run time.
//
// Add a service's entry, or a worker thread's (a thread entry is a bundle of its own in the same dist/
// folder as the code that starts it, so `join(__dirname, '<name>.js')` finds it), here.
// `assets` are folders the code reads next to itself at run time (__dirname); they are copied into dist/.
import { existsSync, readdirSync } from 'node:fs';

const VAULT_PUBLIC = { from: 'services/vault/src/http/public', to: 'public' }; // checkout page and SDK (checkout.routes.ts)

/** @type {Record<string, { entries?: string[], assets?: Array<{ from: string, to: string }>, tsc?: string, web?: string, selfContained?: boolean }>} */
export const BUILDS = {
  // Every service: src/main.ts -> dist/main.js (what its image runs).
  ...Object.fromEntries(
    readdirSync(new URL('./services', import.meta.url))
      .filter((name) => existsSync(new URL(`./services/${name}/src/main.ts`, import.meta.url)))
      .map((name) => [`services/${name}`, { entries: ['src/main.ts'], assets: name === 'vault' ? [VAULT_PUBLIC] : [] }]),
  ),
  // The embedded, local and Kafka profiles. The launcher inlines every service, the vault's public files included.
  // The service-thread worker is a bundle of its own: dist/service-thread/service-thread.worker.js.
  'deploy/launcher': {
    entries: ['src/main-embedded.ts', 'src/main-local.ts', 'src/main-kafka.ts', 'src/service-thread/service-thread.worker.ts'],
    assets: [VAULT_PUBLIC],
  },
  // The publishable packages. The SDK is compiled by tsc (ESM and .d.ts for its users, module by module;
  // its npm dependencies stay dependencies, resolved from the registry by its users).
  // The CLI is self-contained: one bundle with the SDK AND its npm packages inlined (commander, yaml,
  // openapi-fetch, standardwebhooks), so installing its tarball needs no registry and nothing to
  // resolve at start; run as `node dist/main.js` (its package.json bin).
  'packages/node': { tsc: 'tsconfig.build.json' },
  'packages/cli': { entries: ['src/main.ts'], selfContained: true },
  // The dashboard: a browser app (Preact, Chart.js, the SDK) built by its own build.mjs into dist/index.html
  // and content-hashed assets, which the gateway serves at /dashboard.
  'packages/dashboard': { web: 'build.mjs' },
};
