/**
 * The People tab end to end: the built add-on in the emulator, importing from the sample service,
 * as a training manager fills in the roster beside the people the completions name. Who is on the tab
 * is worked out here from the Completed trainings tab; what the user typed is checked beside its
 * person after the service's list changes and the user sorts the rows.
 */
import { INPUT_BACKGROUND } from '../../src/sheets/input-columns';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { COMPLETIONS_TAB, importAll, SHOW, tab, workbook } from './training-tabs-expected';
import { PEOPLE_TITLES } from './roster-fixtures';

const PEOPLE = 'People';
const TITLES = PEOPLE_TITLES;
const column = (title: string) => String.fromCharCode(65 + TITLES.indexOf(title));

let harness: AddonHarness;

beforeEach(async () => {
  harness = await createAddonHarness({ dataset: { seed: 31, completions: 80, users: 9 } });
  harness.connect();
  importAll(harness);
});

afterEach(async () => {
  await harness.done();
});

/** Each user id on Completed trainings with the name it shows there. */
function namesOnCompletions(): Map<string, string> {
  const [header, ...rows] = harness.displayed(COMPLETIONS_TAB);
  const id = header!.indexOf('User ID');
  const name = header!.indexOf('User name');
  return new Map(rows.map((row) => [row[id]!, row[name]!]));
}

/** The People rows by user id: the cells of each titled column. */
function peopleById(): Map<string, Record<string, string>> {
  const [, ...rows] = harness.displayed(PEOPLE);
  return new Map(
    rows.map((row) => [row[0]!, Object.fromEntries(TITLES.map((title, index) => [title, row[index] ?? '']))]),
  );
}

function rowOf(userId: string): number {
  return harness.displayed(PEOPLE).findIndex((row) => row[0] === userId) + 1;
}

function type(userId: string, title: string, value: unknown): void {
  workbook(harness).typeValues(`${PEOPLE}!${column(title)}${rowOf(userId)}`, [[value]]);
}

test('one row per person the completions name, with the name Completed trainings shows; the user’s columns titled and styled as inputs', () => {
  const [titles, ...rows] = harness.displayed(PEOPLE);
  expect(titles).toEqual(TITLES);
  const names = namesOnCompletions();
  expect(rows.map((row) => row[0]).sort()).toEqual([...names.keys()].sort());
  for (const row of rows) expect(row[1]).toBe(names.get(row[0]!));
  const backgrounds = tab(harness, PEOPLE).backgrounds(`D1:J${rows.length + 1}`);
  expect(backgrounds.flat().every((colour) => colour === INPUT_BACKGROUND)).toBe(true);
  expect(
    tab(harness, PEOPLE)
      .backgrounds(`A1:C${rows.length + 1}`)
      .flat(),
  ).not.toContain(INPUT_BACKGROUND);
});

test('what the user typed stays beside its person when the rows are sorted and the service’s list changes', async () => {
  const [first, second, third] = [...peopleById().keys()];
  type(first!, 'Site', 'Hamburg');
  type(first!, 'Role', 'Forklift driver, First aider');
  type(second!, 'Active', 'no');
  tab(harness, PEOPLE).sortSheet(2, false);
  // Every completion of the first and the third person goes; new ones arrive.
  const { completions } = await harness.dataset.data();
  const theirs = completions.flatMap((record, position) =>
    record.user_id === first || record.user_id === third ? [position] : [],
  );
  await harness.dataset.mutate({ removeCompletionsAt: theirs });
  // A new person arrives, on top.
  await harness.dataset.mutate({ insertCompletionsAt: [{ position: 0, fields: { user_id: 'NEW 9' } }] });
  harness.clickMenu('Reconcile completed trainings');
  harness.clickMenu(SHOW);
  const people = peopleById();
  // The first keeps their row (it holds what was typed); the third, with nothing typed, leaves.
  expect(people.get(first!)).toMatchObject({ Site: 'Hamburg', Role: 'Forklift driver, First aider' });
  expect(people.has(third!)).toBe(false);
  expect(people.get(second!)).toMatchObject({ Active: 'no', Site: '' });
  expect(people.has('NEW 9')).toBe(true);
  expect([...people.keys()].sort()).toEqual([...new Set([...namesOnCompletions().keys(), first!])].sort());
});

