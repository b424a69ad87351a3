/**
 * Safety Sync → Show upcoming inspections: recomputes every schedule's next inspection from the tabs
 * already imported, for today, without a request to the service (so it needs no connection), then
 * shows the Upcoming inspections tab; the Inspection forecast is recomputed with it. Entering a
 * "Last inspected" date and choosing this item is how a manager records an inspection and sees the
 * effect at once.
 */
import {
  EQUIPMENT_TYPE_COLUMN,
  EQUIPMENT_TYPE_COLUMNS,
  INSPECTION_COLUMN_INDEXES,
  SCHEDULE_COLUMN,
  SCHEDULE_COLUMNS,
} from './tables';
import { checkLinkedTitles, titledColumns } from './key-columns';
import { ensureLinkedTabs, findLinkedTabs } from './linked-tabs';
import { recomputeSchedules, recomputeTypeCells } from './inspection-recompute';
import { checkedHorizonDays, countInspections, describeInspectionCounts } from './upcoming';
import { type ColumnSpec, numberFormatOf } from '../sheets/table';
import { layoutOfHeader } from '../sheets/tab-layout';
import { activeSpreadsheet, requireUi } from '../platform/interactive';
import { UserFacingError } from '../platform/user-facing-error';
import { DEFAULT_IMPORT_OPTIONS, readImportOptions } from '../platform/settings-store';
import { colourStatusColumns, writeUpcomingTab } from './upcoming-tab';
import { inspectionFigures, writeForecastTab } from './forecast-tab';
import { planOverview, takeWrittenOverview } from '../platform/overview/overview-tab';
import { currentUserEmail, holdingDocumentLock } from '../platform/job-runner';
import { requireWritableTabs } from '../platform/write-permission';
import { describeLogged, openInspectionLog } from './inspection-log';

const SHOW_UPCOMING_ACTION = 'Show upcoming inspections';

interface RecomputeOutcome {
  upcomingSheet: GoogleAppsScript.Spreadsheet.Sheet;
  /** One sentence: the counts. */
  summary: string;
}

/** A tab as read by its titles: its cells in the table's column order, and where each column is. */
interface ReadByTitle {
  /** Each row's cells in the table's order; '' for a column a later layout added that the tab lacks. */
  values: unknown[][];
  /** Each table column's 1-based column in the tab; 0 where the tab lacks it. */
  columnsAt: number[];
}

/**
 * A tab's values in the table's column order, found by their titles wherever the user moved them.
 * A column a later version added may be missing, until the next import inserts it (key-columns.ts).
 */
function readByTitle(sheet: GoogleAppsScript.Spreadsheet.Sheet, columns: readonly ColumnSpec[]): ReadByTitle {
  const values = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
  const present = titledColumns(columns, values[0]!);
  const layout = layoutOfHeader(sheet.getName(), values[0]!, present, values.length > 1);
  const columnsAt = columns.map((column) => {
    const index = present.indexOf(column);
    return index < 0 ? 0 : layout.tableColumns[index]!;
  });
  return {
    values: values.map((row) => columnsAt.map((at) => (at === 0 ? '' : row[at - 1]))),
    columnsAt,
  };
}

