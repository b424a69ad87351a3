/**
 * The lower bounds a run is compared with, and the targets `npm run bench` gates on: the add-on's own
 * counts and commits, and its seconds on Google's side as the emulator's cost model prices them. This
 * machine's wall-clock ratios are reported beside them but gate nothing: they measure our loopback and
 * emulator, and vary by a tenth on a shared machine. Nor do the reference scripts: the report sets
 * the add-on against them, as context for these targets. Pure functions of the results, so that they
 * are tested without running anything.
 */
import { readCost } from '../../src/api/completion-rounds';
import { COMPLETIONS_METHOD, MAX_PAGE_SIZE } from '../../src/api/completions-contract';
import { USERS_METHOD } from '../../src/api/users';
import { googleEstimate, googleLowerBoundMs } from './google';
import {
  type BenchConfig,
  type BenchResults,
  type Implementation,
  type Measurement,
  requestsOf,
  type Scenario,
} from './measurement';
import { count, kilobytes, megabytes, milliseconds, seconds, times } from './format';

export const TARGETS = {
  /** Estimated seconds on Google (central figures) of the largest full import, at most. */
  googleFullImportMs: 25_000,
  /** The largest full import's estimate ÷ the model's lower bound for it, at most. */
  googleOverLowerBound: 1.3,
  /** Commits in a full import, whatever its size, at most. */
  commitsPerFullImport: 3,
  codeBytes: 250_000,
  coldLoadMs: 100,
  /** Peak memory growth of the largest import, in MB. */
  peakMemoryMb: 300,
} as const;

/** Pages of the largest size the service allows: a full listing needs at least one request per page. */
export function pagesOf(records: number): number {
  return Math.max(1, Math.ceil(records / MAX_PAGE_SIZE));
}

/**
 * The least time an exact read of every page can take: its rounds (page 1, then `batchSize` pages
 * at a time, and all of it again to confirm), each costing one latency and nothing else.
 */
export function lowerBoundFetchMs(records: number, latencyMs: number, batchSize: number): number {
  return latencyMs * readCost(pagesOf(records), batchSize).rounds;
}

export interface LowerBound {
  /** Requests of the listing method. */
  requests: number;
  fetchMs: number;
}

/** What the case could cost at best; null when it needs no request at all. */
export function lowerBoundOf(measurement: Measurement, config: BenchConfig): LowerBound | null {
  switch (measurement.scenario) {
    case 'full import':
    case 'custom function, cold':
      return {
        requests: readCost(pagesOf(measurement.records), config.batchSize).requests,
        fetchMs: lowerBoundFetchMs(measurement.records, config.latencyMs, config.batchSize),
      };
    // New records come first, so one page holds them; equipment types come in one answer.
    case 'incremental refresh':
    case 'equipment import':
      return { requests: 1, fetchMs: config.latencyMs };
    case 'custom function, recalculated':
    case 'training status':
      return null;
  }
}

export interface TargetCheck {
  target: string;
  required: string;
  measured: string;
  /** How far from the limit: a share of the maximum, or how far an exact count is off. */
  margin: string;
  holds: boolean;
}

export function findMeasurement(
  measurements: readonly Measurement[],
  scenario: Scenario,
  implementation: Implementation,
  records?: number,
): Measurement | undefined {
  return measurements.find(
    (m) =>
      m.scenario === scenario &&
      m.implementation === implementation &&
      (records === undefined || m.records === records),
  );
}

/** A target whose case did not run is missed. */
function notMeasured(target: string, required: string): TargetCheck {
  return { target, required, measured: 'not measured', margin: '', holds: false };
}

function check(
  target: string,
  required: string,
  measured: number | null | undefined,
  format: (value: number) => string,
  judge: (value: number) => { holds: boolean; margin: string },
): TargetCheck {
  if (measured === null || measured === undefined) return notMeasured(target, required);
  return { target, required, measured: format(measured), ...judge(measured) };
}

function exactly(target: string, measured: number | undefined, expected: number): TargetCheck {
  return check(target, `exactly ${count(expected)}`, measured, count, (value) => ({
    holds: value === expected,
    margin: value === expected ? 'exact' : `off by ${count(value - expected)}`,
  }));
}

function below(
  target: string,
  measured: number | null | undefined,
  limit: number,
  format: (value: number) => string,
): TargetCheck {
  return check(target, `< ${format(limit)}`, measured, format, (value) => ({
    holds: value < limit,
    margin: `${Math.round((value / limit) * 100)}% of the limit`,
  }));
}