test('a new starter typed below the table stays, with their name, start date and role', () => {
  const below = harness.displayed(PEOPLE).length + 1;
  workbook(harness).typeValues(`${PEOPLE}!A${below}:I${below}`, [
    ['NEW 007', 'Ben Neu', '', 'Hamburg', '', 'Welder', 'lead@example.com', '', '2024-09-02'],
  ]);
  harness.clickMenu(SHOW);
  expect(peopleById().get('NEW 007')).toMatchObject({
    'User name': 'Ben Neu',
    'Last completed': '',
    Site: 'Hamburg',
    Role: 'Welder',
    'Manager e-mail': 'lead@example.com',
  });
  expect(tab(harness, PEOPLE).values(`I${rowOf('NEW 007')}`)[0]![0]).toBeInstanceOf(Date);
});

test('Active takes yes or no and Start date a date, refusing anything else with a help text', () => {
  const [someone] = [...peopleById().keys()];
  expect(() => type(someone!, 'Active', 'maybe')).toThrow(/rejects "maybe"/);
  expect(() => type(someone!, 'Start date', 'next Monday')).toThrow(/rejects "next Monday"/);
  type(someone!, 'Active', 'no');
  type(someone!, 'Start date', '2024-03-01');
  const row = rowOf(someone!);
  const [active, start] = tab(harness, PEOPLE).dataValidations(
    `${column('Active')}${row}:${column('Start date')}${row}`,
  )[0]!;
  expect(active).toMatchObject({
    allowInvalid: false,
    helpText: expect.stringMatching(/^Active: yes or no/),
  });
  expect(start).toMatchObject({ allowInvalid: false, helpText: expect.stringMatching(/^Start date: /) });
});

test('an Active cell it cannot read stops Show training status with the row, the person and what to enter', () => {
  const [someone] = [...peopleById().keys()];
  const cell = `${column('Active')}${rowOf(someone!)}`;
  // A rule the user removed, then a word the add-on cannot read.
  tab(harness, PEOPLE).setDataValidation(cell, null);
  type(someone!, 'Active', 'left in May');
  const before = harness.displayed('Training matrix');
  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts.at(-1)?.message).toContain(
    `1 cell of the "People" tab Safety Sync cannot read: row ${rowOf(someone!)} (user ${someone}): "Active" is "left in May"; enter yes or no (empty means yes).`,
  );
  expect(harness.displayed('Training matrix')).toEqual(before);
});

test('a named range over the table and warning-only protection of the add-on’s columns, the user’s left free', () => {
  const rows = harness.displayed(PEOPLE).length;
  expect(workbook(harness).namedRanges()).toContainEqual({
    name: 'SafetySync_People',
    sheet: PEOPLE,
    range: `A1:J${rows}`,
  });
  expect(tab(harness, PEOPLE).protections()).toEqual([
    expect.objectContaining({ range: `A1:C${rows}`, warningOnly: true }),
  ]);
});

test('with a saved import filter: only the people it brings in, and the tab says so without quoting it', async () => {
  expect(tab(harness, PEOPLE).notes('A1')[0]![0]).toBe('');
  const { completions } = await harness.dataset.data();
  const trainingId = completions[0]!.training_id;
  importAll(harness, { training_id: trainingId });
  const took = new Set(
    completions.filter((record) => record.training_id === trainingId).map((r) => r.user_id),
  );
  expect([...peopleById().keys()].sort()).toEqual([...took].sort());
  const note = tab(harness, PEOPLE).notes('A1')[0]![0]!;
  expect(note).toMatch(/^Only the people the saved import filter brings in/);
  expect(note).not.toContain(trainingId);
});
