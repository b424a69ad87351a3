/** The script-visible Range. */
import { AppsScriptException, strict } from '../core';
import { checkGridSize, normalizeColor, requireGrid, requireString, signatureMismatch } from './arguments';
import { checkCellInput, writeCellInput } from './cell-input';
import { boxA1 } from './a1-notation';
import { cellValue, reportedNumberFormat } from './cell-values';
import { type Cell, clearCellContent, clearCellFormat } from './cells';
import { applyFormula } from './formulas';
import { type GridBox, boxHeight, boxWidth, forEachCell } from './grid-box';
import { normalizeNumberFormat } from './number-formats';
import { formulaFromR1C1, formulaToR1C1 } from './r1c1';
import { dataValidationOf, exposeDataValidation } from './api-data-validation';
import {
  type ServiceEnv,
  checkInsideSheet,
  formulaSupport,
  readableSheet,
  toScriptArray,
  editableSheet,
  writableSheet,
} from './service-env';
import { type SortSpec, sortRows } from './structural-changes';
import { boxWrites, checkScriptWrites, gridWrites } from './validation-check';
import { type RangeRef, type SheetModel, newProtection } from './workbook-model';

type Range = GoogleAppsScript.Spreadsheet.Range;

const rangeRefs = new WeakMap<object, RangeRef>();

/** The sheet and cells behind a Range the script passed in, or undefined if it is not one. */
export function rangeRefOf(value: unknown): RangeRef | undefined {
  return typeof value === 'object' && value !== null ? rangeRefs.get(value) : undefined;
}

export function exposeRange(env: ServiceEnv, sheet: SheetModel, box: GridBox): Range {
  return new RangeApi(env, { sheet, box }) as unknown as Range;
}

export interface ClearOptions {
  contentsOnly?: boolean;
  formatOnly?: boolean;
  commentsOnly?: boolean;
  validationsOnly?: boolean;
  skipFilteredRows?: boolean;
}

/**
 * Clears a box: with no options, contents, formats and notes (Sheets' "clear everything"; data
 * validation stays, as Range.clear leaves it); `contentsOnly`, `formatOnly` and `validationsOnly`
 * select one part.
 */
export function clearBox(
  sheet: SheetModel,
  box: GridBox,
  options: ClearOptions | undefined,
  method: string,
): void {
  const unsupported = (['commentsOnly', 'skipFilteredRows'] as const).find((key) => options?.[key]);
  if (unsupported) throw new AppsScriptException(`not emulated: ${method}({${unsupported}})`);
  const only = options?.contentsOnly || options?.formatOnly || options?.validationsOnly;
  const contents = !only || options.contentsOnly;
  const formats = !only || options.formatOnly;
  const notes = !only;
  const validations = options?.validationsOnly;
  for (const { row, column, cell } of [...sheet.cells.cellsIn(box)]) {
    if (contents) clearCellContent(cell);
    if (formats) clearCellFormat(cell);
    if (notes) cell.note = undefined;
    if (validations) cell.validation = undefined;
    sheet.cells.prune(row, column);
  }
}

type RangeMethod =
  | 'getValues'
  | 'setValue'
  | 'setValues'
  | 'getFormulasR1C1'
  | 'getFormulaR1C1'
  | 'getNumberFormats'
  | 'setFormulasR1C1'
  | 'setFormulaR1C1'
  | 'setNumberFormats'
  | 'setNumberFormat'
  | 'setFontWeight'
  | 'getFontWeights'
  | 'setBackgrounds'
  | 'getBackgrounds'
  | 'setNote'
  | 'setNotes'
  | 'getNote'
  | 'getNotes'
  | 'sort'
  | 'getDataValidation'
  | 'getDataValidations'
  | 'setDataValidation'
  | 'setDataValidations'
  | 'clearDataValidations'
  | 'clearContent'
  | 'getRow'
  | 'getColumn'
  | 'getNumColumns'
  | 'getNumRows'
  | 'getA1Notation'
  | 'getSheet'
  | 'createFilter'
  | 'protect';

class RangeApi implements Pick<Range, RangeMethod> {
  readonly #env: ServiceEnv;
  readonly #sheet: SheetModel;
  readonly #box: GridBox;
  readonly #self: RangeApi;

