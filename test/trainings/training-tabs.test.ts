/**
 * The training tabs end to end: the built add-on (dist/Code.js) in the emulator, importing from the
 * sample service over loopback, as a training manager clicks through the menu and fills in the
 * Trainings tab. Every expected status is computed here, from the service's own records, by a
 * separate implementation of the rules (Date.UTC month arithmetic, not src/lib/dates.ts).
 */
import { INPUT_BACKGROUND } from '../../src/sheets/input-columns';
import { dateTimeIn } from '../support/displayed-dates';
import { spreadsheetServiceCalls } from '../../dev/emulator/spreadsheet';
import { columnLetters } from '../../dev/emulator/spreadsheet/a1-notation';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { displayedBackgrounds } from '../support/displayed-formats';
import type { DatasetData } from '../support/sample-service';
import { type Expected, expected, isoOf, type Rule } from '../support/training-oracle';
import {
  CATALOGUE,
  COMPLETIONS_TAB,
  EXPIRING,
  expectExpiring,
  groupOf,
  importAll,
  type Listed,
  listedKey,
  MATRIX,
  NOW,
  OLDER_LAPSES_HEADING,
  type Oracle,
  oracle,
  SHOW,
  tab,
  TIME_ZONE,
  today,
  trainingsInListOrder,
  workbook,
} from './training-tabs-expected';

const COLOURS: Record<string, string> = {
  Valid: '#d9ead3',
  'Valid (no expiry)': '#cfe2f3',
  Expiring: '#fce8b2',
  Expired: '#f4cccc',
  'Not done': '#d9d9d9',
};

/** The compliance bands: green from 95%, amber from 80%, red below; no colour with nothing counted. */
function complianceColour(compliant: number, counted: number): string | null {
  if (counted === 0) return null;
  const share = compliant / counted;
  return share >= 0.95 ? COLOURS.Valid! : share >= 0.8 ? COLOURS.Expiring! : COLOURS.Expired!;
}

function percent(compliant: number, counted: number): string {
  return counted === 0 ? '' : `${Math.round((100 * compliant) / counted)}%`;
}

function counts(cell: Expected, rule: Rule | undefined): boolean {
  return Boolean(rule?.required) || cell.latest !== null;
}

function compliant(cell: Expected): boolean {
  return ['Valid', 'Valid (no expiry)', 'Expiring'].includes(cell.status);
}

