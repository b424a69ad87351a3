/**
 * The Sheets advanced service: the `Sheets` global, which exists only where appsscript.json's
 * `dependencies.enabledAdvancedServices` enables it, as on Google. The subset the add-on (and the
 * calibration project) uses: `Sheets.Spreadsheets.Values.batchUpdate` and `.update` with
 * `valueInputOption: 'RAW'` (Sheets.Spreadsheets.batchUpdate and .get: api-sheets-spreadsheets.ts),
 * as strict as the Sheets API (developers.google.com/sheets/api):
 * - RAW stores what it is given: a string stays a string (a leading "=" or "'" is one more character),
 *   a number a number, a boolean a boolean; '' clears a cell's content, null leaves the cell as it was.
 *   Formats are not touched.
 * - Every range must name a sheet that exists and lie within its grid ("exceeds grid limits"); the
 *   values must fit in their range. A request is checked whole before any cell is written.
 * - A range a protection keeps from the user (access-policy.ts) fails the whole request with a 400
 *   carrying Sheets' protected-cell message; a viewer's request fails as a SpreadsheetApp write does.
 * - A value a reject-input data validation rule refuses (validation-check.ts) fails the whole request
 *   with a 400 carrying the sentence Apps Script throws for it ("The data you entered in cell C2
 *   violates the data validation rules set on this cell."): Google documents neither the check nor
 *   the API's wording, so the emulator takes the stricter reading, the rule checked as for a script.
 *   The rule checked is the one the spreadsheet has now, a rule set through SpreadsheetApp and still
 *   buffered included (Google may or may not send it first: the stricter reading again).
 * - A request body over 2 MB is refused: Google recommends 2 MB (Sheets API limits page); the
 *   emulator takes it as the limit.
 * - Quotas, on the emulated clock: 60 write requests a minute per user and 300 per project, and as
 *   many read requests (spreadsheets.get), counted apart (Sheets API limits page), over any 60 s,
 *   answered with the API's 429. Tests spend some with SheetsApiQuotas.spend(user, n, 'read' | 'write').
 * - Errors reach the script as Apps Script throws them: a GoogleJsonResponseException, "API call to
 *   sheets.spreadsheets.values.batchUpdate failed with error: …".
 * - Writes go to Google's side at once, not through SpreadsheetApp's buffer (write-buffer.ts). A
 *   SpreadsheetApp write still buffered is sent after them, at the next commit, and wins. The emulator
 *   does not track which cells the buffered writes touched, so it takes the stricter reading: while
 *   the running execution has buffered writes to the spreadsheet, the API's values land under them
 *   and none of its cells changes. The grid the API checks ranges against is the committed one: rows
 *   inserted and not yet committed are not there for it.
 * - Priced with the cost model's Sheets API figures (runtime/cost-model.ts): per request, per cell.
 */
import { AppsScriptException, strict } from '../core';
import { boxA1, columnLetters, parseA1, referenceBox } from './a1-notation';
import { type AccessPolicy, PROTECTED_EDIT } from './access-policy';
import { clearCellContent } from './cells';
import { MAX_CELL_CHARACTERS } from './formulas';
import { type GridBox, boxHeight, boxWidth } from './grid-box';
import { type ServiceEnv, formulaSupport, isProtectedFrom } from './service-env';
import type { SheetModel, WorkbookModel } from './workbook-model';
import { gridWrites, isRejectedByValidation, validationViolation } from './validation-check';
import type { BufferState } from './write-buffer';

/** Google's recommended largest request, taken as the limit (Sheets API limits page). */
export const SHEETS_API_MAX_REQUEST_BYTES = 2 * 1024 * 1024;
/** Write requests a user may make in a minute, and the project (every user of the add-on) in all. */
export const WRITE_REQUESTS_PER_MINUTE_PER_USER = 60;
export const WRITE_REQUESTS_PER_MINUTE_PER_PROJECT = 300;
/** Read requests (spreadsheets.get) likewise: the same figures on the Sheets API limits page. */
export const READ_REQUESTS_PER_MINUTE_PER_USER = 60;
export const READ_REQUESTS_PER_MINUTE_PER_PROJECT = 300;
const QUOTA_WINDOW_MS = 60_000;
/** The emulated script's Cloud project, as Google's error texts name it. */
export const PROJECT_NUMBER = '123456789012';

/** What Apps Script throws when an advanced service's API answers an error. */
export class GoogleJsonResponseException extends AppsScriptException {
  readonly details: { code: number; message: string };

