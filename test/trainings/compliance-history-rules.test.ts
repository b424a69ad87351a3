/**
 * Compliance history's rules in Node (src/trainings/compliance-history.ts), each case worked out by
 * hand beside it: which months a run records and how it labels them, what it never rewrites, how a
 * large workbook's backfill goes on over runs, who counts as of a month's last day, and the scopes.
 */
import { type CalendarDate, fromIsoDate } from '../../src/lib/dates';
import type { CellValue } from '../../src/sheets/table';
import type { TabRecord } from '../../src/sheets/tab-content';
import type { CatalogueEntry } from '../../src/trainings/catalogue';
import {
  complianceTrend,
  HISTORY_COLUMN,
  HISTORY_STATUSES_PER_RUN,
  historyUpdate,
  matrixAsOf,
  scopeFigures,
} from '../../src/trainings/compliance-history';
import type { CompletionRow } from '../../src/trainings/completions-tab';
import type { RosterEntry } from '../../src/trainings/people';
import { person } from './roster-fixtures';

const day = (iso: string) => fromIsoDate(iso)!;

function done(userId: string, trainingId: string, completed: string): CompletionRow {
  return {
    userId,
    userName: userId,
    trainingId,
    completed: day(completed) as CalendarDate,
    specialExpiration: null,
    created: 0,
    row: 2,
  };
}

/** Valid for 12 months, expiring within 30 days of its expiry, required of everyone. */
const FORKLIFT: CatalogueEntry = {
  trainingId: 'T1',
  name: 'Forklift',
  validityMonths: 12,
  required: true,
  expiringDays: 30,
};

function sourcesOf(roster: RosterEntry[], completions: CompletionRow[], trainings = [FORKLIFT]) {
  return {
    completions,
    trainings,
    roster,
    requirements: [],
    exemptions: new Map<string, string>(),
  };
}

/** A run over `records` on `today`, with a matrix of one person and one training. */
function run(records: TabRecord[], today: string, earliest: string | null = '2020-01-01', pairs = 1) {
  const sources = sourcesOf([person({ userId: 'U1' })], [done('U1', 'T1', '2024-01-15')]);
  return historyUpdate(records, (asOf) => matrixAsOf(sources, asOf), {
    today: day(today),
    earliest: earliest === null ? null : day(earliest),
    pairs,
  });
}

/** The tab's records as a run reads them back: each row's table cells and key. */
function recordsOf(rows: CellValue[][]): TabRecord[] {
  return rows.map((row) => ({
    key: String(row[HISTORY_COLUMN.key]),
    table: [...row],
    hasUserContent: false,
  }));
}

const monthsOf = (rows: CellValue[][]) => [...new Set(rows.map((row) => row[HISTORY_COLUMN.month]))];
const basisOf = (rows: CellValue[][], month: string) =>
  rows.find((row) => row[HISTORY_COLUMN.month] === month)![HISTORY_COLUMN.basis];

test('a first run backfills the 24 months before its own, and its month so far', () => {
  const { table, recorded, backfilled, left } = run([], '2024-09-21');
  expect(recorded).toEqual(backfilled);
  expect(recorded).toHaveLength(24);
  expect(recorded[0]).toBe('2022-09');
  expect(recorded[23]).toBe('2024-08');
  expect(left).toBe(0);
  expect(monthsOf(table.rows)).toEqual([...recorded, '2024-09']);
  expect(basisOf(table.rows, '2024-02')).toBe(
    'Backfilled 2024-09-21 as of 2024-02-29: completions deleted since and tab edits since are not known',
  );
  expect(basisOf(table.rows, '2024-09')).toBe('So far, as of 2024-09-21');
});

test('a backfill starts at the month of the earliest completion; with none, only this month is recorded', () => {
  expect(run([], '2024-09-21', '2024-06-30').recorded).toEqual(['2024-06', '2024-07', '2024-08']);
  expect(run([], '2024-09-21', '2024-09-01').recorded).toEqual([]);
  const none = run([], '2024-09-21', null);
  expect(none.recorded).toEqual([]);
  expect(monthsOf(none.table.rows)).toEqual(['2024-09']);
});

test('who counts as of a month’s last day: the statuses of that day, the people started by then', () => {
  const roster = [person({ userId: 'U1' }), person({ userId: 'U2', startDate: day('2024-03-01') })];
  const sources = sourcesOf(roster, [done('U1', 'T1', '2023-02-10')]);
  const overall = (asOf: string) => scopeFigures(matrixAsOf(sources, day(asOf)))[0]!.counts;
  // U2 has not started: U1's training, done 10 Feb 2023, expires 10 Feb 2024, Expiring from 11 January.
  expect(overall('2023-12-31')).toEqual({
    compliant: 1,
    counted: 1,
    valid: 1,
    expiring: 0,
    expired: 0,
    notDone: 0,
  });
  expect(overall('2024-01-31')).toEqual({
    compliant: 1,
    counted: 1,
    valid: 0,
    expiring: 1,
    expired: 0,
    notDone: 0,
  });
  expect(overall('2024-02-29')).toEqual({
    compliant: 0,
    counted: 1,
    valid: 0,
    expiring: 0,
    expired: 1,
    notDone: 0,
  });
  // From March U2 counts too, and has not done it.
  expect(overall('2024-03-31')).toEqual({
    compliant: 0,
    counted: 2,
    valid: 0,
    expiring: 0,
    expired: 1,
    notDone: 1,
  });
});

