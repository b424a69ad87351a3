/**
 * Changes to a sheet's structure, one implementation for the script's calls (Sheet.insertRowsBefore,
 * deleteColumns, moveRows, Range.sort, Sheet.setName, Spreadsheet.deleteSheet…) and the user's
 * actions in the test-side view.
 * When rows or columns are inserted, deleted or moved, everything follows its cells as in Sheets:
 * cells with their formats, notes and data validation; the filter (and its criteria's columns),
 * saved filter views (their ranges and specs' columns: filter-views.ts), conditional formats,
 * protections, column widths and hidden columns; and every A1 reference in every formula of the
 * workbook that names the changed tab (reference-adjustment.ts). A sort moves cells,
 * not references: formulas elsewhere keep naming the same positions. A deleted tab takes what is
 * kept on it with it, and the references that named it become #REF! (deleteSheet).
 */
import { AppsScriptException } from '../core';
import { MAX_COLUMNS } from './a1-notation';
import { type Cell, clearCellContent } from './cells';
import { type Dimension, type GridBox, type LineChange, boxAfter, lineAfter } from './grid-box';
import { filterViewsAfterLineChange } from './filter-views';
import { formulaFromR1C1, formulaToR1C1 } from './r1c1';
import {
  type AdjustedFormula,
  formulaAfterLineChange,
  formulaAfterRename,
  formulaAfterSheetDeleted,
} from './reference-adjustment';
import type { SheetModel, WorkbookModel } from './workbook-model';

/** Inserts empty rows or columns at `at` (they take numbers at … at + count − 1); at may be size + 1. */
export function insertLines(sheet: SheetModel, dimension: Dimension, at: number, count: number): void {
  const crossAxisSize = dimension === 'rows' ? sheet.maxColumns : sheet.maxRows;
  sheet.workbook.checkCellBudget(count * crossAxisSize);
  if (dimension === 'columns' && sheet.maxColumns + count > MAX_COLUMNS) {
    throw new AppsScriptException(
      `This action would increase the number of columns in the sheet above the limit of ${MAX_COLUMNS}.`,
    );
  }
  applyLineChange(sheet, { kind: 'insert', dimension, at, count });
  if (dimension === 'rows') {
    sheet.maxRows += count;
    if (at <= sheet.frozenRows) sheet.frozenRows += count;
  } else {
    sheet.maxColumns += count;
    if (at <= sheet.frozenColumns) sheet.frozenColumns += count;
  }
}

function lineCount(sheet: SheetModel, dimension: Dimension): number {
  return dimension === 'rows' ? sheet.maxRows : sheet.maxColumns;
}

/** Insert rows or columns before or after an existing one, as the menu and Sheet.insertRowsAfter do. */
export function insertLinesBeside(
  sheet: SheetModel,
  dimension: Dimension,
  position: number,
  count: number,
  side: 'before' | 'after',
): void {
  if (position < 1 || position > lineCount(sheet, dimension) || count < 1) {
    throw new AppsScriptException(`Those ${dimension} are out of bounds.`);
  }
  insertLines(sheet, dimension, side === 'after' ? position + 1 : position, count);
}

export function deleteLines(sheet: SheetModel, dimension: Dimension, at: number, count: number): void {
  const size = lineCount(sheet, dimension);
  const frozen = dimension === 'rows' ? sheet.frozenRows : sheet.frozenColumns;
  if (at < 1 || count < 1 || at + count - 1 > size) {
    throw new AppsScriptException(`Those ${dimension} are out of bounds.`);
  }
  if (size - count <= frozen) {
    throw new AppsScriptException(`Sorry, it is not possible to delete all non-frozen ${dimension}.`);
  }
  applyLineChange(sheet, { kind: 'delete', dimension, at, count });
  const frozenDeleted = (frozen: number) => Math.max(0, Math.min(frozen, at + count - 1) - at + 1);
  if (dimension === 'rows') {
    sheet.maxRows -= count;
    sheet.frozenRows -= frozenDeleted(sheet.frozenRows);
  } else {
    sheet.maxColumns -= count;
    sheet.frozenColumns -= frozenDeleted(sheet.frozenColumns);
  }
}