/** The matrix as the user sees it: the legend row, values, then colours of the cells and the figures. */
function expectMatrix(harness: AddonHarness, expectedMatrix: Oracle): void {
  const sheet = tab(harness, MATRIX);
  const { people, trainings, cells, rules } = expectedMatrix;
  const shown = sheet.displayValues();
  const labels = trainings.map((training) => rules.get(training)?.name || training);
  expect(shown[0]!.slice(0, 8)).toEqual([
    'Legend',
    'Cells show the expiry date',
    '',
    'Valid',
    'Valid (no expiry)',
    'Expiring',
    'Expired',
    'Not done',
  ]);
  expect(shown[1]!.slice(0, 3 + trainings.length)).toEqual(['User ID', 'User name', 'Compliance', ...labels]);
  const tally = (list: [Expected, Rule | undefined][]): [number, number] => {
    const counted = list.filter(([cell, rule]) => counts(cell, rule));
    return [counted.filter(([cell]) => compliant(cell)).length, counted.length];
  };
  const figure = (list: [Expected, Rule | undefined][]) => percent(...tally(list));
  const column = (t: number) =>
    cells.map((row): [Expected, Rule | undefined] => [row[t]!, rules.get(trainings[t]!)]);
  expect(shown[2]!.slice(1, 3 + trainings.length)).toEqual([
    'Compliance by training',
    figure(trainings.flatMap((_, t) => column(t))),
    ...trainings.map((_, t) => figure(column(t))),
  ]);
  // Each done cell shows the date that decides its colour: the expiry.
  const rows = people.map((person, p) => [
    person.id,
    person.name,
    figure(cells[p]!.map((cell, t): [Expected, Rule | undefined] => [cell, rules.get(trainings[t]!)])),
    ...cells[p]!.map((cell, t) =>
      cell.latest ? (cell.expiry ?? 'No expiry') : rules.get(trainings[t]!)?.required ? 'Not done' : '',
    ),
  ]);
  expect(shown.slice(3, 3 + people.length).map((row) => row.slice(0, 3 + trainings.length))).toEqual(rows);
  const colours = cells.map((row) =>
    row.map((cell, t) => (cell.latest || rules.get(trainings[t]!)?.required ? COLOURS[cell.status]! : null)),
  );
  const shownColours = displayedBackgrounds(sheet);
  expect(shownColours.slice(3, 3 + people.length).map((row) => row.slice(3, 3 + trainings.length))).toEqual(
    colours,
  );
  const personRow = (p: number) =>
    cells[p]!.map((cell, t): [Expected, Rule | undefined] => [cell, rules.get(trainings[t]!)]);
  expect(shownColours[2]!.slice(2, 3 + trainings.length)).toEqual([
    complianceColour(...tally(trainings.flatMap((_, t) => column(t)))),
    ...trainings.map((_, t) => complianceColour(...tally(column(t)))),
  ]);
  expect(shownColours.slice(3, 3 + people.length).map((row) => row[2])).toEqual(
    people.map((_, p) => complianceColour(...tally(personRow(p)))),
  );
  // The colours are the rules': no cell of the people's rows has one of its own.
  expect(sheet.backgrounds(`A4:${columnLetters(3 + trainings.length)}${3 + people.length}`).flat()).toEqual(
    new Array(people.length * (3 + trainings.length)).fill(null),
  );
  // The legend and the header stay in sight.
  expect(sheet.frozenRows).toBe(3);
  expect(sheet.frozenColumns).toBe(2);
}

