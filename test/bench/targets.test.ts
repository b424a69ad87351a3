/**
 * The bench's own logic: the lower bounds it compares runs with and the targets it gates on, over
 * made-up results (the bench itself runs with `npm run bench`, not here).
 */
import type { BenchResults, Measurement } from '../../dev/bench/measurement';
import { checkTargets, lowerBoundFetchMs, lowerBoundOf, pagesOf, TARGETS } from '../../dev/bench/targets';

const CONFIG = { latencyMs: 100, batchSize: 10, seed: 1, users: 50, sizes: [1_000, 100_000], timedRuns: 3 };

function measurement(
  overrides: Partial<Measurement> & Pick<Measurement, 'scenario' | 'implementation'>,
): Measurement {
  return {
    records: 1_000,
    requestsByMethod: {},
    expectedUserRequests: null,
    spreadsheetCalls: 0,
    valueWrites: 0,
    fetchMs: null,
    runMs: 1,
    peakRssGrowthMb: null,
    peakRssMb: 100,
    ...overrides,
  };
}

const addOnImport = (records: number, listRequests: number, fetchMs: number) =>
  measurement({
    scenario: 'full import',
    implementation: 'add-on',
    records,
    requestsByMethod: { 'completedtrainings.list': listRequests, 'users.info': 53 },
    expectedUserRequests: 53,
    spreadsheetCalls: 80,
    fetchMs,
    peakRssGrowthMb: 200,
  });

/** Results in which every target holds. */
function passingResults(): BenchResults {
  return {
    config: CONFIG,
    measurements: [
      addOnImport(1_000, 1, 110),
      addOnImport(100_000, 220, 1_600),
      measurement({
        scenario: 'full import',
        implementation: 'sequential',
        records: 100_000,
        fetchMs: 10_000,
      }),
      measurement({
        scenario: 'full import',
        implementation: 'naive',
        records: 1_000,
        requestsByMethod: { 'completedtrainings.list': 10, 'users.info': 53 },
        spreadsheetCalls: 10_000,
      }),
      measurement({
        scenario: 'incremental refresh',
        implementation: 'add-on',
        requestsByMethod: { 'completedtrainings.list': 1 },
        expectedUserRequests: 0,
      }),
      measurement({ scenario: 'custom function, recalculated', implementation: 'add-on' }),
      measurement({ scenario: 'training status', implementation: 'add-on', spreadsheetCalls: 40 }),
      measurement({
        scenario: 'training status',
        implementation: 'add-on',
        records: 100_000,
        spreadsheetCalls: 40,
      }),
    ],
    build: { codeBytes: 200_000, coldLoadMs: 20, warmLoadMs: 2 },
  };
}

describe('lower bounds', () => {
  test('a full listing needs one request per page of 1,000, and at least one', () => {
    expect([0, 1, 1_000, 1_001, 100_000].map(pagesOf)).toEqual([1, 1, 1, 2, 100]);
  });

  test('an exact read costs one latency for one page; else, twice, one for page 1 and one per batch of the rest', () => {
    expect(lowerBoundFetchMs(1_000, 100, 10)).toBe(100);
    expect(lowerBoundFetchMs(11_000, 100, 10)).toBe(400);
    expect(lowerBoundFetchMs(12_000, 100, 10)).toBe(600);
    expect(lowerBoundFetchMs(100_000, 100, 10)).toBe(2_200);
    expect(lowerBoundFetchMs(100_000, 100, 1)).toBe(20_000);
  });

  test('a refresh or an equipment import needs one request; a recalculated formula none', () => {
    const of = (scenario: Measurement['scenario'], records = 100_000) =>
      lowerBoundOf(measurement({ scenario, implementation: 'add-on', records }), CONFIG);
    // Each round after page 1 also asks again for the page before it: 100 pages, 10 rounds, twice.
    expect(of('full import')).toEqual({ requests: 220, fetchMs: 2_200 });
    expect(of('custom function, cold', 10_000)).toEqual({ requests: 22, fetchMs: 400 });
    expect(of('incremental refresh')).toEqual({ requests: 1, fetchMs: 100 });
    expect(of('equipment import', 300)).toEqual({ requests: 1, fetchMs: 100 });
    expect(of('custom function, recalculated')).toBeNull();
    expect(of('training status')).toBeNull();
  });
});

