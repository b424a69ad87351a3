/**
 * The `Sheets` global (the Sheets advanced service, api-sheets-advanced.ts has its rules) and its
 * Sheets.Spreadsheets.batchUpdate, for what the add-on does there: insert tabs and grow them before
 * the API writes their rows, over the same model as the Spreadsheet service.
 * - batchUpdate takes addSheet (title, sheetId, index, row and column counts) and appendDimension;
 *   any other request is "not emulated". It is atomic, as the API is: every request is checked (a
 *   title or an id not taken, the sheet there, the workbook's 10 million cells) before any is
 *   applied, and a bad one changes nothing. A sheet the batch adds is not there for its later
 *   requests (stricter than the API, which applies them in order).
 * - It acts on Google's side: what SpreadsheetApp still buffers is not there yet. The emulator cannot
 *   show a spreadsheet without its buffered writes, so it takes the stricter reading and refuses the
 *   call while the running execution has writes buffered to the spreadsheet (flush first). Whether
 *   the Spreadsheet service shows a tab it adds in the same execution is the reading
 *   spreadsheetServiceSeesApiTab (readings.ts; service-env.ts, shownByService).
 */
import { AppsScriptException, strict } from '../core';
import { badRequest, openApiRequest, type SheetsServiceDeps, SheetsValues } from './api-sheets-advanced';
import { insertLinesBeside } from './structural-changes';
import { PROTECTED_EDIT } from './access-policy';
import { type ServiceEnv, isProtectedFrom } from './service-env';
import { NEW_SHEET_COLUMNS, NEW_SHEET_ROWS, type WorkbookModel } from './workbook-model';

const BATCH_UPDATE = 'sheets.spreadsheets.batchUpdate';

/** The `Sheets` global: Sheets.Spreadsheets.{batchUpdate, Values.{batchUpdate, update}}. */
export function exposeSheetsAdvancedService(
  env: ServiceEnv,
  deps: SheetsServiceDeps,
): GoogleAppsScript.Sheets {
  const spreadsheets = new SheetsSpreadsheets(env, deps, new SheetsValues(env, deps));
  return strict('Sheets', { Spreadsheets: spreadsheets }, env.counter) as unknown as GoogleAppsScript.Sheets;
}

class SheetsSpreadsheets {
  readonly Values: SheetsValues;
  readonly #env: ServiceEnv;
  readonly #deps: SheetsServiceDeps;

  constructor(env: ServiceEnv, deps: SheetsServiceDeps, values: SheetsValues) {
    this.Values = values;
    this.#env = env;
    this.#deps = deps;
    return strict('Sheets.Spreadsheets', this, env.counter);
  }

  batchUpdate(resource: unknown, spreadsheetId: unknown): unknown {
    const workbook = openApiRequest(this.#env, this.#deps, BATCH_UPDATE, spreadsheetId, resource);
    this.#refuseBuffered(workbook, BATCH_UPDATE);
    const requests = (resource as { requests?: unknown }).requests;
    if (!Array.isArray(requests) || requests.length === 0)
      throw badRequest(BATCH_UPDATE, "Invalid requests: 'requests' must list at least one request.");
    // Every request checked before any is applied, so that a bad one leaves the spreadsheet as it was.
    const plan = new Plan(workbook, this.#env);
    const apply = requests.map((request: unknown, index) => plan.check(request, `requests[${index}]`));
    this.#env.counter.recordSheetsApiRequest(0);
    for (const change of apply) change();
    return this.#env.realm.toScript({
      spreadsheetId: workbook.id,
      replies: plan.replies,
    });
  }

  #refuseBuffered(workbook: WorkbookModel, method: string): void {
    if (this.#env.writes.beforeDirectWrite(workbook, method).buffered) {
      throw new AppsScriptException(
        `not emulated: ${method} while SpreadsheetApp writes to the spreadsheet are buffered (flush first)`,
      );
    }
  }
}

/** The batch's requests checked in order against what the earlier ones will have made. */
class Plan {
  readonly replies: unknown[] = [];
  readonly #workbook: WorkbookModel;
  readonly #env: ServiceEnv;

  constructor(workbook: WorkbookModel, env: ServiceEnv) {
    this.#workbook = workbook;
    this.#env = env;
  }

  check(request: unknown, where: string): () => void {
    const entries = typeof request === 'object' && request !== null ? Object.entries(request) : [];
    if (entries.length !== 1) throw badRequest(BATCH_UPDATE, `Invalid ${where}: a request names one kind.`);
    const [kind, body] = entries[0]!;
    const fields = (body ?? {}) as Record<string, unknown>;
    switch (kind) {
      case 'addSheet':
        return this.#addSheet(fields.properties, where);
      case 'appendDimension':
        return this.#appendDimension(fields, where);
      default:
        throw new AppsScriptException(`not emulated: ${BATCH_UPDATE} request ${kind}`);
    }
  }

