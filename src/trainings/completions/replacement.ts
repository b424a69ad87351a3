/**
 * The end of a full import: the records read, written over the tab's rows (the user's cells beside
 * the records they belong to; rows gone upstream go only once confirmed gone), with the training
 * tabs computed from the same rows.
 */
import type { Completion } from '../../api/schemas';
import { formatCount } from '../../lib/numbers';
import { describeRemade, type FoundTab, findAddonTab, keepAddonTabIds } from '../../platform/addon-tabs';
import type { JobContext, JobReport } from '../../platform/job-runner';
import { describeCuts, describeRejected, type RejectedSummary } from '../../platform/problem-lists';
import { checkRoomForRows, readSheetGrids, type SheetGrid } from '../../sheets/cell-limit';
import { fitTableText, type TextCut } from '../../sheets/cell-text';
import { guardTable, readTableGuards, type TableGuards } from '../../sheets/table-guard';
import type { CellValue, Table } from '../../sheets/table';
import { SHEETS_API_MIN_CELLS } from '../../sheets/sheets-api';
import { readTab, type TabContent } from '../../sheets/tab-content';
import { prepareTab, prepareTabThroughApi } from '../../sheets/tab-frame';
import { type WriteResult, writeTableOver } from '../../sheets/table-writer';
import type { TrainingTabsPlan } from '../training-tabs';
import { planTrainingStatus, withFailure, withTrainingOutcome } from '../actions';
import { COMPLETIONS_ADDON_TAB } from '../completions-tab';
import { type HeldRow, heldRowsOf, type RemovalCheck } from './removal-check';
import { CUTS_SEEN, runDetails } from './run-report';
import { checkRemovals, refuseStillListed, rowsGoneFrom } from './run-state';
import {
  COMPLETION_COLUMN,
  COMPLETIONS_GUARD,
  COMPLETIONS_SHEET,
  completionsTable,
  describeInvalidExpirations,
  sortedByUser,
} from './table';
import { describeNames, type ResolvedNames } from './user-names';

/**
 * Everything a replacement read before it writes: the rows to write (not the records), the tab as
 * it is now and what it says about it.
 */
interface Replacement {
  context: JobContext;
  table: Table;
  cuts: TextCut[];
  found: FoundTab;
  /** The name the tab has now, or the one it is made under. */
  tabName: string;
  /** The tabs' sizes, read once for this tab's room and the training tabs'. */
  grids: SheetGrid[];
  content: TabContent;
  sheetId: number | null;
  guards: TableGuards;
  goneRows: HeldRow[];
  added: number;
  userOrder: boolean;
  report: {
    count: string;
    resolved: ResolvedNames;
    rejected: RejectedSummary;
    invalidExpirations: string | null;
    removedNote: string | null;
    unconfirmed: number;
  };
}

/**
 * Reads the tab and confirms the removals its rows need, then gives what writes the records over it;
 * null when the confirmations did not fit in this execution. What it gives holds the rows to write,
 * not the records.
 */
export function replacementOf(
  context: JobContext,
  records: readonly Completion[],
  resolved: ResolvedNames,
  rejected: RejectedSummary,
  confirmedGone: Set<string>,
  unconfirmed: number,
): (() => JobReport) | null {
  const { spreadsheet } = context;
  const count = formatCount(records.length);
  const invalidExpirations = describeInvalidExpirations(records);
  const { table, cuts } = fitTableText(
    COMPLETIONS_SHEET,
    completionsTable(records, resolved.names, context.utcOffsetAt),
  );
  const found = findAddonTab(spreadsheet, context.state, COMPLETIONS_ADDON_TAB);
  const tabName = found.sheet?.getName() ?? found.newName!;
  const grids = readSheetGrids(spreadsheet);
  checkRoomForRows(grids, tabName, table.rows.length, table.columns.length);
  const keys = table.rows.map((row) => String(row[COMPLETION_COLUMN.key]));
  const tab = readTabConfirmingRemovals(context, tabName, table, found, keys, confirmedGone);
  if (!tab) return null;
  const { content, held, goneRows, checked } = tab;
  const heldKeys = new Set(held.map((row) => row.key));
  const added = keys.filter((key) => !heldKeys.has(key)).length;
  const userOrder = sortedByUser(held);
  if (userOrder) table.rows = inUserOrder(table.rows, held);
  const replacement: Replacement = {
    context,
    table,
    cuts,
    found,
    tabName,
    grids,
    content,
    sheetId: content.sheet?.getSheetId() ?? null,
    guards: readTableGuards(spreadsheet, [content.sheet]),
    goneRows,
    added,
    userOrder,
    report: { count, resolved, rejected, invalidExpirations, removedNote: checked.note, unconfirmed },
  };
  return () => writeReplacement(replacement);
}

/**
 * Reads the tab and checks that its rows with the user's notes that `keys` lacks are gone upstream;
 * null when those checks did not fit in this execution.
 */
function readTabConfirmingRemovals(
  context: JobContext,
  tabName: string,
  table: Table,
  found: FoundTab,
  keys: readonly string[],
  confirmedGone: Set<string>,
): {
  content: TabContent;
  held: HeldRow[];
  goneRows: HeldRow[];
  checked: Exclude<RemovalCheck, { paused: true }>;
} | null {
  for (;;) {
    const content = readTab(context.spreadsheet, tabName, table, found.sheet);
    const held = heldRowsOf(content);
    const goneRows = rowsGoneFrom(held, keys);
    const readsService = goneRows.some((row) => row.hasUserContent && !confirmedGone.has(row.key));
    const checked = checkRemovals(context, goneRows, confirmedGone);
    if ('paused' in checked) return null;
    if (checked.stillListed.length > 0) refuseStillListed(context, checked.stillListed);
    // While the service was read, the user may have typed beside a row that is going: read the tab
    // again, and check such rows too, so that what is written is what the tab holds now.
    if (!readsService) return { content, held, goneRows, checked };
  }
}

