/**
 * Compliance history under change, a seeded model test: generated sequences of runs over days and
 * month turns (a day, weeks, months, a year without a run), completions added (some dated in months
 * already recorded), catalogue edits, the manager sorting the tab, and workbooks large enough that a
 * backfill takes several runs. After each run the tab (src/trainings/compliance-history.ts, fed back
 * what it wrote, in whatever order the manager left it) must equal the oracle's: a month is counted
 * as of its last day, by the tests' own rules (training-oracle.ts), with the workbook as it was when
 * the month was recorded, and a row once recorded never changes.
 *
 * A failure prints its seed and steps; HISTORY_SEED=n replays one sequence, HISTORY_SEQUENCES=n
 * runs the first n.
 */
import { SeededRandom } from '../../dev/sample-service/random';
import type { Completion } from '../../dev/sample-service/dataset';
import type { CalendarDate } from '../../src/lib/dates';
import type { CellValue } from '../../src/sheets/table';
import type { CatalogueEntry } from '../../src/trainings/catalogue';
import { historyUpdate, matrixAsOf } from '../../src/trainings/compliance-history';
import type { CompletionRow } from '../../src/trainings/completions-tab';
import { sequenceSeeds } from '../support/seeded-random';
import { expected, type Rule } from '../support/training-oracle';
import { person } from './roster-fixtures';

const SEQUENCES = 250;
/** The tab's columns, as the user guide lists them (the key hidden last). */
const HISTORY_COLUMN = { month: 0, compliance: 8, basis: 9, key: 10 } as const;
/** The statuses a run computes for the months it records, at most (docs/admin.md, Limits). */
const HISTORY_STATUSES_PER_RUN = 1_000_000;

/** Days since 1970-01-01, as the add-on counts a date. */
const fromIsoDate = (iso: string) => (Date.parse(`${iso}T00:00:00Z`) / 86_400_000) as CalendarDate;
const RUNS = 14;
const BACKFILL = 24;