  constructor(method: string, code: number, message: string) {
    super(`API call to ${method} failed with error: ${message}`);
    this.name = 'GoogleJsonResponseException';
    this.details = { code, message };
  }
}

/** Read or write: the Sheets API counts the two against separate quotas. */
export type SheetsApiRequestKind = 'read' | 'write';

const LIMITS: Record<SheetsApiRequestKind, { user: number; project: number }> = {
  write: { user: WRITE_REQUESTS_PER_MINUTE_PER_USER, project: WRITE_REQUESTS_PER_MINUTE_PER_PROJECT },
  read: { user: READ_REQUESTS_PER_MINUTE_PER_USER, project: READ_REQUESTS_PER_MINUTE_PER_PROJECT },
};

/** Requests by moment (emulated epoch ms), per kind, per user and for the project; tests can spend some. */
export class SheetsApiQuotas {
  readonly #byUser = new Map<string, number[]>();
  readonly #project: Record<SheetsApiRequestKind, number[]> = { read: [], write: [] };

  constructor(private readonly now: () => number) {}

  /** Records `requests` requests of `kind` by `user` now, as another script of the project might make. */
  spend(user: string, requests: number, kind: SheetsApiRequestKind = 'write'): void {
    const moment = this.now();
    const mine = this.#requestsOf(user, kind);
    for (let index = 0; index < requests; index++) {
      mine.push(moment);
      this.#project[kind].push(moment);
    }
  }

  /** Admits one request of `kind` by `user`, or says which limit it would exceed. */
  admit(user: string, kind: SheetsApiRequestKind = 'write'): 'user' | 'project' | null {
    const since = this.now() - QUOTA_WINDOW_MS;
    const mine = this.#requestsOf(user, kind);
    dropBefore(mine, since);
    dropBefore(this.#project[kind], since);
    if (mine.length >= LIMITS[kind].user) return 'user';
    if (this.#project[kind].length >= LIMITS[kind].project) return 'project';
    this.spend(user, 1, kind);
    return null;
  }

  #requestsOf(user: string, kind: SheetsApiRequestKind): number[] {
    const key = `${kind} ${user}`;
    let requests = this.#byUser.get(key);
    if (!requests) this.#byUser.set(key, (requests = []));
    return requests;
  }
}

function dropBefore(moments: number[], since: number): void {
  let expired = 0;
  while (expired < moments.length && moments[expired]! <= since) expired++;
  moments.splice(0, expired);
}

/** Whether the Sheets API is enabled in the script's Cloud project (an administrator's step). */
export type CloudProjectApi = 'enabled' | 'disabled';

export interface SheetsServiceDeps {
  quotas: SheetsApiQuotas;
  cloudProjectApi: CloudProjectApi;
}

type RawValue = string | number | boolean | null;

interface ValueRange {
  sheet: SheetModel;
  box: GridBox;
  values: RawValue[][];
}

const BATCH_UPDATE = 'sheets.spreadsheets.values.batchUpdate';
const UPDATE = 'sheets.spreadsheets.values.update';

/**
 * The checks every request meets before its content: the API enabled in the project, the
 * spreadsheet there and writable (readable for a read, `resource` undefined), the body's size, the
 * write quotas (the read quotas for a read). Returns the spreadsheet.
 */
export function openApiRequest(
  env: ServiceEnv,
  deps: SheetsServiceDeps,
  method: string,
  spreadsheetId: unknown,
  resource?: unknown,
): WorkbookModel {
  const access: AccessPolicy = env.access;
  if (deps.cloudProjectApi === 'disabled') {
    throw new GoogleJsonResponseException(
      method,
      403,
      `Google Sheets API has not been used in project ${PROJECT_NUMBER} before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/sheets.googleapis.com/overview?project=${PROJECT_NUMBER} then retry.`,
    );
  }
  const workbook = typeof spreadsheetId === 'string' ? env.workbooks.get(spreadsheetId) : undefined;
  if (!workbook || access.missing(workbook))
    throw new GoogleJsonResponseException(method, 404, 'Requested entity was not found.');
  if (resource === undefined) {
    access.read(workbook);
  } else {
    access.write(workbook, method.slice(method.lastIndexOf('.') + 1));
    if (typeof resource !== 'object' || resource === null)
      throw badRequest(method, 'Invalid JSON payload received: the request body must be an object.');
    const bytes = Buffer.byteLength(JSON.stringify(resource), 'utf8');
    if (bytes > SHEETS_API_MAX_REQUEST_BYTES) {
      throw badRequest(
        method,
        `Request payload size exceeds the limit: ${SHEETS_API_MAX_REQUEST_BYTES} bytes.`,
      );
    }
  }
  const kind = resource === undefined ? 'read' : 'write';
  const exceeded = deps.quotas.admit(access.context().userEmail, kind);
  if (exceeded) {
    const metric = kind === 'read' ? 'Read requests' : 'Write requests';
    const limit = exceeded === 'user' ? `${metric} per minute per user` : `${metric} per minute`;
    throw new GoogleJsonResponseException(
      method,
      429,
      `Quota exceeded for quota metric '${metric}' and limit '${limit}' of service 'sheets.googleapis.com' for consumer 'project_number:${PROJECT_NUMBER}'.`,
    );
  }
  return workbook;
}

/** Sheets.Spreadsheets.Values: batchUpdate and update, RAW. */
export class SheetsValues {
  readonly #env: ServiceEnv;
  readonly #deps: SheetsServiceDeps;