/** Writes the rows over the tab, and the training tabs computed from them, and says what changed. */
function writeReplacement(replacement: Replacement): JobReport {
  const { context, table, content, tabName, grids } = replacement;
  const height = table.rows.length + 1;
  // Everything is read: the training tabs are computed from the rows about to be written.
  const training = planTrainingStatus(context, table.rows, grids, {
    sheetName: tabName,
    rows: height,
    columns: content.layout.width,
  });
  const written = writeRows(replacement, 'failure' in training ? null : training);
  const report = replacementReport(replacement, written);
  if ('failure' in training) return withFailure(report, training.failure);
  return withTrainingOutcome(report, () => training.write());
}

/** Writes the table over the tab (and prepares the training tabs the plan writes later). */
function writeRows(
  { context, table, content, sheetId, guards }: Replacement,
  plan: TrainingTabsPlan | null,
): WriteResult {
  const height = table.rows.length + 1;
  const width = content.layout.width;
  // A table the Sheets API writes into tabs that are all there has its tab grown by the API too, so
  // that the execution commits once, at its end. Otherwise (a tab to insert, or the API refuses) the
  // Spreadsheet service inserts and grows every tab, committed once before the rows, so that the
  // writes after them need no other commit before the end.
  const preparedThroughApi =
    !plan?.insertsTabs &&
    table.rows.length * table.columns.length >= SHEETS_API_MIN_CELLS &&
    prepareTabThroughApi(content, height, width);
  if (!preparedThroughApi) {
    prepareTab(content, height, width);
    plan?.prepare();
    SpreadsheetApp.flush();
  }
  // Ids are reads, free while nothing is buffered: before the rows' formats are.
  const completionsId = sheetId ?? content.sheet!.getSheetId();
  plan?.readIds(completionsId);
  const result = writeTableOver(content, table, { nothingBuffered: true });
  if (preparedThroughApi) plan?.prepare();
  // After the rows: the writer inserts and deletes rows, which would move a named range or
  // protection set before them.
  const placement = { layout: content.layout, height };
  guardTable(context.spreadsheet, content.sheet!, sheetId, guards, placement, COMPLETIONS_GUARD);
  keepAddonTabIds(context.state, [[COMPLETIONS_ADDON_TAB, completionsId]]);
  return result;
}

function replacementReport(replacement: Replacement, result: WriteResult): JobReport {
  const { table, cuts, found, goneRows, added, userOrder } = replacement;
  const { count, resolved, rejected, invalidExpirations, removedNote, unconfirmed } = replacement.report;
  const removed = new Set(goneRows.map((row) => row.key)).size;
  const written = {
    added,
    removed,
    records: table.rows.length,
    summary:
      `Imported ${count} completed trainings (${added} new, ${removed} removed` +
      `${result.userRowsDropped ? `, ${result.userRowsDropped} with your notes` : ''}); ` +
      `${userOrder ? `${KEPT_ORDER} ` : ''}${describeNames(resolved)}${cuts.length ? ` ${CUTS_SEEN}` : ''}` +
      (unconfirmed ? ` ${describeUnconfirmed(unconfirmed)}` : ''),
    details: runDetails(
      [
        describeUnconfirmed(unconfirmed),
        describeRejected(rejected),
        invalidExpirations,
        removedNote,
        describeCuts(cuts),
        result.slowerWrite,
      ],
      resolved,
    ),
  };
  const remade = found.deleted ? describeRemade([COMPLETIONS_SHEET]) : null;
  return remade
    ? {
        ...written,
        summary: `${remade} ${written.summary}`,
        details: written.details && `${remade} ${written.details}`,
      }
    : written;
}

/**
 * The sentence a read that settled without confirming every record adds to its summary and its
 * Sync log line: how many, and what settles them (a full read of a list that holds still for two
 * passes).
 */
function describeUnconfirmed(unconfirmed: number): string | null {
  if (unconfirmed === 0) return null;
  const records = unconfirmed === 1 ? '1 record' : `${formatCount(unconfirmed)} records`;
  return (
    `${records} could not be confirmed: the service's list kept changing while it was read ` +
    `(records deleted or backdated meanwhile may still be listed here, or missing). The next Reconcile settles them.`
  );
}

const KEPT_ORDER = 'The tab keeps the order you sorted it in; new records are at the top.';

/** `rows` (newest first) with the ones the tab holds in the tab's order, below the new ones. */
function inUserOrder(rows: CellValue[][], held: readonly HeldRow[]): CellValue[][] {
  const position = new Map(held.map((row, index) => [row.key, index]));
  const positionOf = (row: CellValue[]) => position.get(String(row[COMPLETION_COLUMN.key]));
  const fresh = rows.filter((row) => positionOf(row) === undefined);
  const kept = rows.filter((row) => positionOf(row) !== undefined);
  kept.sort((a, b) => positionOf(a)! - positionOf(b)!);
  return [...fresh, ...kept];
}
