/**
 * Texts longer than a cell holds (Sheets: 50,000 characters) from the service: the built add-on in
 * the emulator, whose cells refuse longer strings as Google's do, against the sample service.
 * The run succeeds, every linked tab is written, each long text is cut with a visible marker, and
 * the cuts are reported.
 */
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  METAFIELDS_TAB,
  rows,
  SCHEDULES_TAB,
  scheduleRow,
  syncLog,
  tab,
  TYPES_TAB,
  UPCOMING_TAB,
  workbook,
} from '../support/equipment-tabs';
import type { EquipmentType } from '../support/sample-service';

const LIMIT = 50_000;
const marker = (length: number) =>
  `… [cut: ${length.toLocaleString('en-US')} characters; the full text is in the service]`;

/** A text of `length` characters that shows where it is cut: "0123456789" over and over. */
const longText = (length: number, start = '') =>
  (start + '0123456789'.repeat(Math.ceil(length / 10))).slice(0, length);

describe('a schedule instruction, a metafield name and a type title longer than a cell holds', () => {
  let harness: AddonHarness;
  let types: EquipmentType[];
  let tabsBefore: Record<string, number>;

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 20, seed: 9 } });
    harness.connect();
    harness.clickMenu(IMPORT);
    const before = (await harness.dataset.data()).equipmenttypes;
    const withBoth = before.find((type) => type.schedules.length > 0 && type.metafields.length > 0)!;
    tabsBefore = Object.fromEntries(
      [TYPES_TAB, METAFIELDS_TAB, SCHEDULES_TAB, UPCOMING_TAB].map((name) => [name, tab(harness, name).gid]),
    );
    await harness.dataset.mutate({
      editSchedules: [
        {
          typeId: withBoth.id,
          scheduleId: withBoth.schedules[0]!.id,
          fields: { instructions: longText(60_000, 'Check the brakes. ') },
        },
      ],
      editMetafields: [
        { typeId: withBoth.id, metafieldId: withBoth.metafields[0]!.id, fields: { name: longText(50_001) } },
      ],
      // Quotes take two characters inside the title's link formula.
      renameEquipmentTypes: [{ id: withBoth.id, title: longText(51_234, 'The "long" one ') }],
      removeEquipmentTypes: [before[0]!.id],
    });
    types = (await harness.dataset.data()).equipmenttypes;
    harness.clickMenu(IMPORT);
  });
  afterAll(() => harness.done());

  const longType = () => types.find((type) => type.title.length > LIMIT)!;

  test('the run succeeds and its message names each cut record and field', () => {
    const { id } = longType();
    const schedule = longType().schedules[0]!.id;
    const metafield = longType().metafields[0]!.id;
    const [alert] = workbook(harness).ui.alerts.slice(-1);
    expect(alert!.title).toBe('Safety Sync');
    expect(alert!.message).toContain(
      '3 texts longer than a cell holds (50,000 characters) were cut to fit, with a note at the cut; ' +
        'the full text is in the service: ' +
        `Equipment types, Equipment type ID ${id}: Title (51,234 characters); ` +
        `Equipment metafields, Equipment type ID ${id}, Metafield ID ${metafield}: Name (50,001 characters); ` +
        `Inspection schedules, Equipment type ID ${id}, Schedule ID ${schedule}: Instructions (60,000 characters).`,
    );
    const [line] = syncLog(harness);
    expect([line![0], line![5]]).toEqual([IMPORT, 'Success']);
    expect(line![8]).toContain(`Schedule ID ${schedule}: Instructions (60,000 characters)`);
  });

  test("each long text is cut to fit with a visible marker; the rest of every tab is the service's", () => {
    const type = longType();
    const schedules = tab(harness, SCHEDULES_TAB);
    const instruction = schedules.displayValues(
      `K${scheduleRow(harness, type.schedules[0]!.id, type.id)}`,
    )[0]![0]!;
    expect(instruction.length).toBeLessThanOrEqual(LIMIT);
    expect(instruction.endsWith(marker(60_000))).toBe(true);
    expect(type.schedules[0]!.instructions.startsWith(instruction.slice(0, -marker(60_000).length))).toBe(
      true,
    );
    expect(instruction.length).toBeGreaterThan(LIMIT - 100);

    const typeRow = types.indexOf(type) + 2;
    const title = tab(harness, TYPES_TAB).displayValues(`B${typeRow}`)[0]![0]!;
    expect(title.endsWith(marker(51_234))).toBe(true);
    expect(type.title.startsWith(title.slice(0, -marker(51_234).length))).toBe(true);
    const metafieldNames = rows(tab(harness, METAFIELDS_TAB), 'D', 'D').flat();
    expect(metafieldNames.filter((name) => name.endsWith(marker(50_001)))).toHaveLength(1);
  });

  test('every linked tab was written, in place: the removed type is gone from all of them', () => {
    expect(Object.fromEntries(Object.keys(tabsBefore).map((name) => [name, tab(harness, name).gid]))).toEqual(
      tabsBefore,
    );
    expect(rows(tab(harness, TYPES_TAB), 'A', 'A').flat()).toEqual(types.map((type) => type.id));
    for (const name of [METAFIELDS_TAB, SCHEDULES_TAB]) {
      const typeIds = new Set(rows(tab(harness, name), 'A', 'A').flat());
      expect([...typeIds].every((id) => types.some((type) => type.id === id))).toBe(true);
    }
    expect(rows(tab(harness, SCHEDULES_TAB), 'C', 'C').flat()).toEqual(
      types.flatMap((type) => type.schedules.map((schedule) => schedule.id)),
    );
  });
});
