/**
 * Under `npm run mutate` (docs/mutation-testing.md) the tests that drive the bundle must see
 * StrykerJS's mutants: the script shares the test environment's `__stryker__`, which says which
 * mutant is switched on and where the script records the mutants it reached, and learns the active
 * mutant from process.env as mutated code does where a `process` exists. Outside a mutation run the
 * script's globals stay Apps Script's.
 */
import { emulate } from './fixtures/script-emulator';

type Namespace = { activeMutant?: string; mutantCoverage?: Record<string, Record<string, number>> };
const host = globalThis as { __stryker__?: Namespace };
const ACTIVE_MUTANT_VARIABLE = '__STRYKER_ACTIVE_MUTANT__';

// What mutated code does: find the namespace (making one if there is none), run the mutant if it
// is the active one, and count the reach under the current test.
const MUTATED_SCRIPT = `
  function namespace() { return globalThis.__stryker__ || (globalThis.__stryker__ = {}); }
  function greeting() {
    var ns = namespace();
    ns.mutantCoverage = { perTest: { 'a test': { '1': 1 } } };
    return ns.activeMutant === '1' ? 'mutant' : 'original';
  }
  function hasNamespace() { return typeof __stryker__ !== 'undefined'; }
`;

let saved: { namespace: Namespace | undefined; activeMutant: string | undefined };
beforeEach(() => {
  saved = { namespace: host.__stryker__, activeMutant: process.env[ACTIVE_MUTANT_VARIABLE] };
  delete host.__stryker__;
  delete process.env[ACTIVE_MUTANT_VARIABLE];
});
afterEach(() => {
  if (saved.namespace) host.__stryker__ = saved.namespace;
  else delete host.__stryker__;
  if (saved.activeMutant !== undefined) process.env[ACTIVE_MUTANT_VARIABLE] = saved.activeMutant;
  else delete process.env[ACTIVE_MUTANT_VARIABLE];
});

test('outside a mutation run the script has no __stryker__ and runs the original code', () => {
  const emulator = emulate(MUTATED_SCRIPT);
  expect(emulator.run('hasNamespace')).toBe(false);
  expect(emulator.run('greeting')).toBe('original');
});

test("the script runs the mutant the test environment's namespace names, and records its reach there", () => {
  const namespace: Namespace = { activeMutant: '1' };
  host.__stryker__ = namespace;
  expect(emulate(MUTATED_SCRIPT).run('greeting')).toBe('mutant');
  expect(namespace.mutantCoverage).toEqual({ perTest: { 'a test': { '1': 1 } } });
});

test('the script runs the mutant that process.env names when the namespace names none', () => {
  host.__stryker__ = {};
  process.env[ACTIVE_MUTANT_VARIABLE] = '1';
  expect(emulate(MUTATED_SCRIPT).run('greeting')).toBe('mutant');
});

test('with neither naming a mutant, the script shares the namespace and runs the original code', () => {
  host.__stryker__ = {};
  const emulator = emulate(MUTATED_SCRIPT);
  expect(emulator.run('hasNamespace')).toBe(true);
  expect(emulator.run('greeting')).toBe('original');
});
