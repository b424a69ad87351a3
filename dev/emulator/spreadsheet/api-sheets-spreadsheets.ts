/**
 * The `Sheets` global (the Sheets advanced service, api-sheets-advanced.ts has its rules) and its
 * Sheets.Spreadsheets.batchUpdate and .get, for what the add-on does there: insert tabs and grow them
 * before the API writes their rows, and keep saved filter views (filter-views.ts) on its tabs, over the
 * same model as the Spreadsheet service.
 * - batchUpdate takes addSheet (title, sheetId, index, row and column counts), appendDimension,
 *   addFilterView {filter} (replies {addFilterView: {filter}} with the view's filterViewId; an id given
 *   must be free), updateFilterView {filter, fields} (fields a required mask: "*" or a comma list of
 *   title, range, filterSpecs) and deleteFilterView {filterId}; any other request is "not emulated".
 *   An unknown filter view id is a 400 "No filter view with id: <id>" (the wording Google uses for a
 *   missing grid, "No grid with id", carried over: the emulator found none documented for views).
 *   It is atomic, as the API is: every request is checked (a title or an id not taken, the sheet
 *   there, a range within its grid, the workbook's 10 million cells) before any is applied, and a bad
 *   one changes nothing. A sheet the batch adds is not there for its later requests (stricter than
 *   the API, which applies them in order); a filter view the batch adds, changes or deletes is, and an
 *   id the batch deletes is not given again in it (stricter).
 * - Protections: Google's documents say nothing the emulator could find about filter views over
 *   protected cells (Sheets is said to let any editor save one there). The emulator takes the stricter
 *   reading: adding, changing or deleting a filter view whose range meets cells a protection keeps
 *   from the user fails with the protected-cell 400, as a write there does. A viewer's request fails
 *   as any write does.
 * - get(spreadsheetId, {fields?}) answers {spreadsheetId, properties: {title, locale, timeZone},
 *   sheets: [{properties: {sheetId, title, index, sheetType: 'GRID', hidden?, gridProperties:
 *   {rowCount, columnCount, frozenRowCount?, frozenColumnCount?}}, filterViews?}]}: every field
 *   whatever `fields` asks for (the API may return less; a script that reads what it asked for works
 *   on both), empty lists and zero counts left out as the API does. Other optional arguments
 *   (ranges, includeGridData true…) are "not emulated". It is a read request: the read quota, priced
 *   and counted like the other Sheets API requests.
 * - Both act on Google's side: what SpreadsheetApp still buffers is not there yet. The emulator cannot
 *   show a spreadsheet without its buffered writes, so it takes the stricter reading and refuses the
 *   call while the running execution has writes buffered to the spreadsheet (flush first); get too,
 *   as Google's documents do not say that a read sees only committed state. Whether the Spreadsheet
 *   service shows a tab it adds in the same execution is the reading spreadsheetServiceSeesApiTab
 *   (readings.ts; service-env.ts, shownByService).
 */
import { AppsScriptException, strict } from '../core';
import { badRequest, openApiRequest, type SheetsServiceDeps, SheetsValues } from './api-sheets-advanced';
import {
  FilterViewInputError,
  type UpdatableFilterViewField,
  UPDATABLE_FILTER_VIEW_FIELDS,
  checkFilterSpecs,
  checkGridRange,
  checkTitle,
  filterViewResource,
  findFilterView,
  gridRangeBox,
  refuseFieldsNotEmulated,
} from './filter-views';
import { insertLinesBeside } from './structural-changes';
import { PROTECTED_EDIT } from './access-policy';
import { type ServiceEnv, isProtectedFrom } from './service-env';
import {
  type FilterViewData,
  NEW_SHEET_COLUMNS,
  NEW_SHEET_ROWS,
  type SheetModel,
  type WorkbookModel,
  copyFilterView,
} from './workbook-model';

