/**
 * The calibration project: a separate Apps Script project (never part of dist/Code.js) bound to a
 * test spreadsheet, which `npm run calibrate` pushes and runs (docs/performance.md, "Calibrating the cost model on
 * Google"; docs/google-as-it-is.md). It measures on Google the figures of the emulator's cost model
 * (dev/emulator/runtime/cost-model.ts) and settles the behaviours the emulator can only guess (its
 * readings, dev/emulator/readings.ts), and prints one JSON document: the answer that
 * `npm run calibrate -- --answer FILE` records, and `npm run bench -- --calibration FILE` loads.
 *
 * It is Apps Script code: no Node or browser API. Every figure is in milliseconds; a figure it cannot
 * measure (the Sheets API without its advanced service) is null. It runs in the emulator too, which
 * is how its logic is tested (test/calibration).
 */

const SCRATCH_SHEET = 'Calibration scratch';
/** Rows of 10 columns written and read at each size: per-cell figures are the slope between sizes. */
const GRID_ROWS = [100, 1_000, 5_000];
const GRID_COLUMNS = 10;
const REPEATS = 5;
const FETCH_ALL_BATCH = 10;
const LARGE_BODY_KB = 500;
const LARGE_CACHE_VALUE_KB = 90;
const ECHO_URL_PROPERTY = 'CALIBRATION_ECHO_URL';
/** An endpoint that answers any request with what it was sent. */
const DEFAULT_ECHO_URL = 'https://httpbin.org/anything';
const DELETED_SPREADSHEET_PROPERTY = 'CALIBRATION_DELETED_SPREADSHEET_ID';
const PROBE_KEY = 'calibration.probe';
const LIMITED_METADATA_PROPERTY = 'calibration.developerMetadataInLimited';
const UNSERIALISABLE_RETURN_PROPERTY = 'calibration.unserialisableReturn';
/** 2024-01-15 as a spreadsheet date serial (days since 1899-12-30). */
const DATE_PROBE_SERIAL = 45_306;
/** How long to wait for Sheets to compute the probe formulas, polling every 2 s. */
const FORMULA_WAIT_MS = 30_000;

type Figures = Record<string, number | null>;
type Behaviours = Record<string, boolean | string | null>;

