/**
 * Saved filter views (Data > Filter views), one implementation for the Sheets API's requests
 * (api-sheets-spreadsheets.ts: addFilterView, updateFilterView, deleteFilterView, get) and the
 * test-side user's actions (workbook-store.ts). A view is a Sheets API FilterView: filterViewId,
 * title, range (a GridRange) and filterSpecs; it lives on its range's sheet and goes with it.
 * - Checked as strictly as the API, or more: the range's sheet exists and the indexes it gives lie
 *   within the sheet's grid (start below end); a filterSpec's columnIndex lies inside the range, one
 *   spec a column; the title is a string. FilterView's other fields (criteria on input, sortSpecs,
 *   namedRangeId, tableId) and criteria other than hiddenValues and the conditions TEXT_EQ,
 *   TEXT_CONTAINS, TEXT_NOT_CONTAINS, TEXT_STARTS_WITH, BLANK and NOT_BLANK are "not emulated".
 * - Which rows a user opening a view sees (rowsShownByFilterView): the range's first row (its header)
 *   always; each other row when every spec accepts its cell's displayed text. hiddenValues match the
 *   displayed text exactly ('' is a blank cell). Google documents TEXT_EQ as "exactly the condition's
 *   value" without saying whether case counts, nor whether TEXT_CONTAINS, TEXT_NOT_CONTAINS and
 *   TEXT_STARTS_WITH ignore case: the emulator takes the stricter reading, case-sensitive for all.
 *   BLANK and NOT_BLANK look at the displayed text (a formula showing '' is blank).
 * - When rows or columns are inserted, deleted or moved, a view's range and its specs' columns follow
 *   their cells as the filter's do; an end left out (unbounded) stays unbounded; a view whose cells
 *   are all deleted is dropped (Google's behaviour there is not documented; dropping it is stricter
 *   for a script that looks it up again).
 * - Responses carry both filterSpecs and the deprecated criteria map (keyed by column index), as the
 *   API's reference says it populates both; empty lists are left out, as the API does.
 */
import { displayValue } from './cell-values';
import type { GridBox, LineChange } from './grid-box';
import { boxAfter, lineAfter } from './grid-box';
import {
  type FilterSpecData,
  type FilterViewConditionType,
  type FilterViewCriteriaData,
  type FilterViewData,
  type GridRangeData,
  type SheetModel,
  type WorkbookModel,
  copyFilterView,
} from './workbook-model';

