/**
 * The Training matrix's colours as a manager sees them: conditional format rules for the run's day,
 * a few whatever the number of people, replaced by every run, with no colour of a cell's own; and a
 * large matrix's values through the Sheets API, or through setValues where the API refuses, to the
 * same cells. dist/Code.js in the emulator, the sample service over loopback.
 */
import { SHEETS_API_MIN_CELLS } from '../../src/sheets/sheets-api';
import { columnLetters } from '../../dev/emulator/spreadsheet/a1-notation';
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../support/addon-harness';
import { displayedBackgrounds } from '../support/displayed-formats';
import type { DatasetData } from '../support/sample-service';
import {
  CATALOGUE,
  importAll,
  MATRIX,
  NOW,
  SHOW,
  tab,
  TIME_ZONE,
  today,
  trainingsInListOrder,
  workbook,
} from './training-tabs-expected';

const COLOURS = {
  Valid: '#d9ead3',
  'Valid (no expiry)': '#cfe2f3',
  Expiring: '#fce8b2',
  Expired: '#f4cccc',
  'Not done': '#d9d9d9',
} as const;
/** The compliance bands' rules: green, amber, red. */
const COMPLIANCE_RULES = 3;

/** The day `days` after the run's (today() in the spreadsheet's zone), as the matrix shows it. */
function isoAfter(days: number): string {
  const [year, month, day] = today().split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day! + days)).toISOString().slice(0, 10);
}

/** The same day as the service dates it (YYYYMMDD). */
function dateNumberAfter(days: number): number {
  return Number(isoAfter(days).replace(/-/g, ''));
}

/** The matrix's person × training block (rows below the three header rows, columns from D). */
function personBlock(harness: AddonHarness): string {
  const sheet = tab(harness, MATRIX);
  const trainings = sheet
    .displayValues('A2:ZZ2')[0]!
    .slice(3)
    .filter((title) => title !== '').length;
  return `A4:${columnLetters(3 + trainings)}${sheet.lastRow}`;
}

/**
 * A cell of the matrix, by person id and training column title: what it shows, the colour it shows,
 * and the colour it has of its own (null: the colour is the rules').
 */
function shownCell(
  harness: AddonHarness,
  userId: string,
  training: string,
): [string, string | null, string | null] {
  const sheet = tab(harness, MATRIX);
  const shown = sheet.displayValues();
  const row = shown.findIndex((cells, index) => index >= 3 && cells[0] === userId);
  const column = shown[1]!.indexOf(training);
  if (row < 0 || column < 0) throw new Error(`No cell for ${userId} × ${training}`);
  return [
    shown[row]![column]!,
    displayedBackgrounds(sheet)[row]![column] ?? null,
    sheet.backgrounds()[row]![column] ?? null,
  ];
}

