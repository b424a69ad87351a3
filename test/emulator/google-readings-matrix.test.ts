/**
 * The add-on's main paths under every reading of what Google does not document (dev/emulator/
 * readings.ts): with all the stricter readings together, and with each switch flipped on its own to
 * its other reading. A full import of 10,000 completed trainings (100,000 cells) into a new tab, an
 * equipment import (its links), Save schedule twice, the scheduled refresh (also of the spreadsheet
 * put in the trash and restored), the custom functions over date cells, and the dialogs' server
 * functions. The built add-on in the emulator, one large dataset of the sample service shared by
 * every case.
 */
import {
  createEmulator,
  type GoogleReadings,
  LOOSER_READINGS,
  READING_NAMES,
  STRICTER_READINGS,
} from '../../dev/emulator';
import { completionKey } from '../../src/api/completion-key';
import type { Completion } from '../../src/api/schemas';
import type { SheetView } from '../../dev/emulator/spreadsheet/workbook-store';
import { EQUIPMENT_TYPES_SHEET } from '../../src/equipment/tables';
import { MENU_ITEMS } from '../../src/menu';
import { createAddonHarness } from '../support/addon-harness';
import { SampleDataset } from '../support/sample-service';

const COMPLETIONS = 10_000;
const COMPLETIONS_TAB = 'Completed trainings';
/** West of the script's zone (Etc/UTC): a date cell read in the script's zone is the day before here. */
const SPREADSHEET_ZONE = 'America/New_York';

/** The default is the stricter reading of every behaviour; each one is flipped alone. */
const CASES: Array<[string, Partial<GoogleReadings>]> = [
  ['the default (every stricter reading, together)', {}],
  ...READING_NAMES.map((name): [string, Partial<GoogleReadings>] => [
    `${name}: ${String(LOOSER_READINGS[name])}`,
    { [name]: LOOSER_READINGS[name] },
  ]),
];

/** What SAFETY_USER says where Google keeps the document properties from custom functions. */
const FORMULAS_MAY_NOT_READ_SETTINGS =
  "SAFETY_USER: Google does not let formulas read this spreadsheet's settings here, so they cannot reach the token lent to them and nothing was requested. " +
  'Use the Safety Sync menu instead: Import completed trainings…, Import equipment types or Refresh all write the same data into tabs.';

/** What a user sees in one cell: its error message if it has one, else its displayed value. */
function cellShown(sheet: SheetView, a1: string): string {
  return sheet.cells(a1).flat()[0]!.error?.message ?? sheet.displayValues(a1).flat()[0]!;
}

let large: SampleDataset;

beforeAll(async () => {
  large = await SampleDataset.create({ seed: 27, completions: COMPLETIONS, users: 5_000, equipmentTypes: 4 });
});

afterAll(() => large.delete());

test('the default is the stricter reading of every behaviour', () => {
  expect(createEmulator({ code: '' }).readings).toEqual(STRICTER_READINGS);
});

test.each(CASES)(
  'under %s the main paths work',
  async (_name, readings) => {
    const harness = await createAddonHarness({
      dataset: { seed: 1, completions: 1, users: 1 },
      timeZone: SPREADSHEET_ZONE,
      emulator: { readings },
    });
    try {
      harness.connect(large.tokens.valid);
      const syncLog = () => harness.displayed('Sync log').slice(1);

      // Each case's scheduled refreshes add four completions to the shared dataset.
      const served = (await large.data()).completions as unknown as Completion[];
      // A full import into a new tab, through the Sheets API.
      harness.clickMenu('Reconcile completed trainings');
      const shown = harness.displayed(COMPLETIONS_TAB).slice(1);
      expect(shown.length * shown[0]!.length).toBeGreaterThanOrEqual(100_000);
      expect(shown.map((row) => row[9])).toEqual(served.map(completionKey));
      expect(syncLog()[0]![7]).toBe('Success');

      // An equipment import: its tabs link to one another through HYPERLINK formulas.
      harness.clickMenu('Import equipment types');
      expect(syncLog()[0]![7]).toBe('Success');
      const links = harness.emulator.workbooks
        .get(harness.spreadsheetId)!
        .sheet(EQUIPMENT_TYPES_SHEET)
        .cells()
        .flat()
        .filter((cell) => cell.formula.startsWith('=HYPERLINK('));
      expect(links.length).toBeGreaterThan(0);
      expect(links.filter((cell) => cell.error !== null || cell.link === null)).toEqual([]);

      // Save schedule twice: one trigger, the second schedule's.
      expect(harness.callServer('saveSchedule', { every: '4' })).toMatchObject({ ok: true });
      expect(harness.callServer('saveSchedule', { every: '1' })).toMatchObject({ ok: true });
      const triggers = harness.emulator.triggers();
      expect(triggers.map((trigger) => trigger.schedule.interval)).toEqual([1]);

      // The scheduled refresh, fired as Google fires it.
      await large.mutate({ addCompletions: 2 });
      harness.emulator.clock.advance(3_600_000);
      harness.emulator.fireTrigger(triggers[0]!.uid);
      expect(syncLog()[0]![7]).toBe('Success');
      expect(harness.displayed(COMPLETIONS_TAB)).toHaveLength(served.length + 3);
      expect(harness.emulator.triggers()).toHaveLength(1);

      // The spreadsheet put in the Drive trash for one run, then restored: the schedule goes on,
      // and where its run could not open it, the run back says so once.
      await large.mutate({ addCompletions: 2 });
      harness.emulator.workbooks.trash(harness.spreadsheetId);
      harness.emulator.clock.advance(3_600_000);
      harness.emulator.fireTrigger(triggers[0]!.uid);
      harness.emulator.workbooks.restore(harness.spreadsheetId);
      harness.emulator.clock.advance(3_600_000);
      harness.emulator.fireTrigger(triggers[0]!.uid);
      expect(harness.displayed(COMPLETIONS_TAB)).toHaveLength(served.length + 5);
      expect(syncLog().find((line) => line[7] !== 'Skipped')![7]).toBe('Success');
      expect(syncLog().filter((line) => /could not open this spreadsheet/.test(line[10]!))).toHaveLength(
        harness.emulator.readings.trashedSpreadsheetOpens ? 0 : 1,
      );
      expect(harness.emulator.triggers()).toHaveLength(1);

      // Custom functions: dates from cells, and a call to the service with the lent token.
      expect(harness.callServer('setFormulaAccess', true)).toMatchObject({ formulaAccess: true });
      const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
      const user = (await large.data()).users[0]!;
      // The import removed the empty "Sheet1": the formulas go on a tab of the user's.
      workbook.addSheet('Formulas', { rows: 1000, columns: 26 });
      workbook.typeValues('Formulas!A1:B1', [['2024-09-01', '2024-09-02']]);
      workbook.typeValues('Formulas!C1', [['=SAFETY_NEXT_INSPECTION("dow", A1, 7, "", B1)']]);
      workbook.typeValues('Formulas!C2', [[`=SAFETY_USER("${user.id}")`]]);
      workbook.recalculate();
      const sheet = workbook.sheet('Formulas');
      expect([cellShown(sheet, 'C1').slice(0, 10), cellShown(sheet, 'C2')]).toEqual([
        '2024-09-08',
        harness.emulator.readings.documentStoresInCustomFunction ? user.name : FORMULAS_MAY_NOT_READ_SETTINGS,
      ]);

      // The dialogs' server functions, as each dialog opens.
      expect(harness.callServer('getSettings')).toMatchObject({ formulaAccess: true });
      expect(harness.callServer('getSchedule')).toMatchObject({ every: '1', ownedByYou: true });
      expect(() => harness.callServer('getCompletionsFilter')).not.toThrow();
    } finally {
      await harness.done();
    }
  },
  180_000,
);

