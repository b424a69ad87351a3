/**
 * Measuring one run in the emulator without instrumenting the script: its HTTP requests and their
 * times come from the emulator's UrlFetch log, its Spreadsheet calls from the service call counter,
 * what it costs on Google's side from the cost model's quantities, its CPU time from this process's
 * (the script's own work, which the virtual clock does not price), its memory from the kernel's
 * record of this process's peak resident set.
 */
import type { Emulator, RecordedRequest } from '../emulator';
import { spreadsheetServiceCalls } from '../emulator/spreadsheet';
import type { Implementation, Measurement, Scenario } from './measurement';

/** Spreadsheet calls that write cell values: what "one write per table" counts. */
const VALUE_WRITES = new Set([
  'Range.setValue',
  'Range.setValues',
  'Range.setFormula',
  'Range.setFormulas',
  'Range.setRichTextValue',
  'Range.setRichTextValues',
  'Range.setFormulaR1C1',
  'Range.setFormulasR1C1',
  'RangeList.setValue',
  'RangeList.setFormulaR1C1',
  'Sheet.appendRow',
]);

/** The API method a request called: the last segment of its path (…/v1/users.info). */
function apiMethodOf(request: RecordedRequest): string {
  return new URL(request.url).pathname.split('/').pop() ?? '';
}

export function requestsByMethod(requests: readonly RecordedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of requests) {
    const method = apiMethodOf(request);
    counts[method] = (counts[method] ?? 0) + 1;
  }
  return counts;
}

/**
 * From sending the first request of `method` to the script getting the answer to the last one, on
 * this machine's clock (Google's modelled time is priced apart, from the cost model's quantities).
 * Whatever the script does in between (decoding, validating, the next batch's preparation) counts:
 * it delays the next request just as the network does.
 */
export function fetchPhaseMs(requests: readonly RecordedRequest[], method: string): number | null {
  const ofMethod = requests.filter((request) => apiMethodOf(request) === method);
  if (ofMethod.length === 0) return null;
  const answered = ofMethod.map((request) => {
    if (request.answeredAtRealMs === undefined) throw new Error(`A ${method} request got no answer.`);
    return request.answeredAtRealMs;
  });
  return Math.max(...answered) - Math.min(...ofMethod.map((request) => request.sentAtRealMs));
}

/**
 * The most memory this process has held so far, in MB. getrusage's maxrss is kept by the kernel, so
 * it needs no sampling (none could run anyway: the script blocks this thread while it runs), and it
 * counts everything the import made the process hold: the script's heap, the emulated spreadsheet,
 * the HTTP buffers, and garbage not yet collected.
 */
export function peakRssMb(): number {
  return (process.resourceUsage().maxRSS * 1024) / 1e6;
}

export interface RunDescription {
  scenario: Scenario;
  implementation: Implementation;
  records: number;
  /** The API method whose requests make the fetch phase. */
  fetchMethod: string;
  expectedUserRequests: number | null;
  /**
   * Whether this is the first run of its process, so that the growth of the peak resident set is
   * this run's alone (the peak only ever rises).
   */
  firstInProcess: boolean;
}

const roundToTenth = (value: number) => Math.round(value * 10) / 10;

function sumOf(callCounts: ReadonlyArray<[string, number]>): number {
  return callCounts.reduce((sum, [, calls]) => sum + calls, 0);
}

/**
 * A run's progress message: one every few seconds of the run however many records it holds, so it
 * says how long a run takes, not how its calls grow with the data; left out of the call counts.
 */
const PROGRESS_TOAST = 'Spreadsheet.toast';

/** Runs `run` (one or more executions) with the emulator's logs and counts cleared first. */
export function measureRun(emulator: Emulator, description: RunDescription, run: () => void): Measurement {
  const { fetchMethod, firstInProcess, ...identity } = description;
  emulator.counter.reset();
  emulator.costs.reset();
  emulator.urlFetch.requests.length = 0;
  const peakBefore = peakRssMb();
  const startedMs = performance.now();
  const cpuBefore = process.cpuUsage();
  run();
  const cpu = process.cpuUsage(cpuBefore);
  const runMs = performance.now() - startedMs;
  const peakAfter = peakRssMb();
  const counts = emulator.counter.snapshot();
  const callCounts = Object.entries(counts);
  return {
    ...identity,
    requestsByMethod: requestsByMethod(emulator.urlFetch.requests),
    spreadsheetCalls: sumOf(
      Object.entries(spreadsheetServiceCalls(counts)).filter(([call]) => call !== PROGRESS_TOAST),
    ),
    valueWrites: sumOf(callCounts.filter(([call]) => VALUE_WRITES.has(call))),
    fetchMs: fetchPhaseMs(emulator.urlFetch.requests, fetchMethod),
    runMs: Math.round(runMs),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    peakRssGrowthMb: firstInProcess ? roundToTenth(peakAfter - peakBefore) : null,
    peakRssMb: roundToTenth(peakAfter),
    google: emulator.costs.quantities(),
  };
}
