/** The script-visible Sheet. */
import { AppsScriptException, strict } from '../core';
import { parseA1, referenceBox } from './a1-notation';
import { givenArguments, requireIntegers, requireString, signatureMismatch } from './arguments';
import { ruleDataOf } from './api-conditional-formats';
import { type ClearOptions, checkedBox, clearBox } from './api-range';
import { checkCellInput, writeCellInput } from './cell-input';
import { displayValue } from './cell-values';
import { type GridBox, boxOf } from './grid-box';
import { PROTECTION_TYPES, isMemberOf } from './script-enums';
import { type ServiceEnv, readableSheet, toScriptArray, writableSheet } from './service-env';
import {
  DEFAULT_COLUMN_WIDTH,
  type SheetModel,
  deleteLines,
  insertLines,
  newProtection,
  sheetColumnWidth,
} from './workbook-model';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

const sheetModels = new WeakMap<object, SheetModel>();

export function sheetModelOf(value: unknown): SheetModel | undefined {
  return typeof value === 'object' && value !== null ? sheetModels.get(value) : undefined;
}

export function exposeSheet(env: ServiceEnv, sheet: SheetModel): Sheet {
  return new SheetApi(env, sheet) as unknown as Sheet;
}

/** Resolves A1 notation on a sheet; a sheet name in it must be this sheet's. */
export function boxOfA1(sheet: SheetModel, a1: string): GridBox {
  const reference = parseA1(a1);
  if (!reference || (reference.sheetName !== null && reference.sheetName !== sheet.name)) {
    throw new AppsScriptException('Range not found');
  }
  return checkedBox(sheet, referenceBox(reference, sheet.maxRows, sheet.maxColumns));
}

/** Rough pixel width of a column's widest displayed text, as autoResizeColumns would measure it. */
function fittedWidth(sheet: SheetModel, column: number): number {
  const box = { top: 1, left: column, bottom: sheet.maxRows, right: column };
  let widest = 0;
  for (const { cell } of sheet.cells.cellsIn(box)) {
    const characterWidth = cell.fontWeight === 'bold' ? 8 : 7;
    widest = Math.max(widest, displayValue(cell).length * characterWidth + 10);
  }
  return widest === 0 ? DEFAULT_COLUMN_WIDTH : widest;
}

type SheetMethod =
  | 'getName'
  | 'setName'
  | 'getSheetId'
  | 'getIndex'
  | 'getParent'
  | 'activate'
  | 'getRange'
  | 'getRangeList'
  | 'getDataRange'
  | 'getLastRow'
  | 'getLastColumn'
  | 'getMaxRows'
  | 'getMaxColumns'
  | 'appendRow'
  | 'insertRowsAfter'
  | 'insertRowsBefore'
  | 'insertColumnsAfter'
  | 'insertColumnsBefore'
  | 'deleteRows'
  | 'deleteColumns'
  | 'clear'
  | 'clearContents'
  | 'clearFormats'
  | 'setFrozenRows'
  | 'getFrozenRows'
  | 'setFrozenColumns'
  | 'getFrozenColumns'
  | 'getFilter'
  | 'setColumnWidth'
  | 'setColumnWidths'
  | 'getColumnWidth'
  | 'autoResizeColumns'
  | 'hideColumns'
  | 'showColumns'
  | 'isColumnHiddenByUser'
  | 'hideSheet'
  | 'showSheet'
  | 'isSheetHidden'
  | 'getConditionalFormatRules'
  | 'setConditionalFormatRules'
  | 'clearConditionalFormatRules'
  | 'protect'
  | 'getProtections';

class SheetApi implements Pick<Sheet, SheetMethod> {
  readonly #env: ServiceEnv;
  readonly #sheet: SheetModel;
  readonly #self: SheetApi;

  constructor(env: ServiceEnv, sheet: SheetModel) {
    this.#env = env;
    this.#sheet = sheet;
    this.#self = strict('Sheet', this, env.counter);
    sheetModels.set(this.#self, sheet);
    return this.#self;
  }

  get #public(): Sheet {
    return this.#self as unknown as Sheet;
  }

  #read(): SheetModel {
    return readableSheet(this.#env, this.#sheet);
  }

  #write(method: string): SheetModel {
    return writableSheet(this.#env, this.#sheet, method);
  }

  getName(): string {
    return this.#read().name;
  }

