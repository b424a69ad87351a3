/**
 * Compliance history end to end: the built add-on in the emulator, importing from the sample service,
 * in Pacific/Auckland (12 to 13 hours ahead of UTC, so its months turn while UTC's have not). Every
 * row is computed here from the service's records by the tests' own rules (training-oracle.ts), as
 * of each month's last day: the first run's backfill, the month a run closes, and the months later
 * runs leave alone whatever the catalogue becomes.
 */
import type { AddonHarness } from '../support/addon-harness';
import { createAddonHarness } from '../support/addon-harness';
import type { DatasetData } from '../support/sample-service';
import { expected, type Rule } from '../support/training-oracle';
import { syncLog } from '../support/equipment-tabs';
import { userActions } from '../support/user-actions';
import {
  CATALOGUE,
  importAll,
  SHOW,
  tab,
  TIME_ZONE,
  today,
  trainingsInListOrder,
  workbook,
} from './training-tabs-expected';

const HISTORY = 'Compliance history';
const HEADER = [
  'Month',
  'Scope',
  'Name',
  'Valid',
  'Expiring',
  'Expired',
  'Not done',
  'Counted',
  'Compliance',
  'Basis',
];
/** 21 September 2024 in Auckland. */
const FIRST_RUN = Date.UTC(2024, 8, 20, 15, 30);
/** 30 September 2024, 13:00 UTC: 1 October, 02:00 in Auckland (NZDT since 29 September). */
const NEXT_MONTH = Date.UTC(2024, 8, 30, 13, 0);

/** The last day of a month ("2024-02"), by Date.UTC: 2024-02-29. */
function lastDayOf(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, number!, 0)).toISOString().slice(0, 10);
}

function monthsFrom(first: string, count: number): string[] {
  const [year, number] = first.split('-').map(Number);
  return Array.from({ length: count }, (_, offset) =>
    new Date(Date.UTC(year!, number! - 1 + offset, 1)).toISOString().slice(0, 7),
  );
}

type Counts = [valid: number, expiring: number, expired: number, notDone: number, counted: number];

/**
 * The rows a month has as of `day`: everyone the completions name (nobody filled in People or
 * Requirements), a pair counted when its training is Required or it was done by then.
 */
function expectedMonth(
  data: DatasetData,
  trainings: readonly string[],
  rules: ReadonlyMap<string, Rule>,
  month: string,
  day: string,
): unknown[][] {
  const people = [...new Set(data.completions.map((record) => record.user_id))];
  const ruleOf = (training: string) =>
    rules.get(training) ?? { name: '', validityMonths: null, required: false, expiringDays: 30 };
  const tally = (pairs: [string, string][]): Counts => {
    const counts: Counts = [0, 0, 0, 0, 0];
    for (const [person, training] of pairs) {
      const records = data.completions.filter((r) => r.user_id === person && r.training_id === training);
      const cell = expected(records, ruleOf(training), day);
      if (!ruleOf(training).required && cell.latest === null) continue;
      counts[4]++;
      const slot: number = { Expiring: 1, Expired: 2, 'Not done': 3 }[cell.status] ?? 0;
      counts[slot]!++;
    }
    return counts;
  };
  const pairs = people.flatMap((person) => trainings.map((training): [string, string] => [person, training]));
  const row = (scope: string, name: string, [valid, expiring, expired, notDone, counted]: Counts) => [
    month,
    scope,
    name,
    valid,
    expiring,
    expired,
    notDone,
    counted,
    counted === 0 ? '' : (valid + expiring) / counted,
  ];
  return [
    row('Overall', 'All trainings', tally(pairs)),
    row('Required', 'Required trainings', tally(pairs.filter(([, training]) => ruleOf(training).required))),
    ...trainings.map((training) =>
      row('Training', ruleOf(training).name || training, tally(pairs.filter(([, t]) => t === training))),
    ),
  ];
}

/** The tab's rows as values, without the Basis and the hidden key. */
function figures(harness: AddonHarness): unknown[][] {
  const sheet = tab(harness, HISTORY);
  return sheet.values(`A2:I${sheet.lastRow}`);
}

function bases(harness: AddonHarness): string[] {
  const sheet = tab(harness, HISTORY);
  return sheet.values(`J2:J${sheet.lastRow}`).map(([basis]) => String(basis));
}