  constructor(env: ServiceEnv, deps: SheetsServiceDeps) {
    this.#env = env;
    this.#deps = deps;
    return strict('Sheets.Spreadsheets.Values', this, env.counter);
  }

  batchUpdate(resource: unknown, spreadsheetId: unknown): unknown {
    const request = this.#begin(BATCH_UPDATE, resource, spreadsheetId);
    const data = (resource as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length === 0)
      throw badRequest(BATCH_UPDATE, "Invalid data: 'data' must list at least one range and its values.");
    const ranges = data.map((entry: unknown, index) => {
      const { range, values } = (entry ?? {}) as { range?: unknown; values?: unknown };
      return this.#valueRange(BATCH_UPDATE, request, range, values, `data[${index}]`);
    });
    return this.#write(request, ranges);
  }

  update(resource: unknown, spreadsheetId: unknown, range: unknown, options: unknown): unknown {
    const request = this.#begin(UPDATE, { ...(options as object), ...(resource as object) }, spreadsheetId);
    const { values } = (resource ?? {}) as { values?: unknown };
    return this.#write(request, [this.#valueRange(UPDATE, request, range, values, 'data')]);
  }

  /** The checks every request meets before its content: the project, access, size, quotas, the input option. */
  #begin(method: string, resource: unknown, spreadsheetId: unknown): ApiRequest {
    const workbook = openApiRequest(this.#env, this.#deps, method, spreadsheetId, resource);
    const { valueInputOption } = resource as { valueInputOption?: unknown };
    if (valueInputOption !== 'RAW') {
      if (valueInputOption === 'USER_ENTERED')
        throw new AppsScriptException(`not emulated: ${method} with valueInputOption USER_ENTERED`);
      throw badRequest(method, `Invalid valueInputOption: ${String(valueInputOption)}`);
    }
    return { method, workbook, buffer: this.#env.writes.beforeDirectWrite(workbook, method) };
  }

  #valueRange(
    method: string,
    request: ApiRequest,
    range: unknown,
    values: unknown,
    where: string,
  ): ValueRange {
    const reference = typeof range === 'string' ? parseA1(range) : null;
    const sheet =
      reference &&
      (reference.sheetName === null
        ? request.workbook.sheets[0]
        : request.workbook.sheetByName(reference.sheetName));
    const grid = sheet && gridSeenBy(request.buffer, sheet);
    if (!reference || !sheet || !grid) throw badRequest(method, `Unable to parse range: ${String(range)}`);
    if (!Array.isArray(values))
      throw badRequest(
        method,
        `Invalid ${where}.values: a list of rows is required for range ${String(range)}.`,
      );
    const box = writtenBox(referenceBox(reference, grid.maxRows, grid.maxColumns), values);
    if (box.bottom > grid.maxRows || box.right > grid.maxColumns) {
      throw badRequest(
        method,
        `Range (${String(range)}) exceeds grid limits. Max rows: ${grid.maxRows}, max columns: ${grid.maxColumns}`,
      );
    }
    if (values.length > boxHeight(box)) {
      throw badRequest(
        method,
        `Requested writing within range [${String(range)}], but tried writing to row [${box.top + boxHeight(box)}]`,
      );
    }
    values.forEach((row: unknown, i) => {
      if (!Array.isArray(row))
        throw badRequest(method, `Invalid ${where}.values[${i}]: a row must be a list of values.`);
      if (row.length > boxWidth(box)) {
        throw badRequest(
          method,
          `Requested writing within range [${String(range)}], but tried writing to column [${columnLetters(box.left + boxWidth(box))}]`,
        );
      }
      row.forEach((value: unknown, j) => checkRawValue(method, value, `${where}.values[${i}][${j}]`));
    });
    return { sheet, box, values: values as RawValue[][] };
  }

