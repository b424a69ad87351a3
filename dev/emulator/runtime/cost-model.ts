/**
 * What a run costs on Google's side, where our loopback and in-memory spreadsheet cost almost nothing:
 * every service call, cell written or read, commit and UrlFetch round is priced from published
 * measurements and charged on the emulated clock that enforces the 6-minute and 30-second limits, so
 * that a run that would overrun on Google overruns here too. The same quantities are kept in a ledger
 * that the bench prices with the low, central and high figures.
 *
 * Every figure is in milliseconds, with its source and its published range. A calibration file made
 * on Google by dev/calibration (docs/performance.md, "Calibrating the cost model on Google") replaces the figures it measured.
 */
import * as fs from 'node:fs';

import { z } from 'zod';

export type Preset = 'low' | 'central' | 'high';

interface Figure {
  low: number;
  central: number;
  high: number;
}

/**
 * `Range.setValues` (and every 2D write of values or formulas), per cell: ~60 µs (40–80).
 * Tanaike, "Benchmark: Reading and Writing Spreadsheet using Google Apps Script" (2018): 1M cells ≈ 60 s.
 */
export const SET_VALUES_PER_CELL_MS: Figure = { low: 0.04, central: 0.06, high: 0.08 };

/**
 * `Range.setNumberFormats`, per cell. No published figure: taken as setValues' (40–80 µs) until the
 * calibration project measures it.
 */
export const SET_NUMBER_FORMATS_PER_CELL_MS: Figure = SET_VALUES_PER_CELL_MS;

/**
 * `Range.getValues` (and every 2D read), per cell. The same benchmark finds reads several times
 * cheaper than writes without giving a per-cell figure: 10 µs (5–20) is an estimate that the
 * calibration project measures.
 */
export const GET_VALUES_PER_CELL_MS: Figure = { low: 0.005, central: 0.01, high: 0.02 };

/**
 * Any other Spreadsheet service call (getRange, setNumberFormats, insertSheet…), on top of its cells.
 * Google's best-practices page (developers.google.com/apps-script/guides/support/best-practices):
 * 100 × 100 cells with one `offset` and one `setBackgroundColor` each took 70 s, flushing after every
 * row: 20,000 calls and 100 commits. Less the commits at COMMIT_MS (50 s at 0.5 s), 20 s for the
 * calls: 1 ms a call; 2 ms if a commit is 0.3 s, 0.5 ms if it is 0.6 s. Central 1 ms (0.5–2).
 */
export const SPREADSHEET_CALL_MS: Figure = { low: 0.5, central: 1, high: 2 };

/**
 * A call that sets one thing over a whole range (`setNumberFormat`, `setFontWeight`, `setNote`,
 * `setDataValidation`, `clearContent`, `clearDataValidations`), per cell, on top of the call. No
 * published figure: Sheets keeps such formats by range rather than by cell, so a tenth of setValues'
 * per-cell price, 6 µs (2–10), is an estimate the calibration project measures.
 */
export const RANGE_WIDE_PER_CELL_MS: Figure = { low: 0.002, central: 0.006, high: 0.01 };

/** `Sheet.appendRow`, its cells included: ~110 ms a row (Tanaike 2018, as above; range ±20% assumed). */
export const APPEND_ROW_MS: Figure = { low: 90, central: 110, high: 130 };

/**
 * A commit: buffered writes sent at a read after writes, a flush, or the end of the execution;
 * 0.3–0.8 s (Google's best-practices page: 70 s unbatched vs 1 s batched; interleaved
 * getValue/setValue ≈ 0.32 s a pair).
 */
export const COMMIT_MS: Figure = { low: 300, central: 500, high: 800 };

/**
 * The Sheets API (`spreadsheets.values.update` / `batchUpdate`) per cell: ~11 µs, and per request
 * 0.2–0.35 s (Tanaike 2018; "Benchmark: Importing CSV Data to Spreadsheet", 2019). 1M cells ≈ 12 s.
 * The Sheets advanced service (spreadsheet/api-sheets-advanced.ts) is charged with them.
 */
