/**
 * The "Completed trainings" tab as a manager rearranges it: columns inserted among the imported ones,
 * moved, titles lost; a formula heading a column; notes and validation beside records; sorting and
 * filtering from the tab's filter. Each run follows the columns by their titles, keeps what the user
 * put beside a record beside it, and refuses (changing nothing) when it cannot tell which column is which.
 */
import { rowKeys } from '../../../src/api/completion-key';
import type { Completion } from '../../../src/api/schemas';
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import { userActions } from '../../support/user-actions';

const TAB = 'Completed trainings';
const SYNC_LOG = 'Sync log';

async function importedHarness(completions = 40): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { seed: 12, completions, users: 12 },
    // Where Google lets formulas read the token lent to them (readings.ts).
    emulator: { readings: { documentStoresInCustomFunction: true } },
  });
  harness.connect();
  harness.clickMenu('Reconcile completed trainings');
  return harness;
}

/** The tab's rows as maps from title to displayed text, so that tests do not depend on positions. */
function rowsByTitle(harness: AddonHarness): Map<string, string>[] {
  const [titles, ...rows] = harness.displayed(TAB);
  return rows
    .filter((row) => row.some((cell) => cell !== ''))
    .map((row) => new Map(titles!.map((title, index) => [title, row[index]!])));
}

function column(harness: AddonHarness, title: string): number {
  const index = harness.displayed(TAB)[0]!.indexOf(title);
  if (index < 0) throw new Error(`No "${title}" column in ${JSON.stringify(harness.displayed(TAB)[0])}`);
  return index + 1;
}

function lastAlert(harness: AddonHarness) {
  const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
  return alerts[alerts.length - 1]!;
}

/** What the service lists, as record keys in its order. */
async function serviceKeys(harness: AddonHarness): Promise<string[]> {
  const data = await harness.dataset.data();
  return rowKeys(data.completions as unknown as Completion[]);
}

test('a column inserted among the imported ones is followed by Refresh all and Reconcile, and keeps its cells beside their records', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  user.insertColumnsBefore(TAB, column(harness, 'Training ID'), 1);
  const site = column(harness, 'Training ID') - 1;
  const rows = harness.displayed(TAB).length;
  user.type(TAB, 1, site, [['Site'], ...Array.from({ length: rows - 1 }, (_, index) => [`'00${index}`])]);
  const siteOf = (byTitle: Map<string, string>[]) =>
    new Map(byTitle.map((row) => [row.get('Record key'), row.get('Site')]));
  const before = siteOf(rowsByTitle(harness));

  await harness.dataset.mutate({ addCompletions: 3 });
  harness.clickMenu('Refresh all');
  let after = rowsByTitle(harness);
  expect(after).toHaveLength(rows - 1 + 3);
  expect(after.map((row) => row.get('Record key'))).toEqual(await serviceKeys(harness));
  for (const [key, text] of before) expect(siteOf(after).get(key)).toBe(text);

  await harness.dataset.mutate({ addCompletions: 2 });
  harness.clickMenu('Reconcile completed trainings');
  const titles = harness.displayed(TAB)[0]!;
  expect(titles.filter((title) => title === 'Record key')).toHaveLength(1);
  expect(titles.indexOf('Site')).toBe(titles.indexOf('Training ID') - 1);
  after = rowsByTitle(harness);
  expect(after.map((row) => row.get('Record key'))).toEqual(await serviceKeys(harness));
  const data = await harness.dataset.data();
  expect(after.map((row) => row.get('Training ID'))).toEqual(
    data.completions.map((record) => record.training_id),
  );
  for (const [key, text] of before) expect(siteOf(after).get(key)).toBe(text);
  // The text keeps its leading zeros: it was typed with an apostrophe and stays text.
  expect([...siteOf(after).values()].filter(Boolean).every((text) => /^00\d+$/.test(text!))).toBe(true);
  await harness.done();
});

test('a column the user moved stays where they put it, with its own values', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  const width = harness.displayed(TAB)[0]!.length;
  user.moveColumns(TAB, column(harness, 'User name'), 1, width + 1);
  expect(harness.displayed(TAB)[0]![width - 1]).toBe('User name');
  await harness.dataset.mutate({ addCompletions: 2 });
  harness.clickMenu('Reconcile completed trainings');
  const titles = harness.displayed(TAB)[0]!;
  expect(titles[width - 1]).toBe('User name');
  const data = await harness.dataset.data();
  const names = new Map(data.users.map((entry) => [entry.id, entry.name]));
  for (const row of rowsByTitle(harness))
    expect(row.get('User name')).toBe(names.get(row.get('User ID')!) ?? '');
  await harness.done();
});

