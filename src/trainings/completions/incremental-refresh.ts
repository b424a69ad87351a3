/**
 * The incremental refresh: records arrive newest first, so it reads page 1 onwards only until it
 * reaches back past the newest record held, less an overlap of some days, and adds what is new.
 */
import { rowKeys } from '../../api/completion-key';
import { fetchRecentCompletions } from '../../api/completions';
import type { Completion } from '../../api/schemas';
import { addDays, cellToSheetSerial, fromSheetSerial, toDateNumber, type UtcOffsetAt } from '../../lib/dates';
import { formatCount } from '../../lib/numbers';
import type { JobContext, JobReport } from '../../platform/job-runner';
import { describeCuts, describeRejected, summarizeRejected } from '../../platform/problem-lists';
import { checkRoomForRows, readSheetGrids } from '../../sheets/cell-limit';
import { fitTableText, type TextCut } from '../../sheets/cell-text';
import { guardTable, readTableGuards } from '../../sheets/table-guard';
import type { CellValue } from '../../sheets/table';
import { readTabLayout } from '../../sheets/added-columns';
import { tableCellsOf, type TabLayout } from '../../sheets/tab-layout';
import { readTabFrame } from '../../sheets/tab-content';
import { formatHeaderAndColumns } from '../../sheets/tab-frame';
import { insertRowsOnTop } from '../../sheets/rows-on-top';
import { writeTable } from '../../sheets/table-writer';
import { fullImport, userIdsOf } from './full-import';
import { CUTS_SEEN, runDetails } from './run-report';
import {
  COMPLETION_COLUMN,
  COMPLETION_COLUMNS,
  completionRow,
  COMPLETIONS_GUARD,
  COMPLETIONS_SHEET,
  COMPLETIONS_TAB,
  describeInvalidExpirations,
  sortedByUser,
} from './table';
import { describeNames, NameLookups, type ResolvedNames } from './user-names';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The records the tab lacks among the recent ones, and the tab they go into. */
interface NewRecords {
  layout: TabLayout;
  /** The tab's records, as the table's cells. */
  held: CellValue[][];
  fresh: Completion[];
  /** The row key of each of `fresh`. */
  freshKeys: string[];
  /** What the service sent that is not of the contract's shape. */
  details: string | undefined;
}

export function incrementalRefresh(context: JobContext, sheet: Sheet): JobReport {
  const found = readNewRecords(context, sheet);
  if ('summary' in found) return found;
  const { fresh, freshKeys } = found;
  const resolved = new NameLookups(context.client.baseUrl, context.options.batchSize).resolve(
    context.client,
    userIdsOf(fresh),
    context.budget.control(),
  );
  if (!resolved.complete) {
    // The names found so far are cached: the next refresh reads the same records and goes on.
    return {
      added: 0,
      removed: 0,
      continuing: true,
      summary:
        `Looked up ${resolved.requested} user names for ${formatCount(fresh.length)} new completed trainings ` +
        'before the time limit of one run; they are added in the next run.',
    };
  }
  const { table: fitted, cuts } = fitTableText(COMPLETIONS_SHEET, {
    ...COMPLETIONS_TAB,
    rows: fresh.map((record, index) =>
      completionRow(record, freshKeys[index]!, resolved.names, context.utcOffsetAt),
    ),
  });
  const slowerWrite = addRows(context, sheet, found, fitted.rows);
  return refreshReport(found, resolved, cuts, slowerWrite);
}

/**
 * Reads the tab and the recent records, and finds those it lacks; the report when there are none,
 * or when the read did not reach back far enough in this execution. With no date in the tab to
 * reach back to, the refresh is a full import.
 */
function readNewRecords(context: JobContext, sheet: Sheet): NewRecords | JobReport {
  const { client, options } = context;
  const layout = readTabLayout(sheet, COMPLETION_COLUMNS);
  const held = readHeldRows(sheet, layout, context.utcOffsetAt);
  const heldKeys = new Set(held.map((row) => String(row[COMPLETION_COLUMN.key])));
  // A loop, not Math.max(...rows): spreading 125,000 arguments overflows the stack.
  const newestSerial = held.reduce(
    (newestSoFar, row) => Math.max(newestSoFar, Number(row[COMPLETION_COLUMN.completionDate]) || 0),
    0,
  );
  const newest = fromSheetSerial(newestSerial);
  if (newest === null) return fullImport(context, null);
  const since = toDateNumber(addDays(newest, -options.overlapDays));
  const recent = fetchRecentCompletions(client, options.completionsFilter, since, context.budget.control());
  if (!recent.complete) {
    return {
      added: 0,
      removed: 0,
      continuing: true,
      summary:
        `Read ${formatCount(recent.records.length)} recent completed trainings before the time limit of one run ` +
        'without reaching the newest one already in the tab; the refresh continues in the next run.',
    };
  }
  // Keys as the full list numbers twins: a second identical record is new even when the first is held.
  const recentKeys = rowKeys(recent.records);
  const fresh: Completion[] = [];
  const freshKeys: string[] = [];
  recent.records.forEach((record, index) => {
    if (heldKeys.has(recentKeys[index]!)) return;
    fresh.push(record);
    freshKeys.push(recentKeys[index]!);
  });
  const details = describeRejected(summarizeRejected(recent.rejected)) ?? undefined;
  if (fresh.length === 0) return { added: 0, removed: 0, summary: 'No new completed trainings.', details };
  return { layout, held, fresh, freshKeys, details };
}

