// @ts-check
/**
 * Mutation testing of the core rules (docs/mutation-testing.md). `npm run mutate` runs this file:
 * one Stryker run per rule below, each mutating that rule's modules and running only the tests
 * that cover them, then one line per rule and the overall score. `MUTATE_RULE=<name> npx stryker
 * run` runs one rule; plain `npx stryker run` mutates every rule against every rule's tests at once
 * (slower: each mutant then loads every one of those test files).
 *
 * The tests that drive the built add-on see the mutants: buildCommand bundles dist/Code.js from the
 * instrumented sources (every mutant is in that one bundle, switched on at run time by the global
 * `__stryker__`), and the emulator shares the test environment's `__stryker__` with the script
 * (dev/emulator/runtime/realm.ts).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';

// Where the completed trainings' modules and their tests live (one place to change if they move).
const COMPLETIONS_SRC = 'src/trainings/completions';
const COMPLETIONS_TESTS = 'test/trainings/completions';

/**
 * Each core rule: the modules it lives in, and the tests that cover it, the ones that drive the
 * built add-on in the emulator included. A mutant runs only the tests of its rule that reached it,
 * in this order, and stops at the first that fails: list the fast tests (those calling the modules
 * in Node) first.
 */
export const RULES = [
  {
    name: 'paging',
    mutate: [
      'src/api/completions.ts',
      'src/api/completion-pass.ts',
      'src/api/completion-rounds.ts',
      'src/api/pass-merge.ts',
      'src/api/completions-contract.ts',
      'src/api/read-control.ts',
    ],
    tests: [
      'test/api/pass-merge.test.ts',
      'test/api/completions-paging.test.ts',
      'test/api/completions.test.ts',
      `${COMPLETIONS_TESTS}/import-limits.test.ts`,
      `${COMPLETIONS_TESTS}/import-failures.test.ts`,
    ],
  },
  {
    name: 'record-key',
    mutate: ['src/api/completion-key.ts'],
    tests: [
      'test/api/completion-key.test.ts',
      `${COMPLETIONS_TESTS}/removal-check-rules.test.ts`,
      `${COMPLETIONS_TESTS}/staging-rules.test.ts`,
    ],
  },
  {
    name: 'staging-and-removal',
    mutate: [`${COMPLETIONS_SRC}/staging.ts`, `${COMPLETIONS_SRC}/removal-check.ts`],
    tests: [`${COMPLETIONS_TESTS}/staging-rules.test.ts`, `${COMPLETIONS_TESTS}/removal-check-rules.test.ts`],
  },
  {
    name: 'tab-layout',
    mutate: ['src/sheets/tab-layout.ts', 'src/sheets/added-columns.ts'],
    tests: [
      'test/sheets/tab-layout-rules.test.ts',
      `${COMPLETIONS_TESTS}/tab-layout.test.ts`,
      'test/sheets/added-columns.test.ts',
      'test/sheets/added-columns-model.test.ts',
      'test/equipment/tab-layout.test.ts',
      'test/sheets/tabs-renamed-model.test.ts',
      'test/sheets/tabs-deleted-renamed.test.ts',
    ],
  },
  {
    name: 'user-cells',
    mutate: [
      'src/sheets/user-cells.ts',
      'src/sheets/tab-content.ts',
      'src/sheets/table-writer.ts',
      'src/sheets/row-writer.ts',
      'src/sheets/rows-on-top.ts',
      'src/sheets/tab-frame.ts',
      'src/sheets/row-alignment.ts',
    ],
    tests: [
      // The first four run the modules in Node against the emulator's services: fast for every mutant.
      'test/sheets/row-alignment.test.ts',
      'test/sheets/user-cells.test.ts',
      'test/sheets/table-writer-model.test.ts',
      'test/sheets/table-writer.test.ts',
      'test/sheets/user-cells-model.test.ts',
      'test/sheets/user-cells-travel.test.ts',
      'test/sheets/google-refusals-model.test.ts',
      'test/sheets/protected-and-viewer.test.ts',
      `${COMPLETIONS_TESTS}/user-columns.test.ts`,
      `${COMPLETIONS_TESTS}/trusted-table.test.ts`,
      'test/equipment/trusted-cells.test.ts',
    ],
  },
  {
    name: 'time-budget',
    mutate: ['src/platform/time-budget.ts'],
    tests: ['test/platform/time-budget.test.ts', 'test/refresh/time-budget.test.ts'],
  },
  {
    name: 'run-lease',
    mutate: ['src/platform/document-lock.ts'],
    tests: ['test/platform/document-lock.test.ts', 'test/refresh/shared-workbook.test.ts'],
  },
  {
    name: 'inspections-and-forecast',
    mutate: ['src/equipment/inspections.ts', 'src/equipment/forecast.ts'],
    // Both modules are pure rules, and their own tests reach every mutant and kill all but the
    // equivalent ones (docs/mutation-testing.md). The tabs' tests in the emulator (forecast-tab,
    // upcoming, future-last-inspected) could kill nothing more, and made 82 % of the mutants static
    // (reached while they build their tabs before any test), so that every test ran for each: hours.
    tests: ['test/equipment/inspections.test.ts', 'test/equipment/forecast.test.ts'],
  },
  {
    name: 'inspection-log',
    mutate: ['src/equipment/inspection-log.ts'],
    // The rules in Node first; the tab's reading and appending only the emulator's tests reach.
    tests: [
      'test/equipment/inspection-log-rules.test.ts',
      'test/equipment/inspection-log.test.ts',
      'test/equipment/inspection-log-model.test.ts',
    ],
  },
  {
    name: 'training-status-and-catalogue',
    mutate: [
      'src/trainings/training-status.ts',
      'src/trainings/catalogue.ts',
      'src/sheets/input-tab.ts',
      'src/trainings/requirements.ts',
      'src/trainings/matrix-compliance.ts',
      'src/trainings/roll-ups.ts',
    ],
    tests: [
      'test/trainings/training-status.test.ts',
      'test/trainings/catalogue.test.ts',
      'test/trainings/people.test.ts',
      'test/trainings/requirements.test.ts',
      'test/trainings/matrix-requirements.test.ts',
      'test/trainings/roll-ups.test.ts',
      'test/trainings/matrix.test.ts',
      'test/trainings/training-tabs.test.ts',
    ],
  },
  {
    name: 'compliance-history',
    mutate: ['src/trainings/compliance-history.ts'],
    tests: [
      'test/trainings/compliance-history-rules.test.ts',
      'test/trainings/compliance-history-model.test.ts',
      'test/trainings/compliance-history.test.ts',
    ],
  },
  {
    name: 'digest-and-notifications',
    // notification-settings.ts holds the recipients' validation.
    mutate: [
      'src/refresh/digest.ts',
      'src/refresh/notifications.ts',
      'src/refresh/notification-settings.ts',
      'src/refresh/team-digests.ts',
      'src/refresh/team-roster.ts',
    ],
    tests: [
      'test/refresh/notification-settings.test.ts',
      'test/refresh/digest-rules.test.ts',
      'test/refresh/team-digests-summary.test.ts',
      'test/refresh/digest-model.test.ts',
      'test/refresh/notifications.test.ts',
      'test/refresh/notification-sending.test.ts',
      'test/refresh/notification-mail.test.ts',
      'test/refresh/mail-authorization.test.ts',
      'test/refresh/team-digests-roster.test.ts',
      'test/refresh/team-digests.test.ts',
    ],
  },
  {
    name: 'refresh-frequency',
    mutate: ['src/refresh/schedule-frequency.ts'],
    tests: [
      'test/refresh/schedule-frequency.test.ts',
      'test/refresh/schedule.test.ts',
      'test/refresh/trigger-quota.test.ts',
    ],
  },
  {
    name: 'error-scrubbing',
    mutate: ['src/api/errors.ts'],
    tests: [
      'test/api/errors.test.ts',
      'test/api/client.test.ts',
      'test/api/redirects.test.ts',
      'test/platform/token-exposure.test.ts',
    ],
  },
];