const BATCH_UPDATE = 'sheets.spreadsheets.batchUpdate';
const GET = 'sheets.spreadsheets.get';

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

  /**
   * The spreadsheet's properties and its sheets' (with their filter views where they have any).
   * optionalArgs: fields (a field mask: more may come back than it asks for), includeGridData false.
   */
  get(spreadsheetId: unknown, optionalArgs?: unknown): unknown {
    if (optionalArgs !== undefined && optionalArgs !== null) {
      if (typeof optionalArgs !== 'object' || Array.isArray(optionalArgs))
        throw new AppsScriptException(`not emulated: ${GET} with optional arguments that are not an object`);
      const { fields, includeGridData, ...other } = optionalArgs as Record<string, unknown>;
      const unknown = Object.keys(other);
      if (includeGridData !== undefined && includeGridData !== false) unknown.push('includeGridData');
      if (unknown.length > 0)
        throw new AppsScriptException(`not emulated: ${GET} with ${unknown.join(', ')}`);
      if (fields !== undefined && typeof fields !== 'string')
        throw badRequest(GET, 'Invalid field selection: fields must be a string.');
    }
    const workbook = openApiRequest(this.#env, this.#deps, GET, spreadsheetId);
    this.#refuseBuffered(workbook, GET);
    this.#env.counter.recordSheetsApiRequest(0);
    return this.#env.realm.toScript({
      spreadsheetId: workbook.id,
      properties: { title: workbook.name, locale: workbook.locale, timeZone: workbook.timeZone },
      sheets: workbook.sheets.map((sheet, index) => ({
        properties: {
          sheetId: sheet.gid,
          title: sheet.name,
          index,
          sheetType: 'GRID',
          ...(sheet.hidden ? { hidden: true } : {}),
          gridProperties: {
            rowCount: sheet.maxRows,
            columnCount: sheet.maxColumns,
            ...(sheet.frozenRows > 0 ? { frozenRowCount: sheet.frozenRows } : {}),
            ...(sheet.frozenColumns > 0 ? { frozenColumnCount: sheet.frozenColumns } : {}),
          },
        },
        ...(sheet.filterViews.length > 0 ? { filterViews: sheet.filterViews.map(filterViewResource) } : {}),
      })),
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
      case 'addFilterView':
        return this.#addFilterView(fields, `${where}.addFilterView`);
      case 'updateFilterView':
        return this.#updateFilterView(fields, `${where}.updateFilterView`);
      case 'deleteFilterView':
        return this.#deleteFilterView(fields, `${where}.deleteFilterView`);
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

  /** The workbook's filter views as the batch's earlier requests will have left them, by id. */
  #views: Map<number, { sheet: SheetModel; view: FilterViewData }> | null = null;

  #filterViews(): Map<number, { sheet: SheetModel; view: FilterViewData }> {
    if (!this.#views) {
      this.#views = new Map();
      for (const sheet of this.#workbook.sheets)
        for (const view of sheet.filterViews) this.#views.set(view.filterViewId, { sheet, view });
    }
    return this.#views;
  }

  /** A filter view's input checked, its errors as the API (400) or the emulator (not emulated) has them. */
  #checked<T>(where: string, check: () => T): T {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof FilterViewInputError)) throw error;
      if (error.kind === 'not emulated')
        throw new AppsScriptException(`not emulated: ${BATCH_UPDATE} ${error.message}`);
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: ${error.message}`);
    }
  }

  /** The stricter reading (see the top): no filter view over cells a protection keeps from the user. */
  #refuseProtected(sheet: SheetModel, range: FilterViewData['range']): void {
    if (isProtectedFrom(this.#env, sheet, gridRangeBox(sheet, range)))
      throw badRequest(BATCH_UPDATE, PROTECTED_EDIT);
  }

  /** filter: title, range, filterSpecs, and optionally a free filterViewId. */
  #addFilterView(fields: Record<string, unknown>, where: string): () => void {
    const input = filterOfRequest(fields, where, ['filter']);
    const views = this.#filterViews();
    const view = this.#checked(where, () => {
      refuseFieldsNotEmulated(input, ['filterViewId', 'title', 'range', 'filterSpecs']);
      if (input.title === undefined)
        throw new FilterViewInputError('not emulated', 'addFilterView without a title');
      const title = checkTitle(input.title);
      const { range, sheet } = checkGridRange(input.range, (gid) => this.#workbook.sheetByGid(gid));
      const filterSpecs = checkFilterSpecs(input.filterSpecs, range, sheet);
      return { sheet, title, range, filterSpecs };
    });
    const { filterViewId } = input;
    if (filterViewId !== undefined) {
      if (
        !Number.isInteger(filterViewId) ||
        (filterViewId as number) < 0 ||
        (filterViewId as number) > 2_147_483_647
      )
        throw badRequest(
          BATCH_UPDATE,
          `Invalid ${where}: filterViewId is a whole number from 0 to 2147483647.`,
        );
      if (views.has(filterViewId as number) || this.#deletedViewIds.has(filterViewId as number))
        throw badRequest(
          BATCH_UPDATE,
          `Invalid ${where}: A filter view with id ${String(filterViewId)} already exists.`,
        );
    }
    this.#refuseProtected(view.sheet, view.range);
    const id =
      (filterViewId as number | undefined) ??
      this.#workbook.newFilterViewId(new Set([...views.keys(), ...this.#deletedViewIds]));
    const added: FilterViewData = {
      filterViewId: id,
      title: view.title,
      range: view.range,
      filterSpecs: view.filterSpecs,
    };
    views.set(id, { sheet: view.sheet, view: added });
    this.replies.push({ addFilterView: { filter: filterViewResource(added) } });
    const { sheet } = view;
    return () => {
      sheet.filterViews.push(copyFilterView(added));
    };
  }

  /** Ids the batch's earlier requests delete: not given again in the same batch (stricter). */
  readonly #deletedViewIds = new Set<number>();

  /** filter (its filterViewId, and the fields the mask names), fields: "*" or some of title, range, filterSpecs. */
  #updateFilterView(fields: Record<string, unknown>, where: string): () => void {
    const input = filterOfRequest(fields, where, ['filter', 'fields']);
    const named = this.#fieldMask(fields.fields, where);
    const { filterViewId } = input;
    const found = typeof filterViewId === 'number' ? this.#filterViews().get(filterViewId) : undefined;
    if (!found) throw badRequest(BATCH_UPDATE, `No filter view with id: ${String(filterViewId)}`);
    const updated = this.#checked(where, () => {
      refuseFieldsNotEmulated(input, ['filterViewId', 'title', 'range', 'filterSpecs']);
      const missing = named.find((field) => input[field] === undefined && field !== 'filterSpecs');
      if (missing)
        throw new FilterViewInputError('invalid', `fields names ${missing}, which filter does not give.`);
      const title = named.includes('title') ? checkTitle(input.title) : found.view.title;
      const { range, sheet } = named.includes('range')
        ? checkGridRange(input.range, (gid) => this.#workbook.sheetByGid(gid))
        : { range: found.view.range, sheet: found.sheet };
      // The specs kept or given must lie inside the range kept or given.
      const filterSpecs = checkFilterSpecs(
        named.includes('filterSpecs') ? input.filterSpecs : found.view.filterSpecs,
        range,
        sheet,
      );
      return { sheet, view: { filterViewId: found.view.filterViewId, title, range, filterSpecs } };
    });
    this.#refuseProtected(found.sheet, found.view.range);
    this.#refuseProtected(updated.sheet, updated.view.range);
    this.#filterViews().set(found.view.filterViewId, updated);
    this.replies.push({});
    return () => {
      // In its place on its sheet; to the end of the list of the sheet it moves to.
      const current = findFilterView(this.#workbook, found.view.filterViewId)!;
      const place = current.sheet.filterViews.indexOf(current.view);
      if (current.sheet === updated.sheet)
        current.sheet.filterViews.splice(place, 1, copyFilterView(updated.view));
      else {
        current.sheet.filterViews.splice(place, 1);
        updated.sheet.filterViews.push(copyFilterView(updated.view));
      }
    };
  }

  /** The fields an update names: "*" for all that are emulated, or a comma list. */
  #fieldMask(mask: unknown, where: string): UpdatableFilterViewField[] {
    if (typeof mask !== 'string' || mask.trim() === '')
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: 'fields' is required (a field mask, or "*").`);
    if (mask.trim() === '*') return [...UPDATABLE_FILTER_VIEW_FIELDS];
    return mask.split(',').map((part) => {
      const field = part.trim();
      if ((UPDATABLE_FILTER_VIEW_FIELDS as readonly string[]).includes(field))
        return field as UpdatableFilterViewField;
      const known = ['criteria', 'sortSpecs', 'namedRangeId', 'tableId', 'filterViewId'];
      if (known.includes(field.split('.')[0]!) || /^(title|range|filterSpecs)\./.test(field))
        throw new AppsScriptException(`not emulated: ${BATCH_UPDATE} updateFilterView with fields ${field}`);
      throw badRequest(
        BATCH_UPDATE,
        `Invalid ${where}: Invalid field mask: "${field}" is not a FilterView field.`,
      );
    });
  }

  /** filterId: a filter view of the spreadsheet. */
  #deleteFilterView(fields: Record<string, unknown>, where: string): () => void {
    const { filterId, ...other } = fields;
    if (Object.keys(other).length > 0)
      throw badRequest(
        BATCH_UPDATE,
        `Invalid ${where}: Unknown name "${Object.keys(other)[0]}": Cannot find field.`,
      );
    const found = typeof filterId === 'number' ? this.#filterViews().get(filterId) : undefined;
    if (!found) throw badRequest(BATCH_UPDATE, `No filter view with id: ${String(filterId)}`);
    this.#refuseProtected(found.sheet, found.view.range);
    this.#filterViews().delete(found.view.filterViewId);
    this.#deletedViewIds.add(found.view.filterViewId);
    this.replies.push({});
    return () => {
      const current = findFilterView(this.#workbook, found.view.filterViewId)!;
      current.sheet.filterViews.splice(current.sheet.filterViews.indexOf(current.view), 1);
    };
  }
}

/** A filter view request's `filter`, its other fields among `allowed` (an unknown one is refused as the API does). */
function filterOfRequest(
  fields: Record<string, unknown>,
  where: string,
  allowed: readonly string[],
): Record<string, unknown> {
  const unknownField = Object.keys(fields).find((key) => !allowed.includes(key));
  if (unknownField !== undefined)
    throw badRequest(BATCH_UPDATE, `Invalid ${where}: Unknown name "${unknownField}": Cannot find field.`);
  const { filter } = fields;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
    throw badRequest(BATCH_UPDATE, `Invalid ${where}: filter is required.`);
  return filter as Record<string, unknown>;
}
