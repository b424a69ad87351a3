/**
 * The `Sheets` global (the Sheets advanced service, api-sheets-advanced.ts has its rules) and its
 * Sheets.Spreadsheets.get and .batchUpdate, for what the add-on keeps there: named ranges and
 * protected ranges, over the same model as the Spreadsheet service (a protection made with
 * Range.protect() is a protectedRange here, with the same id, and the reverse).
 * - get needs `fields` (the emulator does not build a whole spreadsheet resource) and answers
 *   `namedRanges` and `sheets` with `properties` (sheetId, title) and `protectedRanges`.
 * - batchUpdate takes addNamedRange, updateNamedRange, addProtectedRange, updateProtectedRange,
 *   deleteProtectedRange, addSheet (title, sheetId, index, row and column counts) and appendDimension;
 *   any other request is "not emulated". A sheet the batch adds is not there for its later requests
 *   (stricter than the API, which applies them in order). It is atomic, as the API is: every
 *   request is checked (the sheet exists, the range lies in its grid, a name is valid and unique, an
 *   id exists) before any is applied, and a bad one changes nothing.
 * - Both see Google's side: what SpreadsheetApp still buffers is not there yet. The emulator cannot
 *   show a spreadsheet without its buffered writes, so it takes the stricter reading and refuses
 *   either call while the running execution has writes buffered to the spreadsheet (flush first).
 * - Ranges are GridRanges: 0-based, end exclusive; a missing end is the grid's end.
 */
import { AppsScriptException, strict } from '../core';
import { checkRangeNameForm } from './api-named-range';
import {
  badRequest,
  GoogleJsonResponseException,
  openApiRequest,
  type SheetsServiceDeps,
  SheetsValues,
} from './api-sheets-advanced';
import type { GridBox } from './grid-box';
import { insertLinesBeside } from './structural-changes';
import type { ServiceEnv } from './service-env';
import {
  MAX_CELLS_PER_WORKBOOK,
  type NamedRangeData,
  NEW_SHEET_COLUMNS,
  NEW_SHEET_ROWS,
  newNamedRange,
  newProtection,
  type ProtectionData,
  type SheetModel,
  type WorkbookModel,
} from './workbook-model';

const GET = 'sheets.spreadsheets.get';
const BATCH_UPDATE = 'sheets.spreadsheets.batchUpdate';

interface GridRange {
  sheetId: number;
  startRowIndex: number;
  endRowIndex: number;
  startColumnIndex: number;
  endColumnIndex: number;
}

