import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/, each folder importing only from the layers below it:
 * main.ts, menu.ts → composers → capabilities → platform → sheets | api → lib.
 * A capability owns one subject end to end (its imported tabs and the tabs derived from them) and
 * never imports another: only the composers reach across capabilities.
 */
const TOP = ['main', 'menu'];
const COMPOSERS = ['refresh', 'formulas', 'settings'];
const CAPABILITIES = ['trainings', 'equipment'];
const LAYER_WORDS =
  'dependencies point main.ts, menu.ts → composers (refresh/, formulas/, settings/) → capabilities (trainings/, equipment/) → platform/ → sheets/, api/ → lib/, and a capability never imports another';

/** The deepest folder under a layer that holds code today is two down (src/trainings/completions/). */
const MAX_DEPTH = 3;

/**
 * For each layer of src/, an error on importing anything, types included, from the folders it may
 * not reach. The patterns are exact for each depth of file, so that an import of a file that
 * happens to share a folder's name (api/equipment.ts) is not taken for that folder.
 */
function layerRules(layers) {
  return layers.flatMap(({ layer, refused }) =>
    Array.from({ length: MAX_DEPTH }, (_, depth) => ({
      files: [`src/${layer}/${'*/'.repeat(depth)}*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `^(\\.\\./){${depth + 1}}(${refused.join('|')})(/|\\.ts$|$)`,
                message: `${layer}/ may not import from there: ${LAYER_WORDS}.`,
              },
            ],
          },
        ],
      },
    })),
  );
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
  // Type-only imports are refused like the others: a type names what it depends on just the same.
  ...layerRules([
    { layer: 'lib', refused: ['api', 'sheets', 'platform', ...CAPABILITIES, ...COMPOSERS, ...TOP] },
    { layer: 'api', refused: ['sheets', 'platform', ...CAPABILITIES, ...COMPOSERS, ...TOP] },
    { layer: 'sheets', refused: ['api', 'platform', ...CAPABILITIES, ...COMPOSERS, ...TOP] },
    { layer: 'platform', refused: [...CAPABILITIES, ...COMPOSERS, ...TOP] },
    ...CAPABILITIES.map((capability) => ({
      layer: capability,
      refused: [...CAPABILITIES.filter((other) => other !== capability), ...COMPOSERS, ...TOP],
    })),
    ...COMPOSERS.map((composer) => ({ layer: composer, refused: TOP })),
  ]),
  {
    // The one stated exception: the dialog contract names main's exports by type, in one place
    // (platform/dialog/server-functions.ts), where the dialogs' clients and the menu reach it.
    files: ['src/**/*.ts'],
    ignores: ['src/platform/dialog/server-functions.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSImportType',
          message:
            'Only platform/dialog/server-functions.ts names a module by `typeof import`: import from a layer below instead.',
        },
      ],
    },
  },
  {
    // A module is one idea and a function one job: past these, cut it along its seams.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
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
