/**
 * The test-side view of the emulated documents: create and delete spreadsheets, read everything in
 * them as plain data (Node's own Dates, no call counting, no context checks), script the user's answers
 * to dialogs, type into cells as a user would, and recalculate custom functions on demand. Filter
 * views: SheetView.filterViews() lists a sheet's (copies); WorkbookView.rowsShownByFilterView(id)
 * says which rows a user opening one sees; addFilterView, updateFilterView and deleteFilterView are a
 * user's changes to them (filter-views.ts).
 */
import type { ScriptRealm } from '../core';
import { boxA1, cellA1, parseA1, referenceBox } from './a1-notation';
import { checkGridSize } from './arguments';
import { checkCellInput, writeCellInput } from './cell-input';
import { cellValue, displayValue, reportedNumberFormat } from './cell-values';
import {
  type Cell,
  type CellError,
  type DataValidationData,
  type ValidationCriteria,
  isCellError,
} from './cells';
import { type FormulaSupport, recalculateWorkbook } from './formulas';
import { isRowHiddenByFilter } from './filter-rows';
import {
  FilterViewInputError,
  checkFilterSpecs,
  checkGridRange,
  checkTitle,
  findFilterView,
  rowsShownByView,
} from './filter-views';
import { type GridBox, boxHeight, boxWidth, forEachCell } from './grid-box';
import { normalizeNumberFormat } from './number-formats';
import { isValidTimeZone } from './serial-dates';
import type { CustomFunctionEvaluator } from './formulas';
import type { SpreadsheetReadings } from './service-env';
import {
  deleteLines,
  deleteSheet,
  insertLinesBeside,
  moveLines,
  renameSheet,
  sortSheetRows,
  sortThroughFilter,
} from './structural-changes';
import type { UiRecorder } from './ui-recorder';
import { isRejectedByValidation } from './validation-check';
import {
  type ChartData,
  type ConditionType,
  type ConditionalFormat,
  type FilterSpecData,
  type FilterViewData,
  type GridRangeData,
  type SheetModel,
  WorkbookModel,
  type WorkbookOptions,
  copyFilterView,
  newNamedRange,
  newProtection,
  sheetColumnWidth,
} from './workbook-model';
import { checkRangeName } from './api-named-range';
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

/** A data validation rule as a user sets it in Data → Data validation. */
export type ValidationInput = ({ requireDate: true } | { valueInList: string[] }) & {
  /** Reject input that does not fit (false) or only warn (true, the default). */
  allowInvalid?: boolean;
  helpText?: string;
};

/** A data validation rule as the script reads it (getCriteriaType, getCriteriaValues, …). */
export interface ValidationView {
  criteria: ValidationCriteria;
  values: unknown[];
  allowInvalid: boolean;
  helpText: string;
}

/** What a filter's column hides, as a user sets it from the filter menu. */
export interface FilterCriteriaInput {
  hiddenValues?: string[];
  /** Show only rows whose cell contains this text. */
  textContains?: string;
}

