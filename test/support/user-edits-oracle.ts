/**
 * The user-edits model's own oracle (test/refresh/user-edits-model.test.ts), sharing no code with
 * src/: a bug in how the add-on keys records must not be mirrored in what the test expects.
 *
 * - Record keys, from docs/user-guide.md's words: completions have no id, so a record is known by all of
 *   its fields; identical records (twins) are as many rows as the service lists them, the second
 *   and later of a list told apart as key~2, key~3 in list order: the tests' one rule,
 *   test/support/record-key-oracle.ts, which the tab's hidden "Record key" column must match.
 * - The service's list over time (ListHistory): every version it went through, as how many times it
 *   listed each record, rebuilt from what the sample service reports it added and removed, including
 *   changes that landed while the add-on paged.
 * - What a finished full import, an incremental refresh and the equipment tabs may hold.
 */
import type { CellView } from '../../dev/emulator/spreadsheet/workbook-store';
import { keyOf, occurrenceOf } from './record-key-oracle';
import type { Completion, EquipmentType } from './sample-service';

/** How many rows each record has among `rowKeys`. */
export function rowsByRecord(rowKeys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const rowKey of rowKeys) {
    const { key: record } = occurrenceOf(rowKey);
    counts.set(record, (counts.get(record) ?? 0) + 1);
  }
  return counts;
}

/** What broke an oracle: the rule a user would state, and what the tab showed. */
export interface Violation {
  oracle: string;
  details: string;
}

/**
 * Every version the service's list went through in a sequence, as how many times it listed each
 * record, and which records arrived on top of it (the newest end).
 */
export class ListHistory {
  private readonly versions: ReadonlyMap<string, number>[] = [];
  /** Every record ever listed, by its key. */
  private readonly records = new Map<string, Completion>();
  /** Records inserted on top, with the version their insert made. */
  private readonly onTop: { record: string; version: number }[] = [];

  constructor(initial: readonly Completion[]) {
    this.versions.push(this.countsOf(initial));
  }

  /** The version now. */
  get current(): number {
    return this.versions.length - 1;
  }

  /** How many records `version` lists, twins counted. */
  length(version: number): number {
    let length = 0;
    for (const count of this.counts(version).values()) length += count;
    return length;
  }

  record(key: string): Completion | undefined {
    return this.records.get(key);
  }