/** Reads the schedules tab (and the types tab), recomputes, then writes; nothing changes if a read fails. */
function recomputeUpcomingInspections(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
): RecomputeOutcome {
  return holdingDocumentLock(spreadsheet, (clock, state) => {
    const startedAtMs = Date.now();
    const linked = findLinkedTabs(spreadsheet, state);
    const schedulesSheet = linked.sheets.schedules;
    if (!schedulesSheet || schedulesSheet.getLastRow() === 0) {
      throw new UserFacingError(
        'There are no inspection schedules in this spreadsheet yet. Use Safety Sync → Import equipment types first.',
      );
    }
    // Before the first write, as the schedules and types tabs are read: the tabs change together.
    checkLinkedTitles({ upcoming: linked.sheets.upcoming, forecast: linked.sheets.forecast });
    const { utcOffsetAt } = clock;
    const today = clock.today();
    const horizonDays = checkedHorizonDays(
      readImportOptions(spreadsheet).horizonDays,
      DEFAULT_IMPORT_OPTIONS.horizonDays,
    );

    const schedules = readByTitle(schedulesSheet, SCHEDULE_COLUMNS);
    const recomputed = recomputeSchedules(schedules.values, today, utcOffsetAt);

    const typesSheet = linked.sheets.types;
    let types: ReturnType<typeof readByTitle> | null = null;
    let typeCells: unknown[][] = [];
    if (typesSheet && typesSheet.getLastRow() > 0) {
      types = readByTitle(typesSheet, EQUIPMENT_TYPE_COLUMNS);
      typeCells = recomputeTypeCells(types.values, recomputed.entries);
    }

    const log = openInspectionLog(spreadsheet, state, utcOffsetAt);
    requireWritableTabs(spreadsheet, [log.sheet]);

    // Nothing was read from the service: the Overview keeps its "Last refreshed".
    const overview = planOverview(spreadsheet, state, 'inspections', {
      upkeep: true,
      refreshedAtMs: null,
      utcOffsetAt,
    });

    writeColumns(
      schedulesSheet,
      schedules.columnsAt,
      SCHEDULE_COLUMNS,
      INSPECTION_COLUMN_INDEXES,
      recomputed.inspectionCells,
    );
    if (typesSheet && types) {
      writeColumns(
        typesSheet,
        types.columnsAt,
        EQUIPMENT_TYPE_COLUMNS,
        [EQUIPMENT_TYPE_COLUMN.nextDue, EQUIPMENT_TYPE_COLUMN.status],
        typeCells,
      );
    }
    const { upcoming: upcomingSheet, forecast: forecastSheet } = ensureLinkedTabs(
      spreadsheet,
      state,
      linked,
      ['upcoming', 'forecast'],
    );
    // Read together, once the tabs are there: a read after the writes below would cost a commit.
    const [schedulesSheetId, upcomingSheetId] = [schedulesSheet.getSheetId(), upcomingSheet.getSheetId()];
    const lastInspectedCells = {
      sheetId: schedulesSheetId,
      column: schedules.columnsAt[SCHEDULE_COLUMN.lastInspected]!,
    };
    writeUpcomingTab(upcomingSheet, recomputed.entries, lastInspectedCells, horizonDays);
    const forecast = writeForecastTab(forecastSheet, recomputed.entries, schedulesSheetId, today);
    colourStatusColumns({ ...linked.sheets, upcoming: upcomingSheet });
    const counts = countInspections(recomputed.entries, horizonDays);
    overview.prepare();
    overview.readIds();
    overview.write(inspectionFigures(counts, recomputed.entries, forecast.totals, upcomingSheetId));
    const logged = log.append(recomputed.entries, {
      atMs: startedAtMs,
      by: currentUserEmail(),
      runName: SHOW_UPCOMING_ACTION,
      utcOffsetAt,
    });
    const summary = [describeInspectionCounts(counts, horizonDays), describeLogged(logged, log)];
    return { upcomingSheet, summary: summary.filter((sentence) => sentence !== null).join(' ') };
  });
}

/**
 * Rewrites computed columns below the titles, each where its title is (the user may have moved
 * them apart): formats, then values, one call each per column. `indexes`: the table indexes of the
 * columns `rows` hold, in their order; `columnsAt`: where each table column is (readByTitle).
 */
function writeColumns(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  columnsAt: readonly number[],
  columns: readonly ColumnSpec[],
  indexes: readonly number[],
  rows: unknown[][],
): void {
  if (rows.length === 0) return;
  indexes.forEach((index, offset) => {
    const range = sheet.getRange(2, columnsAt[index]!, rows.length, 1);
    range.setNumberFormats(rows.map(() => [numberFormatOf(columns[index]!.kind)]));
    range.setValues(rows.map((row) => [row[offset] ?? '']));
  });
}

export function showUpcomingInspections(): void {
  const ui = requireUi(SHOW_UPCOMING_ACTION);
  try {
    const outcome = recomputeUpcomingInspections(activeSpreadsheet());
    // The landing page, which it rewrote: its figures link to the lists.
    (takeWrittenOverview() ?? outcome.upcomingSheet).activate();
    activeSpreadsheet().toast(outcome.summary, 'Safety Sync', 10);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ui.alert(`Safety Sync: ${SHOW_UPCOMING_ACTION} failed`, message, ui.ButtonSet.OK);
  }
}
