/**
 * "Last inspected" is the one schedule cell people type, and every due date of a rolling schedule
 * follows from it. It is styled as an input column (input-columns.ts: its own background, a note on
 * its title); Sheets rejects anything but a date there, with help text saying what to enter (an
 * empty cell stays allowed: no inspection recorded yet), and a date after today is coloured amber,
 * as the schedule's status says "Check Last inspected: in the future" (inspections.ts). All three
 * cover the column down to the tab's last row, so rows a later import adds are covered too, and are
 * set again after every import where the column is now.
 */
import { applyColumnFlag, type ColumnFlag } from '../sheets/conditional-formats';
import { argumentSeparatorOfTab } from '../sheets/formula-syntax';
import { styleInputColumns } from '../sheets/input-columns';

export const LAST_INSPECTED_HELP =
  'Enter the date of the last inspection, e.g. 2024-03-01 (leave empty if none is recorded). ' +
  'A date after today is flagged: the due date cannot be computed from it.';

export const LAST_INSPECTED_NOTE =
  'You fill this in: enter the date of each inspection done here. Safety Sync computes Next due and ' +
  'Status from it and never overwrites it.';

/**
 * Amber, as Expiring: something to look at, not yet wrong. The formula is canonical (applyColumnFlag
 * writes it in the spreadsheet's syntax); one written in either syntax is recognised, as the
 * spreadsheet's locale may have changed since.
 */
const FUTURE_DATE_FLAG: ColumnFlag = {
  formulaFor: (topCell) => `=AND(ISNUMBER(${topCell}),${topCell}>TODAY())`,
  isFlagFormula: (formula) =>
    typeof formula === 'string' && /^=AND\(ISNUMBER\(([A-Z]+2)\)[,;]\1>TODAY\(\)\)$/.test(formula),
  background: '#fce8b2',
  fontColor: '#7f6000',
};

/**
 * Sets the input style, the validation and the future-date colour on `column` (1-based) of the schedules tab, rows 2
 * to `maxRows`. `rules`: the tab's conditional format rules, read before the run's writes.
 */
export function guardLastInspected(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  column: number,
  maxRows: number,
  rules: readonly GoogleAppsScript.Spreadsheet.ConditionalFormatRule[],
): void {
  const validation = SpreadsheetApp.newDataValidation()
    .requireDate()
    .setAllowInvalid(false)
    .setHelpText(LAST_INSPECTED_HELP)
    .build();
  styleInputColumns(sheet, [column], LAST_INSPECTED_NOTE, maxRows);
  sheet.getRange(2, column, Math.max(1, maxRows - 1), 1).setDataValidation(validation);
  applyColumnFlag(sheet, column, maxRows, FUTURE_DATE_FLAG, rules, argumentSeparatorOfTab(sheet));
}