test('a run refuses, says what to do and changes nothing when a title is missing or doubled', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  const sheet = () => harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB);
  user.deleteColumns(TAB, column(harness, 'Instructor name'), 1);
  await harness.dataset.mutate({ addCompletions: 2 });
  const tab = sheet().cells();
  const requests = harness.emulator.urlFetch.requests.length;

  for (const caption of ['Reconcile completed trainings', 'Refresh all']) {
    harness.clickMenu(caption);
    expect(lastAlert(harness).message).toContain('"Instructor name"');
    expect(lastAlert(harness).message).toContain('Nothing was changed');
    expect(sheet().cells()).toEqual(tab);
  }
  // Refused before asking the service for anything.
  expect(harness.emulator.urlFetch.requests.length).toBe(requests);
  // The Sync log's newest line, below its titles.
  expect(harness.displayed(SYNC_LOG)[1]!.join(' ')).toContain('"Instructor name"');

  // The title back (over an empty column), and a second "Record key" column: refused, naming it.
  const width = harness.displayed(TAB)[0]!.length;
  user.type(TAB, 1, width + 1, [['Instructor name']]);
  user.insertColumnsBefore(TAB, 1, 1);
  user.type(TAB, 1, 1, [['Record key']]);
  const doubled = sheet().cells();
  harness.clickMenu('Reconcile completed trainings');
  expect(lastAlert(harness).message).toContain('more than one "Record key" column');
  expect(sheet().cells()).toEqual(doubled);

  // With the extra column gone, the run goes through and fills the restored column.
  user.deleteColumns(TAB, 1, 1);
  harness.clickMenu('Reconcile completed trainings');
  expect(lastAlert(harness).title).toBe('Safety Sync');
  const data = await harness.dataset.data();
  const names = new Map(data.users.map((entry) => [entry.id, entry.name]));
  for (const row of rowsByTitle(harness)) {
    expect(row.get('Instructor name')).toBe(names.get(row.get('Instructor ID')!) ?? '');
  }
  await harness.done();
});

test('records added by Refresh all keep a formula heading a column pointing at every record', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  const width = harness.displayed(TAB)[0]!.length;
  user.typeFormula(TAB, 1, width + 1, '=ARRAYFORMULA(D2:D)');
  await harness.dataset.mutate({ addCompletions: 4 });
  harness.clickMenu('Refresh all');
  expect(rowsByTitle(harness)).toHaveLength(44);
  const sheet = harness.emulator.workbooks.get(harness.spreadsheetId)!.sheet(TAB);
  expect(sheet.formulas(user.a1(1, width + 1))).toEqual([['=ARRAYFORMULA(D2:D)']]);
  await harness.done();
});

test('a formula that fills the cells below it keeps filling them after Reconcile moves the records', async () => {
  const harness = await importedHarness(20);
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  const user = userActions(harness);
  const width = harness.displayed(TAB)[0]!.length;
  // Names of the first five records' users, from the add-on's own function, filling K2:K6.
  harness.callServer('setFormulaAccess', true);
  user.typeFormula(TAB, 1, width + 1, '=SAFETY_USER(A2:A6)');
  workbook.recalculate();
  const filled = () => workbook.sheet(TAB).displayValues(`${user.a1(2, width + 1)}:${user.a1(6, width + 1)}`);
  expect(
    filled()
      .flat()
      .some((name) => name !== ''),
  ).toBe(true);
  expect(
    filled()
      .flat()
      .some((name) => name.startsWith('#')),
  ).toBe(false);

  await harness.dataset.mutate({ addCompletions: 3 });
  harness.clickMenu('Reconcile completed trainings');
  workbook.recalculate();
  // Nothing was typed over the formula's cells: it fills them again, with the names of the
  // records now in rows 2 to 6 (the formula's own cell shows the first).
  expect(
    workbook
      .sheet(TAB)
      .formulas(`${user.a1(2, width + 1)}:${user.a1(6, width + 1)}`)
      .flat(),
  ).toEqual(['', '', '', '', '']);
  const data = await harness.dataset.data();
  const names = new Map(data.users.map((entry) => [entry.id, entry.name]));
  const firstFive = rowsByTitle(harness)
    .slice(0, 5)
    .map((row) => names.get(row.get('User ID')!) ?? '');
  const shown = workbook.sheet(TAB).displayValues(`${user.a1(1, width + 1)}:${user.a1(5, width + 1)}`);
  expect(shown.flat()).toEqual(firstFive);
  await harness.done();
});