describe('the training tabs after an import, and after the manager fills in the catalogue', () => {
  let harness: AddonHarness;
  let data: DatasetData;
  let trainings: string[];
  const rules = new Map<string, Rule>();

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { seed: 61, completions: 1_500, users: 30, trainings: 8 },
      timeZone: TIME_ZONE,
      emulator: { startTime: NOW },
    });
    harness.connect();
    importAll(harness);
    data = await harness.dataset.data();
    trainings = trainingsInListOrder(data);
  });
  afterAll(() => harness.done());

  test('the import writes the catalogue: every training id, the people who did it, the last completion', () => {
    const shown = harness.displayed(CATALOGUE);
    expect(shown[0]).toEqual([
      'Training ID',
      'People',
      'Last completed',
      'Name',
      'Validity (months)',
      'Required',
      'Expiring window (days)',
    ]);
    expect(shown.slice(1)).toEqual(
      trainings.map((training) => {
        const records = data.completions.filter((record) => record.training_id === training);
        const last = Math.max(...records.map((record) => Number(record.dateNumber)));
        return [training, String(new Set(records.map((r) => r.user_id)).size), isoOf(last), '', '', '', ''];
      }),
    );
    // The four columns the manager fills in look like inputs, the imported three do not.
    const sheet = tab(harness, CATALOGUE);
    const rows = trainings.length + 1;
    expect(sheet.backgrounds(`A1:G${rows}`)).toEqual(
      Array.from({ length: rows }, () => [null, null, null, ...new Array<string>(4).fill(INPUT_BACKGROUND)]),
    );
    expect(sheet.notes('A1:G1')[0]).toEqual([
      '',
      '',
      '',
      ...new Array<string>(4).fill(
        expect.stringMatching(/^You fill this in: Name, Validity \(months\), Required/),
      ),
    ]);
  });

  test('with nothing filled in, the matrix and the list follow the special expirations alone', () => {
    const expectedMatrix = oracle(data, trainings, rules);
    expectMatrix(harness, expectedMatrix);
    expectExpiring(harness, expectedMatrix);
  });

  test('after the catalogue is filled in and reordered, "Show training status" follows it', () => {
    const [first, second, third, fourth] = trainings;
    // Moved to the top: the matrix's columns follow the catalogue's order.
    const order = [third!, first!, ...trainings.filter((id) => id !== first && id !== third)];
    const typed: Record<string, unknown[]> = {
      [first!]: ['Forklift', 24, 'yes', ''],
      // Typed with a leading apostrophe, as Sheets needs to take it as text.
      [second!]: ["'=Ladder", '36', true, 400],
      [third!]: ['First aid', 12, 'No', 90],
      [fourth!]: ['', '', 'Y', ''],
    };
    const rows = order.map((id) => {
      const shown = harness.displayed(CATALOGUE).find((row) => row[0] === id)!;
      return [id, Number(shown[1]), shown[2], ...(typed[id] ?? ['', '', '', ''])];
    });
    // The user moves rows by retyping them, which is all a sort or a drag does to the values.
    workbook(harness).typeValues(`${CATALOGUE}!A2:G${rows.length + 1}`, rows);
    for (const [id, [name, validity, required, window]] of Object.entries(typed)) {
      rules.set(id, {
        name: String(name).replace(/^'/, ''),
        validityMonths: validity === '' ? null : Number(validity),
        required: required === true || /^y/i.test(String(required)),
        expiringDays: window === '' ? 30 : Number(window),
      });
    }
    trainings = order;
    harness.emulator.counter.reset();
    harness.emulator.urlFetch.requests.length = 0;
    harness.clickMenu(SHOW);
    expect(workbook(harness).ui.alerts).toEqual([]);
    expect(harness.emulator.urlFetch.requests).toHaveLength(0);
    const expectedMatrix = oracle(data, trainings, rules);
    const statuses = new Set(expectedMatrix.cells.flat().map((cell) => cell.status));
    expect([...statuses].sort()).toEqual(['Expired', 'Expiring', 'Not done', 'Valid', 'Valid (no expiry)']);
    expectMatrix(harness, expectedMatrix);
    const listed = expectExpiring(harness, expectedMatrix);
    // Every part of the order is there: expiring, recent lapses, the heading and older lapses.
    expect(
      new Set(listed.map((entry) => (entry === null ? 'heading' : groupOf(entry.cell.daysLeft!)))),
    ).toEqual(new Set([0, 1, 'heading', 2]));
    expect(harness.displayed(CATALOGUE)[0]!.slice(3)).toEqual([
      'Name',
      'Validity (months)',
      'Required',
      'Expiring window (days)',
    ]);
  });

  test('SAFETY_TRAINING_STATUS and SAFETY_TRAINING_EXPIRY answer from the tabs, today or as of another day, with no request', () => {
    const people = oracle(data, trainings, rules).people.map((person) => [person.id]);
    const recordsOf = (userId: string, training: string) =>
      data.completions.filter((record) => record.user_id === userId && record.training_id === training);
    const ruleOf = (training: string) =>
      rules.get(training) ?? { name: '', validityMonths: null, required: false, expiringDays: 30 };
    const inZone = (value: unknown) =>
      value instanceof Date ? new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(value) : value;
    const before = harness.emulator.urlFetch.requests.length;
    for (const training of trainings.slice(0, 4)) {
      for (const day of [today(), '2022-03-01']) {
        const asOf = day === today() ? undefined : day;
        const result = harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_TRAINING_STATUS', [
          people,
          training,
          asOf,
        ]);
        expect(result).toEqual({
          value: people.map(([id]) => [expected(recordsOf(id!, training), ruleOf(training), day).status]),
        });
      }
      const expiry = harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_TRAINING_EXPIRY', [
        people,
        training,
      ]);
      expect('value' in expiry && (expiry.value as unknown[][]).map(([cell]) => inZone(cell))).toEqual(
        people.map(([id]) => {
          const cell = expected(recordsOf(id!, training), ruleOf(training), today());
          return cell.expiry ?? cell.status;
        }),
      );
    }
    expect(harness.emulator.urlFetch.requests.length).toBe(before);
    expect(harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_TRAINING_STATUS', [])).toEqual({
      error: 'SAFETY_TRAINING_STATUS: user_id is required: a user id, or a range of them',
    });
    expect(
      harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_TRAINING_STATUS', [
        'u1',
        'x',
        'someday',
      ]),
    ).toEqual({
      error:
        'SAFETY_TRAINING_STATUS: as_of is not a date: "someday". Give a date cell, DATE(2024, 3, 1) or "2024-03-01"',
    });
  });

  test('the typed cells stay beside their training across Refresh all, Reconcile and an import with a filter', async () => {
    const typedCells = () =>
      new Map(
        harness
          .displayed(CATALOGUE)
          .slice(1)
          .map((row) => [row[0], row.slice(3)] as const),
      );
    const before = typedCells();
    await harness.dataset.mutate({ addCompletions: 40 });
    harness.clickMenu('Refresh all');
    harness.clickMenu('Reconcile completed trainings');
    data = await harness.dataset.data();
    const added = trainingsInListOrder(data).filter((id) => !trainings.includes(id));
    trainings = [...trainings, ...added];
    for (const [id, cells] of before) expect(typedCells().get(id)).toEqual(cells);
    expectMatrix(harness, oracle(data, trainings, rules));

    // Only one training's completions: the others leave the catalogue unless the manager typed on their row.
    const [kept] = trainings;
    importAll(harness, { training_id: kept! });
    const filtered = {
      ...data,
      completions: data.completions.filter((record) => record.training_id === kept),
    };
    const remaining = trainings.filter((id) => id === kept || rules.has(id));
    expect(
      harness
        .displayed(CATALOGUE)
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(remaining);
    for (const id of remaining) expect(typedCells().get(id)).toEqual(before.get(id));
    const expectedMatrix = oracle(filtered, remaining, rules);
    expectMatrix(harness, expectedMatrix);
    expectExpiring(harness, expectedMatrix);
  });
});