/** Why a filter view's input is refused: the API's 400 ('invalid'), or beyond the emulator. */
export class FilterViewInputError extends Error {
  constructor(
    readonly kind: 'invalid' | 'not emulated',
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new FilterViewInputError('invalid', message);
const notEmulated = (message: string) => new FilterViewInputError('not emulated', message);

const TEXT_CONDITIONS: readonly FilterViewConditionType[] = [
  'TEXT_EQ',
  'TEXT_CONTAINS',
  'TEXT_NOT_CONTAINS',
  'TEXT_STARTS_WITH',
];
const EMPTY_CONDITIONS: readonly FilterViewConditionType[] = ['BLANK', 'NOT_BLANK'];
/** FilterView fields the API has and the emulator does not take. */
const FILTER_VIEW_FIELDS_NOT_EMULATED = ['criteria', 'sortSpecs', 'namedRangeId', 'tableId'];
/** The fields an updateFilterView's mask may name. */
export const UPDATABLE_FILTER_VIEW_FIELDS = ['title', 'range', 'filterSpecs'] as const;
export type UpdatableFilterViewField = (typeof UPDATABLE_FILTER_VIEW_FIELDS)[number];

/** The view with id `filterViewId` anywhere in the workbook, with its sheet. */
export function findFilterView(
  workbook: WorkbookModel,
  filterViewId: number,
): { sheet: SheetModel; view: FilterViewData } | undefined {
  for (const sheet of workbook.sheets) {
    const view = sheet.filterViews.find((candidate) => candidate.filterViewId === filterViewId);
    if (view) return { sheet, view };
  }
  return undefined;
}

/** Every filter view id in the workbook. */
export function filterViewIds(workbook: WorkbookModel): Set<number> {
  return new Set(workbook.sheets.flatMap((sheet) => sheet.filterViews.map((view) => view.filterViewId)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isIndex = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The sheet of a GridRange, checked against the sheet's grid; `sheetOf` resolves a sheetId. */
export function checkGridRange(
  value: unknown,
  sheetOf: (sheetId: number) => SheetModel | undefined,
): { range: GridRangeData; sheet: SheetModel } {
  if (!isRecord(value)) throw invalid('a filter view needs a range (a GridRange).');
  const { sheetId, startRowIndex, endRowIndex, startColumnIndex, endColumnIndex, ...other } = value;
  const unknown = Object.keys(other);
  if (unknown.length > 0) throw invalid(`Unknown name "${unknown[0]}" in range: Cannot find field.`);
  const sheet = isIndex(sheetId) ? sheetOf(sheetId) : undefined;
  if (!sheet) throw invalid(`No grid with id: ${String(sheetId)}`);
  const range: GridRangeData = { sheetId: sheetId as number };
  const bounds: [string, unknown, number][] = [
    ['startRowIndex', startRowIndex, sheet.maxRows - 1],
    ['endRowIndex', endRowIndex, sheet.maxRows],
    ['startColumnIndex', startColumnIndex, sheet.maxColumns - 1],
    ['endColumnIndex', endColumnIndex, sheet.maxColumns],
  ];
  for (const [name, index, largest] of bounds) {
    if (index === undefined) continue;
    if (!isIndex(index)) throw invalid(`range.${name} must be a whole number of at least 0.`);
    if (index > largest) {
      throw invalid(
        `Range ('${sheet.name}'!${name} ${index}) exceeds grid limits. Max rows: ${sheet.maxRows}, max columns: ${sheet.maxColumns}`,
      );
    }
    (range as unknown as Record<string, number>)[name] = index;
  }
  const starts = (start: number | undefined, end: number | undefined) =>
    end === undefined || (start ?? 0) < end;
  if (
    !starts(range.startRowIndex, range.endRowIndex) ||
    !starts(range.startColumnIndex, range.endColumnIndex)
  )
    throw invalid('range: a start index must be less than its end index.');
  return { range, sheet };
}

/** The specs checked: objects with a columnIndex inside the range, one a column, emulated criteria. */
export function checkFilterSpecs(value: unknown, range: GridRangeData, sheet: SheetModel): FilterSpecData[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid('filterSpecs must be a list.');
  const first = range.startColumnIndex ?? 0;
  const end = range.endColumnIndex ?? sheet.maxColumns;
  const seen = new Set<number>();
  return value.map((spec: unknown, index) => {
    if (!isRecord(spec)) throw invalid(`filterSpecs[${index}] must be a FilterSpec.`);
    const { columnIndex, filterCriteria, ...other } = spec;
    if (Object.keys(other).length > 0)
      throw notEmulated(`a FilterSpec with ${Object.keys(other).join(', ')}`);
    if (!isIndex(columnIndex) || columnIndex < first || columnIndex >= end)
      throw invalid(
        `filterSpecs[${index}].columnIndex ${String(columnIndex)} is outside the filter view's range.`,
      );
    if (seen.has(columnIndex))
      throw invalid(`filterSpecs[${index}]: column ${columnIndex} has criteria already.`);
    seen.add(columnIndex);
    return { columnIndex, filterCriteria: checkCriteria(filterCriteria, `filterSpecs[${index}]`) };
  });
}

function checkCriteria(value: unknown, where: string): FilterViewCriteriaData {
  if (!isRecord(value)) throw invalid(`${where}.filterCriteria must be a FilterCriteria.`);
  const { hiddenValues, condition, ...other } = value;
  if (Object.keys(other).length > 0)
    throw notEmulated(`FilterCriteria with ${Object.keys(other).join(', ')}`);
  const criteria: FilterViewCriteriaData = {};
  if (hiddenValues !== undefined) {
    if (!Array.isArray(hiddenValues) || hiddenValues.some((hidden) => typeof hidden !== 'string'))
      throw invalid(`${where}.filterCriteria.hiddenValues must be a list of strings.`);
    criteria.hiddenValues = [...(hiddenValues as string[])];
  }
  if (condition !== undefined) {
    if (!isRecord(condition)) throw invalid(`${where}.filterCriteria.condition must be a BooleanCondition.`);
    const { type, values = [], ...otherCondition } = condition;
    if (Object.keys(otherCondition).length > 0)
      throw invalid(`Unknown name "${Object.keys(otherCondition)[0]}" in condition: Cannot find field.`);
    const text = TEXT_CONDITIONS.includes(type as FilterViewConditionType);
    if (!text && !EMPTY_CONDITIONS.includes(type as FilterViewConditionType))
      throw notEmulated(`filter criteria condition ${String(type)}`);
    const given = Array.isArray(values) ? values : null;
    if (
      !given ||
      given.some(
        (entry: unknown) =>
          !isRecord(entry) || Object.keys(entry).length !== 1 || typeof entry.userEnteredValue !== 'string',
      )
    )
      throw notEmulated(`condition values other than {userEnteredValue: <a string>}`);
    if (given.length !== (text ? 1 : 0))
      throw invalid(
        `${where}: ${String(type)} condition requires ${text ? 'exactly one value' : 'no values'}.`,
      );
    criteria.condition = {
      type: type as FilterViewConditionType,
      ...(text
        ? { values: [{ userEnteredValue: (given[0] as { userEnteredValue: string }).userEnteredValue }] }
        : {}),
    };
  }
  return criteria;
}

/** A title as given: a string. */
export function checkTitle(value: unknown): string {
  if (typeof value !== 'string') throw invalid('a filter view title must be a string.');
  return value;
}

/** A FilterView input's fields the emulator does not take, refused. */
export function refuseFieldsNotEmulated(filter: Record<string, unknown>, known: readonly string[]): void {
  const other = Object.keys(filter).filter((key) => !known.includes(key));
  const notTaken = other.filter((key) => FILTER_VIEW_FIELDS_NOT_EMULATED.includes(key));
  if (notTaken.length > 0) throw notEmulated(`FilterView with ${notTaken.join(', ')}`);
  if (other.length > 0) throw invalid(`Unknown name "${other[0]}" in filter: Cannot find field.`);
}

/** A filter view as the API answers it: a copy, empty lists left out, criteria beside filterSpecs. */
export function filterViewResource(view: FilterViewData): Record<string, unknown> {
  const copy = copyFilterView(view);
  const resource: Record<string, unknown> = {
    filterViewId: copy.filterViewId,
    title: copy.title,
    range: copy.range,
  };
  if (copy.filterSpecs.length > 0) {
    resource.filterSpecs = copy.filterSpecs;
    resource.criteria = Object.fromEntries(
      copy.filterSpecs.map((spec) => [String(spec.columnIndex), structuredClone(spec.filterCriteria)]),
    );
  }
  return resource;
}

/** Whether one spec accepts a cell's displayed text. */
function accepts(criteria: FilterViewCriteriaData, display: string): boolean {
  if (criteria.hiddenValues?.includes(display)) return false;
  const condition = criteria.condition;
  if (!condition) return true;
  const value = condition.values?.[0]?.userEnteredValue ?? '';
  switch (condition.type) {
    case 'TEXT_EQ':
      return display === value;
    case 'TEXT_CONTAINS':
      return display.includes(value);
    case 'TEXT_NOT_CONTAINS':
      return !display.includes(value);
    case 'TEXT_STARTS_WITH':
      return display.startsWith(value);
    case 'BLANK':
      return display === '';
    case 'NOT_BLANK':
      return display !== '';
  }
}

/**
 * The rows (1-based) a user opening the view sees: those of its range within the sheet's current
 * grid, the header always, every other one when each spec accepts its cell's displayed text.
 */
export function rowsShownByView(sheet: SheetModel, view: FilterViewData): number[] {
  const top = (view.range.startRowIndex ?? 0) + 1;
  const bottom = Math.min(view.range.endRowIndex ?? sheet.maxRows, sheet.maxRows);
  const rows: number[] = [];
  for (let row = top; row <= bottom; row++) {
    if (
      row === top ||
      view.filterSpecs.every((spec) =>
        accepts(spec.filterCriteria, displayValue(sheet.cells.get(row, spec.columnIndex + 1))),
      )
    )
      rows.push(row);
  }
  return rows;
}

/** The sheet's views after rows or columns are inserted, deleted or moved (structural-changes.ts). */
export function filterViewsAfterLineChange(sheet: SheetModel, change: LineChange): FilterViewData[] {
  return sheet.filterViews.flatMap((view) => {
    const { range } = view;
    const box = boxAfter(
      {
        top: (range.startRowIndex ?? 0) + 1,
        bottom: range.endRowIndex ?? sheet.maxRows,
        left: (range.startColumnIndex ?? 0) + 1,
        right: range.endColumnIndex ?? sheet.maxColumns,
      },
      change,
    );
    if (!box) return [];
    const moved: GridRangeData = { sheetId: range.sheetId };
    if (range.startRowIndex !== undefined) moved.startRowIndex = box.top - 1;
    if (range.endRowIndex !== undefined) moved.endRowIndex = box.bottom;
    if (range.startColumnIndex !== undefined) moved.startColumnIndex = box.left - 1;
    if (range.endColumnIndex !== undefined) moved.endColumnIndex = box.right;
    const filterSpecs =
      change.dimension === 'columns'
        ? view.filterSpecs.flatMap((spec) => {
            const column = lineAfter(change, spec.columnIndex + 1);
            return column === null ? [] : [{ ...spec, columnIndex: column - 1 }];
          })
        : view.filterSpecs;
    return [{ ...view, range: moved, filterSpecs }];
  });
}

/** A GridRange's cells on its sheet as a box (1-based), unbounded ends at the sheet's edge. */
export function gridRangeBox(sheet: SheetModel, range: GridRangeData): GridBox {
  return {
    top: (range.startRowIndex ?? 0) + 1,
    bottom: range.endRowIndex ?? sheet.maxRows,
    left: (range.startColumnIndex ?? 0) + 1,
    right: range.endColumnIndex ?? sheet.maxColumns,
  };
}
