/* global require, module */
/**
 * jest's test environment under `npm run mutate` (stryker.config.mjs): once a test has failed in a
 * run, the tests after it are skipped. A mutant is killed by its first failing test, which is what
 * Stryker asks for by default, but its jest runner cannot make jest stop (jest bails only between
 * test files), and every other test the mutant reached would still run, each driving the add-on in
 * the emulator. stryker-global-setup.ts clears the mark at the start of each mutant's run.
 *
 * Plain JavaScript: Stryker's jest runner loads the environment it wraps with Node's own require.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded untransformed (see above)
const { TestEnvironment } = require('jest-environment-node');

const A_TEST_FAILED = Symbol.for('safety-sync.stryker.a-test-failed');

class BailingEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name === 'test_done' && event.test.errors.length > 0) globalThis[A_TEST_FAILED] = true;
    if (!globalThis[A_TEST_FAILED]) return;
    // Skipped describe blocks skip their beforeAll hooks too (most of them build an add-on).
    if (event.name === 'run_describe_start') event.describeBlock.mode = 'skip';
    if (event.name === 'test_start') event.test.mode = 'skip';
  }
}

module.exports = BailingEnvironment;
