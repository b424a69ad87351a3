/**
 * Compliance history: "were we compliant last March?". A row per month and scope (all trainings,
 * the required ones, each training, and each site and department once People places anyone) with
 * the pairs counted by status and the compliance, by the Training matrix's rules
 * (matrix-compliance.ts) as of the month's last day in the spreadsheet's time zone.
 *
 * - The current month's rows say "So far" and are recomputed by every run, as of its day; once the
 *   month is over, the next run records it as of its last day, and from then on its rows are the
 *   tab's own: no later run rewrites them, whatever changes in the catalogue or the completions.
 * - A workbook's first run backfills the months before, up to 24 of them (none before the month of
 *   the earliest completion), from what the workbook holds that day: completions deleted from the
 *   service since, and People, Trainings, Requirements and Exemptions edited since, are not known
 *   to it, and each backfilled row says so in its Basis. People count from their start date.
 * - A month the tab already records is never recomputed; one that is missing after the last
 *   recorded month (no run happened in it) is recorded by the next run, as of its last day.
 */
import { type CalendarDate, dateFromParts, daysInMonth, toIsoDate } from '../lib/dates';
import { type CellValue, type ColumnSpec, columnIndexes, type Table } from '../sheets/table';
import type { TabRecord } from '../sheets/tab-content';
import { compareGroup, type MatrixSources, type TrainingMatrix, trainingMatrix } from './matrix';
import { countedRows, type StatusCounts, statusCounts } from './matrix-compliance';
import { GROUPINGS } from './roll-ups';
import type { TrendMonth } from '../platform/overview/compliance-trend';

export const HISTORY_SHEET = 'Compliance history';
/** How many months before the first run's a backfill records, at most. */
export const BACKFILL_MONTHS = 24;
/**
 * The person × training statuses one run computes for the months over, at most (an estimate: a
 * second or two of Apps Script's CPU): a large workbook's backfill goes on over the next runs,
 * oldest months first, at least one month a run.
 */
export const HISTORY_STATUSES_PER_RUN = 1_000_000;

export const HISTORY_COLUMNS = [
  { id: 'month', header: 'Month', kind: 'text', width: 80 },
  { id: 'scope', header: 'Scope', kind: 'text', width: 110 },
  { id: 'name', header: 'Name', kind: 'text', width: 220 },
  { id: 'valid', header: 'Valid', kind: 'integer', width: 70 },
  { id: 'expiring', header: 'Expiring', kind: 'integer', width: 80 },
  { id: 'expired', header: 'Expired', kind: 'integer', width: 70 },
  { id: 'notDone', header: 'Not done', kind: 'integer', width: 80 },
  { id: 'counted', header: 'Counted', kind: 'integer', width: 80 },
  { id: 'compliance', header: 'Compliance', kind: 'percent', width: 100 },
  { id: 'basis', header: 'Basis', kind: 'text', width: 330 },
  { id: 'key', header: 'Row key', kind: 'text', width: 100, hidden: true },
] as const satisfies readonly ColumnSpec[];
export const HISTORY_COLUMN = columnIndexes(HISTORY_COLUMNS);
export const HISTORY_TAB = { columns: HISTORY_COLUMNS, keyColumn: HISTORY_COLUMN.key };

export const HistoryScope = {
  overall: 'Overall',
  required: 'Required',
  training: 'Training',
  site: 'Site',
  department: 'Department',
} as const;

/** The Basis of the current month's rows: how the next run knows they are still open. */
const SO_FAR = 'So far';

/** "2026-03": a month as the tab shows it, and as its rows' keys name it. */
export type Month = string;

function monthOf(day: CalendarDate): Month {
  return toIsoDate(day).slice(0, 7);
}

function lastDayOf(month: Month): CalendarDate {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return dateFromParts(year, number, daysInMonth(year, number))!;
}

