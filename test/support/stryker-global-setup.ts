/**
 * jest's global setup under `npm run mutate` (stryker.config.mjs), in place of global-setup.ts.
 * Stryker calls jest once per mutant, in the same process, and jest runs its global setup each time:
 * building dist/ and starting a sample service per mutant would cost more than most mutants' tests.
 * Stryker's buildCommand has already built dist/ from the mutated sources (every mutant is in that
 * one bundle, chosen at run time), so this only starts the sample service, once per Stryker test
 * process, and leaves it running: it stops by itself when that process ends (its stdin closes).
 * Each run starts with no test failed yet (see stryker-test-environment.js).
 */
import { type SampleServiceProcess, startSampleServiceProcess } from '../../dev/sample-service/process';

const RUNNING_SERVICE = Symbol.for('safety-sync.stryker.sample-service');
const A_TEST_FAILED = Symbol.for('safety-sync.stryker.a-test-failed');
type ProcessSlots = { [RUNNING_SERVICE]?: Promise<SampleServiceProcess>; [A_TEST_FAILED]?: boolean };

export default async function strykerGlobalSetup(): Promise<void> {
  const slot = globalThis as ProcessSlots;
  slot[A_TEST_FAILED] = false;
  const service = await (slot[RUNNING_SERVICE] ??= startSampleServiceProcess());
  process.env['SAMPLE_SERVICE_URL'] = service.url;
}
