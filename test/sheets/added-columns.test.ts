/**
 * A column a later layout adds (ColumnSpec.since), met by a spreadsheet the previous layout made. The
 * built add-on imports "Completed trainings" and a manager adds columns of their own (values, notes,
 * a dropdown); then the next version of the add-on is pushed to the same emulator, as clasp push does
 * (every spreadsheet and setting stays). That version is src/ built here with one change, the one a
 * developer adding the column makes: a Department spec entry "since: 2" and its cell in the record's
 * row. Built from the source, end to end, because the insertion, the refusal and the Sync log line
 * are spread over the tab reader, the import and the job runner, and only the whole add-on shows
 * that they meet.
 */
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleOptions, listEntryPoints, renderWrappers } from '../../dev/build';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { userActions } from '../support/user-actions';

const TAB = 'Completed trainings';
const SYNC_LOG = 'Sync log';
const ADDED = 'Added the column Department to Completed trainings.';
const TABLE_MODULE = path.resolve(__dirname, '../../src/trainings/completions/table.ts');

/** The source change of the next version: each anchor must be found, or the test says which is not. */
const NEXT_VERSION_EDITS: [anchor: string, replacement: string][] = [
  [
    "  { id: 'key', header: 'Record key'",
    "  { id: 'department', header: 'Department', kind: 'text', width: 140, since: 2 },\n  { id: 'key', header: 'Record key'",
  ],
  ['    rowKey,\n  ];', '    `Dept ${record.user_id}`,\n    rowKey,\n  ];'],
];

async function nextVersionCode(): Promise<string> {
  const source = fs.readFileSync(TABLE_MODULE, 'utf8');
  const edited = NEXT_VERSION_EDITS.reduce((text, [anchor, replacement]) => {
    if (!text.includes(anchor))
      throw new Error(`src/trainings/completions/table.ts no longer has: ${anchor}`);
    return text.replace(anchor, replacement);
  }, source);
  const built = await esbuild.build({
    ...bundleOptions(),
    plugins: [
      {
        name: 'next-layout',
        setup(plugin) {
          plugin.onLoad({ filter: /completions[\\/]table\.ts$/ }, () => ({ contents: edited, loader: 'ts' }));
        },
      },
    ],
  });
  return `${built.outputFiles[0]!.text}\n${renderWrappers(listEntryPoints())}`;
}

let nextVersion: string;
beforeAll(async () => {
  nextVersion = await nextVersionCode();
});

async function importedHarness(): Promise<AddonHarness> {
  const harness = await createAddonHarness({ dataset: { seed: 21, completions: 24, users: 8 } });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  return harness;
}

function titles(harness: AddonHarness): string[] {
  return harness.displayed(TAB)[0]!;
}

function newestLogLine(harness: AddonHarness): string {
  return harness.displayed(SYNC_LOG)[1]!.join(' ');
}

/** What the user put beside each record, by its key: their column's text, its note and its dropdown. */
function userCellsByKey(harness: AddonHarness, site: string) {
  const user = userActions(harness);
  const sheet = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB);
  const notes = sheet.notes();
  const [header, ...rows] = harness.displayed(TAB);
  const key = header!.indexOf('Record key');
  const column = header!.indexOf(site);
  return new Map(
    rows.map((row, index) => [
      row[key]!,
      {
        text: row[column]!,
        note: notes[index + 1]?.[column] ?? '',
        dropdown: user.validationOf(TAB, index + 2, column + 1),
      },
    ]),
  );
}

test('a column since a later layout is inserted beside the imported block, every user cell stays beside its record, and the Sync log says so once', async () => {
  const harness = await importedHarness();
  try {
    const user = userActions(harness);
    const rows = harness.displayed(TAB).length - 1;
    const site = titles(harness).length + 1;
    user.type(TAB, 1, site, [['Site'], ...Array.from({ length: rows }, (_, index) => [`Hall ${index}`])]);
    user.type(TAB, 1, site + 1, [['Checked']]);
    user.note(TAB, 3, site, 'Moved in March');
    user.note(TAB, 6, site + 1, 'Ask the instructor');
    user.requireList(TAB, 2, site + 1, 4, ['yes', 'no']);
    const before = userCellsByKey(harness, 'Site');
    const checkedBefore = userCellsByKey(harness, 'Checked');

    harness.emulator.pushCode(nextVersion);
    harness.clickMenu('Reconcile completed trainings');

    const header = titles(harness);
    expect(header.indexOf('Department')).toBe(header.indexOf('Created') + 1);
    expect(header.indexOf('Record key')).toBe(header.indexOf('Department') + 1);
    expect(header.slice(-2)).toEqual(['Site', 'Checked']);
    expect(userCellsByKey(harness, 'Site')).toEqual(before);
    expect(userCellsByKey(harness, 'Checked')).toEqual(checkedBefore);
    const [, ...after] = harness.displayed(TAB);
    for (const row of after) {
      expect(row[header.indexOf('Department')]).toBe(`Dept ${row[header.indexOf('User ID')]}`);
    }
    const line = newestLogLine(harness);
    expect(line.split(ADDED)).toHaveLength(2);

    harness.clickMenu('Reconcile completed trainings');
    expect(newestLogLine(harness)).not.toContain('Added the column');
    expect(titles(harness).filter((title) => title === 'Department')).toHaveLength(1);
    expect(userCellsByKey(harness, 'Site')).toEqual(before);
  } finally {
    await harness.done();
  }
});

test('a column of the user titled like the added one is reported, not adopted, and nothing is written', async () => {
  const harness = await importedHarness();
  try {
    const user = userActions(harness);
    const mine = titles(harness).length + 1;
    user.type(TAB, 1, mine, [['Department'], ['Safety office'], ['Workshop']]);
    const sheet = () => harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB);
    const tab = sheet().cells();
    const requests = harness.emulator.urlFetch.requests.length;

    harness.emulator.pushCode(nextVersion);
    harness.clickMenu('Reconcile completed trainings');

    const refusal =
      'Completed trainings has a column of yours titled Department, which Safety Sync now adds: ' +
      'rename yours (for example to Department (mine)) and run again.';
    const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
    expect(JSON.stringify(alerts[alerts.length - 1])).toContain(refusal);
    expect(sheet().cells()).toEqual(tab);
    expect(harness.emulator.urlFetch.requests.length).toBe(requests);
    expect(newestLogLine(harness)).toContain(refusal);

    // Renamed as asked: the next run adds the add-on's own column and keeps the user's beside it.
    user.type(TAB, 1, mine, [['Department (mine)']]);
    harness.clickMenu('Reconcile completed trainings');
    const header = titles(harness);
    expect(header.indexOf('Department')).toBe(header.indexOf('Created') + 1);
    expect(header[header.length - 1]).toBe('Department (mine)');
    expect(newestLogLine(harness)).toContain(ADDED);
  } finally {
    await harness.done();
  }
});
