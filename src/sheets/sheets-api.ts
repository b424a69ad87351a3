/**
 * Large writes through the Sheets advanced service (`Sheets.Spreadsheets.Values.batchUpdate`, RAW):
 * on Google a cell costs about 11 µs there against about 60 µs through `Range.setValues`, plus
 * 0.2–0.35 s a request (docs/performance.md, "What a run costs on Google"). RAW stores what it is given: a string
 * is never read as a formula, a number or a date, so no value needs the apostrophe that keeps it text
 * through setValues. The service needs the advanced service in appsscript.json and the Sheets API
 * enabled in the add-on's Cloud project; without either, or when the API refuses a request (its
 * quotas are 60 write requests a minute per user, 300 per project), the writer falls back to setValues.
 */
import { gridA1 } from './a1-notation';
import type { CellValue } from './table';

/**
 * The fewest cells of the table's own columns a write sends through the API: below, setValues is
 * cheaper on Google. A RAW write saves the setNumberFormats and setValues of each cell (2 × 60 µs)
 * for 11 µs, and pays a request (275 ms), the commit before it (500 ms) and a dozen calls more (5 ms
 * each), at the cost model's central figures (docs/performance.md, "What a run costs on Google"). Measured with
 * the emulator on imports into a fresh tab of 10 columns, the two ways cost the same near 770 rows
 * (500 rows: the API 0.29 s dearer; 1,000: 0.25 s cheaper). The published crossover, about 1,300
 * rows, prices setValues alone, without the formats written beside it.
 */
export const SHEETS_API_MIN_CELLS = 8_000;

/**
 * The largest request body sent: Google recommends 2 MB (Sheets API limits page); the margin covers
 * the request's own fields, which are estimated.
 */
const MAX_REQUEST_BYTES = 2 * 1024 * 1024 - 64 * 1024;

/** Columns `left` to `left + width − 1` of a run of rows, to be written RAW from a given row. */
export interface ColumnRun {
  left: number;
  /** One row of the run's cells per tab row; null is an empty cell. */
  values: readonly (readonly CellValue[])[];
}

/** The Sheets advanced service, when appsscript.json enables it. */
export function sheetsAdvancedService(): GoogleAppsScript.Sheets.Collection.SpreadsheetsCollection | null {
  return typeof Sheets === 'undefined' || !Sheets?.Spreadsheets ? null : Sheets.Spreadsheets;
}

/** How a write of values went: through the Sheets API, or not (then the caller uses setValues). */
export type ApiWrite = { throughApi: true } | { throughApi: false; slowerWrite: string | null };

/**
 * The one decision of when values go through the Sheets API: a write of `cells` cells or more than
 * SHEETS_API_MIN_CELLS, when the advanced service is there. `write` sends them; every buffered write
 * is committed before it, unless the caller knows nothing waits (`nothingBuffered`): the API sees
 * only committed rows, and Apps Script sends writes still buffered after the API's (the emulator, not
 * knowing which cells they touch, lets them hide all of the API's). When they do not go through it,
 * the caller writes them through setValues, and `slowerWrite` says why for the Sync log when the write
 * was large (null when it was small).
 */
export function writeThroughApiIfLarge(
  cells: number,
  nothingBuffered: boolean,
  write: (spreadsheets: GoogleAppsScript.Sheets.Collection.SpreadsheetsCollection) => void,
): ApiWrite {
  if (cells < SHEETS_API_MIN_CELLS) return { throughApi: false, slowerWrite: null };
  const spreadsheets = sheetsAdvancedService();
  if (!spreadsheets)
    return {
      throughApi: false,
      slowerWrite: slowerWriteNote("the Sheets advanced service is not in the add-on's manifest"),
    };
  if (!nothingBuffered) SpreadsheetApp.flush();
  try {
    write(spreadsheets);
  } catch (error) {
    return {
      throughApi: false,
      slowerWrite: slowerWriteNote(
        `the Sheets API answered: ${error instanceof Error ? error.message : String(error)}`,
      ),
    };
  }
  return { throughApi: true };
}

function slowerWriteNote(reason: string): string {
  return `A large table was written through the Spreadsheet service, slower, because ${reason}; nothing is missing.`;
}

/**
 * Writes the runs (all of the same rows, from tab row `top`) RAW, in as few requests of at most 2 MB
 * as their size needs. The caller commits every buffered write first: Apps Script sends the buffer
 * after the API's requests, so a pending write would land over them, and the API sees only rows the
 * last commit made. Throws what the API answers (the requests before it stay written).
 */
export function writeRunsRaw(
  spreadsheets: GoogleAppsScript.Sheets.Collection.SpreadsheetsCollection,
  { spreadsheetId, sheetName }: { spreadsheetId: string; sheetName: string },
  top: number,
  runs: readonly ColumnRun[],
): void {
  const quotedName = `'${sheetName.replace(/'/g, "''")}'`;
  const rows = runs[0]?.values.length ?? 0;
  const rangeOverhead = runs.length * (utf8Bytes(quotedName) + 64);
  for (let first = 0; first < rows;) {
    let bytes = rangeOverhead;
    let end = first;
    while (end < rows) {
      const rowBytes = runs.reduce((sum, run) => sum + utf8Bytes(JSON.stringify(run.values[end])) + 1, 0);
      if (end > first && bytes + rowBytes > MAX_REQUEST_BYTES) break;
      bytes += rowBytes;
      end++;
    }
    const data = runs.map((run) => ({
      range: `${quotedName}!${gridA1(top + first, run.left, end - first, run.values[0]!.length)}`,
      // RAW leaves a cell sent as null as it was: an empty one is sent as ''.
      values: run.values.slice(first, end).map((row) => row.map((value) => value ?? '')),
    }));
    spreadsheets.Values!.batchUpdate({ valueInputOption: 'RAW', data }, spreadsheetId);
    first = end;
  }
}

/** Bytes of `text` in UTF-8, as the request body carries it. */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