function atMost(
  target: string,
  measured: number | undefined,
  limit: number,
  format: (value: number) => string,
): TargetCheck {
  return check(target, `≤ ${format(limit)}`, measured, format, (value) => ({
    holds: value <= limit,
    margin: `${Math.round((value / limit) * 100)}% of the limit`,
  }));
}

/** Both present and the divisor positive, or undefined. */
function quotient(
  dividend: number | null | undefined,
  divisor: number | null | undefined,
): number | undefined {
  return dividend != null && divisor ? dividend / divisor : undefined;
}

export function checkTargets({ config, measurements, build }: BenchResults): TargetCheck[] {
  const addOn = (scenario: Scenario, records?: number) =>
    findMeasurement(measurements, scenario, 'add-on', records);
  const largest = Math.max(...config.sizes);
  const smallest = Math.min(...config.sizes);
  const checks: TargetCheck[] = [];

  for (const records of config.sizes) {
    const run = addOn('full import', records);
    const name = `Full import of ${count(records)}`;
    checks.push(
      exactly(
        `${name}: ${COMPLETIONS_METHOD} requests (read and confirmed)`,
        run && requestsOf(run, COMPLETIONS_METHOD),
        readCost(pagesOf(records), config.batchSize).requests,
      ),
    );
    checks.push(userRequests(`${name}: ${USERS_METHOD} requests, one per uncached user id`, run));
  }
  const refresh = addOn('incremental refresh');
  checks.push(
    exactly(
      `Incremental refresh: ${COMPLETIONS_METHOD} requests`,
      refresh && requestsOf(refresh, COMPLETIONS_METHOD),
      1,
    ),
  );
  checks.push(
    userRequests(`Incremental refresh: ${USERS_METHOD} requests, one per uncached user id`, refresh),
  );
  const recalculated = addOn('custom function, recalculated');
  checks.push(
    exactly('SAFETY_COMPLETIONS recalculated: requests', recalculated && requestsOf(recalculated), 0),
  );

  const small = addOn('full import', smallest);
  const large = addOn('full import', largest);
  const callsTarget = `Full import: Spreadsheet calls at ${count(largest)} = at ${count(smallest)}`;
  checks.push(
    small
      ? exactly(callsTarget, large?.spreadsheetCalls, small.spreadsheetCalls)
      : notMeasured(callsTarget, 'the same count'),
  );

  const smallStatus = addOn('training status', smallest);
  const largeStatus = addOn('training status', largest);
  const statusTarget = `Show training status: Spreadsheet calls at ${count(largest)} = at ${count(smallest)}`;
  checks.push(
    smallStatus
      ? exactly(statusTarget, largeStatus?.spreadsheetCalls, smallStatus.spreadsheetCalls)
      : notMeasured(statusTarget, 'the same count'),
  );
  checks.push(
    exactly(`Show training status at ${count(largest)}: requests`, largeStatus && requestsOf(largeStatus), 0),
  );

  for (const records of config.sizes) {
    checks.push(
      atMost(
        `Full import of ${count(records)}: commits`,
        addOn('full import', records)?.google.commits,
        TARGETS.commitsPerFullImport,
        count,
      ),
    );
  }
  const estimated = (measurement: Measurement | undefined) =>
    measurement && googleEstimate(measurement, config.figures).central.total;
  checks.push(
    atMost(
      `Full import of ${count(largest)}: estimated on Google (central figures)`,
      estimated(large),
      TARGETS.googleFullImportMs,
      seconds,
    ),
  );
  checks.push(
    atMost(
      `Full import of ${count(largest)}: estimated on Google ÷ the model's lower bound`,
      large && quotient(estimated(large), googleLowerBoundMs(large, config, config.figures.central)),
      TARGETS.googleOverLowerBound,
      times,
    ),
  );
  checks.push(below('dist/Code.js size', build.codeBytes, TARGETS.codeBytes, kilobytes));
  checks.push(
    below(
      'dist/Code.js load in a new context of a new process',
      build.coldLoadMs,
      TARGETS.coldLoadMs,
      milliseconds,
    ),
  );
  checks.push(
    below(
      `Full import of ${count(largest)}: peak memory growth (RSS)`,
      large?.peakRssGrowthMb,
      TARGETS.peakMemoryMb,
      megabytes,
    ),
  );
  return checks;
}

function userRequests(target: string, run: Measurement | undefined): TargetCheck {
  if (!run || run.expectedUserRequests === null) return notMeasured(target, 'one per uncached user id');
  return exactly(target, requestsOf(run, USERS_METHOD), run.expectedUserRequests);
}
