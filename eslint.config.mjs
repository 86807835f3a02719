import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'data/**', 'test-output/**', '**/*.js', '**/*.mjs', 'services/vault/src/http/public/**'] },
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
    files: ['**/*.test.ts', 'test-e2e/**', 'bench/**', '**/test/**', '**/dev/**', 'deploy/**'],
    rules: { 'no-console': 'off' },
  },
);