export const SHEETS_API_PER_CELL_MS: Figure = { low: 0.008, central: 0.011, high: 0.014 };
export const SHEETS_API_REQUEST_MS: Figure = { low: 200, central: 275, high: 350 };

/** The floor of one round trip from Apps Script: ~65 ms to the nearest region (Poehnelt 2024). */
export const FETCH_ROUND_TRIP_MS: Figure = { low: 50, central: 65, high: 100 };

/**
 * What a `fetchAll` batch adds to its slowest request: 0.2–0.5 s (Tanaike, "Benchmark: fetchAll method
 * in UrlFetch service", 2018: 5 × 5 s requests in 5.5 s; Poehnelt, "UrlFetchApp: The Unofficial
 * Documentation", 2025).
 */
export const FETCH_ALL_BATCH_MS: Figure = { low: 200, central: 350, high: 500 };

/**
 * How many requests of a `fetchAll` Google runs at once. Not documented: community reports observe
 * about 10–20 concurrent requests (MageSheet, "The Hidden Cost of UrlFetchApp: Quotas, Retries, and
 * Rate Limiting Patterns", 2026; Tanaike 2018 saw 5 run side by side). The model takes the stricter
 * end: a larger batch runs in waves of 10 (the emulator sends it so), each with its round trip.
 */
export const FETCH_ALL_CONCURRENT_REQUESTS = 10;

/**
 * Per KB of HTTP body (request and answer) of a round's largest request. No published figure: 0.02 ms
 * (0.01–0.05), i.e. 20–100 MB/s through Google's fetch proxy, is an estimate the calibration measures.
 */
export const HTTP_PER_KB_MS: Figure = { low: 0.01, central: 0.02, high: 0.05 };

/** CacheService: ~3 ms a read, ~93 ms a write (Peralta, ziritione.org; range ±30% assumed). */
export const CACHE_READ_MS: Figure = { low: 2, central: 3, high: 4 };
export const CACHE_WRITE_MS: Figure = { low: 65, central: 93, high: 120 };

/**
 * Per KB of the values a cache call stores or returns, on top of the call. No published figure:
 * 0.05 ms (0.02–0.1), i.e. 10–50 MB/s, is an estimate the calibration measures (a 100 KB value
 * against a small one).
 */
export const CACHE_PER_KB_MS: Figure = { low: 0.02, central: 0.05, high: 0.1 };

/** PropertiesService: ~30 ms a read, ~62 ms a write (Peralta, as above; range ±30% assumed). */
export const PROPERTIES_READ_MS: Figure = { low: 20, central: 30, high: 40 };
export const PROPERTIES_WRITE_MS: Figure = { low: 45, central: 62, high: 80 };

/** One price for each thing the model charges, in milliseconds. */
export interface CostFigures {
  setValuesPerCellMs: number;
  setNumberFormatsPerCellMs: number;
  getValuesPerCellMs: number;
  spreadsheetCallMs: number;
  rangeWidePerCellMs: number;
  appendRowMs: number;
  commitMs: number;
  sheetsApiPerCellMs: number;
  sheetsApiRequestMs: number;
  fetchRoundTripMs: number;
  fetchAllBatchMs: number;
  httpPerKbMs: number;
  cacheReadMs: number;
  cacheWriteMs: number;
  cachePerKbMs: number;
  propertiesReadMs: number;
  propertiesWriteMs: number;
}

