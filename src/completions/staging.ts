/**
 * A hidden tab that holds the records an unfinished import has read so far, so the next execution
 * can go on where the last one stopped while the visible tab keeps its content until the end.
 */
import { COMPLETION_FIELDS } from '../api/completion-key';
import type { Completion } from '../api/schemas';
import { getOrCreateSheet } from '../sheets/table-writer';

export const STAGING_SHEET = 'Safety Sync staging';

const TEXT_FIELDS = new Set<string>(['user_id', 'training_id', 'instructor_id', 'groupTraining_id']);

export function stageRecords(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  records: readonly Completion[],
): void {
  if (records.length === 0) return;
  const sheet = getOrCreateSheet(spreadsheet, STAGING_SHEET);
  if (!sheet.isSheetHidden()) sheet.hideSheet();
  const first = sheet.getLastRow() + 1;
  const missingRows = first + records.length - 1 - sheet.getMaxRows();
  if (missingRows > 0) sheet.insertRowsAfter(sheet.getMaxRows(), missingRows);
  const missingColumns = COMPLETION_FIELDS.length - sheet.getMaxColumns();
  if (missingColumns > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), missingColumns);
  const range = sheet.getRange(first, 1, records.length, COMPLETION_FIELDS.length);
  range.setNumberFormats(
    records.map(() => COMPLETION_FIELDS.map((field) => (TEXT_FIELDS.has(field) ? '@' : '0'))),
  );
  range.setValues(records.map((record) => COMPLETION_FIELDS.map((field) => record[field] ?? '')));
}

export function readStaging(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Completion[] {
  const sheet = spreadsheet.getSheetByName(STAGING_SHEET);
  if (!sheet || sheet.getLastRow() === 0) return [];
  return sheet
    .getRange(1, 1, sheet.getLastRow(), COMPLETION_FIELDS.length)
    .getValues()
    .map((row) => {
      const record: Record<string, unknown> = {};
      COMPLETION_FIELDS.forEach((field, index) => {
        const value = row[index];
        if (value === '' || value === null) return;
        record[field] = TEXT_FIELDS.has(field) ? String(value) : Number(value);
      });
      return record as unknown as Completion;
    });
}

export function clearStaging(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  spreadsheet.getSheetByName(STAGING_SHEET)?.clearContents();
}