describe('Compliance history over a month turn in a zone far ahead of UTC', () => {
  let harness: AddonHarness;
  let data: DatasetData;
  let trainings: string[];
  const rules = new Map<string, Rule>();
  /** The rows of the 24 months the first run backfilled, as they were then. */
  let backfilled: unknown[][];

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { seed: 71, completions: 1_200, users: 25, trainings: 5 },
      timeZone: TIME_ZONE,
      emulator: { startTime: FIRST_RUN },
    });
    harness.connect();
    importAll(harness);
    data = await harness.dataset.data();
    trainings = trainingsInListOrder(data);
  });
  afterAll(() => harness.done());

  test('the first run backfills the 24 months before this one, each as of its last day (29 February in 2024)', () => {
    expect(today(FIRST_RUN)).toBe('2024-09-21');
    expect(harness.displayed(HISTORY)[0]).toEqual([...HEADER, 'Row key']);
    const months = monthsFrom('2022-09', 24);
    const expectedRows = [
      ...months.flatMap((month) => expectedMonth(data, trainings, rules, month, lastDayOf(month))),
      ...expectedMonth(data, trainings, rules, '2024-09', '2024-09-21'),
    ];
    expect(figures(harness)).toEqual(expectedRows);
    const perMonth = trainings.length + 2;
    expect(bases(harness)).toEqual([
      ...months.flatMap((month) =>
        new Array<string>(perMonth).fill(
          `Backfilled 2024-09-21 as of ${lastDayOf(month)}: completions deleted since and tab edits since are not known`,
        ),
      ),
      ...new Array<string>(perMonth).fill('So far, as of 2024-09-21'),
    ]);
    expect(bases(harness)).toContain(
      'Backfilled 2024-09-21 as of 2024-02-29: completions deleted since and tab edits since are not known',
    );
    // The figures are numbers a chart or a formula reads; the share shows as a percentage.
    const shown = harness.displayed(HISTORY);
    const firstCounted = shown.findIndex((row, index) => index > 0 && row[8] !== '');
    expect(shown[firstCounted]![8]).toMatch(/^\d{1,3}\.\d%$/);
    backfilled = figures(harness).slice(0, months.length * perMonth);
    // The run's line in the Sync log says what the backfill did, once.
    const said = syncLog(harness).filter((line) => line.join(' ').includes('Compliance history:'));
    expect(said).toHaveLength(1);
    expect(said[0]!.join(' ')).toContain(
      'Compliance history: backfilled 24 months, 2022-09 to 2024-08 from the completions this workbook holds.',
    );
  });

  test('the Overview charts Overall and Required compliance per month, read from the history', () => {
    // The import writes the numbers of an Overview that exists; Show training status makes it.
    harness.clickMenu(SHOW);
    const overview = tab(harness, 'Overview');
    const shown = overview.displayValues('N1:P30');
    expect(shown[0]).toEqual(['Compliance per month (Compliance history)', '', '']);
    expect(shown[5]).toEqual(['Month', 'Overall', 'Required']);
    const months = monthsFrom('2022-10', 24);
    const history = tab(harness, HISTORY).values();
    const shareOf = (month: string, scope: string) => {
      const share = history.find((row) => row[0] === month && row[1] === scope)![8];
      return typeof share === 'number' ? `${Math.round(100 * share)}%` : '';
    };
    const name = (month: string) =>
      new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', {
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      });
    expect(shown.slice(6)).toEqual(
      months.map((month, index) => [
        `${name(month)}${index === months.length - 1 ? ' (so far)' : ''}`,
        shareOf(month, 'Overall'),
        shareOf(month, 'Required'),
      ]),
    );
    const trend = overview.charts().filter((chart) => chart.ranges.includes('Overview!N6:P30'));
    expect(trend).toHaveLength(1);
    expect(trend[0]).toMatchObject({
      type: 'LINE',
      options: { title: 'Compliance per month, last 24 months' },
    });
  });

  test('a catalogue edit changes this month so far, never a backfilled month', () => {
    const [first, second] = trainings;
    rules.set(first!, { name: 'Forklift', validityMonths: 12, required: true, expiringDays: 30 });
    rules.set(second!, { name: '', validityMonths: 6, required: false, expiringDays: 60 });
    const row = (id: string) => trainings.indexOf(id) + 2;
    workbook(harness).typeValues(`${CATALOGUE}!D${row(first!)}:G${row(first!)}`, [
      ['Forklift', 12, 'Yes', 30],
    ]);
    workbook(harness).typeValues(`${CATALOGUE}!E${row(second!)}:G${row(second!)}`, [[6, 'No', 60]]);
    harness.clickMenu(SHOW);
    expect(workbook(harness).ui.alerts).toEqual([]);
    const rows = figures(harness);
    expect(rows.slice(0, backfilled.length)).toEqual(backfilled);
    expect(rows.slice(backfilled.length)).toEqual(
      expectedMonth(data, trainings, rules, '2024-09', '2024-09-21'),
    );
    // Forklift is required now: this month's Required compliance is on the Overview too.
    const required = rows.find((row) => row[0] === '2024-09' && row[1] === 'Required')![8];
    expect(typeof required).toBe('number');
    expect(tab(harness, 'Overview').values('P30')[0]![0]).toBe(required);
  });

  test('the first run of the next month records the last one as of its last day; later runs rewrite neither', () => {
    harness.emulator.clock.advance(NEXT_MONTH - harness.emulator.clock.now());
    expect(today(NEXT_MONTH)).toBe('2024-10-01');
    harness.clickMenu(SHOW);
    const september = expectedMonth(data, trainings, rules, '2024-09', '2024-09-30');
    const recorded = [...backfilled, ...september];
    expect(figures(harness)).toEqual([
      ...recorded,
      ...expectedMonth(data, trainings, rules, '2024-10', '2024-10-01'),
    ]);
    expect(bases(harness).slice(backfilled.length, recorded.length)).toEqual(
      new Array<string>(september.length).fill('Month end 2024-09-30, recorded 2024-10-01'),
    );
    // Show training status says it in its message.
    expect(workbook(harness).ui.toasts.at(-1)!.message).toMatch(
      / Compliance history: recorded 2024-09 as of its last day\.$/,
    );

    // The manager changes the catalogue again, and a manager sorts the tab newest first.
    const [first] = trainings;
    rules.set(first!, { name: 'Forklift', validityMonths: 3, required: false, expiringDays: 10 });
    workbook(harness).typeValues(
      `${CATALOGUE}!E${trainings.indexOf(first!) + 2}:G${trainings.indexOf(first!) + 2}`,
      [[3, 'No', 10]],
    );
    const user = userActions(harness);
    user.sortByFilter(HISTORY, 1, false);
    expect(figures(harness)[0]![0]).toBe('2024-10');
    harness.emulator.clock.advance(3 * 86_400_000);
    harness.clickMenu(SHOW);
    expect(workbook(harness).ui.alerts).toEqual([]);
    expect(figures(harness)).toEqual([
      ...recorded,
      ...expectedMonth(data, trainings, rules, '2024-10', '2024-10-04'),
    ]);
  });
});
