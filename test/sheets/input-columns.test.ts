/**
 * A column the user fills in looks like one (src/sheets/input-columns.ts): "Last inspected" on the
 * Inspection schedules tab, as the built add-on styles it in the emulator after an import, down to
 * the tab's last row, with a note on its title; the imported columns beside it stay as they were;
 * and the style follows the column wherever the manager moves it.
 */
import { INPUT_BACKGROUND } from '../../src/sheets/input-columns';
import { LAST_INSPECTED_NOTE } from '../../src/equipment/last-inspected-cells';
import { STATUS_COLOURS } from '../../src/sheets/status-words';
import { HEAT_PALETTE } from '../../src/equipment/forecast';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { IMPORT, SCHEDULES_TAB, tab } from '../support/equipment-tabs';
import { userActions } from '../support/user-actions';

const columnOf = (harness: AddonHarness, title: string) =>
  harness.displayed(SCHEDULES_TAB)[0]!.indexOf(title) + 1;

/** The backgrounds of one column of the schedules tab, from its title to the tab's last row. */
function columnBackgrounds(harness: AddonHarness, column: number): (string | null)[] {
  const sheet = tab(harness, SCHEDULES_TAB);
  const letter = String.fromCharCode(64 + column);
  return sheet.backgrounds(`${letter}1:${letter}${sheet.maxRows}`).map(([background]) => background!);
}

let harness: AddonHarness;
beforeAll(async () => {
  harness = await createAddonHarness({ dataset: { equipmentTypes: 10, seed: 4 } });
  harness.connect();
  harness.clickMenu(IMPORT);
});
afterAll(() => harness.done());

test('Last inspected has the input background from its title to the last row, and a note saying what to enter', () => {
  const column = columnOf(harness, 'Last inspected');
  const sheet = tab(harness, SCHEDULES_TAB);
  expect(new Set(columnBackgrounds(harness, column))).toEqual(new Set([INPUT_BACKGROUND]));
  expect(sheet.notes(`${String.fromCharCode(64 + column)}1`)).toEqual([[LAST_INSPECTED_NOTE]]);
  expect(LAST_INSPECTED_NOTE).toContain('never overwrites it');
  for (const imported of ['Status note', 'Next due', 'Name']) {
    expect(columnBackgrounds(harness, columnOf(harness, imported))).not.toContain(INPUT_BACKGROUND);
  }
});

test('the input colour is no status colour and no heat colour: a coloured cell never reads as a verdict', () => {
  const taken = [...STATUS_COLOURS.map((colour) => colour.background), ...HEAT_PALETTE];
  expect(taken).not.toContain(INPUT_BACKGROUND);
});

test('moved by the manager, the column keeps its style and its note, and the next import styles it there', () => {
  const user = userActions(harness);
  const before = columnOf(harness, 'Last inspected');
  user.moveColumns(SCHEDULES_TAB, before, 1, 1);
  // Rows the manager adds at the bottom: the next import covers them too.
  tab(harness, SCHEDULES_TAB).insertRowsAfter(tab(harness, SCHEDULES_TAB).maxRows, 5);

  harness.clickMenu(IMPORT);

  expect(columnOf(harness, 'Last inspected')).toBe(1);
  expect(new Set(columnBackgrounds(harness, 1))).toEqual(new Set([INPUT_BACKGROUND]));
  expect(tab(harness, SCHEDULES_TAB).notes('A1')).toEqual([[LAST_INSPECTED_NOTE]]);
  expect(columnBackgrounds(harness, columnOf(harness, 'Status note'))).not.toContain(INPUT_BACKGROUND);
});
