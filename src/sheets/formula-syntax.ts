/**
 * The add-on builds every formula in one canonical syntax, en_US's: `,` between arguments and `.` as
 * the decimal point. Sheets reads a formula in its spreadsheet's locale, where decimals written with
 * a comma make `;` the only argument separator (and `,` the decimal mark): a formula is turned into
 * its spreadsheet's syntax here, when it is written. Whether `;` also works where decimals are
 * written with a point is not documented, so the add-on never relies on it.
 */

/** The character that separates a formula's arguments in a locale. */
export type ArgumentSeparator = ',' | ';';

/**
 * Languages whose numbers use a decimal comma, then the locales that differ from their language,
 * as CLDR has them (common/main/*.xml, symbols of the latn numbering system; Node's Intl agrees:
 * test/sheets/formula-syntax.test.ts). Apps Script's Intl may not be complete, so the table is kept
 * here. `in` and `no` are the older codes Sheets still names Indonesian and Norwegian by.
 */
// prettier-ignore
const DECIMAL_COMMA_LANGUAGES = new Set([
  'af', 'az', 'be', 'bg', 'bs', 'ca', 'cs', 'da', 'de', 'el', 'es', 'et', 'eu', 'fi', 'fo', 'fr',
  'gl', 'hr', 'hu', 'hy', 'id', 'in', 'is', 'it', 'ka', 'kk', 'ky', 'lt', 'lv', 'mk', 'nb', 'nl',
  'nn', 'no', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sq', 'sr', 'sv', 'tr', 'uk', 'uz', 'vi',
]);

// prettier-ignore
const DECIMAL_POINT_LOCALES = new Set([
  'de_CH', 'de_LI', 'it_CH', 'es_DO', 'es_GT', 'es_HN', 'es_MX', 'es_NI', 'es_PA', 'es_PE', 'es_PR',
  'es_SV', 'es_US', 'es_419',
]);

// prettier-ignore
const DECIMAL_COMMA_LOCALES = new Set([
  'en_AT', 'en_BE', 'en_DE', 'en_DK', 'en_FI', 'en_NL', 'en_SE', 'en_SI', 'en_ZA',
]);

/** `;` where the locale ("de_DE", as Sheets names it) writes decimals with a comma, else `,`. */
export function argumentSeparatorOf(locale: string): ArgumentSeparator {
  const name = locale.replace(/-/g, '_');
  if (DECIMAL_POINT_LOCALES.has(name)) return ',';
  if (DECIMAL_COMMA_LOCALES.has(name)) return ';';
  return DECIMAL_COMMA_LANGUAGES.has(name.split('_')[0]!.toLowerCase()) ? ';' : ',';
}

/** Each spreadsheet's separator by its id, read once an execution. */
const separators = new Map<string, ArgumentSeparator>();
/** The separator of the spreadsheet of each tab whose content was read this execution. */
const tabSeparators = new WeakMap<GoogleAppsScript.Spreadsheet.Sheet, ArgumentSeparator>();

/**
 * The separator of the spreadsheet's locale: one getSpreadsheetLocale per spreadsheet an execution
 * (keyed by id, as getParent() hands out a new Spreadsheet each time). A tab given is remembered
 * with it: see argumentSeparatorOfTab.
 */
export function argumentSeparatorIn(
  spreadsheetId: string,
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  tab?: GoogleAppsScript.Spreadsheet.Sheet,
): ArgumentSeparator {
  let separator = separators.get(spreadsheetId);
  if (separator === undefined) {
    separator = argumentSeparatorOf(spreadsheet.getSpreadsheetLocale());
    separators.set(spreadsheetId, separator);
  }
  if (tab) tabSeparators.set(tab, separator);
  return separator;
}

/**
 * The separator of the tab's spreadsheet, remembered when its content was read (a read after the
 * run's writes would cost a commit), or read now.
 */
export function argumentSeparatorOfTab(tab: GoogleAppsScript.Spreadsheet.Sheet): ArgumentSeparator {
  const remembered = tabSeparators.get(tab);
  if (remembered !== undefined) return remembered;
  const spreadsheet = tab.getParent();
  return argumentSeparatorIn(spreadsheet.getId(), spreadsheet, tab);
}

/**
 * A canonical formula in the syntax of a locale with this separator: outside "strings" and 'sheet
 * names', `,` becomes `;` and a number's decimal point a comma (=ROUND(1.5, 0) → =ROUND(1,5; 0)).
 * Anything the conversion cannot carry over is refused: an array literal `{…}` (its separators
 * differ again), a `;` (not canonical), a quote that does not close.
 */
export function formulaInLocale(formula: string, separator: ArgumentSeparator): string {
  let converted = '';
  let index = 0;
  while (index < formula.length) {
    const char = formula[index]!;
    if (char === '"' || char === "'") {
      const end = formula.indexOf(char, index + 1);
      if (end === -1) throw new Error(`A formula has a quote that does not close: ${formula}`);
      converted += formula.slice(index, end + 1);
      index = end + 1;
      continue;
    }
    if (char === '{' || char === '}' || char === ';')
      throw new Error(`The add-on cannot write a formula with ${char} outside a string: ${formula}`);
    // A name (a function, a cell, STDEV.S) is copied whole: its dots and digits are not a number's.
    const word = /^[A-Za-z_$][A-Za-z0-9_.$]*/.exec(formula.slice(index));
    const number = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(formula.slice(index));
    if (word) {
      converted += word[0];
      index += word[0].length;
    } else if (number) {
      converted += separator === ';' ? number[0].replace('.', ',') : number[0];
      index += number[0].length;
    } else {
      converted += char === ',' ? separator : char;
      index++;
    }
  }
  return converted;
}
