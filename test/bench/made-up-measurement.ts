/**
 * A run's measurement made up for the bench's own tests: a full import of 1,000 by the add-on that
 * did nothing on Google's side and took a millisecond here, with whatever `overrides` say.
 */
import type { Measurement } from '../../dev/bench/measurement';
import { noQuantities } from '../../dev/emulator/runtime/cost-model';

export function madeUpMeasurement(overrides: Partial<Measurement> = {}): Measurement {
  return {
    scenario: 'full import',
    implementation: 'add-on',
    records: 1_000,
    requestsByMethod: {},
    expectedUserRequests: null,
    spreadsheetCalls: 0,
    valueWrites: 0,
    fetchMs: null,
    runMs: 1,
    cpuMs: 1,
    peakRssGrowthMb: null,
    peakRssMb: 100,
    google: noQuantities(),
    ...overrides,
  };
}
