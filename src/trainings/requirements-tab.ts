/**
 * The "Requirements" tab on the sheet: the user's own, every row and cell. A run makes it when it is
 * not there, with its titles, a note on each saying what to enter, and a dropdown of what a row may
 * apply to; later runs write back only a title the user deleted (after the last column), the
 * dropdown where the column now is and the text format of the Value and Training ID columns (an id
 * typed as 0029 stays 0029), never a row.
 */
import type { FoundTab } from '../platform/addon-tabs';
import { NEW_SHEET_ROWS, type TabSize } from '../sheets/cell-limit';
import { gridA1 } from '../sheets/a1-notation';
import { styleInputColumns, writeInputTitles } from '../sheets/input-columns';
import { PLAIN_TEXT } from '../sheets/table';
import { wholeTabValues } from '../sheets/input-tab';
import { APPLIES_TO, readRequirements, REQUIREMENT_HEADERS, type Requirement } from './requirements';

/** On every title of Requirements. */
const REQUIREMENTS_NOTE =
  'You fill this in, a row per requirement: Applies to (Everyone, Role, Site or Department), its Value ' +
  '(the role, site or department as on the People tab; empty for Everyone), the Training ID (as on ' +
  'the Trainings tab) and, for new starters, within how many days of their start date (empty: from ' +
  'the start). While this tab lists nothing, Required on the Trainings tab means everyone, as before.';

const APPLIES_TO_HELP = 'Applies to: Everyone, Role, Site or Department (the Value column says which one).';

export interface RequirementsTabPlan {
  requirements: Requirement[];
  size: TabSize;
  /** Whether `prepare` inserts the tab. */
  inserts: boolean;
  prepare(): void;
  /** The tab's id, once prepared. */
  sheetId(): number | null;
  write(): void;
}

/** Reads the tab before any write; throws UnreadableTab for a row it cannot read. */
export function planRequirementsTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  found: FoundTab,
  sheetName: string,
): RequirementsTabPlan {
  const values = wholeTabValues(found.sheet);
  const requirements = readRequirements(values);
  const titles = (values[0] ?? []).map((title) => String(title).trim());
  const lastColumn = titles.reduce((last, title, index) => (title === '' ? last : index + 1), 0);
  const missing: string[] = Object.values(REQUIREMENT_HEADERS).filter((title) => !titles.includes(title));
  // Read now: a read after the run's first write costs a commit.
  const maxRows = found.sheet?.getMaxRows() ?? NEW_SHEET_ROWS;
  let sheet = found.sheet;
  return {
    requirements,
    size: { sheetName, rows: Math.max(values.length, 1), columns: lastColumn + missing.length },
    inserts: !sheet,
    prepare() {
      sheet ??= spreadsheet.insertSheet(sheetName);
    },
    sheetId: () => found.sheetId ?? sheet?.getSheetId() ?? null,
    write() {
      if (!sheet) throw new Error('The Requirements tab was written before it was made.');
      writeInputTitles(sheet, lastColumn, missing);
      const columnOf = (title: string) =>
        titles.includes(title) ? titles.indexOf(title) + 1 : lastColumn + missing.indexOf(title) + 1;
      const columns = Object.values(REQUIREMENT_HEADERS).map(columnOf);
      styleInputColumns(sheet, columns, REQUIREMENTS_NOTE, maxRows);
      sheet
        .getRange(2, columnOf(REQUIREMENT_HEADERS.appliesTo), Math.max(maxRows - 1, 1), 1)
        .setDataValidation(
          SpreadsheetApp.newDataValidation()
            .requireValueInList(Object.values(APPLIES_TO), true)
            .setAllowInvalid(false)
            .setHelpText(APPLIES_TO_HELP)
            .build(),
        );
      // Typed as text: a training id such as 0029 is not the number 29 (another training's id).
      sheet
        .getRangeList(
          [REQUIREMENT_HEADERS.value, REQUIREMENT_HEADERS.trainingId].map((title) =>
            gridA1(2, columnOf(title), Math.max(maxRows - 1, 1), 1),
          ),
        )
        .setNumberFormat(PLAIN_TEXT);
      if (missing.length === Object.keys(REQUIREMENT_HEADERS).length) sheet.setFrozenRows(1);
    },
  };
}