/** The menu as onOpen builds it: its captions, separators as null. */
const MENU_CAPTIONS = MENU_ITEMS.map((item) => item?.caption ?? null);

/**
 * The readings that once had the add-on fail, each under both: what the user sees of a date cell
 * given to a custom function, of a formula calling the service with the lent token, and of the menu
 * built in AuthMode.LIMITED after a scheduled refresh.
 */
describe('what the user sees under each reading of the behaviours the add-on once relied on', () => {
  const SWITCHES = [
    'documentStoresInCustomFunction',
    'customFunctionDateZone',
    'developerMetadataInLimited',
  ] as const;
  const EACH_READING = SWITCHES.flatMap((name) =>
    [STRICTER_READINGS, LOOSER_READINGS].map((reading): [string, GoogleReadings] => [
      `${name}: ${String(reading[name])}`,
      { ...STRICTER_READINGS, [name]: reading[name] },
    ]),
  );

  test.each(EACH_READING)('%s (every other behaviour in its stricter reading)', async (_name, readings) => {
    const harness = await createAddonHarness({
      dataset: { seed: 2, completions: 20, users: 3 },
      timeZone: SPREADSHEET_ZONE,
      emulator: { readings },
    });
    try {
      harness.connect();
      harness.callServer('saveSchedule', { every: '4' });
      harness.emulator.fireTrigger(harness.emulator.triggers()[0]!.uid);
      harness.callServer('setFormulaAccess', true);
      const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
      const user = (await harness.dataset.data()).users[0]!;
      // The import removed the empty "Sheet1": the formulas go on a tab of the user's.
      workbook.addSheet('Formulas', { rows: 1000, columns: 26 });
      workbook.typeValues('Formulas!A1:B1', [['2024-09-01', '2024-09-02']]);
      workbook.typeValues('Formulas!C1', [['=SAFETY_NEXT_INSPECTION("dow", A1, 7, "", B1)']]);
      workbook.typeValues('Formulas!C2', [[`=SAFETY_USER("${user.id}")`]]);
      workbook.recalculate();
      const sheet = workbook.sheet('Formulas');
      harness.emulator.onOpen(harness.spreadsheetId, { authMode: 'LIMITED' });
      const menu = workbook.ui.menus
        .at(-1)!
        .entries.map((entry) => (entry.kind === 'item' ? entry.caption : null));
      expect({
        nextInspection: cellShown(sheet, 'C1').slice(0, 10),
        serviceCall: cellShown(sheet, 'C2'),
        menu,
      }).toEqual({
        nextInspection: '2024-09-08',
        // Without the document properties, no store a formula can read is safe for the token.
        serviceCall: readings.documentStoresInCustomFunction ? user.name : FORMULAS_MAY_NOT_READ_SETTINGS,
        // The whole menu either way; the status line only where its developer metadata is readable.
        menu: readings.developerMetadataInLimited
          ? [...MENU_CAPTIONS, null, expect.stringMatching(/^Last refreshed /)]
          : MENU_CAPTIONS,
      });
    } finally {
      await harness.done();
    }
  });
});