test('a cell of the catalogue that is not what its column asks for is refused, and nothing changes', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 62, completions: 200, users: 10, trainings: 4 },
    emulator: { startTime: NOW },
  });
  harness.connect();
  importAll(harness);
  workbook(harness).typeValues(`${CATALOGUE}!E2`, [['two years']]);
  const matrixBefore = harness.displayed(MATRIX);
  harness.clickMenu(SHOW);
  const [alert] = workbook(harness).ui.alerts;
  expect(alert!.title).toBe('Safety Sync: Show training status failed');
  expect(alert!.message).toMatch(
    /^1 cell of the "Trainings" tab Safety Sync cannot read: row 2 \(training [^)]+\): "Validity \(months\)" is "two years"; enter a whole number of months such as 12, or leave it empty if the training never expires\. Correct them and choose Safety Sync → Show training status\.$/,
  );
  expect(harness.displayed(MATRIX)).toEqual(matrixBefore);
  await harness.done();
});

test('training tabs too large for the spreadsheet are refused with how to narrow it; the import itself is kept', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 63, completions: 300, users: 10, trainings: 4 },
    emulator: { startTime: NOW },
  });
  harness.connect();
  // Someone's archive leaves room for the completions' new tab and a little more, not for three more tabs.
  const used = workbook(harness)
    .sheets()
    .reduce((cells, sheet) => cells + sheet.maxRows * sheet.maxColumns, 0);
  workbook(harness).addSheet('Archive', { rows: 10_000_000 - used - 26_000 - 30_000, columns: 1 });
  const step = harness.callServer('startCompletionsImport', {});
  expect(step.done).toBe(true);
  expect(step.summary).toMatch(
    /^Imported 300 completed trainings .* The training tabs were not updated: "Trainings", "Training matrix", "People", "Requirements", "Exemptions" would take this spreadsheet to [\d,]+ cells, but Google Sheets allows 10 million cells per spreadsheet\. Narrow the completions with a user or training filter \(Safety Sync → Import completed trainings…\), or import them into a new spreadsheet\. \(\d+ requests, \d+ s\)$/,
  );
  expect(harness.displayed(COMPLETIONS_TAB)).toHaveLength(301);
  expect(workbook(harness).sheetNames).not.toContain(CATALOGUE);
  expect(workbook(harness).sheetNames).not.toContain(MATRIX);
  expect(workbook(harness).sheetNames).not.toContain(EXPIRING);
  await harness.done();
});

