/**
 * The classes of the Spreadsheet service the emulator implements: every call to one of them is a
 * round trip to the Sheets backend on Google's side, the cost benchmarks and tests count. (Ui, Menu
 * and PromptResponse belong to the Base service's dialogs and are left out.)
 */
export const SPREADSHEET_SERVICE_CLASSES: ReadonlySet<string> = new Set([
  'SpreadsheetApp',
  'Spreadsheet',
  'Sheet',
  'Range',
  'RangeList',
  'Filter',
  'FilterCriteria',
  'FilterCriteriaBuilder',
  'DataValidation',
  'DataValidationBuilder',
  'Protection',
  'NamedRange',
  'DeveloperMetadata',
  'ConditionalFormatRule',
  'ConditionalFormatRuleBuilder',
  'BooleanCondition',
  'EmbeddedChart',
  'EmbeddedChartBuilder',
]);

/** The Spreadsheet service's share of a call count by `Class.method`. */
export function spreadsheetServiceCalls(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts).filter(([call]) =>
      SPREADSHEET_SERVICE_CLASSES.has(call.slice(0, call.indexOf('.'))),
    ),
  );
}
