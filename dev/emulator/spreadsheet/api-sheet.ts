/** The script-visible Sheet. */
import { AppsScriptException, strict } from '../core';
import { parseA1, referenceBox } from './a1-notation';
import { givenArguments, requireIntegers, requireString, signatureMismatch } from './arguments';
import { exposeChartBuilder, exposeInsertedChart, insertChart } from './api-charts';
import { ruleDataOf } from './api-conditional-formats';
import { type ClearOptions, checkedBox, clearBox, rangeRefOf } from './api-range';
import { checkCellInput, writeCellInput } from './cell-input';
import { isRowHiddenByFilter } from './filter-rows';
import { type GridBox, boxOf } from './grid-box';
import { PROTECTION_TYPES, isMemberOf } from './script-enums';
import {
  type ServiceEnv,
  type WriteScope,
  addressableSheet,
  editableSheet,
  formulaSupport,
  readableSheet,
  requireUnprotected,
  toScriptArray,
  writableSheet,
} from './service-env';
import { deleteLines, insertLines, insertLinesBeside, moveLines, renameSheet } from './structural-changes';
import { checkScriptWrites, gridWrites } from './validation-check';
import { type SheetModel, newProtection } from './workbook-model';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

const sheetModels = new WeakMap<object, SheetModel>();

/** The sheet behind a Sheet the script passed in (Spreadsheet.deleteSheet), or undefined if it is not one. */
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

