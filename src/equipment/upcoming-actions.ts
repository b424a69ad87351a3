/**
 * Safety Sync → Show upcoming inspections: recomputes every schedule's next inspection from the tabs
 * already imported, for today, without a request to the service (so it needs no connection), then
 * shows the Upcoming inspections tab. Entering a "Last inspected" date and choosing this item is how
 * a manager records an inspection and sees the effect at once.
 */
import {
  EQUIPMENT_TYPE_COLUMN,
  EQUIPMENT_TYPE_COLUMNS,
  INSPECTION_COLUMNS,
  SCHEDULE_COLUMN,
  SCHEDULE_COLUMNS,
} from './tables';
import { ensureLinkedTabs, findLinkedTabs } from './linked-tabs';
import {
  missingEquipmentTypeHeaders,
  missingScheduleHeaders,
  recomputeSchedules,
  recomputeTypeCells,
} from './inspection-recompute';
import { checkedHorizonDays, countInspections, describeInspectionCounts } from './upcoming';
import { type ColumnSpec, numberFormatOf } from '../sheets/table';
import { activeSpreadsheet, requireUi } from '../platform/interactive';
import { holdingDocumentLock, UserFacingError } from '../platform/job-runner';
import { DEFAULT_IMPORT_OPTIONS, readImportOptions } from '../platform/settings-store';
import { colourStatusColumns, writeUpcomingTab } from './upcoming-tab';

const SHOW_UPCOMING_ACTION = 'Show upcoming inspections';

interface RecomputeOutcome {
  upcomingSheet: GoogleAppsScript.Spreadsheet.Sheet;
  /** One sentence: the counts. */
  summary: string;
}

function rebuildAdvice(tab: string, missing: readonly string[]): UserFacingError {
  return new UserFacingError(
    `The "${tab}" tab no longer has the column${missing.length > 1 ? 's' : ''} ${missing.map((header) => `"${header}"`).join(', ')} ` +
      'where Safety Sync wrote it. Use Safety Sync → Import equipment types to rebuild the tab (your "Last inspected" dates are kept).',
  );
}

/** Reads the schedules tab (and the types tab), recomputes, then writes; nothing changes if a read fails. */
function recomputeUpcomingInspections(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
): RecomputeOutcome {
  return holdingDocumentLock(spreadsheet, (clock) => {
    const linked = findLinkedTabs(spreadsheet);
    const schedulesSheet = linked.sheets.schedules;
    if (!schedulesSheet || schedulesSheet.getLastRow() === 0) {
      throw new UserFacingError(
        'There are no inspection schedules in this spreadsheet yet. Use Safety Sync → Import equipment types first.',
      );
    }
    const { utcOffsetAt } = clock;
    const today = clock.today();
    const horizonDays = checkedHorizonDays(
      readImportOptions(spreadsheet).horizonDays,
      DEFAULT_IMPORT_OPTIONS.horizonDays,
    );

    const scheduleValues = schedulesSheet
      .getRange(1, 1, schedulesSheet.getLastRow(), SCHEDULE_COLUMNS.length)
      .getValues();
    const missingSchedules = missingScheduleHeaders(scheduleValues[0]);
    if (missingSchedules.length) throw rebuildAdvice(schedulesSheet.getName(), missingSchedules);
    const recomputed = recomputeSchedules(scheduleValues, today, utcOffsetAt);

    const typesSheet = linked.sheets.types;
    let typeCells: unknown[][] = [];
    if (typesSheet && typesSheet.getLastRow() > 0) {
      const typeValues = typesSheet
        .getRange(1, 1, typesSheet.getLastRow(), EQUIPMENT_TYPE_COLUMNS.length)
        .getValues();
      const missingTypes = missingEquipmentTypeHeaders(typeValues[0]);
      if (missingTypes.length) throw rebuildAdvice(typesSheet.getName(), missingTypes);
      typeCells = recomputeTypeCells(typeValues, recomputed.entries);
    }

    writeColumns(schedulesSheet, SCHEDULE_COLUMN.nextDue, INSPECTION_COLUMNS, recomputed.inspectionCells);
    if (typesSheet) {
      writeColumns(
        typesSheet,
        EQUIPMENT_TYPE_COLUMN.nextDue,
        EQUIPMENT_TYPE_COLUMNS.slice(EQUIPMENT_TYPE_COLUMN.nextDue, EQUIPMENT_TYPE_COLUMN.status + 1),
        typeCells,
      );
    }
    const { upcoming: upcomingSheet } = ensureLinkedTabs(spreadsheet, linked, ['upcoming']);
    writeUpcomingTab(upcomingSheet, recomputed.entries, schedulesSheet.getSheetId(), horizonDays);
    colourStatusColumns({ ...linked.sheets, upcoming: upcomingSheet });
    return {
      upcomingSheet,
      summary: describeInspectionCounts(countInspections(recomputed.entries, horizonDays), horizonDays),
    };
  });
}

/** Rewrites a block of computed columns below the header: formats, then values, one call each. */
function writeColumns(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  firstColumn: number,
  columns: readonly ColumnSpec[],
  rows: unknown[][],
): void {
  if (rows.length === 0) return;
  const range = sheet.getRange(2, firstColumn + 1, rows.length, columns.length);
  const formats = columns.map((column) => numberFormatOf(column.kind));
  range.setNumberFormats(rows.map(() => formats));
  range.setValues(rows.map((row) => row.map((value) => value ?? '')));
}

export function showUpcomingInspections(): void {
  const ui = requireUi(SHOW_UPCOMING_ACTION);
  try {
    const outcome = recomputeUpcomingInspections(activeSpreadsheet());
    outcome.upcomingSheet.activate();
    activeSpreadsheet().toast(outcome.summary, 'Safety Sync', 10);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ui.alert(`Safety Sync: ${SHOW_UPCOMING_ACTION} failed`, message, ui.ButtonSet.OK);
  }
}