test('"Show training status" costs the same Spreadsheet calls whatever the number of completions, and no request', async () => {
  const callsFor = async (completions: number) => {
    const harness = await createAddonHarness({
      dataset: { seed: 64, completions, users: 40, trainings: 10 },
      emulator: { startTime: NOW },
    });
    harness.connect();
    importAll(harness);
    harness.emulator.counter.reset();
    harness.emulator.urlFetch.requests.length = 0;
    harness.clickMenu(SHOW);
    expect(harness.emulator.urlFetch.requests).toHaveLength(0);
    const calls = spreadsheetServiceCalls(harness.emulator.counter.snapshot());
    await harness.done();
    return calls;
  };
  const small = await callsFor(500);
  expect(await callsFor(8_000)).toEqual(small);
});

test('a column added on Expiring trainings stays beside its pair, and beside the heading, as days pass and pairs change group', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 65, completions: 400, users: 15, trainings: 5 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
  });
  harness.connect();
  importAll(harness);
  const data = await harness.dataset.data();
  const trainings = trainingsInListOrder(data);
  // Every training valid for a year: a few pairs in each group.
  const rules = new Map<string, Rule>(
    trainings.map((training) => [
      training,
      { name: '', validityMonths: 12, required: false, expiringDays: 30 },
    ]),
  );
  workbook(harness).typeValues(
    `${CATALOGUE}!E2:E${trainings.length + 1}`,
    trainings.map(() => [12]),
  );
  harness.clickMenu(SHOW);
  const before = expectExpiring(harness, oracle(data, trainings, rules));
  // The manager adds a column and fills it on every row, the heading's included.
  const width = harness.displayed(EXPIRING)[0]!.length;
  const column = columnLetters(width + 1);
  const typed = new Map(before.map((entry, index) => [listedKey(entry), `Booked ${index + 1}`]));
  workbook(harness).typeValues(`${EXPIRING}!${column}1:${column}${before.length + 1}`, [
    ['Booked on'],
    ...before.map((entry) => [typed.get(listedKey(entry))]),
  ]);

  const later = NOW + 45 * 86_400_000;
  harness.emulator.clock.advance(later - NOW);
  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts).toEqual([]);
  const after = expectExpiring(harness, oracle(data, trainings, rules, today(later)));
  const groupOfPair = (list: (Listed | null)[]) =>
    new Map(
      list.flatMap((entry) => (entry === null ? [] : [[listedKey(entry), groupOf(entry.cell.daysLeft!)]])),
    );
  const [groupsBefore, groupsAfter] = [groupOfPair(before), groupOfPair(after)];
  // Pairs moved: expiring ones lapsed, recent lapses became older ones.
  expect([...groupsBefore].filter(([pair, group]) => groupsAfter.get(pair) !== group).length).toBeGreaterThan(
    0,
  );
  expect(after).toContain(null);
  const booked = harness.displayed(EXPIRING).map((row) => row[width]!);
  expect(booked[0]).toBe('Booked on');
  expect(booked.slice(1)).toEqual(after.map((entry) => typed.get(listedKey(entry)) ?? ''));
  await harness.done();
});