export interface FilterCriteriaView {
  hiddenValues: string[];
  condition: { type: ConditionType; values: string[] } | null;
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

export interface ChartView {
  id: number;
  type: string;
  ranges: string[];
  options: Record<string, unknown>;
  anchor: { row: number; column: number; offsetX: number; offsetY: number };
}

/**
 * One sheet, read live: every call reflects the sheet's current state. Its actions are a user's in
 * the Sheets UI (insert, delete and move rows and columns, rename the tab, set notes, formats and
 * data validation, sort and filter through the filter), made by the same code as the script's calls,
 * so that references and stored ranges follow as they do on Google.
 */
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
  /** Its spreadsheet's, in which its date cells and date conditions are calendar days. */
  get timeZone(): string {
    return this.#sheet.workbook.timeZone;
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

  /** Adds a named range on this sheet (see WorkbookView.addNamedRange, which checks the name). */
  addNamedRange(name: string, a1: string): void {
    this.#sheet.namedRanges.push(newNamedRange(name, this.#box(a1)!));
  }

  /** A user's Data > Protect sheets and ranges on `a1`: a range protection of their own (user@example.com's). */
  protectRange(a1: string, description: string, warningOnly = false): void {
    const protection = newProtection('RANGE', this.#box(a1)!, 'user@example.com');
    this.#sheet.protections.push({ ...protection, description, warningOnly });
  }

  /** The charts on this sheet, in the order they were inserted; ranges as "Sheet name!A1:B2". */
  charts(): ChartView[] {
    const workbook = this.#sheet.workbook;
    return this.#sheet.charts.map((chart) => ({
      id: chart.id,
      type: chart.type,
      ranges: chart.ranges.map(
        (range) => `${workbook.sheetByGid(range.gid)?.name ?? '#REF'}!${boxA1(range.box)}`,
      ),
      options: structuredClone(chart.options),
      anchor: { ...chart.anchor },
    }));
  }

  /** A user's edit of a chart in the chart editor: an option (title, colours…) set or changed. */
  setChartOption(chartId: number, option: string, value: unknown): void {
    this.#chart(chartId).options[option] = structuredClone(value);
  }

  /** A user dragging a chart to another cell. */
  moveChart(chartId: number, row: number, column: number): void {
    this.#chart(chartId).anchor = { row, column, offsetX: 0, offsetY: 0 };
  }

  /** A user deleting a chart. */
  removeChart(chartId: number): void {
    const chart = this.#chart(chartId);
    this.#sheet.charts = this.#sheet.charts.filter((other) => other !== chart);
  }

  #chart(chartId: number): ChartData {
    const chart = this.#sheet.charts.find((candidate) => candidate.id === chartId);
    if (!chart) throw new Error(`No chart ${chartId} on "${this.#sheet.name}".`);
    return chart;
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

  /** Rows the filter's criteria hide, ascending. */
  rowsHiddenByFilter(): number[] {
    const { filter } = this.#sheet;
    if (!filter) return [];
    const rows: number[] = [];
    for (let row = filter.box.top + 1; row <= filter.box.bottom; row++) {
      if (isRowHiddenByFilter(this.#sheet, row)) rows.push(row);
    }
    return rows;
  }

  /** The saved filter views on this sheet, as the Sheets API describes them (copies). */
  filterViews(): FilterViewData[] {
    return this.#sheet.filterViews.map(copyFilterView);
  }

  /** What the filter hides in a sheet column, or null (no filter, or no criteria there). */
  filterCriteria(column: number): FilterCriteriaView | null {
    const criteria = this.#sheet.filter?.criteria.get(column);
    return criteria
      ? {
          hiddenValues: [...criteria.hiddenValues],
          condition: criteria.condition && {
            type: criteria.condition.type,
            values: [...criteria.condition.values],
          },
        }
      : null;
  }

  insertRowsBefore(row: number, count = 1): void {
    insertLinesBeside(this.#sheet, 'rows', row, count, 'before');
  }
  insertRowsAfter(row: number, count = 1): void {
    insertLinesBeside(this.#sheet, 'rows', row, count, 'after');
  }
  insertColumnsBefore(column: number, count = 1): void {
    insertLinesBeside(this.#sheet, 'columns', column, count, 'before');
  }
  insertColumnsAfter(column: number, count = 1): void {
    insertLinesBeside(this.#sheet, 'columns', column, count, 'after');
  }
  deleteRows(row: number, count = 1): void {
    deleteLines(this.#sheet, 'rows', row, count);
  }
  deleteColumns(column: number, count = 1): void {
    deleteLines(this.#sheet, 'columns', column, count);
  }
  /** Drags rows start … start + count − 1 to before row `destination` (numbered before the move). */
  moveRows(start: number, count: number, destination: number): void {
    moveLines(this.#sheet, 'rows', start, count, destination);
  }
  /** "Move column left/right" is a move by one; dragging columns is any move. */
  moveColumns(start: number, count: number, destination: number): void {
    moveLines(this.#sheet, 'columns', start, count, destination);
  }
  rename(name: string): void {
    renameSheet(this.#sheet, name);
  }

  setNote(a1: string, note: string): void {
    this.#edit(a1, (cell) => (cell.note = note || undefined));
  }
  setNumberFormat(a1: string, format: string): void {
    const numberFormat = normalizeNumberFormat(format);
    this.#edit(a1, (cell) => (cell.numberFormat = numberFormat));
  }
  /** Data → Data validation on a range; null removes the rule. */
  setDataValidation(a1: string, rule: ValidationInput | null): void {
    const data: DataValidationData | undefined = rule
      ? Object.freeze({
          criteria: 'requireDate' in rule ? 'DATE_IS_VALID_DATE' : 'VALUE_IN_LIST',
          values: 'requireDate' in rule ? [] : [[...rule.valueInList], true],
          allowInvalid: rule.allowInvalid ?? true,
          helpText: rule.helpText ?? '',
        })
      : undefined;
    this.#edit(a1, (cell) => (cell.validation = data));
  }

  /** Data → Sort sheet by a column, A → Z (ascending) or Z → A: the rows below the frozen ones. */
  sortSheet(column: number, ascending: boolean): void {
    sortSheetRows(this.#sheet, column, ascending);
  }
  /** The filter's "Sort A → Z" (ascending) or "Sort Z → A" on a sheet column. */
  sortFilter(column: number, ascending: boolean): void {
    sortThroughFilter(this.#sheet, column, ascending);
  }
  /** The filter menu of a sheet column: hide values, or show only rows containing a text; null clears. */
  setFilterCriteria(column: number, criteria: FilterCriteriaInput | null): void {
    const { filter } = this.#sheet;
    if (!filter || column < filter.box.left || column > filter.box.right)
      throw new Error(`Column ${column} has no filter menu.`);
    if (!criteria) {
      filter.criteria.delete(column);
      return;
    }
    filter.criteria.set(column, {
      hiddenValues: [...(criteria.hiddenValues ?? [])],
      condition:
        criteria.textContains === undefined
          ? null
          : { type: 'TEXT_CONTAINS', values: [criteria.textContains] },
    });
  }

  #edit(a1: string, edit: (cell: Cell) => void): void {
    const box = this.#box(a1)!;
    forEachCell(box, (row, column) => {
      edit(this.#sheet.cells.edit(row, column));
      this.#sheet.cells.prune(row, column);
    });
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
  dataValidations(a1?: string): (ValidationView | null)[][] {
    return this.#grid(a1, (cell) => {
      const rule = cell?.validation;
      return rule
        ? {
            criteria: rule.criteria,
            values: rule.values.map((value) => (Array.isArray(value) ? [...(value as unknown[])] : value)),
            allowInvalid: rule.allowInvalid,
            helpText: rule.helpText,
          }
        : null;
    });
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

  /** Every named range: its name, its sheet and its cells in A1 notation. */
  namedRanges(): { name: string; sheet: string; range: string }[] {
    return this.#workbook.sheets.flatMap((sheet) =>
      sheet.namedRanges.map(({ name, box }) => ({ name, sheet: sheet.name, range: boxA1(box) })),
    );
  }

  /** A user's Data > Named ranges > Add: `a1` is on the sheet called `sheetName`. */
  addNamedRange(name: string, sheetName: string, a1: string): void {
    checkRangeName(this.#workbook, name);
    const sheet = this.sheet(sheetName);
    sheet.addNamedRange(name, a1);
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

  /**
   * A user typing into cells ("Sheet1!B2:C3"): the same parsing as setValues, no context checks. A
   * cell whose data validation rejects invalid input refuses what does not fit, and then nothing is
   * written: the same check as a script's writes (validation-check.ts), with the emulator's own
   * message, as the Sheets UI shows its refusal in a dialog rather than throwing.
   */
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
    const formulas = this.#store.formulaSupport;
    rows.forEach((cells, i) =>
      cells.forEach((value, j) => {
        checkCellInput(value, `row ${i + 1}, column ${j + 1}`);
        if (isRejectedByValidation(sheet, box.top + i, box.left + j, value, 'typed', formulas)) {
          const { criteria } = sheet.cells.get(box.top + i, box.left + j)!.validation!;
          throw new Error(
            `${cellA1(box.top + i, box.left + j)} rejects ${JSON.stringify(value)}: its data validation is ${criteria}.`,
          );
        }
      }),
    );
    rows.forEach((cells, i) =>
      cells.forEach((value, j) => writeCellInput(sheet, box.top + i, box.left + j, value, formulas)),
    );
  }

  /** Recomputes every custom function formula, as Sheets does in the background. */
  recalculate(): void {
    this.#store.recalculate(this.id);
  }

  /**
   * A user deleting a tab (its menu's Delete): the same change as Spreadsheet.deleteSheet, with the
   * same refusals (structural-changes.ts).
   */
  deleteSheet(name: string): void {
    const sheet = this.#workbook.sheetByName(name);
    if (!sheet) throw new Error(`No sheet named "${name}" in ${this.id}.`);
    deleteSheet(sheet);
  }

  /**
   * The rows (1-based, ascending) a user opening the filter view sees: its range's within the sheet's
   * current grid, the header row always (filter-views.ts).
   */
  rowsShownByFilterView(filterViewId: number): number[] {
    const found = this.#filterView(filterViewId);
    return rowsShownByView(found.sheet, found.view);
  }

  /**
   * A user saving a new filter view (Data > Filter views > Create): `filter` as the Sheets API's
   * addFilterView takes it (title, range, filterSpecs), checked the same way. Returns its id.
   */
  addFilterView(filter: { title: string; range: GridRangeData; filterSpecs?: FilterSpecData[] }): number {
    const { range, sheet } = userFilterViewInput(() =>
      checkGridRange(filter.range, (gid) => this.#workbook.sheetByGid(gid)),
    );
    const view: FilterViewData = {
      filterViewId: this.#workbook.newFilterViewId(),
      title: userFilterViewInput(() => checkTitle(filter.title)),
      range,
      filterSpecs: userFilterViewInput(() => checkFilterSpecs(filter.filterSpecs, range, sheet)),
    };
    sheet.filterViews.push(view);
    return view.filterViewId;
  }

  /** A user renaming a filter view, changing its range or its criteria (what `changes` gives). */
  updateFilterView(
    filterViewId: number,
    changes: { title?: string; range?: GridRangeData; filterSpecs?: FilterSpecData[] },
  ): void {
    const found = this.#filterView(filterViewId);
    const title =
      changes.title === undefined ? found.view.title : userFilterViewInput(() => checkTitle(changes.title));
    const { range, sheet } =
      changes.range === undefined
        ? { range: found.view.range, sheet: found.sheet }
        : userFilterViewInput(() => checkGridRange(changes.range, (gid) => this.#workbook.sheetByGid(gid)));
    const filterSpecs = userFilterViewInput(() =>
      checkFilterSpecs(changes.filterSpecs ?? found.view.filterSpecs, range, sheet),
    );
    const place = found.sheet.filterViews.indexOf(found.view);
    if (sheet === found.sheet)
      sheet.filterViews.splice(place, 1, { filterViewId, title, range, filterSpecs });
    else {
      found.sheet.filterViews.splice(place, 1);
      sheet.filterViews.push({ filterViewId, title, range, filterSpecs });
    }
  }

  /** A user deleting a filter view (its menu's Delete). */
  deleteFilterView(filterViewId: number): void {
    const found = this.#filterView(filterViewId);
    found.sheet.filterViews.splice(found.sheet.filterViews.indexOf(found.view), 1);
  }

  #filterView(filterViewId: number): { sheet: SheetModel; view: FilterViewData } {
    const found = findFilterView(this.#workbook, filterViewId);
    if (!found) throw new Error(`No filter view with id ${filterViewId} in ${this.id}.`);
    return found;
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

/** A user's filter view input checked as the API checks it; a refusal is a plain Error. */
function userFilterViewInput<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof FilterViewInputError)
      throw new Error(`Filter view refused (${error.kind}): ${error.message}`);
    throw error;
  }
}

export class WorkbookStore {
  readonly #workbooks: Map<string, WorkbookModel>;
  readonly #realm: ScriptRealm;
  readonly #evaluateCustomFunction: CustomFunctionEvaluator | undefined;
  readonly #now: () => number;
  readonly #readings: Pick<SpreadsheetReadings, 'semicolonArgumentsInEveryLocale'>;
  #created = 0;

  constructor(
    workbooks: Map<string, WorkbookModel>,
    realm: ScriptRealm,
    evaluateCustomFunction: CustomFunctionEvaluator | undefined,
    now: () => number,
    readings: Pick<SpreadsheetReadings, 'semicolonArgumentsInEveryLocale'>,
  ) {
    this.#workbooks = workbooks;
    this.#now = now;
    this.#realm = realm;
    this.#evaluateCustomFunction = evaluateCustomFunction;
    this.#readings = readings;
  }

  get formulaSupport(): FormulaSupport {
    return {
      customFunctions: this.#evaluateCustomFunction !== undefined,
      semicolonArgumentsInEveryLocale: this.#readings.semicolonArgumentsInEveryLocale,
    };
  }

  /** A new spreadsheet (one sheet "Sheet1" of 1000 × 26 unless `sheetNames` says otherwise); its id. */
  create(options: WorkbookOptions = {}): string {
    if (options.timeZone !== undefined && !isValidTimeZone(options.timeZone)) {
      throw new Error(`Unknown IANA time zone: ${options.timeZone}`);
    }
    this.#created++;
    // Shaped like a Drive id (44 characters of [A-Za-z0-9_-]) and repeatable from run to run.
    const id = `1EmuSheet${String(this.#created).padStart(6, '0')}`.padEnd(44, 'x');
    this.#workbooks.set(id, new WorkbookModel(id, options, this.#now));
    return id;
  }

  /**
   * The spreadsheet, or undefined when there is none with this id (or it is gone: deleted, or in the
   * trash for longer than Drive keeps it). One in the trash is shown, as Drive shows it to its owner.
   */
  get(id: string): WorkbookView | undefined {
    const workbook = this.#workbooks.get(id);
    return workbook && !workbook.gone ? new WorkbookView(workbook, this) : undefined;
  }

  /** Deleted for good: afterwards openById and every object of this document throw "missing". */
  delete(id: string): void {
    this.#workbook(id).deleted = true;
  }

  /**
   * What a user does with Remove in Drive: the file goes to the trash, where Drive keeps it 30 days
   * (then it is gone). Whether a script may still open it is the reading trashedSpreadsheetOpens.
   */
  trash(id: string): void {
    const workbook = this.#workbook(id);
    if (workbook.trashedAtMs !== null) throw new Error(`Spreadsheet ${id} is already in the trash.`);
    workbook.trashedAtMs = this.#now();
  }

  /** Restore from Drive's trash: the spreadsheet is back as it was, for every reading. */
  restore(id: string): void {
    const workbook = this.#workbook(id);
    if (workbook.trashedAtMs === null) throw new Error(`Spreadsheet ${id} is not in the trash.`);
    workbook.trashedAtMs = null;
  }

  /** Recomputes every custom function formula of the spreadsheet, as Sheets does in the background. */
  recalculate(id: string): void {
    recalculateWorkbook(
      this.#workbook(id),
      this.#evaluateCustomFunction,
      (ms) => this.#realm.newDate(ms),
      this.formulaSupport,
    );
  }

  #workbook(id: string): WorkbookModel {
    const workbook = this.#workbooks.get(id);
    if (!workbook || workbook.gone) throw new Error(`No spreadsheet ${id} in the emulator.`);
    return workbook;
  }
}