function elapsedMs(action: () => unknown): number {
  const startedMs = Date.now();
  action();
  return Date.now() - startedMs;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function medianOf(action: (index: number) => unknown): number {
  return median(Array.from({ length: REPEATS }, (_, index) => elapsedMs(() => action(index))));
}

/** The slope of a least-squares line through the points: the cost of one more unit. */
function slope(points: ReadonlyArray<[number, number]>): number {
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return covariance / variance;
}

function grid(rows: number): string[][] {
  return Array.from({ length: rows }, (_, row) =>
    Array.from({ length: GRID_COLUMNS }, (_, column) => `r${row}c${column}`),
  );
}

function scratchSheet(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
): GoogleAppsScript.Spreadsheet.Sheet {
  const sheet = spreadsheet.getSheetByName(SCRATCH_SHEET) ?? spreadsheet.insertSheet(SCRATCH_SHEET);
  sheet.clear();
  const largest = Math.max(...GRID_ROWS);
  if (sheet.getMaxRows() < largest) sheet.insertRowsAfter(sheet.getMaxRows(), largest - sheet.getMaxRows());
  SpreadsheetApp.flush();
  return sheet;
}

/**
 * setValues, setNumberFormats and getValues per cell, a commit, any other call, appendRow; the
 * Sheets API when enabled.
 */
function measureSpreadsheet(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Figures {
  const sheet = scratchSheet(spreadsheet);
  const range = (rows: number) => sheet.getRange(1, 1, rows, GRID_COLUMNS);
  // Each write is committed by a flush: what a write costs whole, so the slope holds no commit.
  const writes = GRID_ROWS.map((rows): [number, number] => {
    const values = grid(rows);
    const target = range(rows);
    return [rows * GRID_COLUMNS, elapsedMs(() => (target.setValues(values), SpreadsheetApp.flush()))];
  });
  const formats = GRID_ROWS.map((rows): [number, number] => {
    const target = range(rows);
    const numberFormats = grid(rows).map((row) => row.map((_, column) => (column % 2 ? '0.00' : '@')));
    return [
      rows * GRID_COLUMNS,
      elapsedMs(() => (target.setNumberFormats(numberFormats), SpreadsheetApp.flush())),
    ];
  });
  const rangeWide = GRID_ROWS.map((rows): [number, number] => {
    const target = range(rows);
    return [
      rows * GRID_COLUMNS,
      elapsedMs(() => (target.setNumberFormat(rows % 2 ? '0.00' : '@'), SpreadsheetApp.flush())),
    ];
  });
  const reads = GRID_ROWS.map((rows): [number, number] => {
    const target = range(rows);
    return [rows * GRID_COLUMNS, elapsedMs(() => target.getValues())];
  });
  const cell = sheet.getRange(1, 1);
  const commitMs = median(
    Array.from({ length: REPEATS }, (_, index) => {
      cell.setValues([[`commit ${index}`]]);
      return elapsedMs(() => SpreadsheetApp.flush());
    }),
  );
  const spreadsheetCallMs = medianOf(() => sheet.getLastRow());
  const appendRows = elapsedMs(() => {
    for (let row = 0; row < REPEATS; row++) sheet.appendRow([`appended ${row}`]);
    SpreadsheetApp.flush();
  });
  return {
    setValuesPerCellMs: slope(writes),
    setNumberFormatsPerCellMs: slope(formats),
    rangeWidePerCellMs: slope(rangeWide),
    getValuesPerCellMs: slope(reads),
    commitMs,
    spreadsheetCallMs,
    appendRowMs: Math.max(0, (appendRows - commitMs) / REPEATS),
    ...measureSheetsApi(spreadsheet),
  };
}

/** The Sheets advanced service, RAW: per cell (slope) and per request (what is left of the smallest). */
function measureSheetsApi(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Figures {
  if (typeof Sheets === 'undefined' || Sheets === undefined)
    return { sheetsApiPerCellMs: null, sheetsApiRequestMs: null };
  const api = Sheets;
  const points = GRID_ROWS.map((rows): [number, number] => [
    rows * GRID_COLUMNS,
    elapsedMs(() =>
      api.Spreadsheets!.Values!.update({ values: grid(rows) }, spreadsheet.getId(), `'${SCRATCH_SHEET}'!A1`, {
        valueInputOption: 'RAW',
      }),
    ),
  ]);
  const perCell = slope(points);
  return {
    sheetsApiPerCellMs: perCell,
    sheetsApiRequestMs: Math.max(0, points[0]![1] - points[0]![0] * perCell),
  };
}

/** A fetch's round trip, a fetchAll batch's overhead, and the cost of a KB of body, against an echo. */
function measureFetch(echoUrl: string): Figures {
  const post = (body: string): GoogleAppsScript.URL_Fetch.URLFetchRequest => ({
    url: echoUrl,
    method: 'post',
    contentType: 'text/plain',
    payload: body,
    muteHttpExceptions: true,
  });
  const single = (body: string) => {
    const { url, ...params } = post(body);
    return UrlFetchApp.fetch(url, params);
  };
  const roundTripMs = medianOf(() => single('x'));
  const batchMs = medianOf(() =>
    UrlFetchApp.fetchAll(Array.from({ length: FETCH_ALL_BATCH }, () => post('x'))),
  );
  const large = 'x'.repeat(LARGE_BODY_KB * 1024);
  let largeKb = 0;
  const largeMs = medianOf(() => {
    const answer = single(large);
    largeKb = (large.length + answer.getContentText().length) / 1024;
  });
  return {
    fetchRoundTripMs: roundTripMs,
    fetchAllBatchMs: Math.max(0, batchMs - roundTripMs),
    httpPerKbMs: Math.max(0, (largeMs - roundTripMs) / largeKb),
  };
}

function measureStores(): Figures {
  const cache = CacheService.getScriptCache();
  const properties = PropertiesService.getUserProperties();
  const cacheWriteMs = medianOf((index) => cache.put(PROBE_KEY, `value ${index}`, 60));
  const cacheReadMs = medianOf(() => cache.get(PROBE_KEY));
  // A value near CacheService's 100 KB limit against a small one: what a KB adds.
  const large = 'x'.repeat(LARGE_CACHE_VALUE_KB * 1024 - 8);
  const largeWriteMs = medianOf((index) => cache.put(PROBE_KEY, `${index}${large}`, 60));
  const figures = {
    cacheWriteMs,
    cacheReadMs,
    cachePerKbMs: Math.max(0, (largeWriteMs - cacheWriteMs) / LARGE_CACHE_VALUE_KB),
    propertiesWriteMs: medianOf((index) => properties.setProperty(PROBE_KEY, `value ${index}`)),
    propertiesReadMs: medianOf(() => properties.getProperty(PROBE_KEY)),
  };
  cache.remove(PROBE_KEY);
  properties.deleteProperty(PROBE_KEY);
  return figures;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether ScriptApp.getUserTriggers(spreadsheet) lists a time-driven trigger this user just made. */
function userTriggersListClockTrigger(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): boolean {
  const trigger = ScriptApp.newTrigger('calibrationTriggerTarget').timeBased().everyHours(1).create();
  try {
    return ScriptApp.getUserTriggers(spreadsheet).some(
      (listed) => listed.getUniqueId() === trigger.getUniqueId(),
    );
  } finally {
    ScriptApp.deleteTrigger(trigger);
  }
}

/** What a plain-text cell holds after `'00123` is written to it: whether the apostrophe stays. */
function plainTextKeepsApostrophe(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string {
  const cell = scratchSheet(spreadsheet).getRange(1, 1);
  cell.setNumberFormat('@');
  cell.setValues([["'00123"]]);
  return JSON.stringify(cell.getValues()[0]![0]);
}

/**
 * Whether the Spreadsheet service, in the same execution, shows a tab the Sheets API has just added
 * (the full import inserts its tab through the API and formats it through the service); null
 * without the advanced service. The tab stays (the test spreadsheet is there to scribble on).
 */
function spreadsheetServiceSeesApiTab(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): boolean | null {
  if (typeof Sheets === 'undefined' || Sheets === undefined) return null;
  const title = `Calibration ${Utilities.getUuid()}`;
  Sheets.Spreadsheets!.batchUpdate(
    { requests: [{ addSheet: { properties: { title } } }] },
    spreadsheet.getId(),
  );
  return spreadsheet.getSheetByName(title) !== null;
}

/**
 * What openById does with a spreadsheet in the Drive trash: 'opened', or its error ("Document … is
 * missing …"). The deployer puts a spreadsheet in the trash (not emptied: Drive keeps it 30 days) and
 * gives its id as the script property CALIBRATION_DELETED_SPREADSHEET_ID; null without one.
 */
function openByIdOfDeleted(): string | null {
  const id = PropertiesService.getScriptProperties().getProperty(DELETED_SPREADSHEET_PROPERTY);
  if (id === null) return null;
  try {
    SpreadsheetApp.openById(id);
    return 'opened';
  } catch (error) {
    return describeError(error);
  }
}

/**
 * What CacheService's 100 KB counts in putAll: two values of 60 KB together pass only if it counts
 * each value ('per-entry'); 'total' when refused as too large; otherwise the error.
 */
function cachePutAllLimit(): string {
  const cache = CacheService.getScriptCache();
  const large = 'x'.repeat(60 * 1024);
  try {
    cache.putAll({ [`${PROBE_KEY}.a`]: large, [`${PROBE_KEY}.b`]: large }, 60);
    cache.removeAll([`${PROBE_KEY}.a`, `${PROBE_KEY}.b`]);
    return 'per-entry';
  } catch (error) {
    return /too large/i.test(describeError(error)) ? 'total' : describeError(error);
  }
}

/**
 * Whether `;` separates a formula's arguments in en_US, a locale that writes decimals with a point:
 * 'accepted' when `=HYPERLINK("https://example.com";"x")` shows x there, 'parse error' when it shows
 * #ERROR!, otherwise what it shows. The spreadsheet is in en_US for the probe only.
 */
function semicolonArgumentsInEnUs(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string {
  const locale = spreadsheet.getSpreadsheetLocale();
  spreadsheet.setSpreadsheetLocale('en_US');
  try {
    const cell = scratchSheet(spreadsheet).getRange(1, 3);
    cell.setValues([['=HYPERLINK("https://example.com";"x")']]);
    SpreadsheetApp.flush();
    const shown = String(cell.getValues()[0]![0]);
    if (shown === 'x') return 'accepted';
    return shown === '#ERROR!' ? 'parse error' : `shows ${shown}`;
  } finally {
    spreadsheet.setSpreadsheetLocale(locale);
  }
}

/**
 * What the probes that run outside runCalibration recorded in the document's properties (the onOpen
 * of a reload, the dialog of the Calibration menu); null for one that has not run.
 */
function recordedProbes(): Behaviours {
  const properties = PropertiesService.getDocumentProperties();
  return {
    developerMetadataInLimited: properties?.getProperty(LIMITED_METADATA_PROPERTY) ?? null,
    unserialisableReturn: properties?.getProperty(UNSERIALISABLE_RETURN_PROPERTY) ?? null,
  };
}

/**
 * What the probe formulas computed: written into the scratch sheet, then read until Sheets has
 * computed them (null for a probe still not computed after FORMULA_WAIT_MS).
 */
function customFunctionProbes(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Behaviours {
  const sheet = scratchSheet(spreadsheet);
  // B1: the date 2024-01-15 as a date cell (serial 45306), the argument of the date probe.
  sheet
    .getRange(1, 2)
    .setNumberFormat('yyyy-mm-dd')
    .setValues([[DATE_PROBE_SERIAL]]);
  const probes = {
    documentStoresInCustomFunction: '=CALIBRATION_DOCUMENT_STORES()',
    customFunctionDateArgument: '=CALIBRATION_DATE_ARGUMENT(R1C2)',
  };
  const names = Object.keys(probes) as Array<keyof typeof probes>;
  const range = sheet.getRange(1, 1, names.length, 1);
  range.setFormulasR1C1(names.map((name) => [probes[name]]));
  SpreadsheetApp.flush();
  const computed = (value: unknown) => typeof value === 'string' && value !== '' && !/^Loading/.test(value);
  let values = range.getValues();
  for (let waitedMs = 0; waitedMs < FORMULA_WAIT_MS && !values.every(([value]) => computed(value));) {
    Utilities.sleep(2_000);
    waitedMs += 2_000;
    values = range.getValues();
  }
  return Object.fromEntries(
    names.map((name, index) => {
      const value = values[index]![0];
      return [name, computed(value) ? String(value) : null];
    }),
  );
}

/**
 * Run from the Apps Script editor: measures everything, logs the calibration document (copy it from
 * the execution log into a file) and returns it.
 */
export function runCalibration(): string {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const echoUrl = PropertiesService.getScriptProperties().getProperty(ECHO_URL_PROPERTY) ?? DEFAULT_ECHO_URL;
  const figures = { ...measureSpreadsheet(spreadsheet), ...measureFetch(echoUrl), ...measureStores() };
  const behaviours: Behaviours = {
    userTriggersListClockTrigger: userTriggersListClockTrigger(spreadsheet),
    plainTextKeepsApostrophe: plainTextKeepsApostrophe(spreadsheet),
    openByIdOfDeletedSpreadsheet: openByIdOfDeleted(),
    spreadsheetServiceSeesApiTab: spreadsheetServiceSeesApiTab(spreadsheet),
    cachePutAllLimit: cachePutAllLimit(),
    semicolonArgumentsInEnUs: semicolonArgumentsInEnUs(spreadsheet),
    ...recordedProbes(),
    ...customFunctionProbes(spreadsheet),
  };
  const document = JSON.stringify(
    {
      kind: 'safety-sync-calibration',
      version: 1,
      measuredAt: new Date().toISOString(),
      figures,
      behaviours,
    },
    null,
    2,
  );
  Logger.log(document);
  return document;
}

/** The target of the trigger userTriggersListClockTrigger makes (and deletes at once). */
export function calibrationTriggerTarget(): void {}

/**
 * Reloading the spreadsheet runs this as a simple trigger, in AuthMode.LIMITED: it records whether
 * developer metadata could be read there ('readable', or the error), and adds the Calibration menu.
 */
export function onOpen(event?: GoogleAppsScript.Events.SheetsOnOpen): void {
  if (event?.authMode === ScriptApp.AuthMode.LIMITED) {
    let outcome: string;
    try {
      SpreadsheetApp.getActiveSpreadsheet().getDeveloperMetadata();
      outcome = 'readable';
    } catch (error) {
      outcome = describeError(error);
    }
    PropertiesService.getDocumentProperties().setProperty(LIMITED_METADATA_PROPERTY, outcome);
  }
  SpreadsheetApp.getUi()
    .createMenu('Calibration')
    .addItem("Probe a dialog's return value", 'showReturnProbe')
    .addToUi();
}

/** The dialog that calls calibrationDateReturn and records what its handlers received. */
export function showReturnProbe(): void {
  SpreadsheetApp.getUi().showModalDialog(
    HtmlService.createHtmlOutputFromFile('probe').setWidth(320).setHeight(120),
    'Calibration',
  );
}

/** Called from the probe dialog: a value google.script.run cannot carry back. */
export function calibrationDateReturn(): { at: Date } {
  return { at: new Date(0) };
}

/** Called from the probe dialog with what its handlers received: 'null', 'failure: …' or 'other: …'. */
export function recordUnserialisableReturn(outcome: string): void {
  PropertiesService.getDocumentProperties().setProperty(UNSERIALISABLE_RETURN_PROPERTY, String(outcome));
}

/**
 * Whether a custom function can read document properties and the document cache.
 * @customfunction
 */
export function CALIBRATION_DOCUMENT_STORES(): string {
  const attempt = (read: () => unknown) => {
    try {
      read();
      return 'works';
    } catch (error) {
      return describeError(error);
    }
  };
  return (
    `document properties: ${attempt(() => PropertiesService.getDocumentProperties().getProperty(PROBE_KEY))}; ` +
    `document cache: ${attempt(() => CacheService.getDocumentCache()!.get(PROBE_KEY))}`
  );
}

/**
 * How a date cell arrives in a custom function: its instant, beside the script's and the
 * spreadsheet's time zones.
 * @customfunction
 */
export function CALIBRATION_DATE_ARGUMENT(date: Date): string {
  const instant = date instanceof Date ? date.toISOString() : JSON.stringify(date);
  const spreadsheetZone = SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetTimeZone();
  return `${instant} (script time zone ${Session.getScriptTimeZone()}, spreadsheet time zone ${spreadsheetZone})`;
}
