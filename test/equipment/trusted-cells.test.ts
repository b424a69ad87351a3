/**
 * Hand-entered data stays trustworthy on the equipment tabs: "Last inspected" takes dates only and
 * flags a future one; the imported columns carry warning-only protection (never "Last inspected" or
 * the user's own columns); each imported tab is a named range over the whole table. Both follow the
 * table as refreshes grow and shrink it and as the user inserts columns, and the user's own named
 * ranges and protections are left alone. The seeded model test is in trusted-cells-model.test.ts.
 */
import { IMPORTED_COLUMNS_PROTECTION } from '../../src/sheets/table-guard';
import { LAST_INSPECTED_HELP } from '../../src/equipment/last-inspected-cells';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  LAST_INSPECTED,
  rows,
  SCHEDULES_TAB,
  SHOW_UPCOMING,
  scheduleRow,
  tab,
  TYPES_TAB,
  typeLastInspected,
  workbook,
} from '../support/equipment-tabs';
import {
  actualGuards,
  expectedGuards,
  expectUserGuardsKept,
  NOTES_TAB,
  ourProtections,
} from '../support/table-guards';

let harness: AddonHarness;

beforeAll(async () => {
  harness = await createAddonHarness({ dataset: { equipmentTypes: 24, seed: 17 } });
  harness.connect();
  // The user's own named range and protection, on a tab of their own and on the schedules tab's neighbour.
  workbook(harness).addSheet(NOTES_TAB, { rows: 20, columns: 5 });
  workbook(harness).addNamedRange('MyAudits', NOTES_TAB, 'A1:B10');
  tab(harness, NOTES_TAB).protectRange('A1:A5', 'Audit sign-offs');
  harness.clickMenu(IMPORT);
});
afterAll(() => harness.done());

function todayPlus(days: number): string {
  const now = new Date(harness.emulator.clock.now() + days * 86_400_000);
  return now.toISOString().slice(0, 10);
}

describe('"Last inspected"', () => {
  test('rejects anything but a date, with help text, down to the last row of the tab', () => {
    const schedules = tab(harness, SCHEDULES_TAB);
    for (const row of [2, schedules.maxRows]) {
      expect(schedules.dataValidations(`${LAST_INSPECTED}${row}`)[0]![0]).toEqual({
        criteria: 'DATE_IS_VALID_DATE',
        values: [],
        allowInvalid: false,
        helpText: LAST_INSPECTED_HELP,
      });
    }
    expect(() => workbook(harness).typeValues(`'${SCHEDULES_TAB}'!${LAST_INSPECTED}2`, [['soon']])).toThrow(
      /rejects "soon"/,
    );
    // The other columns take what a user types.
    expect(() => workbook(harness).typeValues(`'${SCHEDULES_TAB}'!O2`, [['soon']])).not.toThrow();
  });

  test('flags a date after today, and the schedule says to check it', async () => {
    const [schedule] = (await harness.dataset.data()).equipmenttypes.flatMap((type) => type.schedules);
    typeLastInspected(harness, { [schedule!.id]: todayPlus(10) });
    harness.clickMenu(SHOW_UPCOMING);
    const row = scheduleRow(harness, schedule!.id);
    const schedules = tab(harness, SCHEDULES_TAB);
    expect(schedules.displayValues(`H${row}`)[0]![0]).toBe('Check Last inspected: in the future');
    const flag = schedules.conditionalRules().find((rule) => rule.type === 'CUSTOM_FORMULA');
    expect(flag).toEqual({
      type: 'CUSTOM_FORMULA',
      values: [`=AND(ISNUMBER(${LAST_INSPECTED}2),${LAST_INSPECTED}2>TODAY())`],
      format: { background: '#fce8b2', fontColor: '#7f6000' },
      ranges: [`${LAST_INSPECTED}2:${LAST_INSPECTED}${schedules.maxRows}`],
    });
  });
});

describe('protection and named ranges', () => {
  test('cover exactly the imported columns and the whole table, warning only', async () => {
    expect(expectedGuards(harness, await harness.dataset.data())).toEqual(actualGuards(harness));
    // "Last inspected" (G) is left out: the schedules tab has two runs of imported columns.
    expect(ourProtections(tab(harness, SCHEDULES_TAB)).map((protection) => protection.range)).toEqual([
      `A1:F${tab(harness, SCHEDULES_TAB).lastRow}`,
      `H1:S${tab(harness, SCHEDULES_TAB).lastRow}`,
    ]);
  });

  test('follow the table when the user inserts a column between imported ones, and when it shrinks', async () => {
    const types = (await harness.dataset.data()).equipmenttypes;
    const keptRow = rows(tab(harness, TYPES_TAB), 'A', 'A').findIndex(([id]) => id === types[20]!.id) + 2;
    tab(harness, TYPES_TAB).insertColumnsBefore(3);
    workbook(harness).typeValues(`'${TYPES_TAB}'!C1`, [['Site']]);
    workbook(harness).typeValues(`'${TYPES_TAB}'!C${keptRow}`, [['North yard']]);
    await harness.dataset.mutate({ removeEquipmentTypes: types.slice(0, 9).map((type) => type.id) });
    harness.clickMenu(IMPORT);

    const data = await harness.dataset.data();
    expect(data.equipmenttypes).toHaveLength(15);
    expect(actualGuards(harness)).toEqual(expectedGuards(harness, data));
    expect(ourProtections(tab(harness, TYPES_TAB)).map((protection) => protection.range)).toEqual([
      'A1:B16',
      'D1:H16',
    ]);
    // The user's column between imported ones is theirs: unprotected, its value beside its type.
    expect(rows(tab(harness, TYPES_TAB), 'A', 'C')).toContainEqual([
      types[20]!.id,
      expect.any(String),
      'North yard',
    ]);
  });

  test("leave the user's own named ranges and protections as they were", () => {
    expectUserGuardsKept(
      harness,
      { name: 'MyAudits', range: 'A1:B10' },
      { range: 'A1:A5', description: 'Audit sign-offs' },
    );
    for (const name of workbook(harness).sheetNames) {
      for (const protection of tab(harness, name).protections()) {
        if (protection.description === IMPORTED_COLUMNS_PROTECTION) expect(protection.warningOnly).toBe(true);
      }
    }
  });
});