  setName(name: string): Sheet {
    requireString('Sheet.setName', [name], name);
    const sheet = this.#write('setName');
    sheet.workbook.checkSheetName(name, sheet);
    sheet.name = name;
    return this.#public;
  }

  getSheetId(): number {
    return this.#read().gid;
  }

  getIndex(): number {
    const sheet = this.#read();
    return sheet.workbook.sheets.indexOf(sheet) + 1;
  }

  getParent(): GoogleAppsScript.Spreadsheet.Spreadsheet {
    return this.#env.classes.spreadsheet(this.#read().workbook);
  }

  activate(): Sheet {
    const sheet = this.#write('activate');
    sheet.workbook.activeSheet = sheet;
    return this.#public;
  }

  getRange(rowOrA1: number | string, column?: number, numRows?: number, numColumns?: number): Range {
    const args = givenArguments(rowOrA1, column, numRows, numColumns);
    const sheet = this.#read();
    if (typeof rowOrA1 === 'string' && args.length === 1)
      return this.#env.classes.range(sheet, boxOfA1(sheet, rowOrA1));
    if (args.length < 2) throw signatureMismatch('Sheet.getRange', args);
    requireIntegers('Sheet.getRange', args, args);
    const box = boxOf(rowOrA1 as number, column!, numRows ?? 1, numColumns ?? 1);
    return this.#env.classes.range(sheet, checkedBox(sheet, box));
  }