test('the next month’s first run closes the open month as of its last day, and keeps every recorded row as it is', () => {
  const first = run([], '2024-09-21', '2024-07-05');
  // The manager's copy of the figures, however they changed them, stays theirs.
  const rows = first.table.rows.map((row) => [...row]);
  rows[0]![HISTORY_COLUMN.valid] = 99;
  const next = run(recordsOf(rows), '2024-10-02');
  expect(next.recorded).toEqual(['2024-09']);
  expect(next.backfilled).toEqual([]);
  expect(next.table.rows.slice(0, 2)).toEqual(rows.slice(0, 2));
  expect(basisOf(next.table.rows, '2024-09')).toBe('Month end 2024-09-30, recorded 2024-10-02');
  expect(monthsOf(next.table.rows)).toEqual(['2024-07', '2024-08', '2024-09', '2024-10']);
});

test('months no run saw are recorded by the next run, labelled as backfilled; rows read out of order come back in month order', () => {
  const first = run([], '2024-06-10', '2024-05-01');
  const shuffled = [...first.table.rows].reverse();
  const later = run(recordsOf(shuffled), '2024-09-03');
  expect(later.recorded).toEqual(['2024-06', '2024-07', '2024-08']);
  // June was open when the last run saw it; July and August no run saw.
  expect(later.backfilled).toEqual(['2024-07', '2024-08']);
  expect(basisOf(later.table.rows, '2024-06')).toBe('Month end 2024-06-30, recorded 2024-09-03');
  expect(basisOf(later.table.rows, '2024-07')).toMatch(/^Backfilled 2024-09-03 as of 2024-07-31: /);
  expect(monthsOf(later.table.rows)).toEqual(['2024-05', '2024-06', '2024-07', '2024-08', '2024-09']);
});

test('rows without a key the add-on wrote are not history: the run leaves them out', () => {
  const first = run([], '2024-09-21', '2024-08-01');
  const keys = [
    'my notes',
    '"2024-08"',
    '["2024-08","Overall"]',
    '["2024-08","Overall","",""]',
    '["2024-08","Overall",3]',
    '["2024-08-01","Overall",""]',
    '["x2024-08","Overall",""]',
    '{"0":"2024-08","1":"Overall","2":"","length":3}',
  ];
  const typed = keys.map((key): TabRecord => ({ key, table: ['2024-08', 'Mine'], hasUserContent: true }));
  const next = run([...recordsOf(first.table.rows), ...typed], '2024-09-22');
  expect(next.table.rows.map((row) => row[HISTORY_COLUMN.key])).toEqual(
    first.table.rows.map((row) => row[HISTORY_COLUMN.key]),
  );
  expect(next.recorded).toEqual([]);
});

test('a history whose completions now start after its last recorded month records the months between', () => {
  const first = run([], '2024-06-10', '2024-04-02');
  expect(first.recorded).toEqual(['2024-04', '2024-05']);
  // The manager deleted June's rows, and the completions before August were deleted at the source.
  const closed = first.table.rows.filter((row) => row[HISTORY_COLUMN.month] !== '2024-06');
  const later = run(recordsOf(closed), '2024-09-10', '2024-08-03');
  expect(later.recorded).toEqual(['2024-06', '2024-07', '2024-08']);
});

test('a month already recorded is never recorded twice, this month included (a clock set back)', () => {
  const first = run([], '2024-10-02', '2024-09-01');
  expect(first.recorded).toEqual(['2024-09']);
  const back = run(recordsOf(first.table.rows), '2024-09-25');
  const september = (rows: typeof back.table.rows) =>
    rows.filter((row) => row[HISTORY_COLUMN.month] === '2024-09');
  expect(september(back.table.rows)).toEqual(september(first.table.rows));
  expect(back.recorded).toEqual([]);
});

test('a recorded row the manager copied is kept once', () => {
  const first = run([], '2024-09-21', '2024-08-01');
  const copied = first.table.rows.find((row) => row[HISTORY_COLUMN.month] === '2024-08')!;
  const next = run(recordsOf([...first.table.rows, copied]), '2024-09-22');
  expect(next.table.rows.map((row) => row[HISTORY_COLUMN.key])).toEqual(
    first.table.rows.map((row) => row[HISTORY_COLUMN.key]),
  );
});