test('after Import completed trainings…, Show training status makes the Overview with when the completions were read', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 66, completions: 300, users: 10, trainings: 4 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
  });
  harness.connect();
  const importStarted = harness.emulator.clock.now();
  importAll(harness);
  const importEnded = harness.emulator.clock.now();
  // The full import writes no Overview of its own.
  expect(workbook(harness).sheetNames).not.toContain('Overview');
  harness.emulator.clock.advance(2 * 3_600_000);
  harness.clickMenu(SHOW);
  const [label, refreshed] = tab(harness, 'Overview').displayValues('A2:B2')[0]!;
  expect(label).toBe('Last refreshed');
  const bounds = [dateTimeIn(importStarted, TIME_ZONE), refreshed!, dateTimeIn(importEnded, TIME_ZONE)];
  expect([...bounds].sort()).toEqual(bounds);
  await harness.done();
});

/** The day the add-on recorded that the training tabs hold, as kept in the document state a digest reads. */
function computedDay(harness: AddonHarness): string | null {
  const item = workbook(harness)
    .developerMetadata()
    .find((entry) => entry.key === 'safetySync.trainingTabsComputed');
  return item ? (JSON.parse(item.value!) as { day: string }).day : null;
}

test('the training tabs record the day they hold; a run that cannot recompute them leaves the day before', async () => {
  // 6,000 records over a slow network: a full read stages some pages and continues in the next execution.
  const harness = await createAddonHarness({
    dataset: { seed: 67, completions: 6_000, users: 20, trainings: 4 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW, urlFetchRoundTripMs: 60_000 },
  });
  harness.connect();
  harness.useBatchSize(1);
  importAll(harness);
  const firstDay = today(harness.emulator.clock.now());
  expect(computedDay(harness)).toBe(firstDay);

  harness.emulator.clock.advance(86_400_000);
  // A Validity the add-on refuses: the tabs keep yesterday's statuses, and say so.
  workbook(harness).typeValues(`${CATALOGUE}!E2`, [['two years']]);
  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts).toHaveLength(1);
  expect(computedDay(harness)).toBe(firstDay);

  // A full read that continues into the next execution has not recomputed them yet.
  workbook(harness).typeValues(`${CATALOGUE}!E2`, [['']]);
  let step = harness.callServer('startCompletionsImport', {});
  expect(step.done).toBe(false);
  expect(computedDay(harness)).toBe(firstDay);
  while (!step.done) step = harness.callServer('continueCompletionsImport');
  expect(computedDay(harness)).toBe(today(harness.emulator.clock.now()));
  expect(computedDay(harness)).not.toBe(firstDay);
  await harness.done();
});