  /** A change the service reported: a new version. */
  apply(added: readonly Completion[], removed: readonly Completion[], onTop: boolean): number {
    const counts = new Map(this.versions[this.current]);
    for (const record of removed) {
      const key = keyOf(record);
      const left = (counts.get(key) ?? 0) - 1;
      if (left < 0) throw new Error(`test model: the service removed ${key}, which it did not list`);
      if (left === 0) counts.delete(key);
      else counts.set(key, left);
    }
    for (const record of added) {
      const key = keyOf(record);
      this.records.set(key, record);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    this.versions.push(counts);
    if (onTop) for (const record of added) this.onTop.push({ record: keyOf(record), version: this.current });
    return this.current;
  }

  /** How many times `version` listed each record. */
  counts(version: number): ReadonlyMap<string, number> {
    return this.versions[version]!;
  }

  /** The row keys of `version`, in no particular order. */
  rowKeys(version: number): string[] {
    return [...this.counts(version)].flatMap(([record, count]) =>
      Array.from({ length: count }, (_, index) => (index === 0 ? record : `${record}~${index + 1}`)),
    );
  }

  /** The most times each record was listed at once in versions first..last. */
  mostListed(first: number, last: number): Map<string, number> {
    const most = new Map<string, number>();
    for (let version = first; version <= last; version++) {
      for (const [record, count] of this.counts(version))
        most.set(record, Math.max(most.get(record) ?? 0, count));
    }
    return most;
  }

  /** The fewest times each record was listed in versions first..last (0 when a version lacked it). */
  leastListed(record: string, first: number, last: number): number {
    let least = Infinity;
    for (let version = first; version <= last; version++)
      least = Math.min(least, this.counts(version).get(record) ?? 0);
    return least;
  }

  /** Records inserted on top by versions after `after` up to `upTo`. */
  insertedOnTop(after: number, upTo: number): string[] {
    return this.onTop
      .filter((entry) => entry.version > after && entry.version <= upTo)
      .map((entry) => entry.record);
  }

  /** Whether `version` lists exactly what `counts` says (the model against the service's own data). */
  matches(version: number, list: readonly Completion[]): boolean {
    const mine = this.counts(version);
    const theirs = this.countsOf(list);
    return mine.size === theirs.size && [...theirs].every(([record, count]) => mine.get(record) === count);
  }

  private countsOf(list: readonly Completion[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const record of list) {
      const key = keyOf(record);
      this.records.set(key, record);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }
}

/** A full import (Reconcile, the import dialog, Refresh all without a finished one) in versions. */
export interface ImportWindow {
  /** The version when the import's first execution began. */
  first: number;
  /** The version when its last execution began. */
  lastExecution: number;
  /** The version when it ended. */
  last: number;
  /**
   * Whether a change may have landed between two answers of one round of requests (any change
   * during the run: a round asks for several pages, or a page and the one before it): it can read a record at a page boundary twice
   * or pass it over where no anchor sees it, and two passes may do so alike (docs/user-guide.md,
   * "What Refresh all catches"). Then a finished import holds no record that was never listed, and the
   * user's cells stay beside their records; what it holds is not checked further.
   */
  changedWithinRounds: boolean;
}

const NOT_CONFIRMED = /\b(\d+) (records?) could not be confirmed\b/;

/**
 * What a finished full import holds: on a quiet service exactly the service's list; under change,
 * every record listed when it began and when it ended at least as often as the fewer of the two,
 * none more often than ever listed at once, none never listed, every record that arrived on top
 * before its last execution; and when the tab is no version of the list, the run says how many
 * records it could not confirm.
 */
export function fullImportViolations(
  history: ListHistory,
  window: ImportWindow,
  tabKeys: readonly string[],
  messages: string,
): Violation[] {
  const violations: Violation[] = [];
  const twice = tabKeys.filter((key, index) => tabKeys.indexOf(key) !== index);
  if (twice.length > 0) violations.push({ oracle: 'no row key twice', details: twice.join(' ') });
  const rows = rowsByRecord(tabKeys);
  const most = history.mostListed(window.first, window.last);
  const atStart = history.counts(window.first);
  const atEnd = history.counts(window.last);
  const sorted = (keys: readonly string[]) => JSON.stringify([...keys].sort());
  const tab = sorted(tabKeys);
  const quiet = window.first === window.last;
  if (window.changedWithinRounds) {
    for (const record of rowsByRecord(tabKeys).keys()) {
      if (!(most.get(record) ?? 0))
        violations.push({ oracle: 'no row for a record never listed during the import', details: record });
    }
    return violations;
  }
  if (quiet && tab !== sorted(history.rowKeys(window.last))) {
    violations.push({
      oracle: "on a quiet service a full import ends with exactly the service's records",
      details: describeKeys(tabKeys, history.rowKeys(window.last)),
    });
  }
  for (const [record, count] of rows) {
    const listed = most.get(record) ?? 0;
    if (listed === 0) {
      violations.push({ oracle: 'no row for a record never listed during the import', details: record });
    } else if (count > listed) {
      violations.push({
        oracle: 'no record has more rows than it was ever listed at once',
        details: `${record}: ${count} rows, listed at most ${listed} times`,
      });
    }
  }
  for (const [record, then] of atStart) {
    const expected = Math.min(then, atEnd.get(record) ?? 0);
    if ((rows.get(record) ?? 0) < expected) {
      violations.push({
        oracle: 'a record listed when the import began and when it ended is in the tab as often as the fewer',
        details: `${record}: ${rows.get(record) ?? 0} rows, listed ${then} then and ${atEnd.get(record) ?? 0} at the end`,
      });
    }
  }
  for (const record of new Set(history.insertedOnTop(window.first, window.lastExecution))) {
    if ((atEnd.get(record) ?? 0) > 0 && !rows.has(record)) {
      violations.push({
        oracle: "a record inserted on top before the import's last execution is in the tab",
        details: record,
      });
    }
  }
  const exact = Array.from(
    { length: window.last - window.first + 1 },
    (_, offset) => window.first + offset,
  ).some((version) => sorted(history.rowKeys(version)) === tab);
  const said = NOT_CONFIRMED.exec(messages);
  if (!exact && !said) {
    violations.push({
      oracle: 'an import that is not exact says how many records could not be confirmed',
      details: `no version of the list during the import has the tab's records; the run said: ${messages}`,
    });
  }
  if (said && (Number(said[1]) === 1) !== (said[2] === 'record')) {
    violations.push({ oracle: 'the run counts in words that fit', details: said[0] });
  }
  return violations;
}

/**
 * What an incremental refresh (Refresh all) holds: every row it found, no row twice, new rows only
 * for records listed during it, and every record that arrived on top before it began and is still
 * listed.
 */
export function refreshViolations(
  history: ListHistory,
  first: number,
  last: number,
  keysBefore: readonly string[],
  keysAfter: readonly string[],
): Violation[] {
  const violations: Violation[] = [];
  const after = new Set(keysAfter);
  const lost = keysBefore.filter((key) => !after.has(key));
  if (lost.length > 0)
    violations.push({ oracle: 'Refresh all only adds', details: `rows removed: ${lost.join(' ')}` });
  const twice = keysAfter.filter((key, index) => keysAfter.indexOf(key) !== index);
  if (twice.length > 0) violations.push({ oracle: 'no row key twice', details: twice.join(' ') });
  const most = history.mostListed(first, last);
  const before = new Set(keysBefore);
  const unlisted = keysAfter.filter((key) => {
    if (before.has(key)) return false;
    const { key: record, occurrence } = occurrenceOf(key);
    return (most.get(record) ?? 0) < occurrence;
  });
  if (unlisted.length > 0) {
    violations.push({
      oracle: 'Refresh all adds only records the service lists',
      details:
        `added ${unlisted.join(' ')}, which no version of the list during the run lists (as often); ` +
        describeKeys(keysAfter, history.rowKeys(last)),
    });
  }
  const rows = rowsByRecord(keysAfter);
  const missed = history
    .insertedOnTop(-1, first)
    .filter((record) => (history.counts(last).get(record) ?? 0) > 0 && !rows.has(record));
  if (missed.length > 0) {
    violations.push({
      oracle: 'Refresh all catches every record added on top since',
      details: [...new Set(missed)].join(' '),
    });
  }
  return violations;
}

export function describeKeys(tab: readonly string[], service: readonly string[]): string {
  const inService = new Set(service);
  const inTab = new Set(tab);
  return (
    `tab (${tab.length}): ${tab.join(' ')}; service (${service.length}): ${service.join(' ')}; ` +
    `only in the tab: ${tab.filter((key) => !inService.has(key)).join(' ') || 'none'}; ` +
    `only in the service: ${service.filter((key) => !inTab.has(key)).join(' ') || 'none'}`
  );
}

// ---- the equipment tabs --------------------------------------------------------------------------

/** An equipment tab as the user sees it: its sheet id and every cell. */
export interface TabCells {
  gid: number;
  cells: CellView[][];
}

export interface EquipmentTabsSeen {
  types: TabCells;
  metafields: TabCells;
  schedules: TabCells;
}

/** A schedule's or metafield's identity: its type and its own id (ids are unique within a type only). */
export function partIdentity(typeId: string, id: string): string {
  return `${typeId}|${id}`;
}

/**
 * The equipment tabs after a run that refreshed them: one row per type, metafield and schedule the
 * service lists, found by type and id wherever the rows are; each showing what the service says
 * (titles, names, timing, frequency, counts); every title and count linking to a row of its own
 * type on the tab it names; and each schedule's "Last inspected" the date typed for that type and
 * id (`lastInspected`, ISO dates), empty for a schedule none was typed for.
 */
export function equipmentViolations(
  types: readonly EquipmentType[],
  seen: EquipmentTabsSeen,
  lastInspected: ReadonlyMap<string, string>,
): Violation[] {
  const violations: Violation[] = [];
  const gids = new Map([
    [seen.types.gid, seen.types],
    [seen.metafields.gid, seen.metafields],
    [seen.schedules.gid, seen.schedules],
  ]);
  const column = (tab: TabCells, title: string) =>
    (tab.cells[0] ?? []).findIndex((cell) => cell.display === title);
  const cell = (tab: TabCells, row: CellView[], title: string): CellView | undefined =>
    row[column(tab, title)];
  const shown = (tab: TabCells, row: CellView[], title: string) =>
    cell(tab, row, title)?.display ?? '(no column)';
  /** The type id of the row a link points at, or why it points at none. */
  const linkTarget = (link: string | null | undefined): { gid: number; typeId: string } | string => {
    const match = /^#gid=(\d+)&range=A(\d+)$/.exec(link ?? '');
    if (!match) return `not a link to a row: ${JSON.stringify(link ?? null)}`;
    const tab = gids.get(Number(match[1]));
    if (!tab) return `a link to a tab that is not an equipment tab: ${link}`;
    const row = tab.cells[Number(match[2]) - 1];
    return { gid: tab.gid, typeId: row ? shown(tab, row, 'Equipment type ID') : '(no such row)' };
  };
  const expectLink = (where: string, link: string | null | undefined, gid: number, typeId: string) => {
    const target = linkTarget(link);
    if (typeof target === 'string' || target.gid !== gid || target.typeId !== typeId) {
      violations.push({
        oracle: 'titles and counts link to a row of their own type on the tab they name',
        details: `${where}: ${typeof target === 'string' ? target : `a row of type ${target.typeId} on tab ${target.gid}`}, expected type ${typeId} on tab ${gid}`,
      });
    }
  };
  const rowsOf = (tab: TabCells, identity: (row: CellView[]) => string) => {
    const rows = new Map<string, CellView[][]>();
    for (const row of tab.cells.slice(1)) {
      if (row.every((found) => found.display === '' && found.formula === '')) continue;
      const key = identity(row);
      rows.set(key, [...(rows.get(key) ?? []), row]);
    }
    return rows;
  };
  const expectRows = (name: string, rows: Map<string, CellView[][]>, expected: readonly string[]) => {
    const extra = [...rows.keys()].filter((key) => !expected.includes(key));
    const missing = expected.filter((key) => !rows.has(key));
    const doubled = [...rows].filter(([, found]) => found.length > 1).map(([key]) => key);
    if (extra.length + missing.length + doubled.length > 0) {
      violations.push({
        oracle: 'each equipment tab has one row per part the service lists, found by type and id',
        details: `${name}: missing ${missing.join(', ') || 'none'}; not listed ${extra.join(', ') || 'none'}; twice ${doubled.join(', ') || 'none'}`,
      });
    }
  };
  const expectShown = (where: string, actual: string, expected: string) => {
    if (actual !== expected) {
      violations.push({
        oracle: 'each row shows what the service lists for its type and id',
        details: `${where}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
      });
    }
  };

  const typeRows = rowsOf(seen.types, (row) => shown(seen.types, row, 'Equipment type ID'));
  expectRows(
    'Equipment types',
    typeRows,
    types.map((type) => type.id),
  );
  const metafieldRows = rowsOf(seen.metafields, (row) =>
    partIdentity(
      shown(seen.metafields, row, 'Equipment type ID'),
      shown(seen.metafields, row, 'Metafield ID'),
    ),
  );
  expectRows(
    'Equipment metafields',
    metafieldRows,
    types.flatMap((type) => type.metafields.map((metafield) => partIdentity(type.id, metafield.id))),
  );
  const scheduleRows = rowsOf(seen.schedules, (row) =>
    partIdentity(shown(seen.schedules, row, 'Equipment type ID'), shown(seen.schedules, row, 'Schedule ID')),
  );
  expectRows(
    'Inspection schedules',
    scheduleRows,
    types.flatMap((type) => type.schedules.map((schedule) => partIdentity(type.id, schedule.id))),
  );

  for (const type of types) {
    const row = typeRows.get(type.id)?.[0];
    if (!row) continue;
    const where = `Equipment types, type ${type.id}`;
    expectShown(`${where}, Title`, shown(seen.types, row, 'Title'), type.title);
    expectShown(`${where}, Metafields`, shown(seen.types, row, 'Metafields'), String(type.metafields.length));
    expectShown(`${where}, Schedules`, shown(seen.types, row, 'Schedules'), String(type.schedules.length));
    const titleTarget =
      type.schedules.length > 0 ? seen.schedules : type.metafields.length > 0 ? seen.metafields : seen.types;
    expectLink(`${where}, Title`, cell(seen.types, row, 'Title')?.link, titleTarget.gid, type.id);
    if (type.metafields.length > 0)
      expectLink(
        `${where}, Metafields`,
        cell(seen.types, row, 'Metafields')?.link,
        seen.metafields.gid,
        type.id,
      );
    if (type.schedules.length > 0)
      expectLink(
        `${where}, Schedules`,
        cell(seen.types, row, 'Schedules')?.link,
        seen.schedules.gid,
        type.id,
      );
    for (const metafield of type.metafields) {
      const found = metafieldRows.get(partIdentity(type.id, metafield.id))?.[0];
      if (!found) continue;
      const at = `Equipment metafields, ${type.id} ${metafield.id}`;
      expectShown(`${at}, Equipment type`, shown(seen.metafields, found, 'Equipment type'), type.title);
      expectLink(
        `${at}, Equipment type`,
        cell(seen.metafields, found, 'Equipment type')?.link,
        seen.types.gid,
        type.id,
      );
      expectShown(`${at}, Name`, shown(seen.metafields, found, 'Name'), metafield.name);
      expectShown(`${at}, Type`, shown(seen.metafields, found, 'Type'), metafield.type);
    }
    for (const schedule of type.schedules) {
      const identity = partIdentity(type.id, schedule.id);
      const found = scheduleRows.get(identity)?.[0];
      if (!found) continue;
      const at = `Inspection schedules, ${type.id} ${schedule.id}`;
      expectShown(`${at}, Equipment type`, shown(seen.schedules, found, 'Equipment type'), type.title);
      expectLink(
        `${at}, Equipment type`,
        cell(seen.schedules, found, 'Equipment type')?.link,
        seen.types.gid,
        type.id,
      );
      expectShown(`${at}, Name`, shown(seen.schedules, found, 'Name'), schedule.name);
      expectShown(`${at}, Timing`, shown(seen.schedules, found, 'Timing'), schedule.trigger.timing);
      expectShown(
        `${at}, Frequency (days)`,
        shown(seen.schedules, found, 'Frequency (days)'),
        schedule.trigger.frequencyInDays === undefined ? '' : String(schedule.trigger.frequencyInDays),
      );
      const date = cell(seen.schedules, found, 'Last inspected')?.value;
      const actual = date instanceof Date ? date.toISOString().slice(0, 10) : String(date ?? '');
      if (actual !== (lastInspected.get(identity) ?? '')) {
        violations.push({
          oracle: '"Last inspected" follows its schedule by type and id',
          details: `${at}: ${JSON.stringify(actual)}, typed ${JSON.stringify(lastInspected.get(identity) ?? '')}`,
        });
      }
    }
  }
  return violations;
}