test('rows come back with the trainings in the catalogue’s order, whatever order they were read in', () => {
  const zeta: CatalogueEntry = { ...FORKLIFT, trainingId: 'T9', name: 'Zeta' };
  const alpha: CatalogueEntry = { ...FORKLIFT, trainingId: 'T1', name: 'Alpha' };
  // Sites named like the trainings' ids, to be sure each scope keeps its own order.
  const roster = [person({ userId: 'U1', site: 'T9' }), person({ userId: 'U2', site: 'T1' })];
  const sources = sourcesOf(roster, [done('U1', 'T1', '2024-01-15')], [zeta, alpha]);
  const update = (records: TabRecord[], today: string) =>
    historyUpdate(records, (asOf) => matrixAsOf(sources, asOf), {
      today: day(today),
      earliest: day('2024-08-01'),
      pairs: 2,
    });
  const first = update([], '2024-09-21');
  const names = (rows: CellValue[][]) =>
    rows.map((row) => `${row[HISTORY_COLUMN.month]} ${row[HISTORY_COLUMN.name]}`);
  const month = (name: string) => [
    `${name} All trainings`,
    `${name} Required trainings`,
    `${name} Zeta`,
    `${name} Alpha`,
    `${name} T1`,
    `${name} T9`,
    `${name} (no department)`,
  ];
  const expected = [...month('2024-08'), ...month('2024-09')];
  expect(names(first.table.rows)).toEqual(expected);
  expect(names(update(recordsOf([...first.table.rows].reverse()), '2024-09-22').table.rows)).toEqual(
    expected,
  );
});

test('someone who starts on a month’s last day counts in that month', () => {
  const roster = [person({ userId: 'U1', startDate: day('2024-03-31') })];
  const sources = sourcesOf(roster, []);
  expect(scopeFigures(matrixAsOf(sources, day('2024-03-31')))[0]!.counts.counted).toBe(1);
  expect(scopeFigures(matrixAsOf(sources, day('2024-03-30')))[0]!.counts.counted).toBe(0);
});

test('the Overview’s trend: each month’s Overall and Required compliance, blank where the history has none', () => {
  const { table } = run([], '2024-09-21', '2024-08-01');
  const rows = table.rows.map((row) =>
    row[HISTORY_COLUMN.month] === '2024-08' && row[HISTORY_COLUMN.scope] === 'Required'
      ? Object.assign([...row], { [HISTORY_COLUMN.compliance]: '' })
      : row,
  );
  const share = (month: string, scope: string) =>
    rows.find((row) => row[HISTORY_COLUMN.month] === month && row[HISTORY_COLUMN.scope] === scope)![
      HISTORY_COLUMN.compliance
    ];
  expect(complianceTrend(rows, [day('2024-07-01'), day('2024-08-01'), day('2024-09-01')])).toEqual([
    { first: day('2024-07-01'), overall: null, required: null },
    { first: day('2024-08-01'), overall: share('2024-08', 'Overall'), required: null },
    {
      first: day('2024-09-01'),
      overall: share('2024-09', 'Overall'),
      required: share('2024-09', 'Required'),
    },
  ]);
  expect(typeof share('2024-09', 'Required')).toBe('number');
});

test('a large workbook’s backfill goes on over the next runs, oldest months first, at least one a run', () => {
  const pairs = HISTORY_STATUSES_PER_RUN / 4;
  const first = run([], '2024-09-21', '2024-01-10', pairs);
  // Four months' statuses a run: this month's and three recorded.
  expect(first.recorded).toEqual(['2024-01', '2024-02', '2024-03']);
  expect(first.left).toBe(5);
  const second = run(recordsOf(first.table.rows), '2024-09-22', '2024-01-10', pairs);
  expect(second.recorded).toEqual(['2024-04', '2024-05', '2024-06']);
  expect(second.backfilled).toEqual(second.recorded);
  expect(second.left).toBe(2);
  const huge = run([], '2024-09-21', '2024-01-10', HISTORY_STATUSES_PER_RUN * 10);
  expect(huge.recorded).toEqual(['2024-01']);
  expect(huge.left).toBe(7);
});

test('the scopes: overall, the required pairs, each training, then each site and department, the unplaced last', () => {
  const roster = [
    person({ userId: 'U1', site: 'North', department: 'Ops' }),
    person({ userId: 'U2', site: '', department: 'Ops' }),
    person({ userId: 'U3', site: 'East', department: '' }),
    person({ userId: 'U4', site: 'East', active: false }),
  ];
  const sources = sourcesOf(roster, [done('U1', 'T1', '2024-05-01'), done('U3', 'T1', '2022-01-01')]);
  const figures = scopeFigures(matrixAsOf(sources, day('2024-09-21')));
  expect(
    figures.map(({ scope, name, id, counts }) => [scope, name, id, counts.compliant, counts.counted]),
  ).toEqual([
    ['Overall', 'All trainings', '', 1, 3],
    ['Required', 'Required trainings', '', 1, 3],
    ['Training', 'Forklift', 'T1', 1, 3],
    ['Site', 'East', 'East', 0, 1],
    ['Site', 'North', 'North', 1, 1],
    ['Site', '(no site)', '', 0, 1],
    ['Department', 'Ops', 'Ops', 1, 2],
    ['Department', '(no department)', '', 0, 1],
  ]);
});
