/** One jest run for the whole workspace; SWC strips types (tsc checks them separately). */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  testMatch: ['<rootDir>/{libs,services,packages,examples,test-e2e,deploy}/**/*.test.ts'],
  // The publishable packages (packages/*) are ESM: their relative imports name the .js they compile to.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Workspace packages resolve to their TypeScript source (package.json exports, condition vaultline-source).
  testEnvironmentOptions: { customExportConditions: ['vaultline-source', 'node', 'node-addons'] },
  testPathIgnorePatterns: ['/node_modules/'],
  setupFiles: ['<rootDir>/jest.setup.js'],
  testTimeout: 30000,
  maxWorkers: 2,
};