/**
 * Moves lines start … start + count − 1 to before line `destination`, numbered as before the move
 * (Sheet.moveRows/moveColumns, and dragging rows or columns in the UI).
 */
export function moveLines(
  sheet: SheetModel,
  dimension: Dimension,
  start: number,
  count: number,
  destination: number,
): void {
  const size = lineCount(sheet, dimension);
  if (start < 1 || count < 1 || start + count - 1 > size || destination < 1 || destination > size + 1) {
    throw new AppsScriptException(`Those ${dimension} are out of bounds.`);
  }
  if (destination > start && destination < start + count) {
    throw new AppsScriptException(`The destination is inside the ${dimension} being moved.`);
  }
  if (destination === start || destination === start + count) return;
  applyLineChange(sheet, { kind: 'move', dimension, start, count, destination });
}

function applyLineChange(sheet: SheetModel, change: LineChange): void {
  sheet.cells.apply(change);
  sheet.filterViews = filterViewsAfterLineChange(sheet, change);
  moveStoredRanges(sheet, (box) => boxAfter(box, change));
  if (change.dimension === 'columns') {
    renumberColumns(sheet, (column) => lineAfter(change, column));
  }
  adjustFormulas(sheet.workbook, (formula, home) =>
    formulaAfterLineChange(
      formula,
      (name) => (name === null ? home === sheet : sheet.workbook.sheetByNameIgnoringCase(name) === sheet),
      change,
    ),
  );
}

function moveStoredRanges(sheet: SheetModel, move: (box: GridBox) => GridBox | null): void {
  if (sheet.filter) {
    const box = move(sheet.filter.box);
    if (box) sheet.filter.box = box;
    else sheet.filter = null;
  }
  for (const rule of sheet.conditionalRules) {
    rule.ranges = rule.ranges.map(move).filter((box): box is GridBox => box !== null);
  }
  sheet.conditionalRules = sheet.conditionalRules.filter((rule) => rule.ranges.length > 0);
  sheet.protections = sheet.protections.filter((protection) => {
    if (!protection.box) return true;
    const box = move(protection.box);
    if (box) protection.box = box;
    return box !== null;
  });
  // Sheets shows a named range whose cells are all deleted as #REF!; the emulator drops it (stricter
  // for a script that would look it up again).
  sheet.namedRanges = sheet.namedRanges.filter((named) => {
    const box = move(named.box);
    if (box) named.box = box;
    return box !== null;
  });
  // A chart anywhere in the workbook that reads these cells follows them; one whose cells are all
  // deleted reads nothing there any more.
  for (const chart of sheet.workbook.sheets.flatMap((any) => any.charts)) {
    chart.ranges = chart.ranges.flatMap((range) => {
      if (range.gid !== sheet.gid) return [range];
      const box = move(range.box);
      return box ? [{ gid: range.gid, box }] : [];
    });
  }
}

/** Column widths, hidden columns and the filter's criteria follow their columns; null drops one. */
function renumberColumns(sheet: SheetModel, renumber: (column: number) => number | null): void {
  const widths = [...sheet.columnWidths];
  sheet.columnWidths.clear();
  for (const [column, width] of widths) {
    const newColumn = renumber(column);
    if (newColumn !== null) sheet.columnWidths.set(newColumn, width);
  }
  const hidden = [...sheet.hiddenColumns];
  sheet.hiddenColumns.clear();
  for (const column of hidden) {
    const newColumn = renumber(column);
    if (newColumn !== null) sheet.hiddenColumns.add(newColumn);
  }
  if (sheet.filter) {
    const criteria = [...sheet.filter.criteria];
    sheet.filter.criteria.clear();
    for (const [column, criterion] of criteria) {
      const newColumn = renumber(column);
      if (newColumn !== null) sheet.filter.criteria.set(newColumn, criterion);
    }
  }
}