/** The `Sheets` global: Sheets.Spreadsheets.{get, batchUpdate, Values.{batchUpdate, update}}. */
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

  get(spreadsheetId: unknown, options: unknown): unknown {
    const workbook = openApiRequest(this.#env, this.#deps, GET, spreadsheetId);
    const { fields } = (options ?? {}) as { fields?: unknown };
    if (typeof fields !== 'string' || fields === '')
      throw new AppsScriptException(`not emulated: ${GET} without fields`);
    this.#refuseBuffered(workbook, GET);
    this.#env.counter.recordSheetsApiRequest(0);
    return this.#env.realm.toScript({
      spreadsheetId: workbook.id,
      namedRanges: workbook.sheets.flatMap((sheet) =>
        sheet.namedRanges.map((named) => ({
          namedRangeId: named.id,
          name: named.name,
          range: gridRange(sheet, named.box),
        })),
      ),
      sheets: workbook.sheets.map((sheet) => ({
        properties: { sheetId: sheet.gid, title: sheet.name },
        protectedRanges: sheet.protections.map((protection) => ({
          protectedRangeId: protection.id,
          range: protection.box ? gridRange(sheet, protection.box) : { sheetId: sheet.gid },
          description: protection.description,
          warningOnly: protection.warningOnly,
        })),
      })),
    });
  }

  batchUpdate(resource: unknown, spreadsheetId: unknown): unknown {
    const workbook = openApiRequest(this.#env, this.#deps, BATCH_UPDATE, spreadsheetId, resource);
    this.#refuseBuffered(workbook, BATCH_UPDATE);
    const requests = (resource as { requests?: unknown }).requests;
    if (!Array.isArray(requests) || requests.length === 0)
      throw badRequest(BATCH_UPDATE, "Invalid requests: 'requests' must list at least one request.");
    // Checked against a copy of the names and protections, so that a later request sees an earlier
    // one's effect and a bad one anywhere leaves the spreadsheet as it was.
    const plan = new Plan(workbook, this.#env.access.context().userEmail);
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

function gridRange(sheet: SheetModel, box: GridBox): GridRange {
  return {
    sheetId: sheet.gid,
    startRowIndex: box.top - 1,
    endRowIndex: box.bottom,
    startColumnIndex: box.left - 1,
    endColumnIndex: box.right,
  };
}

/** The batch's requests checked in order against what the earlier ones will have made. */
class Plan {
  readonly replies: unknown[] = [];
  readonly #workbook: WorkbookModel;
  /** Names the batch adds, renames or keeps, by the named range (new ones by their data). */
  readonly #names = new Map<NamedRangeData, string>();
  /** Who makes the protections the batch adds: their first editor. */
  readonly #user: string;

  constructor(workbook: WorkbookModel, user: string) {
    this.#workbook = workbook;
    this.#user = user;
    for (const sheet of workbook.sheets)
      for (const named of sheet.namedRanges) this.#names.set(named, named.name);
  }

  check(request: unknown, where: string): () => void {
    const entries = typeof request === 'object' && request !== null ? Object.entries(request) : [];
    if (entries.length !== 1) throw badRequest(BATCH_UPDATE, `Invalid ${where}: a request names one kind.`);
    const [kind, body] = entries[0]!;
    const fields = (body ?? {}) as Record<string, unknown>;
    switch (kind) {
      case 'addNamedRange':
        return this.#addNamedRange(fields.namedRange, where);
      case 'updateNamedRange':
        return this.#updateNamedRange(fields, where);
      case 'addProtectedRange':
        return this.#addProtectedRange(fields.protectedRange, where);
      case 'updateProtectedRange':
        return this.#updateProtectedRange(fields, where);
      case 'deleteProtectedRange':
        return this.#deleteProtectedRange(fields.protectedRangeId, where);
      case 'addSheet':
        return this.#addSheet(fields.properties, where);
      case 'appendDimension':
        return this.#appendDimension(fields, where);
      default:
        throw new AppsScriptException(`not emulated: ${BATCH_UPDATE} request ${kind}`);
    }
  }

  #range(value: unknown, where: string): { sheet: SheetModel; box: GridBox } {
    const range = (value ?? {}) as Partial<GridRange>;
    const sheet = this.#workbook.sheets.find((candidate) => candidate.gid === range.sheetId);
    if (!sheet) throw badRequest(BATCH_UPDATE, `Invalid ${where}: No grid with id: ${String(range.sheetId)}`);
    const top = (range.startRowIndex ?? 0) + 1;
    const left = (range.startColumnIndex ?? 0) + 1;
    const bottom = range.endRowIndex ?? sheet.maxRows;
    const right = range.endColumnIndex ?? sheet.maxColumns;
    const whole = [top, left, bottom, right].every(Number.isInteger);
    if (!whole || top < 1 || left < 1 || bottom < top || right < left) {
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: the range is empty or not a range.`);
    }
    if (bottom > sheet.maxRows || right > sheet.maxColumns) {
      throw badRequest(
        BATCH_UPDATE,
        `Invalid ${where}: Range ('${sheet.name}'!R${top}C${left}:R${bottom}C${right}) exceeds grid limits. Max rows: ${sheet.maxRows}, max columns: ${sheet.maxColumns}`,
      );
    }
    return { sheet, box: { top, left, bottom, right } };
  }

  #checkName(name: unknown, where: string, self?: NamedRangeData): string {
    if (typeof name !== 'string')
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: a named range needs a name.`);
    try {
      checkRangeNameForm(name);
    } catch (error) {
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: ${(error as Error).message}`);
    }
    // Unique among the names the spreadsheet will have once the batch's earlier requests are applied.
    for (const [named, taken] of this.#names) {
      if (named !== self && taken.toLowerCase() === name.toLowerCase())
        throw badRequest(BATCH_UPDATE, `Invalid ${where}: A named range called "${name}" already exists.`);
    }
    return name;
  }

  #addNamedRange(value: unknown, where: string): () => void {
    const { name, range } = (value ?? {}) as { name?: unknown; range?: unknown };
    const checkedName = this.#checkName(name, where);
    const { sheet, box } = this.#range(range, where);
    const named = newNamedRange(checkedName, box);
    this.#names.set(named, checkedName);
    this.replies.push({ addNamedRange: { namedRange: { namedRangeId: named.id, name: checkedName } } });
    return () => sheet.namedRanges.push(named);
  }

  #updateNamedRange(fields: Record<string, unknown>, where: string): () => void {
    const { namedRange, fields: mask } = fields as { namedRange?: Record<string, unknown>; fields?: unknown };
    const found = this.#workbook.sheets
      .flatMap((sheet) => sheet.namedRanges.map((named) => ({ sheet, named })))
      .find(({ named }) => named.id === namedRange?.namedRangeId);
    if (!found)
      throw badRequest(
        BATCH_UPDATE,
        `Invalid ${where}: No named range with id ${String(namedRange?.namedRangeId)}`,
      );
    const masked = maskOf(mask, where, ['name', 'range']);
    const name = masked.has('name')
      ? this.#checkName(namedRange!.name, where, found.named)
      : found.named.name;
    const target = masked.has('range') ? this.#range(namedRange!.range, where) : null;
    this.#names.set(found.named, name);
    this.replies.push({});
    return () => {
      found.named.name = name;
      if (!target) return;
      found.named.box = target.box;
      if (target.sheet !== found.sheet) {
        found.sheet.namedRanges = found.sheet.namedRanges.filter((named) => named !== found.named);
        target.sheet.namedRanges.push(found.named);
      }
    };
  }

  #protection(id: unknown, where: string): { sheet: SheetModel; protection: ProtectionData } {
    for (const sheet of this.#workbook.sheets) {
      const protection = sheet.protections.find((candidate) => candidate.id === id);
      if (protection) return { sheet, protection };
    }
    throw badRequest(BATCH_UPDATE, `Invalid ${where}: No protected range with id ${String(id)}`);
  }

  #addProtectedRange(value: unknown, where: string): () => void {
    const { range, description = '', warningOnly = false } = (value ?? {}) as Record<string, unknown>;
    if (typeof description !== 'string' || typeof warningOnly !== 'boolean')
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: description is text and warningOnly true or false.`);
    const { sheet, box } = this.#range(range, where);
    const protection = { ...newProtection('RANGE', box, this.#user), description, warningOnly };
    this.replies.push({ addProtectedRange: { protectedRange: { protectedRangeId: protection.id } } });
    return () => sheet.protections.push(protection);
  }

  #updateProtectedRange(fields: Record<string, unknown>, where: string): () => void {
    const { protectedRange, fields: mask } = fields as {
      protectedRange?: Record<string, unknown>;
      fields?: unknown;
    };
    const { sheet, protection } = this.#protection(protectedRange?.protectedRangeId, where);
    const masked = maskOf(mask, where, ['range', 'description', 'warningOnly']);
    const target = masked.has('range') ? this.#range(protectedRange!.range, where) : null;
    if (target && (target.sheet !== sheet || protection.type !== 'RANGE'))
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: a protected range stays on its sheet.`);
    const { description, warningOnly } = protectedRange!;
    if (masked.has('description') && typeof description !== 'string')
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: description is text.`);
    if (masked.has('warningOnly') && typeof warningOnly !== 'boolean')
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: warningOnly is true or false.`);
    this.replies.push({});
    return () => {
      if (target) protection.box = target.box;
      if (masked.has('description')) protection.description = description as string;
      if (masked.has('warningOnly')) protection.warningOnly = warningOnly as boolean;
    };
  }

  /** Cells the batch's earlier requests add, for the workbook's limit. */
  #addedCells = 0;
  /** Titles and ids of the sheets the batch's earlier requests add. */
  readonly #addedTitles: string[] = [];
  readonly #addedIds = new Set<number>();

  #checkCellBudget(cells: number, where: string): void {
    if (this.#workbook.cellCount() + this.#addedCells + cells > MAX_CELLS_PER_WORKBOOK) {
      throw badRequest(
        BATCH_UPDATE,
        `Invalid ${where}: This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS_PER_WORKBOOK} cells.`,
      );
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
      this.#workbook.addSheet(title, (index as number | undefined) ?? this.#workbook.sheets.length, {
        gid,
        rows: rowCount as number,
        columns: columnCount as number,
      });
    };
  }

  /** Rows or columns added at the end of a sheet that was there before the batch. */
  #appendDimension(fields: Record<string, unknown>, where: string): () => void {
    const { sheetId, dimension, length } = fields;
    const sheet = this.#workbook.sheets.find((candidate) => candidate.gid === sheetId);
    if (!sheet) throw badRequest(BATCH_UPDATE, `Invalid ${where}: No grid with id: ${String(sheetId)}`);
    if (dimension !== 'ROWS' && dimension !== 'COLUMNS')
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: dimension is ROWS or COLUMNS.`);
    if (!Number.isInteger(length) || (length as number) < 1)
      throw badRequest(BATCH_UPDATE, `Invalid ${where}: length must be at least 1.`);
    const lines = dimension === 'ROWS' ? 'rows' : 'columns';
    this.#checkCellBudget((length as number) * (lines === 'rows' ? sheet.maxColumns : sheet.maxRows), where);
    this.replies.push({});
    return () => {
      const last = lines === 'rows' ? sheet.maxRows : sheet.maxColumns;
      insertLinesBeside(sheet, lines, last, length as number, 'after');
    };
  }

  #deleteProtectedRange(id: unknown, where: string): () => void {
    const { sheet, protection } = this.#protection(id, where);
    this.replies.push({});
    return () => {
      sheet.protections = sheet.protections.filter((other) => other !== protection);
    };
  }
}

/** An update's field mask ("range,description"); '*' is not emulated, an unknown field is refused. */
function maskOf(mask: unknown, where: string, known: readonly string[]): Set<string> {
  if (typeof mask !== 'string' || mask === '' || mask === '*')
    throw new GoogleJsonResponseException(
      BATCH_UPDATE,
      400,
      `Invalid ${where}: fields must list what to update.`,
    );
  const fields = mask.split(',').map((field) => field.trim());
  const unknown = fields.filter((field) => !known.includes(field));
  if (unknown.length > 0)
    throw new AppsScriptException(`not emulated: ${BATCH_UPDATE} updating ${unknown.join(', ')}`);
  return new Set(fields);
}
