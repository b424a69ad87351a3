import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CAPABILITIES = ['completions', 'equipment', 'formulas', 'overview', 'refresh', 'settings', 'trainings'];

/** For each layer of src/, an error on importing (other than types) from a folder above it. */
function layerRules(layers) {
  return layers.map(({ layer, above }) => ({
    files: [`${layer}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: above.flatMap((folder) => [`../${folder}`, `../${folder}/*`, `../../${folder}/*`]),
              allowTypeImports: true,
              message: `${layer} is below that folder: dependencies point capabilities → platform → sheets, api → lib.`,
            },
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'docs/',
      'dev/calibration/build/',
      '.stryker-tmp/',
      'reports/',
    ],
  },
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
    files: ['src/**/*.ts', 'dev/calibration/calibrate.ts'],
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
  // Dependencies point one way: capabilities → platform → sheets, api → lib (README, Architecture).
  // Type-only imports are allowed: they vanish from the bundle (the typed dialog contract uses one).
  ...layerRules([
    { layer: 'src/lib', above: ['api', 'sheets', 'platform', ...CAPABILITIES, 'main', 'menu'] },
    { layer: 'src/api', above: ['sheets', 'platform', ...CAPABILITIES, 'main', 'menu'] },
    { layer: 'src/sheets', above: ['api', 'platform', ...CAPABILITIES, 'main', 'menu'] },
    { layer: 'src/platform', above: [...CAPABILITIES, 'main', 'menu'] },
    ...CAPABILITIES.map((capability) => ({ layer: `src/${capability}`, above: ['main', 'menu'] })),
  ]),
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
