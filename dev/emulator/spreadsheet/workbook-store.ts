/**
 * The test-side view of the emulated documents: create and delete spreadsheets, read everything in
 * them as plain data (Node's own Dates, no call counting, no context checks), script the user's answers
 * to dialogs, type into cells as a user would, and recalculate custom functions on demand.
 */
import type { ScriptRealm } from '../core';
import { boxA1, parseA1, referenceBox } from './a1-notation';
import { checkGridSize } from './arguments';
import { checkCellInput, writeCellInput } from './cell-input';
import { cellValue, displayValue, reportedNumberFormat } from './cell-values';
import { type Cell, type CellError, isCellError } from './cells';
import { recalculateWorkbook } from './formulas';
import { type GridBox, boxHeight, boxWidth } from './grid-box';
import { isValidTimeZone } from './serial-dates';
import type { CustomFunctionEvaluator } from './service-env';
import type { UiRecorder } from './ui-recorder';
import {
  type ConditionType,
  type ConditionalFormat,
  type SheetModel,
  WorkbookModel,
  type WorkbookOptions,
  sheetColumnWidth,
} from './workbook-model';
import { spreadsheetUrl } from './api-spreadsheet';

export type { WorkbookOptions } from './workbook-model';

export interface CellView {
  /** As getValues returns it, with Node's Date for date-formatted numbers. */
  value: string | number | boolean | Date;
  display: string;
  formula: string;
  numberFormat: string;
  fontWeight: 'bold' | 'normal';
  /** '#rrggbb', or null for none. */
  background: string | null;
  note: string;
  /** A HYPERLINK formula's target. */
  link: string | null;
  error: CellError | null;
}

export interface ConditionalRuleView {
  type: ConditionType;
  values: (string | number)[];
  format: ConditionalFormat;
  /** A1 notation, without the sheet name. */
  ranges: string[];
}

export interface ProtectionView {
  type: 'RANGE' | 'SHEET';
  /** A1 notation; null for a whole-sheet protection. */
  range: string | null;
  description: string;
  warningOnly: boolean;
  domainEdit: boolean;
  editors: string[];
}

/** One sheet, read live: every call reflects the sheet's current state. */
export class SheetView {
  readonly #sheet: SheetModel;

  constructor(sheet: SheetModel) {
    this.#sheet = sheet;
  }