/**
 * The seeded model tests run their first 20 sequences while mutating (test/support/seeded-random.ts):
 * each mutant reruns every sequence that reached it, and the whole sets (hundreds) would make a
 * rule's run take days. A value already set (to replay a seed or widen the set) is kept.
 */
const SEQUENCES_WHILE_MUTATING = '20';
for (const model of [
  'USER_EDITS',
  'SHARED_MODEL',
  'TABS_MODEL',
  'USER_CELLS',
  'REFUSALS_MODEL',
  'ROW_ALIGNMENT',
  'FORECAST',
  'HISTORY',
  'LOG',
]) {
  process.env[`${model}_SEQUENCES`] ??= SEQUENCES_WHILE_MUTATING;
}

const REPORTS = 'reports/mutation';

function selectedRules() {
  const name = process.env['MUTATE_RULE'];
  if (!name) return RULES;
  const rule = RULES.find((candidate) => candidate.name === name);
  if (!rule) {
    throw new Error(
      `MUTATE_RULE must name a rule of stryker.config.mjs: ${RULES.map((r) => r.name).join(', ')}.`,
    );
  }
  return [rule];
}

const rules = selectedRules();
// A module or test that moved would otherwise drop out of the run without a word.
const missing = rules
  .flatMap((rule) => [...rule.mutate, ...rule.tests])
  .filter((file) => !fs.existsSync(new URL(file, import.meta.url)));
