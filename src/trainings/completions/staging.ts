/**
 * A hidden tab that holds the records an unfinished import has read so far, so the next execution
 * can go on where the last one stopped while the visible tab keeps its content until the end.
 *
 * Each place of the list is one cell in a text-formatted column: a record as the JSON array of its
 * fields (null for an absent one), an entry of the wrong shape as a JSON object with its identity
 * and why it was refused (it keeps its place, so that reading the pages again agrees with it). JSON
 * starts with "[" or "{", so nothing in it is parsed as a number, a date or a formula, and every
 * value comes back exactly as the service sent it: "", spaces, leading zeros, newlines, "=…", "'…".
 * One cell a place also keeps the tab small against the spreadsheet's cell limit.
 *
 * The run keeps how many records it staged and a checksum of their keys: a staging tab deleted,
 * cleared or edited between executions no longer matches them, and is never taken for "nothing
 * staged". The tab is found by its sheet id (platform/addon-tabs.ts), so a user who renames it
 * does not lose what it holds.
 */
import { COMPLETION_FIELDS } from '../../api/completion-key';
import { type ListEntry, recordEntry } from '../../api/completions-contract';
import type { Completion } from '../../api/schemas';
import { fingerprint } from '../../lib/fingerprint';
import { addonTab, findAddonTab, keepAddonTabIds } from '../../platform/addon-tabs';
import type { DocumentState } from '../../platform/document-state';

export const STAGING_SHEET = 'Safety Sync staging';
const STAGING_TAB = addonTab('safetySync.stagingTab', 'staging', STAGING_SHEET, true);

/** What a run remembers of its staged records, to recognise them in the next execution. */
export interface StagedRecords {
  count: number;
  checksum: string;
}

export function describeStaged(entries: readonly ListEntry[]): StagedRecords {
  // A record's entry key is its identity, so this is its record key (completionKey).
  const keys = entries.map((entry) => fingerprint(entry.key));
  return { count: keys.length, checksum: fingerprint(keys.join('\n')) };
}

function encodeEntry(entry: ListEntry): string {
  if (!entry.record) return JSON.stringify({ key: entry.key, ...entry.rejected });
  const { record } = entry;
  return JSON.stringify(COMPLETION_FIELDS.map((field) => record[field] ?? null));
}

/** The entry a staged cell holds, or null when the cell is not one this module wrote. */
function decodeEntry(cell: unknown): ListEntry | null {
  if (typeof cell !== 'string') return null;
  let values: unknown;
  try {
    values = JSON.parse(cell);
  } catch {
    return null;
  }
  if (!Array.isArray(values)) {
    const { key, source, problem } = (values ?? {}) as Record<string, unknown>;
    if (typeof key !== 'string' || typeof source !== 'string' || typeof problem !== 'string') return null;
    return { key, record: null, rejected: { source, problem } };
  }
  if (values.length !== COMPLETION_FIELDS.length) return null;
  const record: Record<string, unknown> = {};
  COMPLETION_FIELDS.forEach((field, index) => {
    if (values[index] !== null) record[field] = values[index];
  });
  return recordEntry(record as unknown as Completion);
}

export function stageEntries(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  entries: readonly ListEntry[],
): void {
  if (entries.length === 0) return;
  const found = findAddonTab(spreadsheet, state, STAGING_TAB);
  const sheet = found.sheet ?? spreadsheet.insertSheet(found.newName!);
  const hidden = sheet.isSheetHidden();
  // Read with the line above, which commits the insertion: no commit of its own.
  const sheetId = found.sheetId ?? sheet.getSheetId();
  if (!hidden) sheet.hideSheet();
  // One column: every cell of every tab counts against the spreadsheet's 10 million.
  if (sheet.getMaxColumns() > 1) sheet.deleteColumns(2, sheet.getMaxColumns() - 1);
  const first = sheet.getLastRow() + 1;
  const missingRows = first + entries.length - 1 - sheet.getMaxRows();
  if (missingRows > 0) sheet.insertRowsAfter(sheet.getMaxRows(), missingRows);
  const range = sheet.getRange(first, 1, entries.length, 1);
  range.setNumberFormat('@');
  range.setValues(entries.map((entry) => [encodeEntry(entry)]));
  keepAddonTabIds(state, [[STAGING_TAB, sheetId]]);
}

/**
 * The staged entries when the tab still holds exactly what the run staged (`expected`); null when
 * it was deleted, cleared or changed meanwhile.
 */
export function readStaging(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  expected: StagedRecords,
): ListEntry[] | null {
  const { sheet } = findAddonTab(spreadsheet, state, STAGING_TAB);
  const rows = sheet?.getLastRow() ?? 0;
  if (rows !== expected.count) return null;
  if (!sheet || rows === 0) return [];
  const entries: ListEntry[] = [];
  for (const [cell] of sheet.getRange(1, 1, rows, 1).getValues()) {
    const entry = decodeEntry(cell);
    if (!entry) return null;
    entries.push(entry);
  }
  return describeStaged(entries).checksum === expected.checksum ? entries : null;
}

/** Empties the staging tab and gives its rows back to the spreadsheet's cell limit. */
export function clearStaging(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
): void {
  const { sheet } = findAddonTab(spreadsheet, state, STAGING_TAB);
  if (!sheet) return;
  sheet.clearContents();
  if (sheet.getMaxRows() > 1) sheet.deleteRows(2, sheet.getMaxRows() - 1);
}
