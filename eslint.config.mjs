import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'docs/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Apps Script code: no Node or browser globals exist there.
    files: ['src/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'setTimeout',
          'setInterval',
          'fetch',
          'URL',
          'URLSearchParams',
          'TextEncoder',
          'TextDecoder',
          'process',
          'require',
          'Buffer',
          'atob',
          'btoa',
          'crypto',
          'window',
          'document',
        ].map((name) => ({ name, message: `${name} does not exist in Apps Script.` })),
      ],
    },
  },
  {
    // The dialogs' scripts, bundled into their pages by the build: browser code, where the DOM exists.
    files: ['src/**/*.client.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['dev/**/*.{ts,cjs,mjs}', 'test/**/*.ts', '*.config.{js,mjs}', 'jest.config.js'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