describe('the matrix coloured by rules for the run’s day', () => {
  let harness: AddonHarness;
  let data: DatasetData;
  let windowed: string;
  let required: string;
  /** Each boundary case: a person of their own, their one training, days from today to its expiry, the status. */
  const edges: { userId: string; training: () => string; days: number; status: keyof typeof COLOURS }[] = [
    { userId: 'edge-a-1', training: () => windowed, days: -1, status: 'Expired' },
    { userId: 'edge-a-2', training: () => windowed, days: 0, status: 'Expiring' },
    { userId: 'edge-a-3', training: () => windowed, days: 30, status: 'Expiring' },
    { userId: 'edge-a-4', training: () => windowed, days: 31, status: 'Valid' },
    { userId: 'edge-b-1', training: () => required, days: -1, status: 'Expired' },
    { userId: 'edge-b-2', training: () => required, days: 0, status: 'Expiring' },
    { userId: 'edge-b-3', training: () => required, days: 7, status: 'Expiring' },
    { userId: 'edge-b-4', training: () => required, days: 8, status: 'Valid' },
  ];

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { seed: 31, completions: 300, users: 12, trainings: 3 },
      timeZone: TIME_ZONE,
      userScript: `
        function paintAsTheVersionBefore_() {
          var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('${MATRIX}');
          var rows = sheet.getLastRow() - 3;
          var columns = sheet.getLastColumn();
          var colours = [];
          for (var row = 0; row < rows; row++) {
            colours.push([]);
            for (var column = 0; column < columns; column++) colours[row].push('#d9ead3');
          }
          sheet.setConditionalFormatRules([]);
          sheet.getRange(4, 1, rows, columns).setBackgrounds(colours);
        }`,
      emulator: { startTime: NOW },
    });
    data = await harness.dataset.data();
    [windowed, required] = trainingsInListOrder(data) as [string, string];
    // Dated like the oldest record, with the expiry of each case: their people have no other record.
    await harness.dataset.mutate({
      insertCompletionsAt: edges.map((edge) => ({
        position: data.completions.length,
        fields: {
          user_id: edge.userId,
          training_id: edge.training(),
          specialExpirationDateNumber: dateNumberAfter(edge.days),
        },
      })),
    });
    data = await harness.dataset.data();
    harness.connect();
    importAll(harness);
    // The manager's catalogue: the second training required, with an expiring window of 7 days;
    // the others keep the setting's 30.
    const row = harness.displayed(CATALOGUE).findIndex((cells) => cells[0] === required) + 1;
    workbook(harness).typeValues(`${CATALOGUE}!D${row}:G${row}`, [['', '', 'yes', 7]]);
    harness.clickMenu(SHOW);
  });
  afterAll(() => harness.done());

  test('each expiry shows the colour of its status on the day, by the rules, at the boundaries of two expiring windows', () => {
    expect(edges.map((edge) => shownCell(harness, edge.userId, edge.training()))).toEqual(
      edges.map((edge) => [isoAfter(edge.days), COLOURS[edge.status], null]),
    );
    // A required training never done is grey; an optional one never done shows nothing.
    expect(shownCell(harness, 'edge-a-1', required)).toEqual(['Not done', COLOURS['Not done'], null]);
    expect(shownCell(harness, 'edge-b-1', windowed)).toEqual(['', null, null]);
    // A training that never expires (no validity, no special expiration) is blue.
    const sheet = tab(harness, MATRIX);
    const shown = sheet.displayValues();
    const colours = displayedBackgrounds(sheet);
    const noExpiry = shown.flatMap((cells, row) =>
      cells.flatMap((cell, column) => (row >= 3 && cell === 'No expiry' ? [colours[row]![column]] : [])),
    );
    expect(noExpiry.length).toBeGreaterThan(0);
    expect(new Set(noExpiry)).toEqual(new Set([COLOURS['Valid (no expiry)']]));
  });

  test('the people’s cells have no colour of their own, and the rules are few: a rule per status, per window for Expiring', () => {
    const sheet = tab(harness, MATRIX);
    expect(new Set(sheet.backgrounds(personBlock(harness)).flat())).toEqual(new Set([null]));
    // Windows of 30 and 7 days: Not done, No expiry, Expired, two Expiring, Valid; the compliance bands.
    expect(sheet.conditionalRules()).toHaveLength(4 + 2 + COMPLIANCE_RULES);
  });

  test('a second run, with more people, replaces the rules; a matrix an older version coloured cell by cell ends with none', async () => {
    await harness.dataset.mutate({
      insertCompletionsAt: Array.from({ length: 20 }, (_, index) => ({
        position: data.completions.length,
        fields: { user_id: `more-${index}`, training_id: windowed },
      })),
    });
    importAll(harness);
    const sheet = tab(harness, MATRIX);
    expect(sheet.displayValues().filter((cells) => cells[0]!.startsWith('more-'))).toHaveLength(20);
    expect(sheet.conditionalRules()).toHaveLength(4 + 2 + COMPLIANCE_RULES);
    harness.emulator.run('paintAsTheVersionBefore_', [], { spreadsheetId: harness.spreadsheetId });
    expect(new Set(sheet.backgrounds(personBlock(harness)).flat())).toEqual(new Set([COLOURS.Valid]));
    harness.clickMenu(SHOW);
    expect(new Set(sheet.backgrounds(personBlock(harness)).flat())).toEqual(new Set([null]));
    expect(sheet.conditionalRules()).toHaveLength(4 + 2 + COMPLIANCE_RULES);
    expect(shownCell(harness, 'edge-b-3', required)).toEqual([expect.any(String), COLOURS.Expiring, null]);
  });
});

describe('a matrix large enough for the Sheets API', () => {
  /**
   * 100 people × 100 trainings: the matrix passes the API's threshold, and so does Compliance history
   * (a row per training and month over the 25 months its first run records); the other tabs are a
   * few thousand cells.
   */
  const DATASET = { seed: 47, completions: 900, users: 130, trainings: 100 };

  async function matrixAfterShow(options: Omit<HarnessOptions, 'dataset' | 'timeZone'> = {}) {
    const harness = await createAddonHarness({
      dataset: DATASET,
      timeZone: TIME_ZONE,
      ...options,
      emulator: { startTime: NOW, ...options.emulator },
    });
    try {
      harness.connect();
      importAll(harness);
      harness.emulator.counter.reset();
      harness.clickMenu(SHOW);
      const sheet = tab(harness, MATRIX);
      return {
        cells: sheet.lastRow * sheet.lastColumn,
        apiWrites: harness.emulator.counter.snapshot()['Sheets.Spreadsheets.Values.batchUpdate'] ?? 0,
        shown: sheet.displayValues(),
        values: sheet.values(),
        formats: sheet.numberFormats(),
        colours: displayedBackgrounds(sheet),
        alerts: workbook(harness).ui.alerts,
      };
    } finally {
      await harness.done();
    }
  }

  test('its values go through the API; refused, through setValues, to the same cells', async () => {
    const throughApi = await matrixAfterShow();
    const refused = await matrixAfterShow({ emulator: { sheetsApiInCloudProject: 'disabled' } });
    expect(throughApi.cells).toBeGreaterThanOrEqual(SHEETS_API_MIN_CELLS);
    expect(throughApi.apiWrites).toBe(2);
    expect(throughApi.alerts).toEqual([]);
    expect(refused.alerts).toEqual([]);
    // The same cells: values typed alike (ids text, expiries dates), shown and coloured alike.
    expect(refused.shown).toEqual(throughApi.shown);
    expect(refused.values).toEqual(throughApi.values);
    expect(refused.formats).toEqual(throughApi.formats);
    expect(refused.colours).toEqual(throughApi.colours);
    expect(throughApi.values.slice(3).every((row) => typeof row[0] === 'string')).toBe(true);
    expect(throughApi.values.slice(3).some((row) => row.some((value) => value instanceof Date))).toBe(true);
  });
});