const FIGURES: Record<keyof CostFigures, Figure> = {
  setValuesPerCellMs: SET_VALUES_PER_CELL_MS,
  setNumberFormatsPerCellMs: SET_NUMBER_FORMATS_PER_CELL_MS,
  getValuesPerCellMs: GET_VALUES_PER_CELL_MS,
  spreadsheetCallMs: SPREADSHEET_CALL_MS,
  rangeWidePerCellMs: RANGE_WIDE_PER_CELL_MS,
  appendRowMs: APPEND_ROW_MS,
  commitMs: COMMIT_MS,
  sheetsApiPerCellMs: SHEETS_API_PER_CELL_MS,
  sheetsApiRequestMs: SHEETS_API_REQUEST_MS,
  fetchRoundTripMs: FETCH_ROUND_TRIP_MS,
  fetchAllBatchMs: FETCH_ALL_BATCH_MS,
  httpPerKbMs: HTTP_PER_KB_MS,
  cacheReadMs: CACHE_READ_MS,
  cacheWriteMs: CACHE_WRITE_MS,
  cachePerKbMs: CACHE_PER_KB_MS,
  propertiesReadMs: PROPERTIES_READ_MS,
  propertiesWriteMs: PROPERTIES_WRITE_MS,
};

export const FIGURE_NAMES = Object.keys(FIGURES) as Array<keyof CostFigures>;

export function presetFigures(preset: Preset): CostFigures {
  return Object.fromEntries(
    FIGURE_NAMES.map((name) => [name, FIGURES[name][preset]]),
  ) as unknown as CostFigures;
}

export const PRESETS: readonly Preset[] = ['low', 'central', 'high'];

/** The service calls priced per call; UrlFetch is priced per round, the rest (Logger, Session…) not at all. */
export type PricedCall =
  'spreadsheet' | 'appendRow' | 'cacheRead' | 'cacheWrite' | 'propertiesRead' | 'propertiesWrite';

const CALL_FIGURE: Record<PricedCall, keyof CostFigures> = {
  spreadsheet: 'spreadsheetCallMs',
  appendRow: 'appendRowMs',
  cacheRead: 'cacheReadMs',
  cacheWrite: 'cacheWriteMs',
  propertiesRead: 'propertiesReadMs',
  propertiesWrite: 'propertiesWriteMs',
};

const CACHE_WRITES = new Set(['put', 'putAll', 'remove', 'removeAll']);
const PROPERTIES_WRITES = new Set(['setProperty', 'setProperties', 'deleteProperty', 'deleteAllProperties']);

/** How a `Class.method` call is priced, or null when it costs nothing the model knows of. */
export function pricedCallOf(
  key: string,
  isSpreadsheetClass: (className: string) => boolean,
): PricedCall | null {
  const [className = '', method = ''] = key.split('.');
  if (key === 'Sheet.appendRow') return 'appendRow';
  if (isSpreadsheetClass(className)) return 'spreadsheet';
  if (className === 'Cache') return CACHE_WRITES.has(method) ? 'cacheWrite' : 'cacheRead';
  if (className === 'Properties') return PROPERTIES_WRITES.has(method) ? 'propertiesWrite' : 'propertiesRead';
  return null;
}

/**
 * One UrlFetch round: a fetch, or a whole fetchAll (its requests run side by side, up to
 * FETCH_ALL_CONCURRENT_REQUESTS at a time).
 */
export interface FetchRound {
  /** Whether it was a fetchAll, which adds its batch overhead. */
  batched: boolean;
  requests: number;
  /** How long the service took to answer the round's requests, wave after wave: its configured latency. */
  serviceMs: number;
  /** KB of body (request and answer) of the round's largest request. */
  largestKb: number;
}

/** What a run did that costs time on Google's side: plain data, so that the bench can keep it. */
export interface CostQuantities {
  calls: Record<PricedCall, number>;
  /** Cells whose values or formulas a 2D write set. */
  cellsWritten: number;
  /** Cells whose number format a 2D write set. */
  formatsWritten: number;
  /** Cells a range-wide call set or cleared (one format, note, rule or clearing for the whole range). */
  cellsRangeWide: number;
  cellsRead: number;
  /** Requests to the Sheets API (the Sheets advanced service), and the cells they carried. */
  sheetsApiRequests: number;
  sheetsApiCells: number;
  commits: number;
  fetchRounds: FetchRound[];
  /** KB of values stored in or returned by CacheService. */
  cacheKb: number;
}

