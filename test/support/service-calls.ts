/**
 * Counting the cost that matters on Google's side: every Spreadsheet service call is a round trip
 * to the Sheets backend.
 */
import type { ServiceCallCounter } from '../../dev/emulator/core';

const SPREADSHEET_CLASSES = new Set([
  'SpreadsheetApp',
  'Spreadsheet',
  'Sheet',
  'Range',
  'Filter',
  'Protection',
  'ConditionalFormatRule',
  'ConditionalFormatRuleBuilder',
  'BooleanCondition',
]);

export function spreadsheetCalls(counter: ServiceCallCounter): number {
  return Object.entries(counter.snapshot())
    .filter(([key]) => SPREADSHEET_CLASSES.has(key.split('.')[0]!))
    .reduce((sum, [, count]) => sum + count, 0);
}