/** Adds `rows` to the tab among the records it holds; returns why the write was slower, if it was. */
function addRows(
  { spreadsheet }: JobContext,
  sheet: Sheet,
  { layout, held }: NewRecords,
  rows: CellValue[][],
): string | null {
  checkRoomForRows(
    readSheetGrids(spreadsheet),
    sheet.getName(),
    held.length + rows.length,
    COMPLETION_COLUMNS.length,
  );
  const dateOf = (row: CellValue[]) => Number(row[COMPLETION_COLUMN.completionDate]);
  const userOrder = sortedByUser(held.map((row) => ({ completionDate: dateOf(row) })));
  const allOnTop = rows.every((row) => dateOf(row) >= dateOf(held[0]!));
  let slowerWrite: string | null;
  // Rows inserted inside the table (below its first record) widen its named range and protections,
  // as Sheets widens any range rows are inserted into; they must be set again otherwise.
  const guardAfterwards = !(allOnTop || userOrder) || held.length < 2;
  // Read before the writes, as everything a run reads: a read after them would cost a commit.
  const guards = guardAfterwards && {
    sheetId: sheet.getSheetId(),
    found: readTableGuards(spreadsheet, [sheet]),
  };
  if (allOnTop || userOrder) {
    // The common case: new records are the newest (or the user sorted the tab: new ones go on
    // top). Rows are inserted, so every other row and the user's cells beside it stay untouched.
    const frame = readTabFrame(sheet);
    slowerWrite = insertRowsOnTop(sheet, COMPLETION_COLUMNS, layout, rows);
    formatHeaderAndColumns(sheet, COMPLETION_COLUMNS, held.length + rows.length + 1, layout, frame);
  } else {
    const merged = [...rows, ...held].sort(
      (a, b) =>
        Number(b[COMPLETION_COLUMN.completionDate]) - Number(a[COMPLETION_COLUMN.completionDate]) ||
        Number(b[COMPLETION_COLUMN.created]) - Number(a[COMPLETION_COLUMN.created]),
    );
    slowerWrite = writeTable(sheet, {
      columns: COMPLETION_COLUMNS,
      rows: merged,
      keyColumn: COMPLETION_COLUMN.key,
    }).slowerWrite;
  }
  if (guards) {
    const placement = { layout, height: held.length + rows.length + 1 };
    guardTable(spreadsheet, sheet, guards.sheetId, guards.found, placement, COMPLETIONS_GUARD);
  }
  return slowerWrite;
}

function refreshReport(
  { fresh, details }: NewRecords,
  resolved: ResolvedNames,
  cuts: readonly TextCut[],
  slowerWrite: string | null,
): JobReport {
  return {
    added: fresh.length,
    removed: 0,
    summary:
      `Added ${fresh.length} new completed trainings.${resolved.refusal ? ` ${describeNames(resolved)}` : ''}` +
      `${cuts.length ? ` ${CUTS_SEEN}` : ''}`,
    details: runDetails(
      [details, describeInvalidExpirations(fresh), describeCuts(cuts), slowerWrite],
      resolved,
    ),
  };
}

const DATE_COLUMNS = COMPLETION_COLUMNS.flatMap((column, index) =>
  column.kind === 'date' || column.kind === 'datetime' ? [index] : [],
);

/**
 * The records in the tab as the table's cells (its columns found by their titles), with date cells
 * back as serials (the service hands them out as Dates).
 */
function readHeldRows(sheet: Sheet, layout: TabLayout, utcOffsetAt: UtcOffsetAt): CellValue[][] {
  const rows = sheet.getRange(2, 1, sheet.getLastRow() - 1, layout.width).getValues() as unknown[][];
  return rows.map((row) => {
    const cells = tableCellsOf(row, layout) as CellValue[];
    for (const index of DATE_COLUMNS) cells[index] = cellToSheetSerial(cells[index], utcOffsetAt);
    return cells;
  });
}
