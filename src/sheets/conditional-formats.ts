/**
 * Colours for status columns. setConditionalFormatRules replaces every rule of a sheet, so the rules
 * are read, the ones this add-on made before are dropped, the user's are kept in their order, and
 * ours go after them (in Sheets the first matching rule wins, so a user's own rule for the same
 * cells takes precedence). Ours are recognised by what they are: "text is exactly <status>" with
 * our colour, on the status column from row 2 down. Only their height changes between runs (the
 * table grows and shrinks), so it is not part of the match.
 */

export interface StatusColour {
  /** The exact cell text, e.g. "Expired". */
  text: string;
  background: string;
  fontColor: string;
}

const TEXT_EQUAL_TO = 'TEXT_EQUAL_TO';

function isOurRule(
  rule: GoogleAppsScript.Spreadsheet.ConditionalFormatRule,
  column: number,
  colours: readonly StatusColour[],
): boolean {
  const condition = rule.getBooleanCondition();
  // Enum values stringify to their names in Apps Script.
  if (!condition || String(condition.getCriteriaType()) !== TEXT_EQUAL_TO) return false;
  const [text] = condition.getCriteriaValues();
  const background = (condition.getBackground() ?? '').toLowerCase();
  const colour = colours.find((candidate) => candidate.text === text);
  if (!colour || colour.background.toLowerCase() !== background) return false;
  const ranges = rule.getRanges();
  return (
    ranges.length > 0 &&
    ranges.every(
      (range) => range.getRow() === 2 && range.getColumn() === column && range.getNumColumns() === 1,
    )
  );
}

/** Colours the cells of `column` (1-based) below the header by their exact text; keeps the user's rules. */
export function applyStatusColours(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  column: number,
  colours: readonly StatusColour[],
): void {
  readStatusColours(sheet, column, colours).apply(sheet, sheet.getMaxRows());
}

/**
 * The user's rules of a tab (none for a tab not there yet), read before a run writes, and how to set
 * them with ours after it, reading nothing more: down to the tab's `maxRows`, so that rows a later
 * run adds are coloured too.
 */
export function readStatusColours(
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null,
  column: number,
  colours: readonly StatusColour[],
): { apply(sheet: GoogleAppsScript.Spreadsheet.Sheet, maxRows: number): void } {
  const kept = sheet
    ? sheet.getConditionalFormatRules().filter((rule) => !isOurRule(rule, column, colours))
    : [];
  return {
    apply(target, maxRows) {
      const range = target.getRange(2, column, Math.max(1, maxRows - 1), 1);
      const ours = colours.map((colour) =>
        SpreadsheetApp.newConditionalFormatRule()
          .whenTextEqualTo(colour.text)
          .setBackground(colour.background)
          .setFontColor(colour.fontColor)
          .setRanges([range])
          .build(),
      );
      target.setConditionalFormatRules([...kept, ...ours]);
    },
  };
}
