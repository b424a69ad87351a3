/**
 * The completions the training status is computed from, as the "Completed trainings" tab holds them:
 * read by header, never by position (the tab's columns may move), in one read of the columns needed.
 * Reading the tab, not the service, is what lets every training tab and formula cost no request.
 * The tab is found by its sheet id (platform/addon-tabs.ts), under whatever name its user gave it.
 */
import { COMPLETION_COLUMNS, COMPLETIONS_SHEET } from './completions/table';
import { layoutOfHeader } from '../sheets/tab-layout';
import { cellToSheetSerial, fromSheetSerial, type UtcOffsetAt } from '../lib/dates';
import { UserFacingError } from '../platform/user-facing-error';
import { addonTab, findAddonTab } from '../platform/addon-tabs';
import type { DocumentState } from '../platform/document-state';
import type { CompletionFacts } from './training-status';

export const COMPLETIONS_ADDON_TAB = addonTab('safetySync.completionsTab', 'completions', COMPLETIONS_SHEET);

/** The imported columns read here, by their headers on the tab. */
export const COMPLETION_HEADERS = {
  userId: 'User ID',
  userName: 'User name',
  trainingId: 'Training ID',
  completed: 'Completion date',
  specialExpiration: 'Special expiration date',
  created: 'Created',
} as const;
type Field = keyof typeof COMPLETION_HEADERS;

export interface CompletionRow extends CompletionFacts {
  userId: string;
  userName: string;
  trainingId: string;
  /** Its row on the tab (the header is row 1). */
  row: number;
}

export interface CompletionsTab {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  /** Tab order: newest first, as imported. */
  completions: CompletionRow[];
}

/** The key of a (person, training) pair: ids are opaque, so no separator could be trusted. */
export function pairKey(userId: string, trainingId: string): string {
  return JSON.stringify([userId, trainingId]);
}

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The tab's completions; a row without a completion date (the import writes none empty) is no
 * completion. Throws, saying what to do, when the tab is missing or lacks a column read here.
 * `state`: null where the document state cannot be read (see findAddonTab).
 */
export function readCompletionsTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState | null,
  utcOffsetAt: UtcOffsetAt,
): CompletionsTab {
  const { sheet } = findAddonTab(spreadsheet, state, COMPLETIONS_ADDON_TAB);
  const lastRow = sheet?.getLastRow() ?? 0;
  if (!sheet || lastRow === 0) {
    throw new UserFacingError(
      `There is no "${COMPLETIONS_SHEET}" tab in this spreadsheet yet. Use Safety Sync → Import completed trainings… first.`,
    );
  }
  // The tab's own layout check (a missing or doubled title refuses, saying what to do), for the
  // columns read here.
  const fields = Object.keys(COMPLETION_HEADERS) as Field[];
  const columns = fields.map((field) =>
    COMPLETION_COLUMNS.find((column) => column.header === COMPLETION_HEADERS[field])!,
  );
  const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0]!;
  const layout = layoutOfHeader(sheet.getName(), header, columns, lastRow > 1);
  const at = Object.fromEntries(
    fields.map((field, index) => [field, layout.tableColumns[index]! - 1]),
  ) as Record<Field, number>;
  if (lastRow < 2) return { sheet, completions: [] };
  const first = Math.min(...Object.values(at));
  const width = Math.max(...Object.values(at)) - first + 1;
  const values = sheet.getRange(2, first + 1, lastRow - 1, width).getValues();
  const positions = Object.fromEntries(fields.map((field) => [field, at[field] - first])) as Record<
    Field,
    number
  >;
  return { sheet, completions: completionsOfRows(values, positions, utcOffsetAt) };
}

/**
 * The completions of rows as the import writes them on the tab, from row 2 in their order: what a
 * run that has just made the table computes the training tabs from, without reading it back.
 */
export function completionsOfTable(
  rows: readonly (readonly unknown[])[],
  utcOffsetAt: UtcOffsetAt,
): CompletionRow[] {
  const positions = Object.fromEntries(
    (Object.keys(COMPLETION_HEADERS) as Field[]).map((field) => [
      field,
      COMPLETION_COLUMNS.findIndex((column) => column.header === COMPLETION_HEADERS[field]),
    ]),
  ) as Record<Field, number>;
  return completionsOfRows(rows, positions, utcOffsetAt);
}

function completionsOfRows(
  rows: readonly (readonly unknown[])[],
  positions: Record<Field, number>,
  utcOffsetAt: UtcOffsetAt,
): CompletionRow[] {
  const cell = (row: readonly unknown[], field: Field) => row[positions[field]];
  const dayOf = (value: unknown) => {
    const serial = cellToSheetSerial(value, utcOffsetAt);
    return serial === null ? null : fromSheetSerial(serial);
  };
  const completions: CompletionRow[] = [];
  rows.forEach((row, index) => {
    const completed = dayOf(cell(row, 'completed'));
    if (completed === null) return;
    completions.push({
      userId: text(cell(row, 'userId')),
      userName: text(cell(row, 'userName')),
      trainingId: text(cell(row, 'trainingId')),
      completed,
      specialExpiration: dayOf(cell(row, 'specialExpiration')),
      created: cellToSheetSerial(cell(row, 'created'), utcOffsetAt) ?? 0,
      row: index + 2,
    });
  });
  return completions;
}

/** Each pair's completions, in tab order. */
export function completionsByPair(completions: readonly CompletionRow[]): Map<string, CompletionRow[]> {
  const byPair = new Map<string, CompletionRow[]>();
  for (const completion of completions) {
    const key = pairKey(completion.userId, completion.trainingId);
    const list = byPair.get(key);
    if (list) list.push(completion);
    else byPair.set(key, [completion]);
  }
  return byPair;
}