if (missing.length > 0) {
  throw new Error(
    `stryker.config.mjs names files that do not exist; give their new paths: ${missing.join(', ')}.`,
  );
}
const reportName = rules.length === 1 ? rules[0].name : 'all';
const ruleTests = [...new Set(rules.flatMap((rule) => rule.tests))];
// Read by test/support/stryker-test-sequencer.js in Stryker's test processes, which inherit it.
process.env['SAFETY_SYNC_MUTATION_TEST_ORDER'] = JSON.stringify(ruleTests);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  plugins: ['@stryker-mutator/jest-runner'],
  testRunner: 'jest',
  // Each mutant runs only the tests that reached it, the script realm's reaches included: the
  // emulator shares `__stryker__`, whose current test id the test environment keeps up to date.
  coverageAnalysis: 'perTest',
  mutate: rules.flatMap((rule) => rule.mutate),
  // Built once per run from the instrumented sources; the tests load dist/Code.js.
  buildCommand: 'npm run build',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    // jest's related tests follow imports, and the tests that drive the bundle import none of it.
    enableFindRelatedTests: false,
    config: {
      testMatch: ruleTests.map((test) => `<rootDir>/${test}`),
      // The files in the rule's order, its fast tests first (see the sequencer).
      testSequencer: '<rootDir>/test/support/stryker-test-sequencer.js',
      globalSetup: '<rootDir>/test/support/stryker-global-setup.ts',
      // A mutant's run stops at its first failing test; Stryker wraps this environment in its own.
      testEnvironment: './test/support/stryker-test-environment.js',
      // The sample service outlives each mutant's jest run (see stryker-global-setup.ts).
      globalTeardown: null,
    },
  },
  ignorePatterns: ['dist', 'coverage', 'reports', 'dev/calibration/build'],
  concurrency: 2,
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${REPORTS}/${reportName}.html` },
  jsonReporter: { fileName: `${REPORTS}/${reportName}.json` },
  thresholds: { high: 90, low: 80, break: null },
};

/** Mutants found by the tests over mutants that count (those that compile and are not ignored). */
function score(reportFile) {
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const statuses = Object.values(report.files).flatMap((file) => file.mutants.map((mutant) => mutant.status));
  const detected = statuses.filter((status) => status === 'Killed' || status === 'Timeout').length;
  const counted =
    detected + statuses.filter((status) => status === 'Survived' || status === 'NoCoverage').length;
  return { detected, counted };
}

/** `npm run mutate`: each rule in its own Stryker run, then the scores. */
function mutateEveryRule() {
  const lines = [];
  let detected = 0;
  let counted = 0;
  for (const rule of RULES) {
    const run = spawnSync('npx', ['stryker', 'run'], {
      stdio: 'inherit',
      env: { ...process.env, MUTATE_RULE: rule.name },
    });
    if (run.status !== 0) {
      throw new Error(`Stryker failed on the rule ${rule.name}; its output is above.`);
    }
    const result = score(`${REPORTS}/${rule.name}.json`);
    detected += result.detected;
    counted += result.counted;
    lines.push(`${rule.name}: ${percent(result)} (${result.detected} of ${result.counted} mutants)`);
  }
  lines.push(`all rules: ${percent({ detected, counted })} (${detected} of ${counted} mutants)`);
  console.log(lines.join('\n'));
}

function percent({ detected, counted }) {
  return `${counted ? ((100 * detected) / counted).toFixed(1) : '100.0'}%`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) mutateEveryRule();