  get name(): string {
    return this.#sheet.name;
  }
  get gid(): number {
    return this.#sheet.gid;
  }
  /** 1-based position among the tabs. */
  get index(): number {
    return this.#sheet.workbook.sheets.indexOf(this.#sheet) + 1;
  }
  get hidden(): boolean {
    return this.#sheet.hidden;
  }
  get maxRows(): number {
    return this.#sheet.maxRows;
  }
  get maxColumns(): number {
    return this.#sheet.maxColumns;
  }
  get lastRow(): number {
    return this.#sheet.cells.lastRowWithContent();
  }
  get lastColumn(): number {
    return this.#sheet.cells.lastColumnWithContent();
  }
  get frozenRows(): number {
    return this.#sheet.frozenRows;
  }
  get frozenColumns(): number {
    return this.#sheet.frozenColumns;
  }
  /** Columns hidden with hideColumns, 1-based, ascending. */
  get hiddenColumns(): number[] {
    return [...this.#sheet.hiddenColumns].sort((a, b) => a - b);
  }
  /** The filter's range in A1 notation, or null. */
  get filter(): string | null {
    const { filter } = this.#sheet;
    return filter && boxA1(filter.box);
  }

  columnWidth(column: number): number {
    return sheetColumnWidth(this.#sheet, column);
  }

  conditionalRules(): ConditionalRuleView[] {
    return this.#sheet.conditionalRules.map((rule) => ({
      type: rule.type,
      values: [...rule.values],
      format: { ...rule.format },
      ranges: rule.ranges.map(boxA1),
    }));
  }

  protections(): ProtectionView[] {
    return this.#sheet.protections.map((protection) => ({
      type: protection.type,
      range: protection.box && boxA1(protection.box),
      description: protection.description,
      warningOnly: protection.warningOnly,
      domainEdit: protection.domainEdit,
      editors: [...protection.editors],
    }));
  }

  /** The box named by `a1` (no sheet name), or the data range; an empty sheet has no rows. */
  #box(a1: string | undefined): GridBox | null {
    const sheet = this.#sheet;
    if (a1 === undefined) {
      const lastRow = sheet.cells.lastRowWithContent();
      const lastColumn = sheet.cells.lastColumnWithContent();
      return lastRow === 0 ? null : { top: 1, left: 1, bottom: lastRow, right: lastColumn };
    }
    const reference = parseA1(a1);
    if (!reference || reference.sheetName !== null)
      throw new Error(`Not A1 notation without a sheet name: ${a1}`);
    return referenceBox(reference, sheet.maxRows, sheet.maxColumns);
  }

  #grid<T>(a1: string | undefined, read: (cell: Cell | undefined) => T): T[][] {
    const sheet = this.#sheet;
    const box = this.#box(a1);
    if (!box) return [];
    const rows: T[][] = [];
    for (let row = box.top; row <= box.bottom; row++) {
      const cells: T[] = [];
      for (let column = box.left; column <= box.right; column++)
        cells.push(read(sheet.cells.get(row, column)));
      rows.push(cells);
    }
    return rows;
  }

  values(a1?: string): (string | number | boolean | Date)[][] {
    return this.#grid(a1, (cell) => cellValue(cell, this.#sheet.workbook.timeZone, (ms) => new Date(ms)));
  }
  displayValues(a1?: string): string[][] {
    return this.#grid(a1, displayValue);
  }
  formulas(a1?: string): string[][] {
    return this.#grid(a1, (cell) => cell?.formula ?? '');
  }
  numberFormats(a1?: string): string[][] {
    return this.#grid(a1, reportedNumberFormat);
  }
  fontWeights(a1?: string): ('bold' | 'normal')[][] {
    return this.#grid(a1, (cell) => cell?.fontWeight ?? 'normal');
  }
  backgrounds(a1?: string): (string | null)[][] {
    return this.#grid(a1, (cell) => cell?.background ?? null);
  }
  notes(a1?: string): string[][] {
    return this.#grid(a1, (cell) => cell?.note ?? '');
  }
  cells(a1?: string): CellView[][] {
    return this.#grid(a1, (cell) => ({
      value: cellValue(cell, this.#sheet.workbook.timeZone, (ms) => new Date(ms)),
      display: displayValue(cell),
      formula: cell?.formula ?? '',
      numberFormat: reportedNumberFormat(cell),
      fontWeight: cell?.fontWeight ?? 'normal',
      background: cell?.background ?? null,
      note: cell?.note ?? '',
      link: cell?.link ?? null,
      error: isCellError(cell?.value) ? { ...cell.value } : null,
    }));
  }
}

/** One spreadsheet, read live. */
export class WorkbookView {
  readonly #workbook: WorkbookModel;
  readonly #store: WorkbookStore;

  constructor(workbook: WorkbookModel, store: WorkbookStore) {
    this.#workbook = workbook;
    this.#store = store;
  }