/** Where the time goes, in milliseconds. */
export interface CostBreakdown {
  fetchRounds: number;
  /** Through the Spreadsheet service and the Sheets API. */
  cellWrites: number;
  commits: number;
  /** Cell reads, Spreadsheet calls, cache and properties. */
  otherCalls: number;
  total: number;
}

/** How many waves a round of `requests` takes: one for a fetch. */
export function fetchAllWaves(requests: number): number {
  return Math.max(1, Math.ceil(requests / FETCH_ALL_CONCURRENT_REQUESTS));
}

export function fetchRoundMs(round: FetchRound, figures: CostFigures): number {
  return (
    (round.batched ? figures.fetchAllBatchMs : 0) +
    fetchAllWaves(round.requests) * figures.fetchRoundTripMs +
    round.serviceMs +
    round.largestKb * figures.httpPerKbMs
  );
}

/** Requests to the Sheets API carrying `cells` cells in all. */
export function sheetsApiMs(requests: number, cells: number, figures: CostFigures): number {
  return requests * figures.sheetsApiRequestMs + cells * figures.sheetsApiPerCellMs;
}

export function callMs(call: PricedCall, figures: CostFigures): number {
  return figures[CALL_FIGURE[call]];
}

export function priceQuantities(quantities: CostQuantities, figures: CostFigures): CostBreakdown {
  const fetchRounds = quantities.fetchRounds.reduce((sum, round) => sum + fetchRoundMs(round, figures), 0);
  const cellWrites =
    quantities.cellsWritten * figures.setValuesPerCellMs +
    quantities.formatsWritten * figures.setNumberFormatsPerCellMs +
    quantities.cellsRangeWide * figures.rangeWidePerCellMs +
    quantities.calls.appendRow * figures.appendRowMs +
    sheetsApiMs(quantities.sheetsApiRequests, quantities.sheetsApiCells, figures);
  const commits = quantities.commits * figures.commitMs;
  const pricedOther: PricedCall[] = [
    'spreadsheet',
    'cacheRead',
    'cacheWrite',
    'propertiesRead',
    'propertiesWrite',
  ];
  const otherCalls =
    quantities.cellsRead * figures.getValuesPerCellMs +
    quantities.cacheKb * figures.cachePerKbMs +
    pricedOther.reduce((sum, call) => sum + quantities.calls[call] * callMs(call, figures), 0);
  return {
    fetchRounds,
    cellWrites,
    commits,
    otherCalls,
    total: fetchRounds + cellWrites + commits + otherCalls,
  };
}

export function noQuantities(): CostQuantities {
  return {
    calls: {
      spreadsheet: 0,
      appendRow: 0,
      cacheRead: 0,
      cacheWrite: 0,
      propertiesRead: 0,
      propertiesWrite: 0,
    },
    cellsWritten: 0,
    formatsWritten: 0,
    cellsRangeWide: 0,
    cellsRead: 0,
    sheetsApiRequests: 0,
    sheetsApiCells: 0,
    commits: 0,
    fetchRounds: [],
    cacheKb: 0,
  };
}

/**
 * The model at work in one emulator: it records each priced event and charges its price on the
 * emulated clock through `charge`, which throws "Exceeded maximum execution time" when the running
 * execution's deadline passes (Executions.spendTime).
 */
export class CostModel {
  #quantities = noQuantities();

  constructor(
    readonly figures: CostFigures,
    private readonly charge: (ms: number) => void,
    private readonly isSpreadsheetClass: (className: string) => boolean,
  ) {}

  /** Before every counted service call. */
  call(key: string): void {
    const call = pricedCallOf(key, this.isSpreadsheetClass);
    if (call === null) return;
    this.#quantities.calls[call]++;
    this.charge(callMs(call, this.figures));
  }

  cellsWritten(cells: number): void {
    this.#quantities.cellsWritten += cells;
    this.charge(cells * this.figures.setValuesPerCellMs);
  }

