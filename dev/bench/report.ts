/**
 * The bench's output: markdown tables for the terminal and for docs/performance.md (written between
 * its two marker comments), and the JSON record kept in bench/results.json so that two commits can be
 * compared number by number.
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
import { googleChecksum, googleEstimate, googleLowerBoundMs } from './google';
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
const IMPLEMENTATION_ORDER: readonly Implementation[] = [
  'add-on',
  'expert',
  'competent',
  'sequential',
  'naive',
];

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
      seconds(m.cpuMs),
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
      'CPU',
      'Peak memory (growth)',
      'Lower bound (requests · fetch)',
      'Fetch ÷ bound',
      'Sequential ÷ this (fetch · round trips)',
      'Naive ÷ this (fetch · round trips)',
    ],
    rows,
  );
}

/** reference ÷ this, in estimated Google seconds (central figures). */
function googleAgainstReference(
  results: BenchResults,
  measurement: Measurement,
  reference: Implementation,
): string {
  if (measurement.implementation === reference || measurement.scenario !== 'full import') return DASH;
  const other = findMeasurement(results.measurements, 'full import', reference, measurement.records);
  if (!other) return DASH;
  const central = (m: Measurement) => googleEstimate(m, results.config.figures).central.total;
  return times(central(other) / central(measurement));
}

/** Every case as the cost model prices it: where Google's time goes, and against the lower bound. */
export function googleTable(results: BenchResults): string {
  const { config } = results;
  const rows = inReadingOrder(results.measurements).map((m) => {
    const estimate = googleEstimate(m, config.figures);
    const { fetchRounds, cellWrites, commits, otherCalls, total } = estimate.central;
    const bound = m.scenario === 'full import' ? googleLowerBoundMs(m, config, config.figures.central) : null;
    return [
      caseName(m),
      count(m.records),
      count(m.google.commits),
      count(m.google.fetchRounds.length),
      `${seconds(total)} (${seconds(estimate.lowMs)}–${seconds(estimate.highMs)})`,
      [fetchRounds, cellWrites, commits, otherCalls].map(seconds).join(' · '),
      orDash(bound, seconds),
      orDash(bound, (value) => times(total / value)),
      googleAgainstReference(results, m, 'expert'),
      googleAgainstReference(results, m, 'competent'),
      googleAgainstReference(results, m, 'sequential'),
      googleAgainstReference(results, m, 'naive'),
    ];
  });
  return table(
    [
      'Case',
      'Records',
      'Commits',
      'Fetch rounds',
      'On Google, estimated (low–high)',
      'Fetch rounds · cell writes · commits · other calls',
      "Model's lower bound",
      '÷ bound',
      'Expert ÷ this',
      'Competent ÷ this',
      'Sequential ÷ this',
      'Naive ÷ this',
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
      "Fetch phase: first listing request sent → last answer received, on this machine's clock. " +
      "CPU: this process's CPU time during the run (the script's own work and the emulator's), which the Google figures below leave out. " +
      'Peak memory: growth of the ' +
      "process's peak resident set during the run. Round trips: HTTP requests + Spreadsheet calls. " +
      'Lower bound: the requests and rounds of an exact read (every page read, then read again to confirm it; page 1 of the first pass alone, the confirming pass with page 1 and the pages after it; each later round asks again for the page before it), latency × its rounds, one value write per table. ' +
      `The largest full imports of the add-on and the sequential reference ran ${config.timedRuns} times each; the run with the median fetch phase is shown (the other cases ran once). ` +
      "This table's times and ratios measure this machine (loopback HTTP, the emulator): reported, not targets.",
    '',
    `On Google's side, as the emulator's cost model prices what each run did (${
      config.calibration ? `figures measured on Google, ${config.calibration}` : 'published figures'
    }; see "What a run costs on Google" above): central figures, with the low and high ones in brackets. ` +
      `Fetch rounds: a fetch or a fetchAll each, priced as the service's latency (${config.latencyMs} ms) and Google's round trip ` +
      'for every 10 requests (Google runs 10 at a time), the bytes of its largest request, and the batch overhead. Other calls: cell reads, Spreadsheet calls, cache and properties. ' +
      "The emulator's clock is virtual (it moves by these prices only), so these figures are the same on any machine: " +
      `their checksum is ${googleChecksum(results.measurements)}. ` +
      "Model's lower bound (full imports): an exact read's rounds, the users' names within the confirming pass (in a round of their own after a single page), " +
      'the table written the cheaper way (setValues, or the Sheets API in requests under 2 MB), one commit. ' +
      'The reference scripts (dev/bench/) do the same import: expert, page 1 and then the other pages and the ' +
      "users' names in fetchAll batches of at most 100, the table written through the Sheets API in requests under 2 MB; " +
      'competent, the same read and the table in one setValues; sequential, pages of 1,000 and each name fetched one ' +
      'after another, one setValues; naive, pages of 100 one after another and an appendRow per record. ' +
      'The add-on is reported against the expert and competent ones, the sequential and naive ones are context, and none is a target. ' +
      'They run to their end even where Google would stop them at 6 minutes.',
    '',
    googleTable(results),
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

/** The comments around the tables in docs/performance.md: the bench rewrites what lies between them. */
export const TABLES_START = '<!-- bench:start (written by npm run bench; do not edit by hand) -->';
export const TABLES_END = '<!-- bench:end -->';

/**
 * The document with what lies between its two markers replaced by the tables; the rest, the markers
 * included, stays as it was. Refuses a document without exactly one of each, in order, rather than
 * guess where the tables go.
 */
export function withTables(document: string, tables: string): string {
  const start = document.indexOf(TABLES_START);
  const end = document.indexOf(TABLES_END);
  const once = (marker: string, at: number) => at !== -1 && document.indexOf(marker, at + 1) === -1;
  if (!once(TABLES_START, start) || !once(TABLES_END, end) || end < start) {
    throw new Error(
      `Put the bench's two markers, once each and in this order, around the tables: ${TABLES_START} and ${TABLES_END}.`,
    );
  }
  return `${document.slice(0, start + TABLES_START.length)}\n\n${tables}\n\n${document.slice(end)}`;
}