const REFERENCE_DELETED = { code: '#REF!', message: 'Reference does not exist.' } as const;

/**
 * Rewrites every formula of the workbook (cells, and conditional formats' custom formulas); `adjust`
 * gets each with the sheet that holds it. A formula keeps its value: its references still name the
 * same cells; one that lost a reference shows #REF!.
 */
function adjustFormulas(
  workbook: WorkbookModel,
  adjust: (formula: string, home: SheetModel) => AdjustedFormula,
): void {
  for (const home of workbook.sheets) {
    for (const { cell } of home.cells.formulaCells()) {
      const adjusted = adjust(cell.formula!, home);
      if (adjusted.formula === cell.formula) continue;
      if (adjusted.broken) {
        clearCellContent(cell);
        cell.value = REFERENCE_DELETED;
      }
      cell.formula = adjusted.formula;
    }
    for (const rule of home.conditionalRules) {
      if (rule.type !== 'CUSTOM_FORMULA') continue;
      rule.values = rule.values.map((value) =>
        typeof value === 'string' ? adjust(value, home).formula : value,
      );
    }
  }
}

/** Renames a tab, and every reference to it in every formula of the workbook. */
export function renameSheet(sheet: SheetModel, name: string): void {
  const { workbook } = sheet;
  workbook.checkSheetName(name, sheet);
  const oldName = sheet.name;
  sheet.name = name;
  adjustFormulas(workbook, (formula) => ({
    formula: formulaAfterRename(formula, oldName, name),
    broken: false,
  }));
}

/**
 * Deletes a tab, as Spreadsheet.deleteSheet and the tab's Delete in the Sheets UI do. What is kept
 * on the tab goes with it: its cells, filter, filter views, conditional formats, protections, named
 * ranges and charts (the emulator keeps developer metadata on the spreadsheet only, none on a tab). Charts on
 * other tabs stop reading its cells; every formula reference to it becomes #REF!, as Sheets rewrites
 * it (a HYPERLINK to "#gid=…" names no tab in a reference: it stays a link, to a tab no longer there).
 * A workbook keeps at least one visible tab: "You can't remove all the sheets in a document." is
 * what Apps Script throws for the only one (quoted in scripts that met it); for the last visible tab
 * beside hidden ones the Sheets API says "You can't remove all the visible sheets in a document."
 * (also met in practice), which the emulator throws for both services. The active tab, if deleted,
 * becomes the first visible one (the emulator's choice: Google does not document it).
 */
export function deleteSheet(sheet: SheetModel): void {
  const { workbook } = sheet;
  if (sheet.deleted || !workbook.sheets.includes(sheet))
    throw new AppsScriptException(`The sheet "${sheet.name}" was deleted already.`);
  if (workbook.sheets.length === 1)
    throw new AppsScriptException("You can't remove all the sheets in a document.");
  if (!sheet.hidden && workbook.visibleSheets().length === 1)
    throw new AppsScriptException("You can't remove all the visible sheets in a document.");
  workbook.sheets.splice(workbook.sheets.indexOf(sheet), 1);
  sheet.deleted = true;
  for (const other of workbook.sheets) {
    for (const chart of other.charts) chart.ranges = chart.ranges.filter((range) => range.gid !== sheet.gid);
  }
  adjustFormulas(workbook, (formula) => formulaAfterSheetDeleted(formula, sheet.name));
  if (workbook.activeSheet === sheet) workbook.activeSheet = workbook.visibleSheets()[0]!;
}

export interface SortSpec {
  /** A sheet column (1-based) inside the sorted box. */
  column: number;
  ascending: boolean;
}