/** "2024-03" → months since year 0, and back: the tests' own month arithmetic. */
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthAt = (index: number) =>
  `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
function lastDayOf(month: string): string {
  const index = monthIndex(month);
  return new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)).toISOString().slice(0, 10);
}
const isoPlusDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface Workbook {
  people: string[];
  trainings: string[];
  rules: Map<string, Rule>;
  completions: Completion[];
}

/** One month's rows as the oracle counts them on `day`: value cells, Month to Compliance. */
function oracleMonth(workbook: Workbook, month: string, day: string): CellValue[][] {
  const byPair = new Map<string, Completion[]>();
  for (const record of workbook.completions) {
    const pair = `${record.user_id}\n${record.training_id}`;
    byPair.set(pair, [...(byPair.get(pair) ?? []), record]);
  }
  const tally = (pairs: [string, string][]) => {
    const counts = [0, 0, 0, 0, 0];
    for (const [who, training] of pairs) {
      const rule = workbook.rules.get(training)!;
      const records = byPair.get(`${who}\n${training}`) ?? [];
      const cell = expected(records, rule, day);
      if (!rule.required && cell.latest === null) continue;
      counts[4]!++;
      counts[{ Expiring: 1, Expired: 2, 'Not done': 3 }[cell.status] ?? 0]!++;
    }
    const [valid, expiring, expired, notDone, counted] = counts as [number, number, number, number, number];
    return [valid, expiring, expired, notDone, counted, counted === 0 ? null : (valid + expiring) / counted];
  };
  const pairs = workbook.people.flatMap((who) => workbook.trainings.map((t): [string, string] => [who, t]));
  return [
    [month, 'Overall', 'All trainings', ...tally(pairs)],
    [
      month,
      'Required',
      'Required trainings',
      ...tally(pairs.filter(([, t]) => workbook.rules.get(t)!.required)),
    ],
    ...workbook.trainings.map((t) => [
      month,
      'Training',
      workbook.rules.get(t)!.name || t,
      ...tally(pairs.filter(([, training]) => training === t)),
    ]),
  ];
}

type Kind = 'Backfilled' | 'Month end' | 'So far';

/** The oracle's tab: each month's rows and how they were recorded. */
interface OracleMonth {
  rows: CellValue[][];
  kind: Kind;
}

function oracleRun(
  tab: Map<string, OracleMonth>,
  workbook: Workbook,
  today: string,
  perRun: number,
): Map<string, OracleMonth> {
  const current = monthIndex(today);
  const closed = [...tab].filter(([, month]) => month.kind !== 'So far').map(([month]) => monthIndex(month));
  const open = [...tab].filter(([, month]) => month.kind === 'So far').map(([month]) => monthIndex(month));
  let start: number;
  if (closed.length > 0) start = Math.max(...closed) + 1;
  else {
    const earliest = workbook.completions.map((r) =>
      monthIndex(String(r.dateNumber).replace(/^(\d{4})(\d{2}).*/, '$1-$2')),
    );
    start = Math.max(current - BACKFILL, Math.min(current, ...earliest, ...open));
  }
  const next = new Map([...tab].filter(([, month]) => month.kind !== 'So far'));
  for (let index = start; index < current && index < start + perRun; index++) {
    const month = monthAt(index);
    next.set(month, {
      rows: oracleMonth(workbook, month, lastDayOf(month)),
      kind: open.includes(index) ? 'Month end' : 'Backfilled',
    });
  }
  next.set(monthAt(current), { rows: oracleMonth(workbook, monthAt(current), today), kind: 'So far' });
  return next;
}

const dateNumberOf = (iso: string) => Number(iso.replaceAll('-', ''));

function completionRows(workbook: Workbook): CompletionRow[] {
  return workbook.completions.map((record) => ({
    userId: record.user_id,
    userName: '',
    trainingId: record.training_id,
    completed: fromIsoDate(String(record.dateNumber).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3'))!,
    specialExpiration:
      record.specialExpirationDateNumber === undefined
        ? null
        : fromIsoDate(
            String(record.specialExpirationDateNumber).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3'),
          ),
    created: record.created,
    row: 2,
  }));
}

function catalogueOf(workbook: Workbook): CatalogueEntry[] {
  return workbook.trainings.map((trainingId) => ({ trainingId, ...workbook.rules.get(trainingId)! }));
}

function randomRule(random: SeededRandom, name: string): Rule {
  return {
    name: random.chance(0.5) ? name : '',
    validityMonths: [null, 1, 6, 12, 24][random.int(0, 4)]!,
    required: random.chance(0.5),
    expiringDays: [0, 30, 60][random.int(0, 2)]!,
  };
}

function addCompletions(random: SeededRandom, workbook: Workbook, today: string, count: number): void {
  for (let added = 0; added < count; added++) {
    const day = isoPlusDays(today, -random.int(0, 900));
    workbook.completions.push({
      user_id: workbook.people[random.int(0, workbook.people.length - 1)]!,
      training_id: workbook.trainings[random.int(0, workbook.trainings.length - 1)]!,
      created: workbook.completions.length,
      dateNumber: dateNumberOf(day),
      ...(random.chance(0.1)
        ? { specialExpirationDateNumber: dateNumberOf(isoPlusDays(day, random.int(-5, 400))) }
        : {}),
      instructor_id: '',
      groupTraining_id: '',
    });
  }
}

/** toEqual, its diff included, only where the cheap comparison finds a difference (it is the model's cost). */
function expectSame(got: unknown, wanted: unknown): void {
  if (JSON.stringify(got) !== JSON.stringify(wanted)) expect(got).toEqual(wanted);
}

const { seeds, complete } = sequenceSeeds('HISTORY', SEQUENCES);
const covered = { backfills: 0, closed: 0, overSeveralRuns: 0, kept: 0 };

test.each(seeds)(
  'seed %i: every run leaves the tab the oracle expects, and no recorded row changes',
  (seed) => {
    const random = new SeededRandom(seed, 'compliance history');
    const workbook: Workbook = {
      people: Array.from({ length: random.int(1, 5) }, (_, index) => `U${index + 1}`),
      trainings: Array.from({ length: random.int(1, 3) }, (_, index) => `T ${index + 1}`),
      rules: new Map(),
      completions: [],
    };
    for (const training of workbook.trainings)
      workbook.rules.set(training, randomRule(random, `Course ${training}`));
    let today = `20${random.int(23, 26)}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;
    addCompletions(random, workbook, today, random.int(0, 12));
    // A workbook whose pairs make a backfill take several runs, in some sequences.
    const perRun = random.chance(0.25) ? random.int(1, 3) : Infinity;
    const pairs =
      perRun === Infinity
        ? workbook.people.length * workbook.trainings.length
        : Math.floor(HISTORY_STATUSES_PER_RUN / (perRun + 1));

    let rows: CellValue[][] = [];
    let oracleTab = new Map<string, OracleMonth>();
    const recordedRows = new Map<string, CellValue[]>();
    const steps: string[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const sources = {
        completions: completionRows(workbook),
        trainings: catalogueOf(workbook),
        roster: workbook.people.map((userId) => person({ userId })),
        requirements: [],
        exemptions: new Map<string, string>(),
      };
      const earliest = sources.completions.reduce<CalendarDate | null>(
        (first, row) => (first === null || row.completed < first ? row.completed : first),
        null,
      );
      const update = historyUpdate(
        rows.map((row) => ({ key: String(row[HISTORY_COLUMN.key]), table: [...row], hasUserContent: false })),
        (day) => matrixAsOf(sources, day),
        { today: fromIsoDate(today)!, earliest, pairs },
      );
      oracleTab = oracleRun(oracleTab, workbook, today, perRun);
      steps.push(
        `run ${run} on ${today}: recorded ${update.recorded.join(' ') || 'nothing'}, ${update.left} left`,
      );
      try {
        const got = update.table.rows;
        const months = [...oracleTab].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, month]) => month);
        expectSame(
          got.map((row) => row.slice(0, HISTORY_COLUMN.compliance + 1)),
          months.flatMap((month) => month.rows),
        );
        expectSame(
          got.map((row) =>
            String(row[HISTORY_COLUMN.basis]).replace(/^(Backfilled|Month end|So far).*$/, '$1'),
          ),
          months.flatMap((month) => month.rows.map(() => month.kind)),
        );
        const byKey = new Map(got.map((row) => [String(row[HISTORY_COLUMN.key]), row]));
        const recorded = [...recordedRows.keys()];
        expectSame(
          recorded.map((key) => byKey.get(key)),
          [...recordedRows.values()],
        );
        covered.kept += recorded.length;
      } catch (error) {
        throw new Error(
          `HISTORY_SEED=${seed}, step ${run}:\n${steps.join('\n')}\n${(error as Error).message}`,
        );
      }
      if (update.backfilled.length > 0) covered.backfills++;
      if (update.recorded.some((month) => !update.backfilled.includes(month))) covered.closed++;
      if (update.left > 0) covered.overSeveralRuns++;
      for (const row of update.table.rows)
        if (!String(row[HISTORY_COLUMN.basis]).startsWith('So far'))
          recordedRows.set(String(row[HISTORY_COLUMN.key]), row);

      // Between runs: days pass, completions arrive (some in months recorded), the catalogue changes,
      // the manager sorts the tab.
      today = isoPlusDays(today, [0, 1, 3, 12, 25, 31, 40, 75, 200, 400][random.int(0, 9)]!);
      if (random.chance(0.5)) addCompletions(random, workbook, today, random.int(1, 4));
      if (random.chance(0.3)) {
        const training = workbook.trainings[random.int(0, workbook.trainings.length - 1)]!;
        workbook.rules.set(training, randomRule(random, `Course ${training}`));
      }
      rows = random.chance(0.3) ? [...update.table.rows].reverse() : update.table.rows;
    }
  },
);

test('the sequences cover backfills, months closed, backfills over several runs and rows kept', () => {
  if (!complete) return;
  expect(covered.backfills).toBeGreaterThan(SEQUENCES / 2);
  expect(covered.closed).toBeGreaterThan(SEQUENCES / 2);
  expect(covered.overSeveralRuns).toBeGreaterThan(SEQUENCES / 10);
  expect(covered.kept).toBeGreaterThan(SEQUENCES * 20);
});