  getRangeList(a1Notations: string[]): GoogleAppsScript.Spreadsheet.RangeList {
    if (!Array.isArray(a1Notations) || !a1Notations.every((a1) => typeof a1 === 'string')) {
      throw signatureMismatch('Sheet.getRangeList', [a1Notations]);
    }
    const sheet = this.#read();
    return this.#env.classes.rangeList(
      sheet,
      a1Notations.map((a1) => boxOfA1(sheet, a1)),
    );
  }

  getDataRange(): Range {
    const sheet = this.#read();
    const box = boxOf(
      1,
      1,
      Math.max(1, sheet.cells.lastRowWithContent()),
      Math.max(1, sheet.cells.lastColumnWithContent()),
    );
    return this.#env.classes.range(sheet, box);
  }

  getLastRow(): number {
    return this.#read().cells.lastRowWithContent();
  }

  getLastColumn(): number {
    return this.#read().cells.lastColumnWithContent();
  }

  getMaxRows(): number {
    return this.#read().maxRows;
  }

  getMaxColumns(): number {
    return this.#read().maxColumns;
  }

  /** Writes after the last row with content, adding a row when the sheet is full, as Sheets does. */
  appendRow(rowContents: unknown[]): Sheet {
    const sheet = this.#write('appendRow');
    if (!Array.isArray(rowContents) || rowContents.length === 0)
      throw signatureMismatch('Sheet.appendRow', [rowContents]);
    rowContents.forEach((value, i) => checkCellInput(value, `column ${i + 1} of the row`));
    const row = sheet.cells.lastRowWithContent() + 1;
    if (row > sheet.maxRows) insertLines(sheet, 'rows', row, 1);
    const missingColumns = rowContents.length - sheet.maxColumns;
    if (missingColumns > 0) insertLines(sheet, 'columns', sheet.maxColumns + 1, missingColumns);
    const customFunctions = this.#env.evaluateCustomFunction !== undefined;
    rowContents.forEach((value, i) => writeCellInput(sheet, row, i + 1, value, customFunctions));
    return this.#public;
  }

  #insert(
    method: string,
    dimension: 'rows' | 'columns',
    position: number,
    howMany: number,
    after: boolean,
  ): Sheet {
    requireIntegers(`Sheet.${method}`, [position, howMany], [position, howMany]);
    const sheet = this.#write(method);
    const size = dimension === 'rows' ? sheet.maxRows : sheet.maxColumns;
    if (position < 1 || position > size || howMany < 1) {
      throw new AppsScriptException(`Those ${dimension} are out of bounds.`);
    }
    insertLines(sheet, dimension, after ? position + 1 : position, howMany);
    return this.#public;
  }

  insertRowsAfter(afterPosition: number, howMany: number): Sheet {
    return this.#insert('insertRowsAfter', 'rows', afterPosition, howMany, true);
  }

  insertRowsBefore(beforePosition: number, howMany: number): Sheet {
    return this.#insert('insertRowsBefore', 'rows', beforePosition, howMany, false);
  }

  insertColumnsAfter(afterPosition: number, howMany: number): Sheet {
    return this.#insert('insertColumnsAfter', 'columns', afterPosition, howMany, true);
  }

  insertColumnsBefore(beforePosition: number, howMany: number): Sheet {
    return this.#insert('insertColumnsBefore', 'columns', beforePosition, howMany, false);
  }

  #delete(method: string, dimension: 'rows' | 'columns', position: number, howMany: number): void {
    requireIntegers(`Sheet.${method}`, [position, howMany], [position, howMany]);
    const sheet = this.#write(method);
    const size = dimension === 'rows' ? sheet.maxRows : sheet.maxColumns;
    const frozen = dimension === 'rows' ? sheet.frozenRows : sheet.frozenColumns;
    if (position < 1 || howMany < 1 || position + howMany - 1 > size) {
      throw new AppsScriptException(`Those ${dimension} are out of bounds.`);
    }
    if (size - howMany <= frozen) {
      throw new AppsScriptException(`Sorry, it is not possible to delete all non-frozen ${dimension}.`);
    }
    deleteLines(sheet, dimension, position, howMany);
  }

  deleteRows(rowPosition: number, howMany: number): void {
    this.#delete('deleteRows', 'rows', rowPosition, howMany);
  }

  deleteColumns(columnPosition: number, howMany: number): void {
    this.#delete('deleteColumns', 'columns', columnPosition, howMany);
  }

  #clear(method: string, options: ClearOptions | undefined): Sheet {
    const sheet = this.#write(method);
    clearBox(
      sheet,
      { top: 1, left: 1, bottom: sheet.maxRows, right: sheet.maxColumns },
      options,
      `Sheet.${method}`,
    );
    return this.#public;
  }

  clear(options?: { formatOnly?: boolean; contentsOnly?: boolean }): Sheet {
    if (options !== undefined && (typeof options !== 'object' || options === null)) {
      throw signatureMismatch('Sheet.clear', [options]);
    }
    return this.#clear('clear', options);
  }

  clearContents(): Sheet {
    return this.#clear('clearContents', { contentsOnly: true });
  }

  clearFormats(): Sheet {
    return this.#clear('clearFormats', { formatOnly: true });
  }

  #freeze(method: string, dimension: 'rows' | 'columns', count: number): void {
    requireIntegers(`Sheet.${method}`, [count], [count]);
    const sheet = this.#write(method);
    const size = dimension === 'rows' ? sheet.maxRows : sheet.maxColumns;
    if (count < 0 || count >= size) {
      throw new AppsScriptException(`You can't freeze all visible ${dimension} on the sheet.`);
    }
    if (dimension === 'rows') sheet.frozenRows = count;
    else sheet.frozenColumns = count;
  }

  setFrozenRows(rows: number): void {
    this.#freeze('setFrozenRows', 'rows', rows);
  }

  getFrozenRows(): number {
    return this.#read().frozenRows;
  }

  setFrozenColumns(columns: number): void {
    this.#freeze('setFrozenColumns', 'columns', columns);
  }

  getFrozenColumns(): number {
    return this.#read().frozenColumns;
  }

  getFilter(): GoogleAppsScript.Spreadsheet.Filter | null {
    const sheet = this.#read();
    return sheet.filter && this.#env.classes.filter(sheet, sheet.filter);
  }

  /** Checks integer arguments and that columns start … start + count − 1 exist. */
  #columns(sheet: SheetModel, method: string, args: unknown[], start: number, count: number): SheetModel {
    requireIntegers(`Sheet.${method}`, args, args);
    if (start < 1 || count < 1 || start + count - 1 > sheet.maxColumns) {
      throw new AppsScriptException('Those columns are out of bounds.');
    }
    return sheet;
  }

  #setWidths(method: string, args: number[], start: number, count: number, width: number): Sheet {
    const sheet = this.#columns(this.#write(method), method, args, start, count);
    if (width < 0) throw signatureMismatch(`Sheet.${method}`, args);
    for (let column = start; column < start + count; column++) sheet.columnWidths.set(column, width);
    return this.#public;
  }

  setColumnWidth(columnPosition: number, width: number): Sheet {
    return this.#setWidths('setColumnWidth', [columnPosition, width], columnPosition, 1, width);
  }

  setColumnWidths(startColumn: number, numColumns: number, width: number): Sheet {
    const args = [startColumn, numColumns, width];
    return this.#setWidths('setColumnWidths', args, startColumn, numColumns, width);
  }

  getColumnWidth(columnPosition: number): number {
    const sheet = this.#columns(this.#read(), 'getColumnWidth', [columnPosition], columnPosition, 1);
    return sheetColumnWidth(sheet, columnPosition);
  }

  autoResizeColumns(startColumn: number, numColumns: number): Sheet {
    const args = [startColumn, numColumns];
    const sheet = this.#columns(
      this.#write('autoResizeColumns'),
      'autoResizeColumns',
      args,
      startColumn,
      numColumns,
    );
    for (let column = startColumn; column < startColumn + numColumns; column++) {
      sheet.columnWidths.set(column, fittedWidth(sheet, column));
    }
    return this.#public;
  }

  hideColumns(columnIndex: number, numColumns?: number): void {
    this.#setColumnsHidden('hideColumns', columnIndex, numColumns, true);
  }

  showColumns(columnIndex: number, numColumns?: number): void {
    this.#setColumnsHidden('showColumns', columnIndex, numColumns, false);
  }

  #setColumnsHidden(method: string, start: number, count: number | undefined, hidden: boolean): void {
    const args = count === undefined ? [start] : [start, count];
    const sheet = this.#columns(this.#write(method), method, args, start, count ?? 1);
    for (let column = start; column < start + (count ?? 1); column++) {
      if (hidden) sheet.hiddenColumns.add(column);
      else sheet.hiddenColumns.delete(column);
    }
  }

  isColumnHiddenByUser(columnPosition: number): boolean {
    const sheet = this.#columns(this.#read(), 'isColumnHiddenByUser', [columnPosition], columnPosition, 1);
    return sheet.hiddenColumns.has(columnPosition);
  }

  hideSheet(): Sheet {
    const sheet = this.#write('hideSheet');
    sheet.workbook.hideSheet(sheet);
    return this.#public;
  }

  showSheet(): Sheet {
    this.#write('showSheet').hidden = false;
    return this.#public;
  }

  isSheetHidden(): boolean {
    return this.#read().hidden;
  }

  getConditionalFormatRules(): GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] {
    const sheet = this.#read();
    const rules = sheet.conditionalRules.map((rule) =>
      this.#env.classes.conditionalFormatRule({
        ...rule,
        values: [...rule.values],
        format: { ...rule.format },
        ranges: rule.ranges.map((box) => ({ sheet, box })),
      }),
    );
    return toScriptArray(this.#env.realm, rules);
  }

  /** Replaces every rule of the sheet, as Sheets does: read, append, set. */
  setConditionalFormatRules(rules: GoogleAppsScript.Spreadsheet.ConditionalFormatRule[]): void {
    const sheet = this.#write('setConditionalFormatRules');
    if (!Array.isArray(rules)) throw signatureMismatch('Sheet.setConditionalFormatRules', [rules]);
    sheet.conditionalRules = rules.map((rule) => {
      const data = ruleDataOf(rule);
      if (!data) throw signatureMismatch('Sheet.setConditionalFormatRules', [rules]);
      if (data.ranges.length === 0)
        throw new AppsScriptException('A conditional format rule must have at least one range.');
      if (data.ranges.some((range) => range.sheet !== sheet)) {
        throw new AppsScriptException(
          'A conditional format rule can only apply to ranges of the sheet it is set on.',
        );
      }
      return {
        ...data,
        values: [...data.values],
        format: { ...data.format },
        ranges: data.ranges.map((range) => range.box),
      };
    });
  }

  clearConditionalFormatRules(): void {
    this.#write('clearConditionalFormatRules').conditionalRules = [];
  }

  /** A sheet has at most one sheet protection: protecting it again returns the existing one. */
  protect(): GoogleAppsScript.Spreadsheet.Protection {
    const sheet = this.#write('protect');
    let protection = sheet.protections.find((existing) => existing.type === 'SHEET');
    if (!protection) {
      protection = newProtection('SHEET', null, this.#env.access.context().userEmail);
      sheet.protections.push(protection);
    }
    return this.#env.classes.protection(sheet, protection);
  }

  getProtections(
    type: GoogleAppsScript.Spreadsheet.ProtectionType,
  ): GoogleAppsScript.Spreadsheet.Protection[] {
    if (!isMemberOf(PROTECTION_TYPES, type)) throw signatureMismatch('Sheet.getProtections', [type]);
    const sheet = this.#read();
    const protections = sheet.protections.filter((protection) => protection.type === type);
    return toScriptArray(
      this.#env.realm,
      protections.map((protection) => this.#env.classes.protection(sheet, protection)),
    );
  }
}
