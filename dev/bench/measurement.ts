import type { CostFigures, CostQuantities, Preset } from '../emulator/runtime/cost-model';

/**
 * What one benchmark case measured, as the runner's child processes send it back and as
 * bench/results.json keeps it. Plain data, so that results of two commits can be compared.
 */

/**
 * Who did the import: the add-on, or one of the reference scripts in dev/bench/. The add-on is
 * reported against the expert and competent ones; the sequential and naive ones are context.
 */
export type Implementation = 'add-on' | 'expert' | 'competent' | 'sequential' | 'naive';

export type Scenario =
  | 'full import'
  | 'incremental refresh'
  | 'equipment import'
  | 'custom function, cold'
  | 'custom function, recalculated'
  /** Safety Sync → Show training status on the imported tab: the three training tabs, no request. */
  | 'training status';

export interface Measurement {
  scenario: Scenario;
  implementation: Implementation;
  /** Completions (or equipment types) in the service when the case ran. */
  records: number;
  /** HTTP requests by API method ('completedtrainings.list', 'users.info', …). */
  requestsByMethod: Record<string, number>;
  /**
   * users.info requests the case should send: one per distinct user or instructor id that is not
   * already cached (the bench knows the data, so it knows them).
   */
  expectedUserRequests: number | null;
  /**
   * Calls to the Spreadsheet service (every one a round trip to the Sheets backend on Google), progress
   * toasts aside (see measure.ts).
   */
  spreadsheetCalls: number;
  /** The calls among them that write cell values (setValues, setValue, appendRow, …). */
  valueWrites: number;
  /**
   * From sending the first request of the listing method to the script getting the answer to the
   * last one, on this machine's clock (loopback HTTP and the sample service's latency); null when it
   * sent none.
   */
  fetchMs: number | null;
  /** The whole run: every execution it took, as the user waits for it. */
  runMs: number;
  /**
   * This process's CPU time during the run: the script's own work (decoding, planning, building the
   * rows) and the emulator's. On this machine, so reported beside the Google figures and never in
   * them, the checksum or the targets, until a calibration gives a cost per record.
   */
  cpuMs: number;
  /** How much the process's peak resident set grew during the run; null when not measured alone. */
  peakRssGrowthMb: number | null;
  /** The process's peak resident set at the end of the run (Node, tsx and the emulator included). */
  peakRssMb: number;
  /** What the run did that costs time on Google's side (calls, cells, commits, fetch rounds). */
  google: CostQuantities;
}

export interface BuildMeasurement {
  codeBytes: number;
  /** Compiling and running dist/Code.js in a new context of a new process: no code cache at all. */
  coldLoadMs: number;
  /** The median of further loads in new contexts of the same process (V8 may reuse compiled code). */
  warmLoadMs: number;
}

export interface BenchConfig {
  /** Added by the sample service to every API request. */
  latencyMs: number;
  /** The add-on's "pages at once" setting. */
  batchSize: number;
  seed: number;
  users: number;
  sizes: readonly number[];
  /**
   * The cost model's figures: the emulator charges the central ones on its clock, the report prices
   * every run with all three.
   */
  figures: Record<Preset, CostFigures>;
  /** The calibration file whose measurements replaced the published figures, or null. */
  calibration: string | null;
  /**
   * How many times the add-on's and the sequential reference's largest full imports run, each in a
   * fresh process (this machine's timings vary); the run with the median fetch phase counts.
   */
  timedRuns: number;
}

export interface BenchResults {
  config: BenchConfig;
  measurements: Measurement[];
  build: BuildMeasurement;
}

export function requestsOf(measurement: Measurement, method?: string): number {
  if (method !== undefined) return measurement.requestsByMethod[method] ?? 0;
  return Object.values(measurement.requestsByMethod).reduce((sum, count) => sum + count, 0);
}

/** The round trips a run costs on Google's side: HTTP requests plus Spreadsheet service calls. */
export function roundTrips(measurement: Measurement): number {
  return requestsOf(measurement) + measurement.spreadsheetCalls;
}
