import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The dependency rules (docs/architecture.md, "The one service shape"): domain code imports no
// framework, driver or client, and none of its own service's adapters; a service's code (src/, dev/)
// never imports another service (deploy/launcher, test-e2e and bench compose services, and so may a
// service's integration tests under test/, which run it against a real neighbour such as the vault).
const SERVICES = readdirSync(new URL('./services', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const FRAMEWORKS = ['express', 'mongoose', 'kafkajs', 'ioredis', 'better-sqlite3', 'undici'];

/** The end-to-end suite composes the system; code the system runs (or the bench) never reaches into it. */
const noEndToEndSuite = {
  regex: '(^|/)test-e2e/',
  message:
    "Source code does not import the end-to-end suite: a processor's stand-in lives in its folder (src/processors/<id>/dev/), what stand-ins share in @vaultline/testing/psp-stand-ins.",
};

const otherServices = (service) => {
  const others = SERVICES.filter((name) => name !== service);
  return [
    noEndToEndSuite,
    {
      group: others.map((name) => `@vaultline/${name}`).flatMap((name) => [name, `${name}/*`]),
      message: 'A service does not import another service; share through libs/ (contracts, clients) or compose in deploy/launcher.',
    },
    {
      regex: `^(\\.\\./){2,}(${others.join('|')})/`,
      message: 'A service does not import another service, by package name or by path.',
    },
  ];
};
const domainPatterns = [
  {
    group: FRAMEWORKS.flatMap((name) => [name, `${name}/*`]),
    message: 'Domain code imports no framework, driver or client: take a port (domain/ports.ts) and implement it in http/, data/, clients/ or messaging/.',
  },
  {
    group: ['@vaultline/bus', '@vaultline/bus/*', '@vaultline/egress', '@vaultline/egress/*'],
    message:
      'Domain code reaches the bus and the outside through ports: events are built pure (domainEvent from @vaultline/contracts) and published with uow.publish, which adds the trace context; outbound calls go through a port implemented with @vaultline/egress outside domain/.',
  },
  {
    regex: '^\\.\\.?/(.+/)?(http|data|clients|messaging)(/|$)',
    message: "Domain code does not import its service's adapters (http/, data/, clients/, messaging/): they depend on the domain, not the reverse.",
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['**/*.test.ts', 'test-e2e/**', 'bench/**', 'scripts/**', '**/test/**', '**/dev/**', 'deploy/**'],
    rules: { 'no-console': 'off' },
  },
  // Plain JavaScript: the ES modules node runs as they are (worker entries, scripts, configs), the CommonJS
  // configs jest loads, and the hosted page's scripts, which browsers run as classic scripts.
  {
    files: ['**/*.mjs', '**/*.js'],
    ignores: ['services/vault/src/http/public/**'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['*.config.js', 'jest.setup.js'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['services/vault/src/http/public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      // The page's scripts share what each one sets on window (checkout-page.js reads the other two).
      globals: { ...globals.browser, CardBrand: 'readonly', CheckoutMessages: 'readonly' },
    },
  },
  {
    files: ['libs/*/src/**/*.ts', 'packages/*/src/**/*.{ts,tsx}', 'bench/**/*.{ts,mjs}', 'deploy/**/*.ts', 'examples/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noEndToEndSuite] }] },
  },
  // One block per service and one per service's domain: a later block replaces an earlier block's
  // options for the same rule, so the domain block repeats the service-to-service patterns.
  ...SERVICES.flatMap((service) => [
    {
      files: [`services/${service}/src/**/*.ts`, `services/${service}/dev/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: otherServices(service) }] },
    },
    {
      // A unit test beside a use case may wire it to real adapters, as app.ts does.
      files: [`services/${service}/src/domain/**/*.ts`],
      ignores: ['**/*.test.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns: [...otherServices(service), ...domainPatterns] }] },
    },
  ]),
);