type SheetMethod =
  | 'getParent'
  | 'getName'
  | 'setName'
  | 'getSheetId'
  | 'activate'
  | 'getRange'
  | 'getRangeList'
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
  | 'moveRows'
  | 'moveColumns'
  | 'clear'
  | 'clearContents'
  | 'setFrozenRows'
  | 'getFrozenRows'
  | 'setFrozenColumns'
  | 'getFrozenColumns'
  | 'getFilter'
  | 'isRowHiddenByFilter'
  | 'setColumnWidth'
  | 'hideColumns'
  | 'hideSheet'
  | 'isSheetHidden'
  | 'getConditionalFormatRules'
  | 'setConditionalFormatRules'
  | 'clearConditionalFormatRules'
  | 'protect'
  | 'getProtections'
  | 'getNamedRanges'
  | 'newChart'
  | 'insertChart'
  | 'getCharts';

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

  /**
   * A write to the tab: by default its settings and structure, which only a sheet protection stops;
   * `scope` names the cells a write changes (deleted lines, an appended row, a cleared sheet).
   */
  #write(method: string, scope: WriteScope = 'sheet'): SheetModel {
    return editableSheet(this.#env, this.#sheet, method, scope);
  }

  #wholeBox(): GridBox {
    return { top: 1, left: 1, bottom: this.#sheet.maxRows, right: this.#sheet.maxColumns };
  }

  getName(): string {
    return this.#read().name;
  }

  /** Counted as a read: whether Google commits buffered writes for it is not documented. */
  getParent(): GoogleAppsScript.Spreadsheet.Spreadsheet {
    return this.#env.classes.spreadsheet(this.#read().workbook);
  }

  /** Renames the tab and every reference to it in the workbook's formulas. */
  setName(name: string): Sheet {
    requireString('Sheet.setName', [name], name);
    renameSheet(this.#write('setName'), name);
    return this.#public;
  }

  getSheetId(): number {
    return this.#read().gid;
  }

  activate(): Sheet {
    const sheet = writableSheet(this.#env, this.#sheet, 'activate');
    sheet.workbook.activeSheet = sheet;
    return this.#public;
  }

  getRange(rowOrA1: number | string, column?: number, numRows?: number, numColumns?: number): Range {
    const args = givenArguments(rowOrA1, column, numRows, numColumns);
    const sheet = addressableSheet(this.#env, this.#sheet);
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
    const sheet = addressableSheet(this.#env, this.#sheet);
    return this.#env.classes.rangeList(
      sheet,
      a1Notations.map((a1) => boxOfA1(sheet, a1)),
    );
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
    const appended = sheet.cells.lastRowWithContent() + 1;
    requireUnprotected(this.#env, sheet, boxOf(appended, 1, 1, Math.max(rowContents.length, 1)));
    rowContents.forEach((value, i) => checkCellInput(value, `column ${i + 1} of the row`));
    const formulas = formulaSupport(this.#env);
    checkScriptWrites(sheet, gridWrites(appended, 1, [rowContents]), 'typed', formulas);
    const row = sheet.cells.lastRowWithContent() + 1;
    if (row > sheet.maxRows) insertLines(sheet, 'rows', row, 1);
    const missingColumns = rowContents.length - sheet.maxColumns;
    if (missingColumns > 0) insertLines(sheet, 'columns', sheet.maxColumns + 1, missingColumns);
    rowContents.forEach((value, i) => writeCellInput(sheet, row, i + 1, value, formulas));
    return this.#public;
  }

  #insert(
    method: string,
    dimension: 'rows' | 'columns',
    position: number,
    howMany: number,
    side: 'before' | 'after',
  ): Sheet {
    requireIntegers(`Sheet.${method}`, [position, howMany], [position, howMany]);
    insertLinesBeside(this.#write(method), dimension, position, howMany, side);
    return this.#public;
  }

  insertRowsAfter(afterPosition: number, howMany: number): Sheet {
    return this.#insert('insertRowsAfter', 'rows', afterPosition, howMany, 'after');
  }

  insertRowsBefore(beforePosition: number, howMany: number): Sheet {
    return this.#insert('insertRowsBefore', 'rows', beforePosition, howMany, 'before');
  }

  insertColumnsAfter(afterPosition: number, howMany: number): Sheet {
    return this.#insert('insertColumnsAfter', 'columns', afterPosition, howMany, 'after');
  }

  insertColumnsBefore(beforePosition: number, howMany: number): Sheet {
    return this.#insert('insertColumnsBefore', 'columns', beforePosition, howMany, 'before');
  }

  #delete(method: string, dimension: 'rows' | 'columns', position: number, howMany: number): void {
    requireIntegers(`Sheet.${method}`, [position, howMany], [position, howMany]);
    const lines =
      dimension === 'rows'
        ? { ...this.#wholeBox(), top: position, bottom: position + howMany - 1 }
        : { ...this.#wholeBox(), left: position, right: position + howMany - 1 };
    deleteLines(this.#write(method, lines), dimension, position, howMany);
  }

  deleteRows(rowPosition: number, howMany: number): void {
    this.#delete('deleteRows', 'rows', rowPosition, howMany);
  }

  deleteColumns(columnPosition: number, howMany: number): void {
    this.#delete('deleteColumns', 'columns', columnPosition, howMany);
  }

  /** Moves the rows or columns the range spans to before `destinationIndex` (numbered before the move). */
  #move(method: string, dimension: 'rows' | 'columns', spec: Range, destinationIndex: number): void {
    const ref = rangeRefOf(spec);
    if (!ref || !Number.isInteger(destinationIndex))
      throw signatureMismatch(`Sheet.${method}`, [spec, destinationIndex]);
    const sheet = this.#write(method, 'whole');
    if (ref.sheet !== sheet)
      throw new AppsScriptException('The range must be on the sheet whose lines move.');
    const [start, end] = dimension === 'rows' ? [ref.box.top, ref.box.bottom] : [ref.box.left, ref.box.right];
    moveLines(sheet, dimension, start, end - start + 1, destinationIndex);
  }

  moveRows(rowSpec: Range, destinationIndex: number): void {
    this.#move('moveRows', 'rows', rowSpec, destinationIndex);
  }

  moveColumns(columnSpec: Range, destinationIndex: number): void {
    this.#move('moveColumns', 'columns', columnSpec, destinationIndex);
  }

  #clear(method: string, options: ClearOptions | undefined): Sheet {
    const sheet = this.#write(method, 'whole');
    // Priced by the cells in use: Sheets keeps nothing for the empty ones.
    this.#env.counter.recordCellsRangeWide(
      sheet.cells.lastRowWithContent() * sheet.cells.lastColumnWithContent(),
    );
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

  setFrozenRows(rows: number): void {
    requireIntegers('Sheet.setFrozenRows', [rows], [rows]);
    const sheet = this.#write('setFrozenRows');
    if (rows < 0 || rows >= sheet.maxRows) {
      throw new AppsScriptException("You can't freeze all visible rows on the sheet.");
    }
    sheet.frozenRows = rows;
  }

  getFrozenRows(): number {
    return this.#read().frozenRows;
  }

  setFrozenColumns(columns: number): void {
    requireIntegers('Sheet.setFrozenColumns', [columns], [columns]);
    const sheet = this.#write('setFrozenColumns');
    if (columns < 0 || columns >= sheet.maxColumns) {
      throw new AppsScriptException("You can't freeze all visible columns on the sheet.");
    }
    sheet.frozenColumns = columns;
  }

  getFrozenColumns(): number {
    return this.#read().frozenColumns;
  }

  getFilter(): GoogleAppsScript.Spreadsheet.Filter | null {
    const sheet = this.#read();
    return sheet.filter && this.#env.classes.filter(sheet, sheet.filter);
  }

  isRowHiddenByFilter(rowPosition: number): boolean {
    requireIntegers('Sheet.isRowHiddenByFilter', [rowPosition], [rowPosition]);
    return isRowHiddenByFilter(this.#read(), rowPosition);
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

  hideColumns(columnIndex: number, numColumns?: number): void {
    this.#setColumnsHidden('hideColumns', columnIndex, numColumns, true);
  }

  #setColumnsHidden(method: string, start: number, count: number | undefined, hidden: boolean): void {
    const args = count === undefined ? [start] : [start, count];
    const sheet = this.#columns(this.#write(method), method, args, start, count ?? 1);
    for (let column = start; column < start + (count ?? 1); column++) {
      if (hidden) sheet.hiddenColumns.add(column);
      else sheet.hiddenColumns.delete(column);
    }
  }

  hideSheet(): Sheet {
    const sheet = this.#write('hideSheet');
    sheet.workbook.hideSheet(sheet);
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
    const sheet = writableSheet(this.#env, this.#sheet, 'protect');
    let protection = sheet.protections.find((existing) => existing.type === 'SHEET');
    if (!protection) {
      protection = newProtection('SHEET', null, this.#env.access.context().userEmail);
      sheet.protections.push(protection);
    }
    return this.#env.classes.protection(sheet, protection);
  }

  /** The named ranges whose range is on this sheet. */
  getNamedRanges(): GoogleAppsScript.Spreadsheet.NamedRange[] {
    const sheet = this.#read();
    return toScriptArray(
      this.#env.realm,
      sheet.namedRanges.map((named) => this.#env.classes.namedRange(sheet, named)),
    );
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

  /** A builder only: making it neither reads nor writes the sheet. */
  newChart(): GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder {
    return exposeChartBuilder(this.#env, addressableSheet(this.#env, this.#sheet));
  }

  insertChart(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    insertChart(this.#write('insertChart'), chart);
  }

  /** New objects at every call: each holds the chart as it is now. */
  getCharts(): GoogleAppsScript.Spreadsheet.EmbeddedChart[] {
    const sheet = this.#read();
    return toScriptArray(
      this.#env.realm,
      sheet.charts.map((chart) => exposeInsertedChart(this.#env, sheet, chart)),
    );
  }
}
