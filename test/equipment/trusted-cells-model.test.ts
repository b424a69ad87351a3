/**
 * The named ranges and warning-only protections follow the equipment tables, checked against an
 * independent oracle (test/support/table-guards.ts: the tables' columns found by their titles in
 * row 1, their heights from the service) after every refresh of seeded random sequences of: imports
 * that grow or shrink the tables (the spreadsheet connected to a larger or smaller dataset, or types
 * removed upstream), columns the user inserts (titled, between imported ones or beside them) and
 * columns the user moves (imported ones included). A failure prints its seed and steps;
 * TRUST_SEED=n replays one sequence.
 */
import { columnLetters } from '../../dev/emulator/spreadsheet/a1-notation';
import { SampleDataset, sampleServiceUrl } from '../support/sample-service';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { IMPORT, METAFIELDS_TAB, SCHEDULES_TAB, tab, TYPES_TAB, workbook } from '../support/equipment-tabs';
import { seeded } from '../support/seeded-random';
import {
  actualGuards,
  expectedGuards,
  expectUserGuardsKept,
  NOTES_TAB,
  SCHEDULE_TITLES,
} from '../support/table-guards';

const SEQUENCES = 6;
const STEPS = 7;
const TABS = [TYPES_TAB, METAFIELDS_TAB, SCHEDULES_TAB];

/** Three datasets of the sample service, small to large, of the sequence's own (a sequence changes them). */
function createDatasets(seed: number): Promise<SampleDataset[]> {
  return Promise.all(
    [3, 9, 22].map((equipmentTypes, index) =>
      SampleDataset.create({ equipmentTypes, seed: seed * 10 + index }),
    ),
  );
}

const seeds = process.env.TRUST_SEED
  ? [Number(process.env.TRUST_SEED)]
  : Array.from({ length: SEQUENCES }, (_, index) => index + 1);

test.each(seeds)('sequence %i: named ranges and protections follow the tables', async (seed) => {
  const random = seeded(seed);
  const harness = await createAddonHarness({ dataset: { equipmentTypes: 1, seed } });
  const datasets = await createDatasets(seed);
  const steps: string[] = [];
  let current = datasets[1]!;
  let userColumns = 0;
  try {
    workbook(harness).addSheet(NOTES_TAB, { rows: 10, columns: 3 });
    workbook(harness).addNamedRange('Mine', NOTES_TAB, 'A1:C3');
    tab(harness, NOTES_TAB).protectRange('B1:B3', 'Mine too');
    for (let step = 0; step < STEPS; step++) {
      const kind = step === 0 ? 'import' : random.pick(['import', 'import', 'shrink', 'insert', 'move']);
      if (kind === 'import') {
        current = random.pick(datasets);
        steps.push(`import from the dataset of ${(await current.data()).equipmenttypes.length} types`);
        harness.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: current.tokens.valid });
      } else if (kind === 'shrink') {
        const types = (await current.data()).equipmenttypes;
        const removed = types.filter(() => random.chance(0.3)).map((type) => type.id);
        if (removed.length === types.length) removed.pop();
        await current.mutate({ removeEquipmentTypes: removed });
        steps.push(`remove ${removed.length} types upstream, then import`);
      } else {
        const name = random.pick(TABS);
        const sheet = tab(harness, name);
        const width = sheet.lastColumn;
        if (kind === 'insert') {
          const at = random.int(1, width + 1);
          sheet.insertColumnsBefore(Math.min(at, sheet.maxColumns));
          const title = `Mine ${++userColumns}`;
          workbook(harness).typeValues(`'${name}'!${columnLetters(Math.min(at, sheet.maxColumns))}1`, [
            [title],
          ]);
          steps.push(`insert "${title}" before column ${at} of ${name}`);
        } else {
          const from = random.int(1, width);
          let to = random.int(1, width + 1);
          if (to === from || to === from + 1) to = from === 1 ? width + 1 : 1;
          sheet.moveColumns(from, 1, to);
          steps.push(`move column ${from} of ${name} before column ${to}`);
        }
        // The user's change alone promises nothing: the next import puts everything right.
        continue;
      }
      harness.clickMenu(IMPORT);
      const data = await current.data();
      expect(actualGuards(harness)).toEqual(expectedGuards(harness, data));
      expect(lastInspectedValidation(harness)).toEqual(['Last inspected']);
      expectUserGuardsKept(
        harness,
        { name: 'Mine', range: 'A1:C3' },
        { range: 'B1:B3', description: 'Mine too' },
      );
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`TRUST_SEED=${seed} failed after:\n  ${steps.join('\n  ')}\n${message}`);
  } finally {
    await Promise.all([harness.done(), ...datasets.map((dataset) => dataset.delete())]);
  }
});

/** The titles of the schedules table's columns whose first and last cells of the tab validate dates. */
function lastInspectedValidation(harness: AddonHarness): string[] {
  const sheet = tab(harness, SCHEDULES_TAB);
  const header = sheet.displayValues(`A1:${columnLetters(sheet.maxColumns)}1`)[0]!;
  const titles = new Set<string>(SCHEDULE_TITLES);
  return header.filter((title, index) => {
    if (!titles.has(title)) return false;
    const letters = columnLetters(index + 1);
    const validations = [2, sheet.maxRows].map((row) => sheet.dataValidations(`${letters}${row}`)[0]![0]);
    return validations.every((validation) => validation?.criteria === 'DATE_IS_VALID_DATE');
  });
}
