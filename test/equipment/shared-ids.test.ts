/**
 * Schedule and metafield ids are unique within an equipment type only: two types may both have a
 * schedule "s-1". Each row keeps its own "Last inspected" date and its own cells in the user's
 * columns, matched by type and id, across refreshes that move rows; and tabs written before the
 * hidden key columns existed are still read right.
 */
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  LAST_INSPECTED,
  METAFIELDS_TAB,
  rows,
  SCHEDULES_TAB,
  scheduleRow,
  tab,
  workbook,
} from '../support/equipment-tabs';
import type { EquipmentType } from '../support/sample-service';

/** Turns the schedules tab into one as the version before the key column wrote it: 18 columns, the user's next. */
const DROP_KEY_COLUMN_SCRIPT = `
function dropScheduleKeyColumn_() {
  SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Inspection schedules').deleteColumns(19, 1);
}`;

function metafieldRow(harness: AddonHarness, typeId: string, metafieldId: string): number {
  const found = rows(tab(harness, METAFIELDS_TAB), 'A', 'C').findIndex(
    ([type, , id]) => type === typeId && id === metafieldId,
  );
  if (found < 0) throw new Error(`metafield ${metafieldId} of ${typeId} is not on the metafields tab`);
  return found + 2;
}

/** Two types, the second given the first one's first schedule id and first metafield id. */
async function shareIds(harness: AddonHarness): Promise<{ first: EquipmentType; second: EquipmentType }> {
  const types = (await harness.dataset.data()).equipmenttypes;
  const [first, second] = types
    .slice(1)
    .filter((type) => type.schedules.length > 0 && type.metafields.length > 0);
  await harness.dataset.mutate({
    editSchedules: [
      { typeId: second!.id, scheduleId: second!.schedules[0]!.id, fields: { id: first!.schedules[0]!.id } },
    ],
    editMetafields: [
      {
        typeId: second!.id,
        metafieldId: second!.metafields[0]!.id,
        fields: { id: first!.metafields[0]!.id },
      },
    ],
  });
  return { first: first!, second: second! };
}

describe('two equipment types with a schedule id and a metafield id in common', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { equipmentTypes: 12, seed: 3 },
      userScript: DROP_KEY_COLUMN_SCRIPT,
    });
    harness.connect();
  });
  afterAll(() => harness.done());

  test('each row keeps its own "Last inspected" and its own cells in the user\'s columns when rows move', async () => {
    const { first, second } = await shareIds(harness);
    const scheduleId = first.schedules[0]!.id;
    const metafieldId = first.metafields[0]!.id;
    harness.clickMenu(IMPORT);
    const book = workbook(harness);
    const typeAt = (name: string, row: number, column: string, value: string) =>
      book.typeValues(`'${name}'!${column}${row}`, [[value]]);

    typeAt(SCHEDULES_TAB, scheduleRow(harness, scheduleId, first.id), LAST_INSPECTED, '2024-01-15');
    typeAt(SCHEDULES_TAB, scheduleRow(harness, scheduleId, second.id), LAST_INSPECTED, '2024-02-20');
    typeAt(SCHEDULES_TAB, 1, 'T', 'Inspector');
    typeAt(SCHEDULES_TAB, scheduleRow(harness, scheduleId, first.id), 'T', 'Ann');
    typeAt(SCHEDULES_TAB, scheduleRow(harness, scheduleId, second.id), 'T', 'Bob');
    typeAt(METAFIELDS_TAB, 1, 'I', 'Checked by');
    typeAt(METAFIELDS_TAB, metafieldRow(harness, first.id, metafieldId), 'I', 'Cleo');
    typeAt(METAFIELDS_TAB, metafieldRow(harness, second.id, metafieldId), 'I', 'Dan');

    // The first type goes: every row below it moves up.
    const types = (await harness.dataset.data()).equipmenttypes;
    await harness.dataset.mutate({ removeEquipmentTypes: [types[0]!.id] });
    harness.clickMenu(IMPORT);

    const schedules = tab(harness, SCHEDULES_TAB);
    const scheduleCells = (typeId: string) => {
      const row = scheduleRow(harness, scheduleId, typeId);
      return [
        schedules.displayValues(`${LAST_INSPECTED}${row}`)[0]![0],
        schedules.displayValues(`T${row}`)[0]![0],
      ];
    };
    expect(scheduleCells(first.id)).toEqual(['2024-01-15', 'Ann']);
    expect(scheduleCells(second.id)).toEqual(['2024-02-20', 'Bob']);
    expect(
      schedules
        .displayValues(`T2:T${schedules.lastRow}`)
        .flat()
        .filter((cell) => cell !== '')
        .sort(),
    ).toEqual(['Ann', 'Bob']);
    const metafields = tab(harness, METAFIELDS_TAB);
    const checkedBy = (typeId: string) =>
      metafields.displayValues(`I${metafieldRow(harness, typeId, metafieldId)}`)[0]![0];
    expect([checkedBy(first.id), checkedBy(second.id)]).toEqual(['Cleo', 'Dan']);
  });

  test("a schedules tab written before the key column: dates and the user's column stay beside their schedules", () => {
    const scheduleIds = rows(tab(harness, SCHEDULES_TAB), 'A', 'C').map(
      ([type, , id]) => [type!, id!] as const,
    );
    harness.emulator.run('dropScheduleKeyColumn_', [], { spreadsheetId: harness.spreadsheetId });
    const schedules = tab(harness, SCHEDULES_TAB);
    // As the previous version left it: the user's column right after "Trigger as sent".
    expect(schedules.displayValues('R1:S1')).toEqual([['Trigger as sent', 'Inspector']]);
    const cellsOf = (row: number, inspector: string) => [
      schedules.displayValues(`${LAST_INSPECTED}${row}`)[0]![0],
      schedules.displayValues(`${inspector}${row}`)[0]![0],
    ];
    const before = scheduleIds.map((_, index) => cellsOf(index + 2, 'S'));

    harness.clickMenu(IMPORT);

    expect(schedules.displayValues('S1:T1')).toEqual([['Schedule key', 'Inspector']]);
    expect(schedules.hiddenColumns).toContain(19);
    const after = scheduleIds.map(([typeId, id]) => cellsOf(scheduleRow(harness, id, typeId), 'T'));
    expect(after).toEqual(before);
    expect(after.filter(([lastInspected]) => lastInspected !== '')).toHaveLength(2);
  });
});
