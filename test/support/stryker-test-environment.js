/* global require, module */
/**
 * jest's test environment under `npm run mutate` (stryker.config.mjs); Stryker wraps it in its own,
 * which counts each mutant the code passes under the test that is running.
 *
 * It credits the tests of a describe block with what its beforeAll hooks reached. Most tests of the
 * built add-on import once in a beforeAll and then check the workbook test by test; Stryker counts
 * what runs outside a test as *static* (reached by no test in particular), and runs every test of the
 * rule for each such mutant. The hook runs again whenever any test of its block runs, so those tests
 * are the ones that see the mutant: the mutant is moved from the static count to each of them.
 *
 * And it skips the tests after the first failure in a run. A mutant is killed by its first failing
 * test, which is what Stryker asks for by default, but its jest runner cannot make jest stop (jest
 * bails only between test files), and every other test the mutant reached would still run, each
 * driving the add-on in the emulator. stryker-global-setup.ts clears the mark at the start of each
 * mutant's run.
 *
 * Plain JavaScript: Stryker's jest runner loads the environment it wraps with Node's own require.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded untransformed (see above)
const { TestEnvironment } = require('jest-environment-node');

const A_TEST_FAILED = Symbol.for('safety-sync.stryker.a-test-failed');

/** A test's id as Stryker names it: its describe blocks' names and its own, space-separated. */
function fullNameOf(block) {
  return block.parent ? `${fullNameOf(block.parent)} ${block.name}`.trimStart() : '';
}

class MutationTestEnvironment extends TestEnvironment {
  /** The static counts when the running beforeAll hook started. */
  #staticAtHookStart = null;
  /** What each describe block's beforeAll hooks reached: mutant id → times. */
  #reachedByHooks = new Map();

  async handleTestEvent(event) {
    this.#creditHookCoverage(event);
    if (event.name === 'test_done' && event.test.errors.length > 0) globalThis[A_TEST_FAILED] = true;
    if (!globalThis[A_TEST_FAILED]) return;
    // Skipped describe blocks skip their beforeAll hooks too (most of them build an add-on).
    if (event.name === 'run_describe_start') event.describeBlock.mode = 'skip';
    if (event.name === 'test_start') event.test.mode = 'skip';
  }

  /** Stryker's coverage of this run, once the instrumented code has counted anything. */
  get #coverage() {
    return this.global.__stryker__?.mutantCoverage;
  }

  #creditHookCoverage(event) {
    const beforeAll = event.hook?.type === 'beforeAll';
    if (event.name === 'hook_start' && beforeAll) {
      this.#staticAtHookStart = { ...this.#coverage?.static };
    } else if ((event.name === 'hook_success' || event.name === 'hook_failure') && beforeAll) {
      this.#takeFromStatic(event.hook.parent);
    } else if (event.name === 'test_start') {
      this.#creditTest(event.test);
    }
  }

  /** Moves what the hook of `block` reached from the static counts to the block. */
  #takeFromStatic(block) {
    const before = this.#staticAtHookStart ?? {};
    this.#staticAtHookStart = null;
    const coverage = this.#coverage;
    if (!coverage) return;
    const reached = this.#reachedByHooks.get(block) ?? {};
    for (const [mutant, count] of Object.entries(coverage.static)) {
      const during = count - (before[mutant] ?? 0);
      if (during <= 0) continue;
      reached[mutant] = (reached[mutant] ?? 0) + during;
      if (before[mutant]) coverage.static[mutant] = before[mutant];
      else delete coverage.static[mutant];
    }
    this.#reachedByHooks.set(block, reached);
  }

  /** Counts what the beforeAll hooks of the test's blocks reached under the test. */
  #creditTest(test) {
    const coverage = this.#coverage;
    if (!coverage) return;
    const id = `${fullNameOf(test.parent)} ${test.name}`.trimStart();
    for (let block = test.parent; block; block = block.parent) {
      const reached = this.#reachedByHooks.get(block);
      if (!reached) continue;
      const credited = (coverage.perTest[id] ??= {});
      for (const [mutant, count] of Object.entries(reached))
        credited[mutant] = (credited[mutant] ?? 0) + count;
    }
  }
}

module.exports = MutationTestEnvironment;
