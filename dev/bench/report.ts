/**
 * The bench's output: markdown tables for the terminal and the README, and the JSON record kept in
 * bench/results.json so that two commits can be compared number by number.
 */
import { USERS_METHOD } from '../../src/api/users';
import {
  type BenchResults,
  type Implementation,
  type Measurement,
  requestsOf,
  roundTrips,
  type Scenario,
} from './measurement';
import { count, DASH, kilobytes, megabytes, milliseconds, seconds, times } from './format';
import { findMeasurement, lowerBoundOf, type TargetCheck } from './targets';

export interface Environment {
  commit: string;
  node: string;
  cpu: string;
}

const orDash = <T>(value: T | null, format: (value: T) => string) => (value === null ? DASH : format(value));

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function caseName(measurement: Measurement): string {
  const who = measurement.implementation === 'add-on' ? 'add-on' : `${measurement.implementation} reference`;
  return `${measurement.scenario[0]!.toUpperCase()}${measurement.scenario.slice(1)}, ${who}`;
}

/** reference ÷ this, for fetch time and for round trips: how many times faster and cheaper this run is. */
function againstReference(
  results: BenchResults,
  measurement: Measurement,
  reference: Implementation,
): string {
  if (measurement.implementation === reference || measurement.scenario !== 'full import') return DASH;
  const other = findMeasurement(results.measurements, 'full import', reference, measurement.records);
  if (!other) return DASH;
  const fetch = other.fetchMs !== null && measurement.fetchMs ? other.fetchMs / measurement.fetchMs : null;
  return `${orDash(fetch, times)} · ${times(roundTrips(other) / roundTrips(measurement))}`;
}

const SCENARIO_ORDER: readonly Scenario[] = [
  'full import',
  'incremental refresh',
  'equipment import',
  'custom function, cold',
  'custom function, recalculated',
  'training status',
];
const IMPLEMENTATION_ORDER: readonly Implementation[] = ['add-on', 'sequential', 'naive'];

/** Full imports by size, each add-on run next to its references; then the other cases. */
function inReadingOrder(measurements: readonly Measurement[]): Measurement[] {
  return [...measurements].sort(
    (a, b) =>
      SCENARIO_ORDER.indexOf(a.scenario) - SCENARIO_ORDER.indexOf(b.scenario) ||
      a.records - b.records ||
      IMPLEMENTATION_ORDER.indexOf(a.implementation) - IMPLEMENTATION_ORDER.indexOf(b.implementation),
  );
}

export function measurementsTable(results: BenchResults): string {
  const rows = inReadingOrder(results.measurements).map((m) => {
    const bound = lowerBoundOf(m, results.config);
    const users = requestsOf(m, USERS_METHOD);
    return [
      caseName(m),
      count(m.records),
      `${count(requestsOf(m) - users)} + ${count(users)}`,
      `${count(m.spreadsheetCalls)} (${count(m.valueWrites)})`,
      orDash(m.fetchMs, seconds),
      seconds(m.runMs),
      orDash(m.peakRssGrowthMb, megabytes),
      bound ? `${count(bound.requests)} · ${seconds(bound.fetchMs)}` : DASH,
      orDash(bound && m.fetchMs !== null ? m.fetchMs / bound.fetchMs : null, times),
      againstReference(results, m, 'sequential'),
      againstReference(results, m, 'naive'),
    ];
  });
  return table(
    [
      'Case',
      'Records',
      'Requests (list + users.info)',
      'Spreadsheet calls (value writes)',
      'Fetch phase',
      'Whole run',
      'Peak memory (growth)',
      'Lower bound (requests · fetch)',
      'Fetch ÷ bound',
      'Sequential ÷ this (fetch · round trips)',
      'Naive ÷ this (fetch · round trips)',
    ],
    rows,
  );
}

export function buildTable(results: BenchResults): string {
  const { codeBytes, coldLoadMs, warmLoadMs } = results.build;
  return table(
    ['dist/Code.js', 'Load, new process', 'Load, new context (median)'],
    [[kilobytes(codeBytes), milliseconds(coldLoadMs), milliseconds(warmLoadMs)]],
  );
}

export function targetsTable(checks: readonly TargetCheck[]): string {
  return table(
    ['Target', 'Required', 'Measured', 'Margin', 'Holds'],
    checks.map((check) => [
      check.target,
      check.required,
      check.measured,
      check.margin,
      check.holds ? 'yes' : '**NO**',
    ]),
  );
}

export function renderMarkdown(
  results: BenchResults,
  checks: readonly TargetCheck[],
  environment: Environment,
): string {
  const { config } = results;
  return [
    `Sample service latency ${config.latencyMs} ms per request, add-on batch size ${config.batchSize}, ` +
      `seed ${config.seed}, ${config.users} users; each case in a process of its own. ` +
      `Commit ${environment.commit}, Node ${environment.node}, ${environment.cpu}.`,
    '',
    measurementsTable(results),
    '',
    'Requests: the listing method (completedtrainings.list, or equipmenttypes.list) + users.info. ' +
      'Fetch phase: first listing request sent → last answer received. Peak memory: growth of the ' +
      "process's peak resident set during the run. Round trips: HTTP requests + Spreadsheet calls. " +
      'Lower bound: the requests and rounds of an exact read (every page read, then read again to confirm it; each round after page 1 asks again for the page before it), latency × its rounds, one value write per table. ' +
      `The largest full imports ran ${config.timedRuns} times each; the run with the median fetch phase is shown.`,
    '',
    buildTable(results),
    '',
    targetsTable(checks),
  ].join('\n');
}

export function renderJson(
  results: BenchResults,
  checks: readonly TargetCheck[],
  environment: Environment,
): string {
  const record = {
    generatedAt: new Date().toISOString(),
    ...environment,
    ...results,
    measurements: inReadingOrder(results.measurements),
    targets: checks,
  };
  return `${JSON.stringify(record, null, 2)}\n`;
}