  constructor(env: ServiceEnv, ref: RangeRef) {
    this.#env = env;
    this.#sheet = ref.sheet;
    this.#box = ref.box;
    this.#self = strict('Range', this, env.counter);
    rangeRefs.set(this.#self, ref);
    return this.#self;
  }

  get #range(): Range {
    return this.#self as unknown as Range;
  }

  #read(): SheetModel {
    const sheet = readableSheet(this.#env, this.#sheet);
    checkInsideSheet(sheet, this.#box);
    return sheet;
  }

  /** Protecting a range is no edit of it: any editor may protect cells, even protected ones. */
  #write(method: string): SheetModel {
    const sheet =
      method === 'protect'
        ? writableSheet(this.#env, this.#sheet, method)
        : editableSheet(this.#env, this.#sheet, method, this.#box);
    checkInsideSheet(sheet, this.#box);
    return sheet;
  }

  /** A 2D array of one property of every cell of the range, made in the script's realm. */
  #grid<T>(read: (cell: Cell | undefined, row: number, column: number) => T): T[][] {
    const sheet = this.#read();
    this.#env.counter.recordCellsRead(boxHeight(this.#box) * boxWidth(this.#box));
    const rows: T[][] = [];
    for (let row = this.#box.top; row <= this.#box.bottom; row++) {
      const values: T[] = [];
      for (let column = this.#box.left; column <= this.#box.right; column++) {
        values.push(read(sheet.cells.get(row, column), row, column));
      }
      rows.push(values);
    }
    return this.#env.realm.toScript(rows);
  }

  #topLeft<T>(read: (cell: Cell | undefined, row: number, column: number) => T): T {
    const sheet = this.#read();
    return read(sheet.cells.get(this.#box.top, this.#box.left), this.#box.top, this.#box.left);
  }

  /**
   * Validates a 2D argument of the range's size (each cell with `check`, then the whole grid with
   * `checkGrid`), then applies `write`.
   */
  #setGrid(
    method: string,
    args: unknown[],
    check: (value: unknown, where: string) => void,
    write: (sheet: SheetModel, row: number, column: number, value: unknown) => void,
    checkGrid: (sheet: SheetModel, grid: unknown[][]) => void = () => {},
  ): Range {
    const sheet = this.#write(method);
    const grid = requireGrid(`Range.${method}`, args, args[0]);
    checkGridSize(grid, boxHeight(this.#box), boxWidth(this.#box));
    grid.forEach((cells, i) =>
      cells.forEach((value, j) => check(value, `row ${i + 1}, column ${j + 1} of the data`)),
    );
    checkGrid(sheet, grid);
    const written = boxHeight(this.#box) * boxWidth(this.#box);
    if (method === 'setNumberFormats') this.#env.counter.recordFormatsWritten(written);
    else this.#env.counter.recordCellsWritten(written);
    grid.forEach((cells, i) =>
      cells.forEach((value, j) => write(sheet, this.#box.top + i, this.#box.left + j, value)),
    );
    return this.#range;
  }

  /**
   * Applies one value to every cell of the range, once `check` lets the whole range be written:
   * priced per cell as a write of each (a formula) or as one range-wide setting (a format, a note, a rule).
   */
  #setAll(
    method: string,
    write: (sheet: SheetModel, row: number, column: number) => void,
    check: (sheet: SheetModel) => void = () => {},
    priced: 'per cell' | 'range-wide' = 'range-wide',
  ): Range {
    const sheet = this.#write(method);
    check(sheet);
    this.#priceCells(priced);
    forEachCell(this.#box, (row, column) => write(sheet, row, column));
    return this.#range;
  }

  #priceCells(priced: 'per cell' | 'range-wide'): void {
    const cells = boxHeight(this.#box) * boxWidth(this.#box);
    if (priced === 'per cell') this.#env.counter.recordCellsWritten(cells);
    else this.#env.counter.recordCellsRangeWide(cells);
  }

  #editFormat(sheet: SheetModel, row: number, column: number, edit: (cell: Cell) => void): void {
    edit(sheet.cells.edit(row, column));
    sheet.cells.prune(row, column);
  }

  #scriptValue(cell: Cell | undefined): string | number | boolean | Date {
    return cellValue(cell, this.#sheet.workbook.timeZone, (ms) => this.#env.realm.newDate(ms));
  }

  getValues(): unknown[][] {
    return this.#grid((cell) => this.#scriptValue(cell));
  }

  /** Every cell of the range gets the value; a reject-input rule refuses it as setValues. */
  setValue(value: unknown): Range {
    const sheet = this.#write('setValue');
    checkCellInput(value, 'the value');
    const formulas = formulaSupport(this.#env);
    checkScriptWrites(
      sheet,
      boxWrites(this.#box, () => value),
      'typed',
      formulas,
    );
    this.#env.counter.recordCellsWritten(boxHeight(this.#box) * boxWidth(this.#box));
    forEachCell(this.#box, (row, column) => writeCellInput(sheet, row, column, value, formulas));
    return this.#range;
  }

  setValues(values: unknown[][]): Range {
    const formulas = formulaSupport(this.#env);
    return this.#setGrid(
      'setValues',
      [values],
      checkCellInput,
      (sheet, row, column, value) => writeCellInput(sheet, row, column, value, formulas),
      (sheet, grid) =>
        checkScriptWrites(sheet, gridWrites(this.#box.top, this.#box.left, grid), 'typed', formulas),
    );
  }

  getFormulasR1C1(): string[][] {
    return this.#grid(formulaR1C1Of);
  }

  getFormulaR1C1(): string {
    return this.#topLeft(formulaR1C1Of);
  }

  getNumberFormats(): string[][] {
    return this.#grid(reportedNumberFormat);
  }

  setFormulasR1C1(formulas: string[][]): Range {
    return this.#setGrid(
      'setFormulasR1C1',
      [formulas],
      (formula) => checkFormula('Range.setFormulasR1C1', [formulas], formula),
      (sheet, row, column, formula) =>
        writeFormula(this.#env, sheet, row, column, formulaFromR1C1(formula as string, row, column)),
      (sheet, grid) =>
        checkScriptWrites(
          sheet,
          boxWrites(this.#box, (row, column) =>
            formulaFromR1C1(grid[row - this.#box.top]![column - this.#box.left] as string, row, column),
          ),
          'formula',
          formulaSupport(this.#env),
        ),
    );
  }

  /** Each cell gets the formula with its references relative to that cell, as Sheets fills a range. */
  setFormulaR1C1(formula: string): Range {
    checkFormula('Range.setFormulaR1C1', [formula], formula);
    const atEach = (row: number, column: number) => formulaFromR1C1(formula, row, column);
    return this.#setAll(
      'setFormulaR1C1',
      (sheet, row, column) => writeFormula(this.#env, sheet, row, column, atEach(row, column)),
      (sheet) => checkScriptWrites(sheet, boxWrites(this.#box, atEach), 'formula', formulaSupport(this.#env)),
      'per cell',
    );
  }

  setNumberFormat(numberFormat: string): Range {
    requireString('Range.setNumberFormat', [numberFormat], numberFormat);
    const format = normalizeNumberFormat(numberFormat);
    return this.#setAll('setNumberFormat', (sheet, row, column) =>
      this.#editFormat(sheet, row, column, (cell) => (cell.numberFormat = format)),
    );
  }

  setNumberFormats(numberFormats: string[][]): Range {
    return this.#setGrid(
      'setNumberFormats',
      [numberFormats],
      (format) => requireString('Range.setNumberFormats', [numberFormats], format),
      (sheet, row, column, format) =>
        this.#editFormat(
          sheet,
          row,
          column,
          (cell) => (cell.numberFormat = normalizeNumberFormat(format as string)),
        ),
    );
  }

  setFontWeight(fontWeight: GoogleAppsScript.Spreadsheet.FontWeight | null): Range {
    checkFontWeight('Range.setFontWeight', [fontWeight], fontWeight);
    return this.#setAll('setFontWeight', (sheet, row, column) =>
      this.#editFormat(
        sheet,
        row,
        column,
        (cell) => (cell.fontWeight = fontWeight === 'bold' ? 'bold' : undefined),
      ),
    );
  }

  /** 'bold' or 'normal' per cell, as Sheets documents it. */
  getFontWeights(): GoogleAppsScript.Spreadsheet.FontWeight[][] {
    return this.#grid((cell) => cell?.fontWeight ?? 'normal');
  }

  /** '#rrggbb' per cell; a cell without a background reads as white ('#ffffff'), as in Sheets. */
  getBackgrounds(): string[][] {
    return this.#grid((cell) => cell?.background ?? '#ffffff');
  }

  /** One colour per cell; null removes a cell's background. */
  setBackgrounds(colors: (string | null)[][]): Range {
    return this.#setGrid(
      'setBackgrounds',
      [colors],
      (color) => {
        if (color !== null) normalizeColor('Range.setBackgrounds', [colors], color);
      },
      (sheet, row, column, color) =>
        this.#editFormat(sheet, row, column, (cell) => {
          cell.background =
            color === null ? undefined : normalizeColor('Range.setBackgrounds', [colors], color);
        }),
    );
  }

  setNote(note: string | null): Range {
    if (note !== null) requireString('Range.setNote', [note], note);
    return this.#setAll('setNote', (sheet, row, column) =>
      this.#editFormat(sheet, row, column, (cell) => (cell.note = note || undefined)),
    );
  }

  setNotes(notes: (string | null)[][]): Range {
    return this.#setGrid(
      'setNotes',
      [notes],
      (note) => {
        if (note !== null) requireString('Range.setNotes', [notes], note);
      },
      (sheet, row, column, note) =>
        this.#editFormat(sheet, row, column, (cell) => (cell.note = (note as string | null) || undefined)),
    );
  }

  getNote(): string {
    return this.#topLeft((cell) => cell?.note ?? '');
  }

  getNotes(): string[][] {
    return this.#grid((cell) => cell?.note ?? '');
  }

  getDataValidation(): GoogleAppsScript.Spreadsheet.DataValidation | null {
    return this.#topLeft((cell) => this.#validation(cell));
  }

  getDataValidations(): (GoogleAppsScript.Spreadsheet.DataValidation | null)[][] {
    const sheet = this.#read();
    const rows = [];
    for (let row = this.#box.top; row <= this.#box.bottom; row++) {
      const rules = [];
      for (let column = this.#box.left; column <= this.#box.right; column++) {
        rules.push(this.#validation(sheet.cells.get(row, column)));
      }
      rows.push(toScriptArray(this.#env.realm, rules));
    }
    return toScriptArray(this.#env.realm, rows);
  }

  #validation(cell: Cell | undefined): GoogleAppsScript.Spreadsheet.DataValidation | null {
    return cell?.validation ? exposeDataValidation(this.#env, cell.validation) : null;
  }

  setDataValidation(rule: GoogleAppsScript.Spreadsheet.DataValidation | null): Range {
    const data = rule === null ? null : dataValidationOf(rule);
    if (data === undefined) throw signatureMismatch('Range.setDataValidation', [rule]);
    return this.#setAll('setDataValidation', (sheet, row, column) =>
      this.#editFormat(sheet, row, column, (cell) => (cell.validation = data ?? undefined)),
    );
  }

  setDataValidations(rules: (GoogleAppsScript.Spreadsheet.DataValidation | null)[][]): Range {
    return this.#setGrid(
      'setDataValidations',
      [rules],
      (rule) => {
        if (rule !== null && !dataValidationOf(rule))
          throw signatureMismatch('Range.setDataValidations', [rules]);
      },
      (sheet, row, column, rule) =>
        this.#editFormat(sheet, row, column, (cell) => (cell.validation = dataValidationOf(rule))),
    );
  }

  clearDataValidations(): Range {
    const sheet = this.#write('clearDataValidations');
    this.#priceCells('range-wide');
    clearBox(sheet, this.#box, { validationsOnly: true }, 'Range.clearDataValidations');
    return this.#range;
  }

  /** Sorts the range's rows; columns are the sheet's (a number, {column, ascending}, or a list of them). */
  sort(sortSpecObj: unknown): Range {
    const specs = sortSpecsOf(sortSpecObj);
    if (!specs) throw signatureMismatch('Range.sort', [sortSpecObj]);
    const sheet = this.#write('sort');
    // Every cell of the range may move: a write of each.
    this.#priceCells('per cell');
    sortRows(sheet, this.#box, specs);
    return this.#range;
  }

  clearContent(): Range {
    const sheet = this.#write('clearContent');
    this.#priceCells('range-wide');
    clearBox(sheet, this.#box, { contentsOnly: true }, 'Range.clearContent');
    return this.#range;
  }

  getRow(): number {
    this.#read();
    return this.#box.top;
  }

  getColumn(): number {
    this.#read();
    return this.#box.left;
  }

  getNumColumns(): number {
    this.#read();
    return boxWidth(this.#box);
  }

  getNumRows(): number {
    this.#read();
    return boxHeight(this.#box);
  }

  /** Without the sheet's name, as Google returns it ("A1:B30"; one cell: "A1"). */
  getA1Notation(): string {
    this.#read();
    return boxA1(this.#box);
  }

  getSheet(): GoogleAppsScript.Spreadsheet.Sheet {
    return this.#env.classes.sheet(this.#read());
  }

  createFilter(): GoogleAppsScript.Spreadsheet.Filter {
    const sheet = this.#write('createFilter');
    if (sheet.filter) {
      throw new AppsScriptException("You can't create a filter in a sheet that already has a filter.");
    }
    sheet.filter = { box: this.#box, criteria: new Map() };
    return this.#env.classes.filter(sheet, sheet.filter);
  }

  protect(): GoogleAppsScript.Spreadsheet.Protection {
    const sheet = this.#write('protect');
    const protection = newProtection('RANGE', this.#box, this.#env.access.context().userEmail);
    sheet.protections.push(protection);
    return this.#env.classes.protection(sheet, protection);
  }
}

function sortSpecsOf(spec: unknown): SortSpec[] | null {
  const specs = Array.isArray(spec) ? spec : [spec];
  const parsed = specs.map((item: unknown): SortSpec | null => {
    if (Number.isInteger(item)) return { column: item as number, ascending: true };
    if (typeof item !== 'object' || item === null) return null;
    const { column, ascending = true } = item as { column?: unknown; ascending?: unknown };
    return Number.isInteger(column) && typeof ascending === 'boolean'
      ? { column: column as number, ascending }
      : null;
  });
  return parsed.length > 0 && parsed.every((item) => item !== null) ? (parsed as SortSpec[]) : null;
}

/** Writes a formula already accepted by checkFormula; '' clears the cell's content. */
export function writeFormula(
  env: ServiceEnv,
  sheet: SheetModel,
  row: number,
  column: number,
  formula: string,
): void {
  const cell = sheet.cells.edit(row, column);
  if (formula === '') clearCellContent(cell);
  else applyFormula({ sheet, row, column, cell }, formula, formulaSupport(env));
  sheet.cells.prune(row, column);
}

function formulaR1C1Of(cell: Cell | undefined, row: number, column: number): string {
  return cell?.formula === undefined ? '' : formulaToR1C1(cell.formula, row, column);
}

export function checkFormula(method: string, args: unknown[], formula: unknown): void {
  requireString(method, args, formula);
  if (formula !== '' && !formula.startsWith('=')) {
    throw new AppsScriptException(`A formula must start with "=" (got "${formula.slice(0, 50)}").`);
  }
}

export function checkFontWeight(method: string, args: unknown[], weight: unknown): void {
  if (weight !== null && weight !== 'bold' && weight !== 'normal') throw signatureMismatch(method, args);
}

/** The rules of Sheet.getRange(row, column, numRows, numColumns), with Apps Script's messages. */
export function checkedBox(sheet: SheetModel, box: GridBox): GridBox {
  if (box.top < 1) throw new AppsScriptException('The starting row of the range is too small.');
  if (box.left < 1) throw new AppsScriptException('The starting column of the range is too small.');
  if (box.bottom < box.top)
    throw new AppsScriptException('The number of rows in the range must be at least 1.');
  if (box.right < box.left)
    throw new AppsScriptException('The number of columns in the range must be at least 1.');
  checkInsideSheet(sheet, box);
  return box;
}
