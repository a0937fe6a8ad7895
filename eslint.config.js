import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// AsyncLocalStorage and async hooks switch on promise hooks for the whole process: every promise of
// every request pays for them (docs/decisions.md, "No AsyncLocalStorage on the hot path").
const NO_ASYNC_HOOKS = ['node:async_hooks', 'async_hooks'].map((name) => ({ name, message: 'No AsyncLocalStorage or async hooks: pass state explicitly (docs/decisions.md).' }));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', 'bench-results/**', 'libs/client/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly', performance: 'readonly', document: 'readonly', window: 'readonly', navigator: 'readonly', EventSource: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: NO_ASYNC_HOOKS }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']", message: 'No focused tests.' },
        { selector: 'ThrowStatement > Literal', message: 'Throw errors, not strings.' },
      ],
    },
  },
  {
    // The domain is pure: no I/O, no infrastructure clients (docs/architecture.md, "Layout").
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: NO_ASYNC_HOOKS, patterns: ['node:*', 'redis', 'kafkajs', '@eventstore/*', 'koa', '@koa/*', 'better-sqlite3', '@pubstream/*'] }],
    },
  },
  {
    // Libraries never read the environment and never import apps (docs/architecture.md, "Layout").
    files: ['libs/**/src/**/*.ts'],
    // libs/testcontainers/src/defaultImage.ts: a test helper picks its image from PUBSTREAM_IMAGE,
    // as testcontainers itself reads DOCKER_HOST (README of @pubstream/testcontainers).
    ignores: ['libs/**/src/**/*.test.ts', 'libs/testing/**', 'libs/testcontainers/src/defaultImage.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Libraries take config as arguments; only apps/*/src/config.ts reads the environment.' }],
      'no-restricted-imports': ['error', { paths: NO_ASYNC_HOOKS, patterns: ['@pubstream/api', '@pubstream/admin', '@pubstream/projector', '@pubstream/cli'] }],
    },
  },
  {
    // One idea per file, small named units (docs/architecture.md, "Code size"): the source, not the tests.
    files: ['apps/**/src/**/*.ts', 'libs/**/src/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
);