  #write(request: ApiRequest, ranges: readonly ValueRange[]): unknown {
    // All or nothing: a range the user may not edit fails the request before any is written.
    if (ranges.some((range) => isProtectedFrom(this.#env, range.sheet, range.box)))
      throw badRequest(request.method, PROTECTED_EDIT);
    for (const { sheet, box, values } of ranges) {
      for (const { row, column, value } of gridWrites(box.top, box.left, values)) {
        if (isRejectedByValidation(sheet, row, column, value, 'raw', formulaSupport(this.#env)))
          throw badRequest(request.method, validationViolation(row, column));
      }
    }
    const cells = ranges.reduce(
      (sum, range) => sum + range.values.reduce((rowSum, row) => rowSum + row.length, 0),
      0,
    );
    this.#env.counter.recordSheetsApiRequest(cells);
    // Buffered SpreadsheetApp writes are sent after this request and cover it (see the top).
    if (!request.buffer.buffered) for (const range of ranges) writeRaw(range);
    const responses = ranges.map((range) => ({
      spreadsheetId: request.workbook.id,
      updatedRange: `'${range.sheet.name.replace(/'/g, "''")}'!${writtenBoxA1(range)}`,
      updatedRows: range.values.length,
      updatedColumns: Math.max(0, ...range.values.map((row) => row.length)),
      updatedCells: range.values.reduce((sum, row) => sum + row.length, 0),
    }));
    return this.#env.realm.toScript({
      spreadsheetId: request.workbook.id,
      totalUpdatedRows: responses.reduce((sum, response) => sum + response.updatedRows, 0),
      totalUpdatedColumns: Math.max(0, ...responses.map((response) => response.updatedColumns)),
      totalUpdatedCells: cells,
      totalUpdatedSheets: new Set(ranges.map((range) => range.sheet)).size,
      responses,
    });
  }
}

interface ApiRequest {
  method: string;
  workbook: WorkbookModel;
  buffer: BufferState;
}

/**
 * The cells a range names for writing: a single cell is where the values start, and covers as many
 * rows and columns as they have (as the API takes "Sheet1!A1"); a larger range must hold them.
 */
function writtenBox(box: GridBox, values: unknown[]): GridBox {
  if (box.top !== box.bottom || box.left !== box.right) return box;
  const width = Math.max(1, ...values.map((row) => (Array.isArray(row) ? row.length : 1)));
  return { ...box, bottom: box.top + Math.max(1, values.length) - 1, right: box.left + width - 1 };
}

/** The sheet's size as the API sees it, or null for a sheet it cannot see (added and not committed). */
function gridSeenBy(buffer: BufferState, sheet: SheetModel): { maxRows: number; maxColumns: number } | null {
  if (!buffer.buffered) return sheet;
  return buffer.committedGrids.get(sheet) ?? null;
}

export function badRequest(method: string, message: string): GoogleJsonResponseException {
  return new GoogleJsonResponseException(method, 400, message);
}

function checkRawValue(method: string, value: unknown, where: string): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number' && Number.isFinite(value)) return;
  if (typeof value === 'string') {
    if (value.length > MAX_CELL_CHARACTERS) {
      throw badRequest(
        method,
        `Invalid ${where}: Your input contains more than the maximum of ${MAX_CELL_CHARACTERS} characters in a single cell.`,
      );
    }
    return;
  }
  throw badRequest(
    method,
    `Invalid ${where}: a value must be a string, a number, a boolean or null, not ${describe(value)}.`,
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number') return String(value);
  return value === undefined ? 'undefined' : `a ${typeof value === 'object' ? 'structure' : typeof value}`;
}

function writeRaw({ sheet, box, values }: ValueRange): void {
  values.forEach((row, i) =>
    row.forEach((value, j) => {
      if (value === null) return;
      const rowNumber = box.top + i;
      const column = box.left + j;
      const cell = sheet.cells.edit(rowNumber, column);
      clearCellContent(cell);
      if (value !== '') cell.value = value;
      sheet.cells.prune(rowNumber, column);
    }),
  );
}

/** The cells the values covered, as the API reports them. */
function writtenBoxA1(range: ValueRange): string {
  const height = Math.max(1, range.values.length);
  const width = Math.max(1, ...range.values.map((row) => row.length));
  return boxA1({
    top: range.box.top,
    left: range.box.left,
    bottom: range.box.top + height - 1,
    right: range.box.left + width - 1,
  });
}
