/**
 * Seeded model test of the insertion of columns a later layout adds (src/sheets/added-columns.ts),
 * run by the module itself in the emulator (bundled here with a one-function entry, as the add-on
 * is): random older tabs (the imported columns in any order, the user's columns anywhere, added
 * columns first in the spec, several in a row, or none) against an oracle that places each added
 * column right after the column before it in the spec and checks that every other cell is still
 * under its title; and the two refusals, which must leave the tab untouched: a user's column titled
 * like an added one, and an older column missing. A failure prints its seed and the tab it started
 * from; replay one with ADDED_COLUMNS_SEED=n.
 */
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { bundleOptions } from '../../dev/build';
import { createEmulator, type Emulator, loadDist } from '../../dev/emulator';
import type { ColumnSpec } from '../../src/sheets/table';
import { DIST_DIR } from '../support/addon-harness';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';

const TAB = 'Table';
const ROOT = path.resolve(__dirname, '../..');

/** The probe: reads the tab whole, as readTabContent does, and adds the spec's missing columns. */
const PROBE_ENTRY = `
import { layoutAddingColumns, takeAddedColumnSentences } from './src/sheets/added-columns';
export function addColumns(columns) {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('${TAB}');
  const grid = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
  try {
    const layout = layoutAddingColumns(sheet, '${TAB}', grid, columns, sheet.getLastRow() > 1);
    return { layout, grid, sentences: takeAddedColumnSentences() };
  } catch (error) {
    return { refusal: error.message, sentences: takeAddedColumnSentences() };
  }
}`;

interface ProbeResult {
  layout?: { tableColumns: number[]; userColumns: number[]; width: number };
  grid?: unknown[][];
  refusal?: string;
  sentences: string[];
}

let probeCode: string;
beforeAll(async () => {
  const built = await esbuild.build({
    ...bundleOptions(),
    entryPoints: undefined,
    stdin: { contents: PROBE_ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'probe.ts' },
  });
  probeCode = `${built.outputFiles[0]!.text}\nfunction addColumns(columns) { return SafetySync_.addColumns(columns); }\n`;
});

/** A spec of older columns (ids a, b, …) with added ones ("since: 2") at random places among them. */
function randomSpec(random: Random): ColumnSpec[] {
  const older = Array.from({ length: random.int(2, 5) }, (_, index) => `Old ${index}`);
  const spec: ColumnSpec[] = older.map((header) => ({ header, kind: 'text', width: 100 }));
  const added = random.int(0, 3);
  for (let index = 0; index < added; index++) {
    spec.splice(random.int(0, spec.length), 0, {
      header: `New ${index}`,
      kind: 'text',
      width: 120,
      since: 2,
    });
  }
  return spec;
}

/** The older tab's titles: the older columns shuffled, the user's own among them. */
function olderTitles(random: Random, spec: readonly ColumnSpec[]): string[] {
  const titles = spec.filter((column) => column.since === undefined).map((column) => column.header);
  for (let index = titles.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [titles[index], titles[other]] = [titles[other]!, titles[index]!];
  }
  const users = random.int(0, 3);
  for (let index = 0; index < users; index++) titles.splice(random.int(0, titles.length), 0, `Mine ${index}`);
  return titles;
}

function typeTab(emulator: Emulator, id: string, rows: string[][]): void {
  const workbook = emulator.workbooks.get(id)!;
  workbook.addSheet(TAB, { rows: 100, columns: 26 });
  const width = rows[0]!.length;
  const last = String.fromCharCode(64 + width);
  workbook.typeValues(`'${TAB}'!A1:${last}${rows.length}`, rows);
}

test('columns a later layout adds are placed after their spec neighbour; every other cell stays under its title; refusals change nothing', () => {
  const { seeds } = sequenceSeeds('ADDED_COLUMNS', 40);
  const dist = loadDist(DIST_DIR);
  const emulator = createEmulator({ ...dist, code: probeCode });
  for (const seed of seeds) {
    const random = seeded(seed);
    const spec = randomSpec(random);
    const titles = olderTitles(random, spec);
    const addedColumns = spec.filter((column) => column.since !== undefined);
    // A user's column titled like an added one that has an older column before it in the spec (put
    // leftmost, so never where the add-on puts its own), or an older title lost.
    const clash = addedColumns.find((column) => spec.indexOf(column) > 0);
    const variant = random.pick(['plain', 'plain', 'clash', 'lost'] as const);
    if (variant === 'clash' && clash) titles.unshift(clash.header);
    if (variant === 'lost') titles[titles.findIndex((title) => title.startsWith('Old'))] = 'Renamed';
    const rows = [
      titles,
      ...Array.from({ length: random.int(1, 4) }, (_, row) => titles.map((title) => `${title} r${row}`)),
    ];
    const id = emulator.createSpreadsheet({ name: `Seed ${seed}` });
    const context = `seed ${seed}, spec ${JSON.stringify(spec.map((column) => column.header))}, tab ${JSON.stringify(titles)}`;
    try {
      typeTab(emulator, id, rows);
      const before = emulator.workbooks.get(id)!.sheet(TAB).values();
      const result = emulator.run('addColumns', [spec], { spreadsheetId: id }) as ProbeResult;
      const after = emulator.workbooks.get(id)!.sheet(TAB).values();

      if (variant === 'lost') {
        expect(result.refusal).toContain('has no "Old');
        expect(after).toEqual(before);
        continue;
      }
      if (variant === 'clash' && clash) {
        expect(result.refusal).toBe(
          `${TAB} has a column of yours titled ${clash.header}, which Safety Sync now adds: ` +
            `rename yours (for example to ${clash.header} (mine)) and run again.`,
        );
        expect(after).toEqual(before);
        expect(result.sentences).toEqual([]);
        continue;
      }
      const header = after[0]!.map(String);
      spec.forEach((column, index) => {
        expect(header.filter((title) => title === column.header)).toHaveLength(1);
        if (column.since !== undefined) {
          const expected = index === 0 ? 0 : header.indexOf(spec[index - 1]!.header) + 1;
          expect(header.indexOf(column.header)).toBe(expected);
          expect(after.slice(1).map((row) => row[expected])).toEqual(after.slice(1).map(() => ''));
        }
      });
      // Every older cell, the user's included, under its title and in its row.
      for (const [column, title] of titles.entries()) {
        const now = header.indexOf(title);
        expect(after.map((row) => row[now])).toEqual(before.map((row) => row[column]));
      }
      expect(result.grid).toEqual(after);
      expect(result.layout!.tableColumns).toEqual(spec.map((column) => header.indexOf(column.header) + 1));
      expect(result.sentences.sort()).toEqual(
        addedColumns.map((column) => `Added the column ${column.header} to ${TAB}.`).sort(),
      );
      // Read again: the columns are there, nothing is added or said twice.
      const again = emulator.run('addColumns', [spec], { spreadsheetId: id }) as ProbeResult;
      expect(again.sentences).toEqual([]);
      expect(emulator.workbooks.get(id)!.sheet(TAB).values()).toEqual(after);
    } catch (error) {
      throw new Error(`${context}: ${(error as Error).message}`);
    } finally {
      emulator.workbooks.delete(id);
    }
  }
});
