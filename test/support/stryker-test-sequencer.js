/* global require, module, process */
/**
 * jest's test order under `npm run mutate` (stryker.config.mjs): the test files of a mutant's run
 * in the order its rule lists them, so a rule that lists its fast tests first (those calling the
 * module in Node) has most mutants killed in milliseconds. The environment (stryker-test-environment.js)
 * skips every test after the first failure, so whatever runs first decides a killed mutant's cost;
 * jest's own order (the slowest files of the last run first) would start every mutant with the tests
 * that drive the whole add-on in the emulator.
 *
 * Plain JavaScript: jest loads a sequencer with Node's own require.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded untransformed (see above)
const Sequencer = require('@jest/test-sequencer').default;

/** Set by stryker.config.mjs: the rule's test files, relative to the project, in the rule's order. */
const ORDER = JSON.parse(process.env['SAFETY_SYNC_MUTATION_TEST_ORDER'] ?? '[]');

function rankOf(test) {
  const rank = ORDER.findIndex((file) => test.path.endsWith(`/${file}`));
  return rank < 0 ? ORDER.length : rank;
}

class RuleOrderSequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => rankOf(a) - rankOf(b));
  }
}

module.exports = RuleOrderSequencer;