  formatsWritten(cells: number): void {
    this.#quantities.formatsWritten += cells;
    this.charge(cells * this.figures.setNumberFormatsPerCellMs);
  }

  cellsRead(cells: number): void {
    this.#quantities.cellsRead += cells;
    this.charge(cells * this.figures.getValuesPerCellMs);
  }

  cellsRangeWide(cells: number): void {
    this.#quantities.cellsRangeWide += cells;
    this.charge(cells * this.figures.rangeWidePerCellMs);
  }

  /** Values stored in or returned by CacheService, in bytes. */
  cachePayload(bytes: number): void {
    const kb = bytes / 1024;
    this.#quantities.cacheKb += kb;
    this.charge(kb * this.figures.cachePerKbMs);
  }

  /** One request to the Sheets API, carrying `cells` cells. */
  sheetsApiRequest(cells: number): void {
    this.#quantities.sheetsApiRequests++;
    this.#quantities.sheetsApiCells += cells;
    this.charge(sheetsApiMs(1, cells, this.figures));
  }

  commit(): void {
    this.#quantities.commits++;
    this.charge(this.figures.commitMs);
  }

  /** After a round's answers came back: the service's own time (serviceMs) is advanced by the caller. */
  fetchRound(round: FetchRound): void {
    this.#quantities.fetchRounds.push(round);
    this.charge(fetchRoundMs(round, this.figures) - round.serviceMs);
  }

  /** What was recorded since the last reset (a copy). */
  quantities(): CostQuantities {
    return structuredClone(this.#quantities);
  }

  reset(): void {
    this.#quantities = noQuantities();
  }
}

/** The calibration project's output (dev/calibration): what it measured on Google. */
const calibrationSchema = z.object({
  kind: z.literal('safety-sync-calibration'),
  version: z.literal(1),
  measuredAt: z.string(),
  /** Figures it measured, in ms; null where it could not measure (the Sheets API without the service). */
  figures: z.object(
    Object.fromEntries(
      FIGURE_NAMES.map((name) => [name, z.number().nonnegative().finite().nullable()]),
    ) as Record<keyof CostFigures, z.ZodNullable<z.ZodNumber>>,
  ),
  /** Behaviours the emulator can only guess: what Google did, as text or a yes/no. */
  behaviours: z.record(z.string(), z.union([z.boolean(), z.string(), z.null()])),
});

export type Calibration = z.infer<typeof calibrationSchema>;

/** Reads a calibration document; says what is wrong with one that is not. */
export function parseCalibration(text: string, source: string): Calibration {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(
      `${source} is not JSON: copy the whole document the calibration printed (from { to }) into it.`,
    );
  }
  const parsed = calibrationSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`,
    );
    throw new Error(
      `${source} is not a calibration of this version (${problems.join('; ')}): run dev/calibration again.`,
    );
  }
  return parsed.data;
}

/** The figures with the calibration's measurements in place of the preset's where it has them. */
export function calibratedFigures(base: CostFigures, calibration: Calibration): CostFigures {
  const figures = { ...base };
  for (const name of FIGURE_NAMES) {
    const measured = calibration.figures[name];
    if (measured !== null) figures[name] = measured;
  }
  return figures;
}

/**
 * A preset with the measurements of the calibration file `file` in its place: what
 * `createEmulator({ costFigures })` and the bench take.
 */
export function calibratedFiguresFromFile(file: string, preset: Preset = 'central'): CostFigures {
  return calibratedFigures(presetFigures(preset), parseCalibration(fs.readFileSync(file, 'utf8'), file));
}

/** A figure set given as an emulator option: checked, as a typo would silently price nothing. */
export function requireFigures(figures: CostFigures): CostFigures {
  for (const name of FIGURE_NAMES) {
    const value = figures[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new Error(`Cost figure ${name} must be a number of milliseconds ≥ 0, not ${String(value)}`);
  }
  return figures;
}
