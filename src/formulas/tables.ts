/**
 * The tables the custom functions return, built by the same code as the tabs so that a function
 * and its tab always agree on columns and values. What only makes sense in the tabs changes: the
 * in-sheet links become their plain value (a title, a count), and the user's own "Last inspected"
 * column, which a function cannot see, is left out (a rolling schedule is then "No inspection
 * recorded", as on the tab before anyone fills it in).
 */
import type { Completion, EquipmentType } from '../api/schemas';
import type { CellValue, ColumnSpec } from '../sheets/table';
import { completionsTable, type UserNames } from '../trainings/completions/table';
import type { CalendarDate, UtcOffsetAt } from '../lib/dates';
import {
  EQUIPMENT_TYPE_COLUMN,
  EQUIPMENT_TYPE_COLUMNS,
  equipmentTables,
  SCHEDULE_COLUMN,
  SCHEDULE_COLUMNS,
} from '../equipment/tables';

export interface PlainTable {
  columns: readonly ColumnSpec[];
  rows: CellValue[][];
}

/** The "Completed trainings" columns and rows (its hidden key column included; callers hide it). */
export function completionsFormulaTable(
  records: readonly Completion[],
  names: UserNames,
  utcOffsetAt: UtcOffsetAt,
): PlainTable {
  return completionsTable(records, names, utcOffsetAt);
}

function withColumns(
  columns: readonly ColumnSpec[],
  changes: ReadonlyMap<number, Partial<ColumnSpec>>,
): readonly ColumnSpec[] {
  return columns.map((column, index) => ({ ...column, ...changes.get(index) }));
}

const EQUIPMENT_TYPE_FORMULA_COLUMNS = withColumns(
  EQUIPMENT_TYPE_COLUMNS,
  new Map<number, Partial<ColumnSpec>>([
    [EQUIPMENT_TYPE_COLUMN.title, { kind: 'text' }],
    [EQUIPMENT_TYPE_COLUMN.metafields, { kind: 'integer' }],
    [EQUIPMENT_TYPE_COLUMN.schedules, { kind: 'integer' }],
  ]),
);

const SCHEDULE_FORMULA_COLUMNS = withColumns(
  SCHEDULE_COLUMNS,
  new Map<number, Partial<ColumnSpec>>([
    [SCHEDULE_COLUMN.typeTitle, { kind: 'text' }],
    [SCHEDULE_COLUMN.lastInspected, { hidden: true }],
  ]),
);

/** The sheet ids only feed links, which are replaced here. */
const NO_SHEETS = { types: 0, metafields: 0, schedules: 0 };

export interface EquipmentFormulaTables {
  types: PlainTable;
  schedules: PlainTable;
}

export function equipmentFormulaTables(
  types: readonly EquipmentType[],
  today: CalendarDate,
  utcOffsetAt: UtcOffsetAt,
): EquipmentFormulaTables {
  const tables = equipmentTables({
    types,
    sheetIds: NO_SHEETS,
    lastInspectedByKey: new Map(),
    today,
    utcOffsetAt,
  });
  const typeRows = tables.types.rows.map((row, index) => {
    const type = types[index]!;
    const plain = [...row];
    plain[EQUIPMENT_TYPE_COLUMN.title] = type.title;
    plain[EQUIPMENT_TYPE_COLUMN.metafields] = type.metafields.length;
    plain[EQUIPMENT_TYPE_COLUMN.schedules] = type.schedules.length;
    return plain;
  });
  const scheduleRows = tables.schedules.rows.map((row, index) => {
    const plain = [...row];
    plain[SCHEDULE_COLUMN.typeTitle] = tables.scheduleEntries[index]!.typeTitle;
    return plain;
  });
  return {
    types: { columns: EQUIPMENT_TYPE_FORMULA_COLUMNS, rows: typeRows },
    schedules: { columns: SCHEDULE_FORMULA_COLUMNS, rows: scheduleRows },
  };
}