  /** Cells the batch's earlier requests add, for the workbook's limit. */
  #addedCells = 0;
  /** Titles and ids of the sheets the batch's earlier requests add. */
  readonly #addedTitles: string[] = [];
  readonly #addedIds = new Set<number>();

  #checkCellBudget(cells: number, where: string): void {
    try {
      this.#workbook.checkCellBudget(this.#addedCells + cells);
    } catch (error) {
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: ${(error as Error).message}`);
    }
    this.#addedCells += cells;
  }

  /** properties: title, and optionally sheetId, index and gridProperties' rowCount and columnCount. */
  #addSheet(value: unknown, where: string): () => void {
    const properties = (value ?? {}) as Record<string, unknown>;
    const { title, sheetId, index, gridProperties = {}, ...other } = properties;
    const {
      rowCount = NEW_SHEET_ROWS,
      columnCount = NEW_SHEET_COLUMNS,
      ...otherGrid
    } = gridProperties as Record<string, unknown>;
    const unknown = [...Object.keys(other), ...Object.keys(otherGrid).map((key) => `gridProperties.${key}`)];
    if (unknown.length > 0)
      throw new AppsScriptException(`not emulated: ${BATCH_UPDATE} addSheet with ${unknown.join(', ')}`);
    if (typeof title !== 'string')
      throw new AppsScriptException(`not emulated: ${BATCH_UPDATE} addSheet without a title`);
    try {
      this.#workbook.checkSheetName(title);
    } catch (error) {
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: ${(error as Error).message}`);
    }
    if (this.#addedTitles.includes(title.toLowerCase()))
      throw badRequest(
        BATCH_UPDATE,
        `Invalid ${where}: A sheet with the name "${title}" already exists. Please enter another name.`,
      );
    const positive = (count: unknown) => Number.isInteger(count) && (count as number) > 0;
    if (!positive(rowCount) || !positive(columnCount))
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: a grid has at least one row and one column.`);
    const sheetCount = this.#workbook.sheets.length + this.#addedTitles.length;
    if (
      index !== undefined &&
      !(Number.isInteger(index) && (index as number) >= 0 && (index as number) <= sheetCount)
    )
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: index ${String(index)} is not a sheet's place.`);
    if (sheetId !== undefined) {
      if (!Number.isInteger(sheetId) || (sheetId as number) < 0)
        throw badRequest(BATCH_UPDATE, `Invalid ${where}: sheetId is a whole number of at least 0.`);
      if (this.#workbook.sheetByGid(sheetId as number) || this.#addedIds.has(sheetId as number))
        throw badRequest(
          BATCH_UPDATE,
          `Invalid ${where}: A sheet with id ${String(sheetId)} already exists.`,
        );
    }
    this.#checkCellBudget((rowCount as number) * (columnCount as number), where);
    let gid = (sheetId as number | undefined) ?? this.#workbook.newGid();
    while (this.#addedIds.has(gid)) gid = this.#workbook.newGid();
    this.#addedTitles.push(title.toLowerCase());
    this.#addedIds.add(gid);
    this.replies.push({
      addSheet: {
        properties: {
          sheetId: gid,
          title,
          index: (index as number | undefined) ?? sheetCount,
          sheetType: 'GRID',
          gridProperties: { rowCount, columnCount },
        },
      },
    });
    return () => {
      const sheet = this.#workbook.addSheet(
        title,
        (index as number | undefined) ?? this.#workbook.sheets.length,
        { gid, rows: rowCount as number, columns: columnCount as number },
      );
      this.#env.apiAddedSheets.set(sheet, this.#env.access.context());
    };
  }

  /** Rows or columns added at the end of a sheet that was there before the batch. */
  #appendDimension(fields: Record<string, unknown>, where: string): () => void {
    const { sheetId, dimension, length } = fields;
    const sheet = typeof sheetId === 'number' ? this.#workbook.sheetByGid(sheetId) : undefined;
    if (!sheet) throw badRequest(BATCH_UPDATE, `Invalid ${where}: No grid with id: ${String(sheetId)}`);
    if (dimension !== 'ROWS' && dimension !== 'COLUMNS')
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: dimension is ROWS or COLUMNS.`);
    if (!Number.isInteger(length) || (length as number) < 1)
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: length must be at least 1.`);
    const lines = dimension === 'ROWS' ? 'rows' : 'columns';
    if (isProtectedFrom(this.#env, sheet, 'sheet')) throw badRequest(BATCH_UPDATE, PROTECTED_EDIT);
    this.#checkCellBudget((length as number) * (lines === 'rows' ? sheet.maxColumns : sheet.maxRows), where);
    this.replies.push({});
    return () => {
      const last = lines === 'rows' ? sheet.maxRows : sheet.maxColumns;
      insertLinesBeside(sheet, lines, last, length as number, 'after');
    };
  }
}