function monthAfter(month: Month, offset = 1): Month {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + number - 1 + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** One row's figures: a scope, the name it shows, the id its key holds. */
interface ScopeFigures {
  scope: string;
  name: string;
  id: string;
  counts: StatusCounts;
}

/** Every scope's figures in a matrix, in the tab's order. */
export function scopeFigures(matrix: TrainingMatrix): ScopeFigures[] {
  const rows = countedRows(matrix);
  const listed = matrix.requirementsListed;
  const figures: ScopeFigures[] = [
    {
      scope: HistoryScope.overall,
      name: 'All trainings',
      id: '',
      counts: statusCounts(
        rows.flatMap((row) => row.statuses),
        listed,
      ),
    },
    {
      scope: HistoryScope.required,
      name: 'Required trainings',
      id: '',
      counts: statusCounts(
        rows.flatMap((row) => row.statuses.filter((status) => status.required)),
        listed,
      ),
    },
    ...matrix.trainings.map((training, index) => ({
      scope: HistoryScope.training,
      name: training.name || training.trainingId,
      id: training.trainingId,
      counts: statusCounts(
        rows.map((row) => row.statuses[index]!),
        listed,
      ),
    })),
  ];
  if (!matrix.bySite) return figures;
  for (const { grouping, of } of GROUPINGS) {
    const groups = new Map<string, typeof rows>();
    for (const row of rows) groups.set(of(row.person), [...(groups.get(of(row.person)) ?? []), row]);
    for (const name of [...groups.keys()].sort(compareGroup)) {
      figures.push({
        scope: grouping === 'site' ? HistoryScope.site : HistoryScope.department,
        name: name || `(no ${grouping})`,
        id: name,
        counts: statusCounts(
          groups.get(name)!.flatMap((row) => row.statuses),
          listed,
        ),
      });
    }
  }
  return figures;
}

function rowKey(month: Month, scope: string, id: string): string {
  return JSON.stringify([month, scope, id]);
}

/** A row's key as written: [month, scope, id]; null for a row the add-on did not write. */
function parseKey(key: string): [Month, string, string] | null {
  try {
    const parsed: unknown = JSON.parse(key);
    return Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed.every((part) => typeof part === 'string') &&
      /^\d{4}-\d{2}$/.test(parsed[0] as string)
      ? (parsed as [Month, string, string])
      : null;
  } catch {
    return null;
  }
}

const SCOPE_ORDER: readonly string[] = Object.values(HistoryScope);

/**
 * The tab's order, whatever order a manager sorted it in: by month, then scope, the trainings in
 * the catalogue's order (one no longer there after them, by id) and the sites and departments by
 * name (the unplaced last).
 */
function rowOrder(matrix: TrainingMatrix): (a: CellValue[], b: CellValue[]) => number {
  const catalogue = new Map(matrix.trainings.map((training, index) => [training.trainingId, index]));
  const rank = (id: string) => catalogue.get(id) ?? catalogue.size;
  const parsed = new Map<CellValue, [Month, string, string]>();
  const partsOf = (row: CellValue[]) => {
    const key = row[HISTORY_COLUMN.key]!;
    if (!parsed.has(key)) parsed.set(key, parseKey(String(key))!);
    return parsed.get(key)!;
  };
  return (a, b) => {
    const [monthA, scopeA, idA] = partsOf(a);
    const [monthB, scopeB, idB] = partsOf(b);
    if (monthA !== monthB) return monthA < monthB ? -1 : 1;
    if (scopeA !== scopeB) return SCOPE_ORDER.indexOf(scopeA) - SCOPE_ORDER.indexOf(scopeB);
    if (scopeA === HistoryScope.training && rank(idA) !== rank(idB)) return rank(idA) - rank(idB);
    return compareGroup(idA, idB);
  };
}

function monthRows(month: Month, matrix: TrainingMatrix, basis: string): CellValue[][] {
  return scopeFigures(matrix).map(({ scope, name, id, counts }) => {
    const row: CellValue[] = new Array<CellValue>(HISTORY_COLUMNS.length).fill(null);
    row[HISTORY_COLUMN.month] = month;
    row[HISTORY_COLUMN.scope] = scope;
    row[HISTORY_COLUMN.name] = name;
    row[HISTORY_COLUMN.valid] = counts.valid;
    row[HISTORY_COLUMN.expiring] = counts.expiring;
    row[HISTORY_COLUMN.expired] = counts.expired;
    row[HISTORY_COLUMN.notDone] = counts.notDone;
    row[HISTORY_COLUMN.counted] = counts.counted;
    row[HISTORY_COLUMN.compliance] = counts.counted === 0 ? null : counts.compliant / counts.counted;
    row[HISTORY_COLUMN.basis] = basis;
    row[HISTORY_COLUMN.key] = rowKey(month, scope, id);
    return row;
  });
}

/** The matrix as of `day`: the people who had started by then, counted by that day's statuses. */
export function matrixAsOf(
  sources: Omit<MatrixSources, 'today' | 'showInactive'>,
  day: CalendarDate,
): TrainingMatrix {
  const roster = sources.roster.filter((entry) => entry.startDate === null || entry.startDate <= day);
  return trainingMatrix({ ...sources, roster, showInactive: false, today: day });
}

export interface HistoryUpdate {
  table: Table;
  /** The months recorded as closed by this run, oldest first. */
  recorded: Month[];
  /** The months over that are left for the next runs (the run's share of work was spent). */
  left: number;
  /** Those of them no run saw open: computed from what the workbook holds today. */
  backfilled: Month[];
}

/**
 * The tab after a run on `today`: its recorded rows as they are (in month order), the months over
 * since the last recorded one (as many as HISTORY_STATUSES_PER_RUN allows for `pairs` person ×
 * training pairs), and this month so far. `matrixOn(day)` is the matrix as of a day; `earliest` the
 * earliest completion's date (null: none).
 */
export function historyUpdate(
  records: readonly TabRecord[],
  matrixOn: (day: CalendarDate) => TrainingMatrix,
  { today, earliest, pairs }: { today: CalendarDate; earliest: CalendarDate | null; pairs: number },
): HistoryUpdate {
  const current = monthOf(today);
  const read = records.flatMap((record) => {
    const month = parseKey(record.key)?.[0] ?? null;
    const open = String(record.table[HISTORY_COLUMN.basis] ?? '').startsWith(SO_FAR);
    return month === null ? [] : [{ record, month, open }];
  });
  // A row the manager copied is the same record twice: the first is kept, as on every tab.
  const seen = new Set<string>();
  const kept = read.filter((row) => !row.open && !seen.has(row.record.key) && seen.add(row.record.key));
  // A month whose rows a run left open ("So far") is closed now; any other is backfilled.
  const wasOpen = new Set(read.filter((row) => row.open).map((row) => row.month));
  const latest = kept.reduce<Month | null>(
    (last, row) => (last === null || row.month > last ? row.month : last),
    null,
  );
  let month = latest !== null ? monthAfter(latest) : monthAfter(current, -BACKFILL_MONTHS);
  if (latest === null) {
    const first = [...wasOpen, ...(earliest === null ? [] : [monthOf(earliest)]), current].sort()[0]!;
    if (first > month) month = first;
  }
  const asOf = toIsoDate(today);
  const recorded: Month[] = [];
  const backfilled: Month[] = [];
  const rows = kept.map(({ record }) => record.table);
  // This month's matrix is computed too.
  const monthsThisRun = Math.max(1, Math.floor(HISTORY_STATUSES_PER_RUN / Math.max(1, pairs)) - 1);
  for (; month < current && recorded.length < monthsThisRun; month = monthAfter(month)) {
    const end = toIsoDate(lastDayOf(month));
    const basis = wasOpen.has(month)
      ? `Month end ${end}, recorded ${asOf}`
      : `Backfilled ${asOf} as of ${end}: completions deleted since and tab edits since are not known`;
    if (!wasOpen.has(month)) backfilled.push(month);
    rows.push(...monthRows(month, matrixOn(lastDayOf(month)), basis));
    recorded.push(month);
  }
  const keys = new Set(rows.map((row) => row[HISTORY_COLUMN.key]));
  const now = matrixOn(today);
  rows.push(
    ...monthRows(current, now, `${SO_FAR}, as of ${asOf}`).filter(
      (row) => !keys.has(row[HISTORY_COLUMN.key]),
    ),
  );
  rows.sort(rowOrder(now));
  let left = 0;
  for (; month < current; month = monthAfter(month)) left++;
  return {
    table: { columns: HISTORY_COLUMNS, rows, keyColumn: HISTORY_COLUMN.key },
    recorded,
    backfilled,
    left,
  };
}

/** The Overall and Required compliance of the months whose first days are `firsts`, from the tab's rows. */
export function complianceTrend(rows: readonly CellValue[][], firsts: readonly CalendarDate[]): TrendMonth[] {
  const share = (month: Month, scope: string): number | null => {
    const row = rows.find(
      (each) => each[HISTORY_COLUMN.month] === month && each[HISTORY_COLUMN.scope] === scope,
    );
    const value = row?.[HISTORY_COLUMN.compliance];
    return typeof value === 'number' ? value : null;
  };
  return firsts.map((first) => ({
    first,
    overall: share(monthOf(first), HistoryScope.overall),
    required: share(monthOf(first), HistoryScope.required),
  }));
}