describe('targets', () => {
  const missed = (results: BenchResults) =>
    checkTargets(results)
      .filter((check) => !check.holds)
      .map((check) => check.target);

  test('hold for results that meet every one', () => {
    expect(missed(passingResults())).toEqual([]);
  });

  test('count requests exactly: one more list or users.info request is a miss', () => {
    const results = passingResults();
    results.measurements[1]!.requestsByMethod['completedtrainings.list'] = 221;
    results.measurements[0]!.requestsByMethod['users.info'] = 54;
    expect(missed(results)).toEqual([
      'Full import of 1,000: users.info requests, one per uncached user id',
      'Full import of 100,000: completedtrainings.list requests (read and confirmed)',
    ]);
  });

  test('compare the fetch phase with the sequential reference and with the lower bound', () => {
    const results = passingResults();
    // 10,000 / 3,400 < 3, and 3,400 > 1.5 × 2,200.
    results.measurements[1]!.fetchMs = 3_400;
    expect(missed(results)).toEqual([
      'Full import of 100,000: fetch phase, sequential reference ÷ add-on',
      'Full import of 100,000: fetch phase ÷ lower bound (batch size 10)',
    ]);
    results.measurements[1]!.fetchMs = TARGETS.fetchOverLowerBound * 2_200;
    expect(missed(results)).toEqual([]);
  });

  test('compare round trips with the naive reference at its largest size', () => {
    const results = passingResults();
    // The naive reference: 63 requests + 10,000 calls; the add-on: 54 requests + 200 calls.
    results.measurements[0]!.spreadsheetCalls = 200;
    const check = checkTargets(results).find((c) => c.target.includes('naive reference'))!;
    expect(check).toMatchObject({ holds: false, measured: '39.6×', required: '≥ 50.0×' });
  });

  test('want the same Spreadsheet calls at the smallest and the largest import', () => {
    const results = passingResults();
    results.measurements[1]!.spreadsheetCalls = 81;
    expect(missed(results)).toEqual(['Full import: Spreadsheet calls at 100,000 = at 1,000']);
  });

  test('want the training tabs at no request, and the same Spreadsheet calls at the smallest and the largest import', () => {
    const results = passingResults();
    const [, large] = results.measurements.filter((m) => m.scenario === 'training status');
    large!.spreadsheetCalls = 41;
    large!.requestsByMethod = { 'completedtrainings.list': 1 };
    expect(missed(results)).toEqual([
      'Show training status: Spreadsheet calls at 100,000 = at 1,000',
      'Show training status at 100,000: requests',
    ]);
  });

  test('miss a target whose case did not run', () => {
    const results = passingResults();
    results.measurements = results.measurements.filter((m) => m.scenario !== 'incremental refresh');
    const checks = checkTargets(results).filter((check) => check.target.startsWith('Incremental refresh'));
    expect(checks.map((check) => [check.measured, check.holds])).toEqual([
      ['not measured', false],
      ['not measured', false],
    ]);
  });

  test('limit the bundle and the memory of the largest import', () => {
    const results = passingResults();
    results.build = { codeBytes: TARGETS.codeBytes, coldLoadMs: 150, warmLoadMs: 2 };
    results.measurements[1]!.peakRssGrowthMb = 320;
    expect(missed(results)).toEqual([
      'dist/Code.js size',
      'dist/Code.js load in a new context of a new process',
      'Full import of 100,000: peak memory growth (RSS)',
    ]);
  });
});
