/** One jest run for the whole workspace; SWC strips types (tsc checks them separately). */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  testMatch: ['<rootDir>/{libs,services,test-e2e,deploy}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  setupFiles: ['<rootDir>/jest.setup.js'],
  testTimeout: 30000,
  maxWorkers: 2,
};
