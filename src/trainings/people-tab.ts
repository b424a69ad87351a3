/**
 * The "People" tab written: a table whose user columns the table writer keeps beside their person,
 * the titles of the user's columns it lacks added after its last column, those columns styled as
 * inputs down to the tab's last row (a new starter is typed in below the table), Active and Start
 * date refusing anything else with a help text, and, as on the imported tabs, a named range over the
 * table and warning-only protection of the add-on's columns over its rows (sheets/table-guard.ts).
 */
import type { FoundTab } from '../platform/addon-tabs';
import type { TabSize } from '../sheets/cell-limit';
import { styleInputColumns, writeInputTitles } from '../sheets/input-columns';
import { wholeTabValues } from '../sheets/input-tab';
import type { Table } from '../sheets/table';
import { readTab, type TabContent } from '../sheets/tab-content';
import { prepareTab } from '../sheets/tab-frame';
import { guardTable, readTableGuards, type TableGuards } from '../sheets/table-guard';
import { writeTableOver } from '../sheets/table-writer';
import type { UtcOffsetAt } from '../lib/dates';
import type { CompletionRow } from './completions-tab';
import {
  mergeRoster,
  PEOPLE_COLUMNS,
  PEOPLE_TAB,
  readRoster,
  type RosterEntry,
  type RosterRead,
  rosterTable,
} from './people';

/** The named range over the People table. */
export const PEOPLE_RANGE_NAME = 'SafetySync_People';

/** On the title of each column of People the user fills in. */
const PEOPLE_INPUT_NOTE =
  'You fill this in: Site, Department, Role (several separated by commas), Manager e-mail, Active (yes ' +
  'or no; empty means yes), Start date and E-mail (their own) of each person. Safety Sync reads them and never ' +
  'overwrites them. Add a new starter on a row below the table: their User ID, User name and Start date.';

/**
 * On the User ID title while a saved import filter narrows the completions: who is missing, and why.
 * The filter itself is not quoted: a cell shows every editor what the owner chose to import.
 */
const FILTERED_NOTE =
  'Only the people the saved import filter brings in (Safety Sync → Import completed trainings…): ' +
  'someone it leaves out is listed only if you add them below the table.';

const ACTIVE_HELP =
  'Active: yes or no (empty means yes). Someone who left: no. They leave every list and count; their row stays.';
const START_DATE_HELP =
  'Start date: the day the person started, a date such as 2026-03-01; trainings required within some days of it count from it.';

/** The People tab read and merged with the completions, ready to be written with the training tabs. */
export interface PeopleTabPlan {
  /** Everyone on the roster after this run, in the tab's order. */
  people: RosterEntry[];
  size: TabSize;
  /** Whether `prepare` inserts the tab. */
  inserts: boolean;
  /** Inserts the tab when it is not there and grows it to the roster. */
  prepare(): void;
  /** The tab's id, once prepared (null: not there). */
  sheetId(): number | null;
  write(): void;
}

/**
 * Reads the tab and everything guarding it, before any write (a read after a write costs a
 * commit); throws UnreadableTab for an Active or Start date it cannot read.
 */
export function planPeopleTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  found: FoundTab,
  sheetName: string,
  completions: readonly CompletionRow[],
  utcOffsetAt: UtcOffsetAt,
  /** Whether a saved import filter narrows the completions. */
  filtered: boolean,
): PeopleTabPlan {
  const content = readTab(spreadsheet, sheetName, PEOPLE_TAB, found.sheet);
  const roster = readRoster(wholeTabValues(content.sheet), utcOffsetAt);
  const people = mergeRoster(roster, completions);
  const table = rosterTable(people, completions);
  const guards = readTableGuards(spreadsheet, [content.sheet]);
  return {
    people,
    size: {
      sheetName,
      rows: table.rows.length + 1,
      columns: Math.max(roster.lastColumn, PEOPLE_COLUMNS.length) + roster.missingHeaders.length,
    },
    inserts: !content.sheet,
    prepare: () => void prepareTab(content, table.rows.length + 1, content.layout.width),
    sheetId: () => found.sheetId ?? content.sheet?.getSheetId() ?? null,
    write: () => {
      const sheet = writePeopleTab(content, table, roster, guards, found.sheetId);
      sheet.getRange(1, 1).setNote(filtered ? FILTERED_NOTE : '');
    },
  };
}

function writePeopleTab(
  content: TabContent,
  table: Table,
  roster: RosterRead,
  guards: TableGuards,
  sheetId: number | null,
): GoogleAppsScript.Spreadsheet.Sheet {
  const { sheet, placement } = writeTableOver(content, table);
  writeInputTitles(sheet, Math.max(roster.lastColumn, PEOPLE_COLUMNS.length), roster.missingHeaders);
  styleInputColumns(sheet, roster.inputColumns, PEOPLE_INPUT_NOTE, placement.maxRows);
  const below = Math.max(placement.maxRows - 1, 1);
  sheet
    .getRange(2, roster.columns.active, below, 1)
    .setDataValidation(
      SpreadsheetApp.newDataValidation()
        .requireValueInList(['yes', 'no'], true)
        .setAllowInvalid(false)
        .setHelpText(ACTIVE_HELP)
        .build(),
    );
  sheet
    .getRange(2, roster.columns.startDate, below, 1)
    .setDataValidation(
      SpreadsheetApp.newDataValidation()
        .requireDate()
        .setAllowInvalid(false)
        .setHelpText(START_DATE_HELP)
        .build(),
    );
  guardTable(content.spreadsheet, sheet, sheetId, guards, placement, {
    rangeName: PEOPLE_RANGE_NAME,
    rangeWidth: Math.max(...roster.inputColumns),
  });
  return sheet;
}