/**
 * Sorts the rows of a box by its columns, as Range.sort and a filter's "Sort A → Z" do: whole cells
 * move (values, formulas, formats, notes, validation) within the box's columns only; cells beside the
 * box stay where they are. Blanks go last either way; numbers (dates too) come before text, text
 * (compared without case) before booleans, booleans before errors; ties keep their order. A moved
 * formula is written for its new row as if copied there (relative references move with it).
 */
export function sortRows(sheet: SheetModel, box: GridBox, specs: readonly SortSpec[]): void {
  for (const { column } of specs) {
    if (column < box.left || column > box.right) {
      throw new AppsScriptException('The sort column must be within the range being sorted.');
    }
  }
  const rows = Array.from({ length: box.bottom - box.top + 1 }, (_, i) => box.top + i);
  const sorted = [...rows].sort((a, b) => {
    for (const { column, ascending } of specs) {
      const order = compareForSort(sheet.cells.get(a, column), sheet.cells.get(b, column), ascending);
      if (order !== 0) return order;
    }
    return 0;
  });
  const newRowOf = new Map(sorted.map((oldRow, index) => [oldRow, box.top + index]));
  const formulas = [...sheet.cells.cellsIn(box)].filter(({ cell }) => cell.formula !== undefined);
  sheet.cells.permuteRows(box, (row) => newRowOf.get(row)!);
  for (const { row, column, cell } of formulas) {
    const newRow = newRowOf.get(row)!;
    if (newRow !== row)
      cell.formula = formulaFromR1C1(formulaToR1C1(cell.formula!, row, column), newRow, column);
  }
}

/**
 * Data → Sort sheet by a column, A → Z (ascending) or Z → A: every row below the frozen ones, whole
 * rows (all of the sheet's columns) moving together.
 */
export function sortSheetRows(sheet: SheetModel, column: number, ascending: boolean): void {
  if (column < 1 || column > sheet.maxColumns) {
    throw new AppsScriptException(`The column ${column} is outside the sheet.`);
  }
  const top = sheet.frozenRows + 1;
  const bottom = sheet.cells.lastRowWithContent();
  if (bottom > top)
    sortRows(sheet, { top, left: 1, bottom, right: sheet.maxColumns }, [{ column, ascending }]);
}

/** A filter's "Sort A → Z" (or Z → A) on one column: its rows below the header row. */
export function sortThroughFilter(sheet: SheetModel, column: number, ascending: boolean): void {
  const { filter } = sheet;
  if (!filter) throw new AppsScriptException('The sheet has no filter.');
  if (column < filter.box.left || column > filter.box.right) {
    throw new AppsScriptException(`The column ${column} is outside the range of the filter.`);
  }
  if (filter.box.bottom > filter.box.top) {
    sortRows(sheet, { ...filter.box, top: filter.box.top + 1 }, [{ column, ascending }]);
  }
}

function sortRank(value: Cell['value']): number {
  if (typeof value === 'number') return 0;
  if (typeof value === 'string') return 1;
  if (typeof value === 'boolean') return 2;
  return 3;
}

function compareForSort(a: Cell | undefined, b: Cell | undefined, ascending: boolean): number {
  const blankA = a?.value === undefined || a.value === '';
  const blankB = b?.value === undefined || b.value === '';
  if (blankA || blankB) return Number(blankA) - Number(blankB);
  const valueA = a.value!;
  const valueB = b.value!;
  const direction = ascending ? 1 : -1;
  const rankOrder = sortRank(valueA) - sortRank(valueB);
  if (rankOrder !== 0) return rankOrder * direction;
  if (typeof valueA === 'number' && typeof valueB === 'number') return (valueA - valueB) * direction;
  if (typeof valueA === 'string' && typeof valueB === 'string') {
    const [lowerA, lowerB] = [valueA.toLowerCase(), valueB.toLowerCase()];
    return (lowerA < lowerB ? -1 : lowerA > lowerB ? 1 : 0) * direction;
  }
  if (typeof valueA === 'boolean' && typeof valueB === 'boolean') {
    return (Number(valueA) - Number(valueB)) * direction;
  }
  return 0;
}
