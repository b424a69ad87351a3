/**
 * Colours that follow the cells' contents: status columns by their text, heat scales by number.
 * setConditionalFormatRules replaces every rule of a sheet, so the rules are read, the ones this
 * add-on made before are dropped, the user's are kept in their order, and ours go after them (in
 * Sheets the first matching rule wins, so a user's own rule for the same cells takes precedence).
 * Ours are recognised by what they are. A status colour: "text is exactly <status>" with our
 * colour, on the status column from row 2 down; only its height changes between runs (the table
 * grows and shrinks), so it is not part of the match. A heat step: see applyNumberBands. A flag
 * on one column's cells: see applyColumnFlag.
 */
import { cellA1 } from './a1-notation';
import { type ArgumentSeparator, formulaInLocale } from './formula-syntax';

export interface StatusColour {
  /** The exact cell text, e.g. "Expired". */
  text: string;
  background: string;
  fontColor: string;
}

type Rule = GoogleAppsScript.Spreadsheet.ConditionalFormatRule;

const TEXT_EQUAL_TO = 'TEXT_EQUAL_TO';

function isOurRule(rule: Rule, column: number, colours: readonly StatusColour[]): boolean {
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

/** Sets `ours` after the sheet's `rules` that `isOurs` does not claim, in their order. */
function replaceOurRules(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  rules: readonly Rule[],
  isOurs: (rule: Rule) => boolean,
  ours: readonly Rule[],
): void {
  const kept = rules.filter((rule) => !isOurs(rule));
  sheet.setConditionalFormatRules([...kept, ...ours]);
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
 * The tab's rules (none for a tab not there yet), read before a run writes, and how to set ours
 * among them after it, reading nothing more: down to the tab's `maxRows`, so that rows a later run
 * adds are coloured too.
 */
export function readStatusColours(
  sheet: GoogleAppsScript.Spreadsheet.Sheet | null,
  column: number,
  colours: readonly StatusColour[],
): { apply(sheet: GoogleAppsScript.Spreadsheet.Sheet, maxRows: number): void } {
  // Told apart now: a rule's ranges are reads, which after the run's writes would cost a commit.
  const kept = (sheet ? sheet.getConditionalFormatRules() : []).filter(
    (rule) => !isOurRule(rule, column, colours),
  );
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

/** Numbers from `from` to `to` (both included) in one colour: a step of a heat scale. */
export interface NumberBand {
  from: number;
  to: number;
  background: string;
  fontColor: string;
}

export interface BandedRanges {
  ranges: GoogleAppsScript.Spreadsheet.Range[];
  bands: readonly NumberBand[];
}

const NUMBER_BETWEEN = 'NUMBER_BETWEEN';

/**
 * A heat scale in steps ("number between" rules) rather than a gradient: each colour means a range
 * a legend can name, and it looks the same whatever else is in the cells. The add-on's rules are
 * those of its palette (`palette`: every background its bands use); they are all replaced, so
 * ranges that moved or bands that changed leave nothing behind. The user's rules are kept before them.
 * `rules`: the sheet's rules, which a caller may read before its writes (a read after a write costs
 * a commit).
 */
export function applyNumberBands(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  banded: readonly BandedRanges[],
  palette: readonly string[],
  rules: readonly Rule[] = sheet.getConditionalFormatRules(),
): void {
  const colours = new Set(palette.map((colour) => colour.toLowerCase()));
  const isOurs = (rule: Rule) => {
    const condition = rule.getBooleanCondition();
    return (
      condition !== null &&
      String(condition.getCriteriaType()) === NUMBER_BETWEEN &&
      colours.has((condition.getBackground() ?? '').toLowerCase())
    );
  };
  const ours = banded
    .filter(({ ranges }) => ranges.length > 0)
    .flatMap(({ ranges, bands }) =>
      bands.map((band) =>
        SpreadsheetApp.newConditionalFormatRule()
          .whenNumberBetween(band.from, band.to)
          .setBackground(band.background)
          .setFontColor(band.fontColor)
          .setRanges(ranges)
          .build(),
      ),
    );
  replaceOurRules(sheet, rules, isOurs, ours);
}

/** A colour for the cells of one column that satisfy a condition on their own value. */
export interface ColumnFlag {
  /** The custom formula for the column's first cell below the titles, given its A1 address ("P2"). */
  formulaFor(topCell: string): string;
  /** Whether a rule's formula is this flag's, for whichever column it was made. */
  isFlagFormula(formula: unknown): boolean;
  background: string;
  fontColor: string;
}

const CUSTOM_FORMULA = 'CUSTOM_FORMULA';

/**
 * Colours the cells of `column` (1-based) from row 2 to `maxRows` that satisfy `flag`, keeping the
 * user's rules before it. Ours is the custom-formula rule in the flag's colour with the flag's
 * formula, whichever column it was made for (the user may have moved it). `rules`: the sheet's rules,
 * read before the run's writes; telling ours from them reads nothing more (a read would cost a commit).
 * `separator`: the spreadsheet's, the flag's formula is written in its syntax.
 */
export function applyColumnFlag(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  column: number,
  maxRows: number,
  flag: ColumnFlag,
  rules: readonly Rule[],
  separator: ArgumentSeparator,
): void {
  const isOurs = (rule: Rule) => {
    const condition = rule.getBooleanCondition();
    return (
      condition !== null &&
      String(condition.getCriteriaType()) === CUSTOM_FORMULA &&
      (condition.getBackground() ?? '').toLowerCase() === flag.background.toLowerCase() &&
      flag.isFlagFormula(condition.getCriteriaValues()[0])
    );
  };
  const ours = SpreadsheetApp.newConditionalFormatRule()
    .whenFormulaSatisfied(formulaInLocale(flag.formulaFor(cellA1(column, 2)), separator))
    .setBackground(flag.background)
    .setFontColor(flag.fontColor)
    .setRanges([sheet.getRange(2, column, Math.max(1, maxRows - 1), 1)])
    .build();
  replaceOurRules(sheet, rules, isOurs, [ours]);
}