test('an Expiring trainings tab made before the Required column gets it after Training, the user’s cells beside their pairs', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 68, completions: 300, users: 10, trainings: 4 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
  });
  harness.connect();
  importAll(harness);
  const trainings = trainingsInListOrder(await harness.dataset.data());
  // Every training valid for a year, the first one required.
  workbook(harness).typeValues(
    `${CATALOGUE}!E2:F${trainings.length + 1}`,
    trainings.map((_, index) => [12, index === 0 ? 'yes' : '']),
  );
  harness.clickMenu(SHOW);
  // The tab as the previous layout made it: no Required column; the manager adds one of theirs.
  const sheet = tab(harness, EXPIRING);
  const [shownTitles] = harness.displayed(EXPIRING);
  sheet.deleteColumns(shownTitles!.indexOf('Required') + 1);
  const [oldTitles, ...oldRows] = harness.displayed(EXPIRING);
  const userColumn = columnLetters(oldTitles!.length + 1);
  const pairOf = (titles: string[], row: string[]) =>
    row[titles.indexOf('User ID')] === OLDER_LAPSES_HEADING
      ? 'heading'
      : `${row[titles.indexOf('User ID')]}\n${row[titles.indexOf('Training ID')]}`;
  const typed = new Map(oldRows.map((row, index) => [pairOf(oldTitles!, row), `Reminder ${index + 1}`]));
  workbook(harness).typeValues(`${EXPIRING}!${userColumn}1:${userColumn}${oldRows.length + 1}`, [
    ['Reminder sent'],
    ...oldRows.map((row) => [typed.get(pairOf(oldTitles!, row))]),
  ]);
  sheet.setNote(`${userColumn}2`, 'Called on Monday');
  const notedPair = pairOf(oldTitles!, oldRows[0]!);

  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts).toEqual([]);
  const [titles, ...rows] = harness.displayed(EXPIRING);
  const afterTraining = oldTitles!.indexOf('Training') + 1;
  expect(titles).toEqual([
    ...oldTitles!.slice(0, afterTraining),
    'Required',
    ...oldTitles!.slice(afterTraining),
    'Reminder sent',
  ]);
  const required = titles!.indexOf('Required');
  const reminder = titles!.indexOf('Reminder sent');
  expect(rows.length).toBe(oldRows.length);
  const notes = sheet.notes();
  rows.forEach((row, index) => {
    const pair = pairOf(titles!, row);
    expect(row[reminder]).toBe(typed.get(pair));
    expect(notes[index + 1]?.[reminder] ?? '').toBe(pair === notedPair ? 'Called on Monday' : '');
    if (pair === 'heading') return expect(row[required]).toBe('');
    const training = row[titles!.indexOf('Training ID')];
    expect(row[required]).toBe(training === trainings[0] ? 'Yes' : 'No');
  });
  expect(new Set(rows.map((row) => row[required]))).toEqual(new Set(['Yes', 'No', '']));
  // The status colours moved with their column: none is left on the column now beside it.
  const status = columnLetters(titles!.indexOf('Status') + 1);
  expect(
    sheet
      .conditionalRules()
      .flatMap((rule) => rule.ranges)
      .map((range) => range.replace(/\d+/g, '')),
  ).toEqual([`${status}:${status}`, `${status}:${status}`]);

  // The manager moves the add-on's Required column to the far right, and Training to the front:
  // both are found by their titles, like any column the add-on has.
  const requiredColumn = titles!.indexOf('Required') + 1;
  sheet.moveColumns(requiredColumn, 1, titles!.length + 1);
  sheet.moveColumns(titles!.indexOf('Training') + 1, 1, 1);
  const [movedTitles] = harness.displayed(EXPIRING);
  expect(movedTitles!.at(-1)).toBe('Required');
  expect(movedTitles![0]).toBe('Training');
  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts).toEqual([]);
  const [afterTitles, ...afterRows] = harness.displayed(EXPIRING);
  expect(afterTitles).toEqual(movedTitles);
  for (const row of afterRows) {
    if (pairOf(afterTitles!, row) === 'heading') continue;
    const training = row[afterTitles!.indexOf('Training ID')];
    expect(row.at(-1)).toBe(training === trainings[0] ? 'Yes' : 'No');
  }
  await harness.done();
});

test('a column of the manager’s titled Required, on an Expiring trainings tab the add-on never gave one, is refused, not adopted', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 69, completions: 200, users: 8, trainings: 3 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
    // The tab as an earlier version left it: its later columns were never the add-on's.
    userScript: `
      function forgetLaterColumns_() {
        SpreadsheetApp.getActiveSpreadsheet().getDeveloperMetadata().forEach(function (item) {
          if (item.getKey() === 'safetySync.laterColumns') item.remove();
        });
      }`,
  });
  harness.connect();
  importAll(harness);
  harness.clickMenu(SHOW);
  const sheet = tab(harness, EXPIRING);
  const [titles] = harness.displayed(EXPIRING);
  sheet.deleteColumns(titles!.indexOf('Required') + 1);
  harness.emulator.run('forgetLaterColumns_', [], { spreadsheetId: harness.spreadsheetId });
  const userColumn = columnLetters(titles!.length);
  workbook(harness).typeValues(`${EXPIRING}!${userColumn}1:${userColumn}2`, [['Required'], ['ask Sam']]);
  const before = harness.displayed(EXPIRING);

  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts.at(-1)?.message).toContain(
    'has a column of yours titled Required, which Safety Sync now adds: rename yours (for example to Required (mine)) and run again.',
  );
  expect(harness.displayed(EXPIRING)).toEqual(before);
  await harness.done();
});
