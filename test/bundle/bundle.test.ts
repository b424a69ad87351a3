/**
 * dist/Code.js is exactly what clasp pushes. These tests load it the way Apps Script does: one
 * classic script in a global scope that has the JavaScript built-ins and nothing of Node or browsers.
 */
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { BUNDLE_VARIABLE, bundleOptions, listEntryPoints } from '../../dev/build';
import { APPS_SCRIPT_GLOBALS } from '../support/apps-script-globals';
import { globalNames, loadBareScript } from '../support/entry-points';

const DIST = path.resolve(__dirname, '../../dist');
const code = fs.readFileSync(path.join(DIST, 'Code.js'), 'utf8');

/** The functions users type into cells; each must carry its autocomplete JSDoc. */
const CUSTOM_FUNCTIONS = [
  'SAFETY_COMPLETIONS',
  'SAFETY_EQUIPMENT_TYPES',
  'SAFETY_SCHEDULES',
  'SAFETY_USER',
  'SAFETY_NEXT_INSPECTION',
  'SAFETY_INSPECTION_STATUS',
  'SAFETY_TRAINING_STATUS',
  'SAFETY_TRAINING_EXPIRY',
  'SAFETY_PEOPLE',
  'SAFETY_COMPLIANCE',
];

/** The entry points the add-on means to have: menu, functions, dialogs, triggers. */
const INTENDED_ENTRY_POINTS = [
  // Simple triggers.
  'onInstall',
  'onOpen',
  // Menu items.
  'showImportCompletionsDialog',
  'reconcileCompletedTrainings',
  'importEquipmentTypes',
  'refreshAll',
  'showUpcomingInspections',
  'showTrainingStatus',
  'showScheduleDialog',
  'showSettingsDialog',
  // The scheduled refresh's time-driven trigger.
  'runScheduledRefresh',
  // Called by the dialogs through google.script.run.
  'getCompletionsFilter',
  'startCompletionsImport',
  'continueCompletionsImport',
  'getSettings',
  'saveSettings',
  'testConnection',
  'removeToken',
  'setFormulaAccess',
  'confirmSettings',
  'confirmManagers',
  'discardSettings',
  'getSchedule',
  'saveSchedule',
  'removeSchedule',
  ...CUSTOM_FUNCTIONS,
];

test('the bundle evaluates in a context without Node or browser globals', () => {
  const context = loadBareScript(DIST);
  for (const missing of [
    'setTimeout',
    'URL',
    'URLSearchParams',
    'TextEncoder',
    'fetch',
    'process',
    'require',
  ]) {
    expect(vm.runInContext(`typeof ${missing}`, context)).toBe('undefined');
  }
});

test('the callable globals are exactly the exports of src/main.ts, all intended, and only data besides', () => {
  const { callable, other } = globalNames(loadBareScript(DIST));
  // The build adds no function of its own: each export becomes one wrapper, and nothing else leaks.
  expect(callable).toEqual(
    listEntryPoints()
      .map((entry) => entry.name)
      .sort(),
  );
  // A new export is a new function any editor can type into a cell: it must be listed here on purpose.
  expect(callable).toEqual([...INTENDED_ENTRY_POINTS].sort());
  // A name ending in "_" can be called neither from a cell nor from google.script.run. zod keeps its
  // configuration in a global object of its own: data, nothing a cell can call.
  expect(other).toEqual([BUNDLE_VARIABLE, '__zod_globalConfig'].sort());
});

test('loading the script touches no Apps Script service (onOpen may run in AuthMode.NONE)', () => {
  const touched: string[] = [];
  const globals = Object.fromEntries(
    APPS_SCRIPT_GLOBALS.map((name) => [
      name,
      new Proxy({}, { get: (_target, member) => touched.push(`${name}.${String(member)}`) }),
    ]),
  );
  vm.runInContext(code, vm.createContext(globals));
  expect(touched).toEqual([]);
});

test('no module syntax remains', () => {
  // Statements, not words: a long string's line may begin with "import" where the build wraps it.
  expect(code).not.toMatch(
    /^\s*(import|export)\s*(\{|\*|default\b|const\b|let\b|var\b|function\b|class\b|['"])/m,
  );
  expect(code).not.toMatch(/^\s*import\s+[\w$]+\s+from\s/m);
  expect(code).not.toMatch(/\brequire\(/);
});

test('every entry point calls into the bundle under its own name', () => {
  for (const name of INTENDED_ENTRY_POINTS) {
    expect(code).toContain(`function ${name}(...args) {\n  return ${BUNDLE_VARIABLE}.${name}(...args);\n}`);
  }
});

test('zod validates in a bare context even where code generation from strings is forbidden', async () => {
  const probe = path.join(__dirname, 'zod-probe.ts');
  const bundled = await esbuild.build({ ...bundleOptions(probe), globalName: 'probe' });
  for (const strings of [true, false]) {
    const context = vm.createContext({}, { codeGeneration: { strings, wasm: false } });
    vm.runInContext(bundled.outputFiles[0]!.text, context);
    const result = vm.runInContext(
      'probe.parseCompletion({ user_id: "00042", training_id: "t1", created: 1700000000, dateNumber: 20240229, instructor_id: "u2", groupTraining_id: "g1", extra: true })',
      context,
    );
    expect(result).toEqual({ success: true, userId: '00042' });
    const rejected = vm.runInContext('probe.parseCompletion({ user_id: 42 })', context);
    expect(rejected.success).toBe(false);
  }
});

test('every custom function carries its autocomplete JSDoc on the top-level wrapper Sheets reads', () => {
  const bundle = loadBareScript(DIST)[BUNDLE_VARIABLE] as Record<string, (...args: unknown[]) => unknown>;
  for (const name of CUSTOM_FUNCTIONS) {
    const doc = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\nfunction ${name}\\(`).exec(code)?.[1];
    expect(doc).toBeDefined();
    expect(doc).toContain('@customfunction');
    expect(doc).toMatch(new RegExp(`Example: =${name}\\(`));
    expect(doc).toMatch(/@return /);
    // One @param per parameter the function declares.
    expect(doc!.match(/@param \{\w+\} \w+ \S/g)).toHaveLength(bundle[name]!.length);
  }
});