  get id(): string {
    return this.#workbook.id;
  }
  get name(): string {
    return this.#workbook.name;
  }
  get url(): string {
    return spreadsheetUrl(this.#workbook.id);
  }
  get timeZone(): string {
    return this.#workbook.timeZone;
  }
  get locale(): string {
    return this.#workbook.locale;
  }
  /** What the user saw: menus, alerts, prompts, dialogs, toasts; and the answers they will give. */
  get ui(): UiRecorder {
    return this.#workbook.ui;
  }
  get activeSheetName(): string {
    return this.#workbook.activeSheet.name;
  }
  get sheetNames(): string[] {
    return this.#workbook.sheets.map((sheet) => sheet.name);
  }

  sheets(): SheetView[] {
    return this.#workbook.sheets.map((sheet) => new SheetView(sheet));
  }

  /** The developer metadata on the spreadsheet, as the script left it. */
  developerMetadata(): { key: string; value: string | null; visibility: string }[] {
    return this.#workbook.developerMetadata.map(({ key, value, visibility }) => ({ key, value, visibility }));
  }

  sheet(name: string): SheetView {
    const sheet = this.#workbook.sheetByName(name);
    if (!sheet)
      throw new Error(`No sheet named "${name}" in ${this.id} (sheets: ${this.sheetNames.join(', ')}).`);
    return new SheetView(sheet);
  }

  /** A user typing into cells ("Sheet1!B2:C3"): the same parsing as setValues, no context checks. */
  typeValues(a1: string, rows: unknown[][]): void {
    const reference = parseA1(a1);
    const sheetName = reference?.sheetName ?? null;
    const sheet = sheetName === null ? undefined : this.#workbook.sheetByName(sheetName);
    if (!reference || !sheet)
      throw new Error(`Expected "Sheet name!A1" notation of an existing sheet: ${a1}`);
    const box = referenceBox(reference, sheet.maxRows, sheet.maxColumns);
    if (box.bottom > sheet.maxRows || box.right > sheet.maxColumns)
      throw new Error(`${a1} is outside the sheet.`);
    checkGridSize(rows, boxHeight(box), boxWidth(box));
    rows.forEach((cells, i) =>
      cells.forEach((value, j) => checkCellInput(value, `row ${i + 1}, column ${j + 1}`)),
    );
    const customFunctions = this.#store.evaluatesCustomFunctions;
    rows.forEach((cells, i) =>
      cells.forEach((value, j) => writeCellInput(sheet, box.top + i, box.left + j, value, customFunctions)),
    );
  }

  /** Recomputes every custom function formula, as Sheets does in the background. */
  recalculate(): void {
    this.#store.recalculate(this.id);
  }

  /** A user adding a tab of the given size (within the workbook's cell limit). */
  addSheet(name: string, size: { rows: number; columns: number }): SheetView {
    const sheet = this.#workbook.addSheet(name);
    this.#workbook.checkCellBudget(size.rows * size.columns - sheet.maxRows * sheet.maxColumns);
    sheet.maxRows = size.rows;
    sheet.maxColumns = size.columns;
    return new SheetView(sheet);
  }
}

export class WorkbookStore {
  readonly #workbooks: Map<string, WorkbookModel>;
  readonly #realm: ScriptRealm;
  readonly #evaluateCustomFunction: CustomFunctionEvaluator | undefined;
  #created = 0;

  constructor(
    workbooks: Map<string, WorkbookModel>,
    realm: ScriptRealm,
    evaluateCustomFunction: CustomFunctionEvaluator | undefined,
  ) {
    this.#workbooks = workbooks;
    this.#realm = realm;
    this.#evaluateCustomFunction = evaluateCustomFunction;
  }

  get evaluatesCustomFunctions(): boolean {
    return this.#evaluateCustomFunction !== undefined;
  }

  /** A new spreadsheet (one sheet "Sheet1" of 1000 × 26 unless `sheetNames` says otherwise); its id. */
  create(options: WorkbookOptions = {}): string {
    if (options.timeZone !== undefined && !isValidTimeZone(options.timeZone)) {
      throw new Error(`Unknown IANA time zone: ${options.timeZone}`);
    }
    this.#created++;
    // Shaped like a Drive id (44 characters of [A-Za-z0-9_-]) and repeatable from run to run.
    const id = `1EmuSheet${String(this.#created).padStart(6, '0')}`.padEnd(44, 'x');
    this.#workbooks.set(id, new WorkbookModel(id, options));
    return id;
  }

  /** The spreadsheet, or undefined when there is none with this id (or it was deleted). */
  get(id: string): WorkbookView | undefined {
    const workbook = this.#workbooks.get(id);
    return workbook && !workbook.deleted ? new WorkbookView(workbook, this) : undefined;
  }

  /** Afterwards openById and every object of this document throw like a deleted file. */
  delete(id: string): void {
    this.#workbook(id).deleted = true;
  }

  /** Recomputes every custom function formula of the spreadsheet, as Sheets does in the background. */
  recalculate(id: string): void {
    recalculateWorkbook(this.#workbook(id), this.#evaluateCustomFunction, (ms) => this.#realm.newDate(ms));
  }

  #workbook(id: string): WorkbookModel {
    const workbook = this.#workbooks.get(id);
    if (!workbook || workbook.deleted) throw new Error(`No spreadsheet ${id} in the emulator.`);
    return workbook;
  }
}