test('notes and data validation stay beside their records when the rows move', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  const width = harness.displayed(TAB)[0]!.length;
  const signedOff = width + 1;
  user.type(TAB, 1, signedOff, [['Signed off']]);
  user.requireList(TAB, 2, signedOff, 40, ['yes', 'no']);
  user.note(TAB, 5, column(harness, 'Training ID'), 'Certificate seen');
  user.note(TAB, 7, signedOff, 'Ask again in May');
  const keyAt = (row: number) => harness.displayed(TAB)[row - 1]![column(harness, 'Record key') - 1];
  const notedKeys = [keyAt(5), keyAt(7)];

  await harness.dataset.mutate({ addCompletions: 3 });
  harness.clickMenu('Reconcile completed trainings');
  const rowOf = (key: string | undefined) =>
    harness.displayed(TAB).findIndex((row) => row.includes(key!)) + 1;
  const notes = workbook.sheet(TAB).notes();
  expect(notes[rowOf(notedKeys[0]) - 1]![column(harness, 'Training ID') - 1]).toBe('Certificate seen');
  expect(notes[rowOf(notedKeys[1]) - 1]![signedOff - 1]).toBe('Ask again in May');
  expect(notes.flat().filter(Boolean).sort()).toEqual(['Ask again in May', 'Certificate seen']);
  // Every record's row, new ones included, keeps the list rule on "Signed off".
  for (let row = 2; row <= 44; row++) expect(user.validationOf(TAB, row, signedOff)).toEqual(['yes', 'no']);
  await harness.done();
});

test('the filter covers the user’s columns: sorting from it keeps their cells beside their records, and the sort and criteria survive runs', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  const width = harness.displayed(TAB)[0]!.length;
  const badge = width + 1;
  const rows = harness.displayed(TAB).length;
  user.type(TAB, 1, badge, [['Badge'], ...Array.from({ length: rows - 1 }, (_, index) => [`B-${index}`])]);
  const badgeOf = () => new Map(rowsByTitle(harness).map((row) => [row.get('Record key'), row.get('Badge')]));
  const badges = badgeOf();

  // Imported again with the new column: the filter now spans it.
  await harness.dataset.mutate({ addCompletions: 1 });
  harness.clickMenu('Reconcile completed trainings');
  expect(user.filterRange(TAB)).toBe(`A1:${user.a1(rows + 1, badge)}`);
  const beforeSort = rowsByTitle(harness).map((row) => row.get('User name')!);
  user.sortByFilter(TAB, column(harness, 'User name'), true);
  const userNames = rowsByTitle(harness).map((row) => row.get('User name')!);
  expect(userNames.slice(-3)).not.toEqual(beforeSort.slice(-3));
  for (const [key, text] of badges) expect(badgeOf().get(key)).toBe(text);
  const someTraining = rowsByTitle(harness)[0]!.get('Training ID')!;
  user.hideValues(TAB, column(harness, 'Training ID'), [someTraining]);

  await harness.dataset.mutate({ addCompletions: 3 });
  harness.clickMenu('Reconcile completed trainings');
  const after = rowsByTitle(harness);
  // The user's order is kept below the three new records, and every badge is beside its record.
  expect(after.slice(3).map((row) => row.get('User name'))).toEqual(userNames);
  for (const [key, text] of badges) expect(badgeOf().get(key)).toBe(text);
  expect(user.hiddenValues(TAB, column(harness, 'Training ID'))).toEqual([someTraining]);
  expect(user.filterRange(TAB)).toBe(`A1:${user.a1(rows + 4, badge)}`);

  await harness.dataset.mutate({ addCompletions: 1 });
  harness.clickMenu('Refresh all');
  expect(
    rowsByTitle(harness)
      .slice(4)
      .map((row) => row.get('User name')),
  ).toEqual(userNames);
  expect(user.hiddenValues(TAB, column(harness, 'Training ID'))).toEqual([someTraining]);
  await harness.done();
});

test('a note typed while a run reads the service is still there after the run', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  const width = harness.displayed(TAB)[0]!.length;
  const notes = width + 1;
  // A note beside the record at position 5 makes its removal wait for a check with the service.
  user.type(TAB, 1, notes, [['Notes']]);
  user.type(TAB, 7, notes, [['Refresher booked']]);
  const keyColumn = column(harness, 'Record key') - 1;
  const typedBeside = harness.displayed(TAB)[9]![keyColumn]!;
  await harness.dataset.mutate({ removeCompletionsAt: [5] });

  // While the add-on asks the service about that record, the user types beside another one.
  harness.emulator.urlFetch.whileWaiting = (requests) => {
    const checking = requests.some((request) => String(request.payload).includes('"user_id"'));
    if (!checking) return;
    const row = harness.displayed(TAB).findIndex((cells) => cells[keyColumn] === typedBeside) + 1;
    user.type(TAB, row, notes, [['Typed during the run']]);
    harness.emulator.urlFetch.whileWaiting = null;
  };
  harness.clickMenu('Reconcile completed trainings');
  const after = rowsByTitle(harness);
  expect(after).toHaveLength(39);
  expect(after.find((row) => row.get('Record key') === typedBeside)!.get('Notes')).toBe(
    'Typed during the run',
  );
  expect(after.filter((row) => row.get('Notes')).map((row) => row.get('Notes'))).toEqual([
    'Typed during the run',
  ]);
  await harness.done();
});
