/**
 * Progress under change (issue #25): a full import, or Reconcile, finishes on a busy service over a
 * slow network, where an exact read may never be had. The built add-on in the emulator reads the
 * sample service, whose list changes between the add-on's executions (records on top, deleted from
 * the middle, backdated into the middle) or during them (records on top after every read of page 1).
 *
 * The property, checked by an oracle written here (row keys by the tests' own rule, never src/'s):
 *
 *  - It ends (outcome Success) within 2·q + 2 executions, where q is the number of executions the
 *    same import takes on a quiet copy of the service (same data, network and settings, a fresh
 *    spreadsheet), measured first. On the quiet copy the tab is the service's list exactly (row keys
 *    in service order) and the message says nothing of unconfirmed records.
 *  - (a) every record listed both when the import began and when it ended is in the tab at least
 *    min(count then, count at the end) times; no record is in the tab more times than it was ever
 *    listed at once during the import;
 *  - (b) records inserted on top before the import's last execution began are in;
 *  - (c) no row for a record never listed in any version of the list during the import;
 *  - (d) a note the user typed beside a record still listed at the end stays beside it;
 *  - (e) records deleted or backdated meanwhile may linger or be missing, and then the dialog's (or
 *    Reconcile's) message and the Sync log line say "N records could not be confirmed" (N at least
 *    how many linger or are missing; "1 record" when one) and that the next Reconcile settles them.
 *
 * Refresh all after a finished import is held to less: whatever arrived since (on top and backdated
 * within the overlap, across several pages) is in the tab afterwards, once.
 *
 * The executions and completedtrainings.list requests each import took are printed at the end.
 */
import type { Completion } from '../../../src/api/schemas';
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import { keyOf, occurrenceOf } from '../../support/record-key-oracle';
import type { CreateDatasetRequest, MutationsRequest } from '../../support/sample-service';
import { type Random, seeded } from '../../support/seeded-random';

const TAB = 'Completed trainings';
const SYNC_LOG = 'Sync log';
const LIST_URL = '/v1/completedtrainings.list';
/** Columns of the Sync log. */
const LOG = { action: 2, outcome: 7, error: 8, details: 10 };
const UNCONFIRMED = /(\d[\d,]*) (records?) could not be confirmed/;

const keys = new WeakMap<Completion, string>();

/** A record's key (twins share it), computed once a record. */
function recordKey(record: Completion): string {
  let key = keys.get(record);
  if (key === undefined) {
    key = keyOf(record);
    keys.set(record, key);
  }
  return key;
}

/** The row keys of a list (test/support/record-key-oracle.ts's rule), in order: twins numbered from their second occurrence. */
function rowKeys(records: readonly Completion[]): string[] {
  const seen = new Map<string, number>();
  return records.map((record) => {
    const key = recordKey(record);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return occurrence === 1 ? key : `${key}~${occurrence}`;
  });
}

/** The record key of a row key. */
function recordOfRow(rowKey: string): string {
  return occurrenceOf(rowKey).key;
}

function countBy(keys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/**
 * The list after positional changes, given the records the service says it added (in list order):
 * the service's own rule (dev/sample-service/store.ts, applyPositionalMutations).
 */
function applyChanges(
  list: readonly Completion[],
  changes: MutationsRequest,
  added: Completion[],
): Completion[] {
  const removeAt = new Set(changes.removeCompletionsAt ?? []);
  const insertsAt = countBy((changes.insertCompletionsAt ?? []).map(({ position }) => String(position)));
  let taken = 0;
  const next: Completion[] = [];
  for (let position = 0; position <= list.length; position++) {
    for (let count = insertsAt.get(String(position)) ?? 0; count > 0; count--) {
      const record = added[taken++];
      if (!record) throw new Error('test model: the service added fewer records than the changes need');
      next.push(record);
    }
    if (position === list.length) break;
    if (!removeAt.has(position)) next.push(list[position]!);
  }
  if (taken !== added.length) throw new Error('test model: the service added more records than the changes');
  return next;
}

/** Every version of the service's list during one import, and the records that arrived on top. */
class History {
  readonly versions: Completion[][] = [];
  /** Records inserted on top, with the execution (1-based) before which, or during which, they arrived. */
  readonly onTop: { record: Completion; execution: number; during: boolean }[] = [];

  /** When each version came about, for failure reports ("after execution 3"). */
  readonly when: string[] = ['when the import began'];

  constructor(initial: Completion[]) {
    this.versions.push(initial);
  }

  get first(): Completion[] {
    return this.versions[0]!;
  }

  get last(): Completion[] {
    return this.versions[this.versions.length - 1]!;
  }

  push(list: Completion[], when: string): void {
    this.versions.push(list);
    this.when.push(when);
  }

  /**
   * How many of `records` (record keys) each change made: the first version that lists (`listed`)
   * or no longer lists (`!listed`) each of them, told by when it came about.
   */
  describeChanges(records: Iterable<string>, listed: boolean): string {
    const counts = new Map<number, number>();
    const sets = this.versions.map((version) => new Set(version.map(recordKey)));
    for (const record of records) {
      const index = sets.findIndex((set) => set.has(record) === listed);
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    return [...counts]
      .sort(([a], [b]) => a - b)
      .map(([index, count]) => `${count} ${index < 0 ? 'never' : this.when[index]!}`)
      .join(', ');
  }
}

interface Network {
  batchSize: number;
  roundTripMs: number;
}

/** One page (1,000 records) a round trip of 20 s: about 14 pages an execution. */
const SLOW: Network = { batchSize: 1, roundTripMs: 20_000 };

type Operation = 'dialog' | 'reconcile';

interface Setup {
  label: string;
  dataset: CreateDatasetRequest;
  network: Network;
  /**
   * An earlier import fills the tab first (on a fast network), the user types notes beside some of
   * its rows, and before the import under test begins the service deletes records (their rows must
   * go: c) and lists new ones on top, and one in the middle whose special expiration date is no
   * date (imported with the cell empty, and said in the Sync log: its line shows the run's details
   * rather than its summary, and must still say what could not be confirmed).
   */
  earlierImport: boolean;
  operation: Operation;
}

interface Prepared {
  harness: AddonHarness;
  /** The notes the user typed, by row key. */
  notes: Map<string, string>;
  random: Random;
}

async function prepare(setup: Setup): Promise<Prepared> {
  const harness = await createAddonHarness({ dataset: setup.dataset });
  try {
    harness.connect();
    const random = seeded(setup.dataset.seed ?? 1);
    const notes = new Map<string, string>();
    if (setup.earlierImport) {
      const earlier = harness.callServer('startCompletionsImport', {});
      if (!earlier.done) throw new Error(`test setup: the earlier import did not finish: ${earlier.summary}`);
      const keys = tabKeys(harness);
      for (const share of [0, 0.2, 0.45, 0.7, 1]) {
        const row = Math.min(keys.length - 1, Math.floor(share * keys.length));
        typeNote(harness, notes, row, keys[row]!);
      }
      const list = await serviceList(harness);
      await harness.dataset.mutate({
        removeCompletionsAt: middlePositions(random, list, 10, notes),
        insertCompletionsAt: [
          ...Array.from({ length: 7 }, () => ({ position: 0 })),
          { position: Math.floor(list.length / 3), fields: { specialExpirationDateNumber: 20231345 } },
        ],
      });
    }
    harness.useBatchSize(setup.network.batchSize);
    harness.emulator.urlFetch.roundTripMs = setup.network.roundTripMs;
    return { harness, notes, random };
  } catch (error) {
    await harness.done();
    throw error;
  }
}

/** `count` distinct positions in the middle half of `list`, none of a record with a note beside it. */
function middlePositions(
  random: Random,
  list: readonly Completion[],
  count: number,
  notes: Map<string, string>,
): number[] {
  const noted = new Set([...notes.keys()].map(recordOfRow));
  const positions = new Set<number>();
  while (positions.size < count) {
    const position = random.int(Math.floor(list.length / 4), Math.floor((3 * list.length) / 4));
    if (!noted.has(recordKey(list[position]!))) positions.add(position);
  }
  return [...positions].sort((a, b) => a - b);
}

/** The user types a note beside a data row (0-based) of the tab, whose row key is `key`. */
function typeNote(harness: AddonHarness, notes: Map<string, string>, row: number, key: string): void {
  const note = `note ${notes.size + 1}`;
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  workbook.typeValues(`'${TAB}'!K1`, [['Notes']]);
  workbook.typeValues(`'${TAB}'!K${row + 2}`, [[note]]);
  notes.set(key, note);
}

/** Between executions the user types a note beside a row of a record still listed (the tab is as before). */
function typeNoteBesideListed(prepared: Prepared, list: readonly Completion[]): void {
  const { harness, notes, random } = prepared;
  const listed = new Set(list.map(recordKey));
  const keys = tabKeys(harness);
  for (;;) {
    const row = random.int(0, keys.length - 1);
    const key = keys[row]!;
    if (!notes.has(key) && !key.includes('~') && listed.has(key)) return typeNote(harness, notes, row, key);
  }
}

interface ImportRun {
  executions: number;
  listRequests: number;
  pageOneReads: number;
  /** Reads of page 1 of the list in each execution, in order. */
  pageOneReadsByExecution: number[];
  /** What the user was told at the end (the dialog's summary, or Reconcile's alert). */
  message: string;
  /** The Sync log line of the last execution. */
  logLine: string[];
  done: boolean;
  /** Each execution's outcome and message, for failure reports. */
  steps: string[];
}

/**
 * Runs the import, one execution at a time, until it is done or has taken `maxExecutions`;
 * `between(n)` runs after the n-th execution when the import goes on.
 */
async function runImport(
  harness: AddonHarness,
  operation: Operation,
  maxExecutions: number,
  between: (executions: number) => Promise<void> = async () => {},
): Promise<ImportRun> {
  const requests = harness.emulator.urlFetch.requests;
  const run: ImportRun = {
    executions: 0,
    listRequests: 0,
    pageOneReads: 0,
    pageOneReadsByExecution: [],
    message: '',
    logLine: [],
    done: false,
    steps: [],
  };
  for (;;) {
    const sentBefore = requests.length;
    const logBefore = syncLog(harness).length;
    let message: string;
    try {
      if (operation === 'dialog') {
        message = (
          run.executions === 0
            ? harness.callServer('startCompletionsImport', {})
            : harness.callServer('continueCompletionsImport')
        ).summary;
      } else {
        harness.clickMenu('Reconcile completed trainings');
        const alerts = harness.emulator.workbooks.get(harness.spreadsheetId)!.ui.alerts;
        message = alerts[alerts.length - 1]!.message;
      }
    } catch (error) {
      message = `threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    run.executions++;
    const sent = requests.slice(sentBefore).filter((request) => request.url.endsWith(LIST_URL));
    const pageOne = sent.filter(
      (request) => (JSON.parse(request.payload ?? '{}') as { page?: number }).page === 1,
    );
    run.listRequests += sent.length;
    run.pageOneReads += pageOne.length;
    run.pageOneReadsByExecution.push(pageOne.length);
    const log = syncLog(harness);
    const line = log
      .slice(0, log.length - logBefore)
      .find((candidate) => /completed trainings/.test(candidate[LOG.action]!));
    const outcome = line?.[LOG.outcome] ?? 'no Sync log line';
    run.steps.push(
      `${run.executions}. ${outcome}${line?.[LOG.error] ? ` ${line[LOG.error]}` : ''}: ${message}`,
    );
    run.message = message;
    run.logLine = line ?? [];
    if (outcome === 'Success') {
      run.done = true;
      return run;
    }
    if (outcome !== 'Continuing')
      throw new Error(`the import failed at execution ${run.executions}:\n${run.steps.join('\n')}`);
    if (run.executions >= maxExecutions) return run;
    await between(run.executions);
  }
}

/** What each import took, printed at the end for the record. */
const measured: string[] = [];

function describeRun(run: ImportRun): string {
  return `${run.executions} executions, ${run.listRequests} list requests (page 1 read ${run.pageOneReads} times)`;
}

/** The quiet copy's run of each setup, made once: q and its list requests. */
const quietRuns = new Map<string, Promise<ImportRun>>();

function quietRun(setup: Setup): Promise<ImportRun> {
  const key = JSON.stringify(setup);
  let run = quietRuns.get(key);
  if (!run) {
    run = measureQuietRun(setup);
    quietRuns.set(key, run);
  }
  return run;
}

async function measureQuietRun(setup: Setup): Promise<ImportRun> {
  const { harness, notes } = await prepare(setup);
  try {
    const before = await serviceList(harness);
    const run = await runImport(harness, setup.operation, 50);
    const label = `${setup.label}, quiet service`;
    if (!run.done)
      throw new Error(`${label}: the import did not finish in 50 executions:\n${run.steps.join('\n')}`);
    // Quiet: the tab is the service's list exactly, in its order, and nothing is said to be unconfirmed.
    const after = await serviceList(harness);
    expect(rowKeys(after)).toEqual(rowKeys(before));
    const tab = readTab(harness);
    const listed = rowKeys(after);
    if (JSON.stringify(tab.keys) !== JSON.stringify(listed)) {
      throw new Error(
        `${label}: the tab is not the service's list (${tab.keys.length} rows, ${after.length} records listed; ` +
          `first difference at row ${tab.keys.findIndex((key, index) => key !== listed[index]) + 2})`,
      );
    }
    for (const said of [run.message, run.logLine[LOG.details] ?? '']) {
      expect(said).not.toMatch(/could not be confirmed|unconfirmed/i);
    }
    await expectNamesShown(harness, tab, label);
    const lost = notesLost(tab, notes, after);
    if (lost.length > 0)
      throw new Error(`${label}: notes no longer beside their records: ${lost.join(', ')}`);
    measured.push(`${label}: q = ${describeRun(run)}`);
    return run;
  } finally {
    await harness.done();
  }
}

/**
 * The import under test on a busy copy: `change(prepared, history, executions)` changes the service
 * after an execution when the import goes on. Returns the run and the history of the list.
 */
async function runBusy(
  setup: Setup,
  change: (prepared: Prepared, history: History, executions: number) => Promise<void>,
  options: { faults?: Parameters<AddonHarness['dataset']['setFaults']>[0] } = {},
): Promise<{ prepared: Prepared; run: ImportRun; history: History; bound: number; q: ImportRun }> {
  const q = await quietRun(setup);
  const bound = 2 * q.executions + 2;
  const prepared = await prepare(setup);
  const { harness } = prepared;
  const history = new History(await serviceList(harness));
  if (options.faults) await harness.dataset.setFaults(options.faults);
  const run = await runImport(harness, setup.operation, bound, (executions) =>
    change(prepared, history, executions),
  );
  if (options.faults) await harness.dataset.setFaults({});
  return { prepared, run, history, bound, q };
}

/** Changes through the admin API after execution `executions`, taken into the history. */
async function mutate(
  { harness }: Prepared,
  history: History,
  executions: number,
  request: MutationsRequest,
): Promise<void> {
  const result = await harness.dataset.mutate(request);
  const added = result.added as unknown as Completion[];
  const next = applyChanges(history.last, request, added);
  history.push(next, `after execution ${executions}`);
  const onTop = (request.insertCompletionsAt ?? []).filter(({ position }) => position === 0).length;
  for (const record of next.slice(0, onTop))
    history.onTop.push({ record, execution: executions + 1, during: false });
}

/** The property, once the import under test has run; throws with what it found otherwise. */
async function expectProperty(
  setup: Setup,
  variant: string,
  busy: Awaited<ReturnType<typeof runBusy>>,
): Promise<void> {
  const { prepared, run, history, bound, q } = busy;
  const { harness, notes } = prepared;
  const label = `${setup.label}, ${variant}`;
  const fail = (what: string): never => {
    throw new Error(
      `${label}: ${what}\nq = ${q.executions}, bound ${bound}. Executions:\n${run.steps.join('\n')}`,
    );
  };
  // The model is the service's: every version was built from what the service said it changed.
  const served = await serviceList(harness);
  if (JSON.stringify(rowKeys(served)) !== JSON.stringify(rowKeys(history.last))) {
    throw new Error(`test model: ${label}: the modelled list is not the service's`);
  }
  if (!run.done)
    fail(`the import is still going on after ${run.executions} executions (the bound is 2·q + 2 = ${bound})`);

  const tab = readTab(harness);
  const inTab = countBy(tab.keys.map(recordOfRow));
  const first = countBy(history.first.map(recordKey));
  const last = countBy(history.last.map(recordKey));
  const most = new Map<string, number>();
  for (const version of history.versions) {
    for (const [record, count] of countBy(version.map(recordKey)))
      most.set(record, Math.max(most.get(record) ?? 0, count));
  }
  const problems: string[] = [];
  const listed = (records: string[], what: string) => {
    if (records.length > 0) problems.push(`${what} (${records.length}): ${records.slice(0, 10).join(' ')}`);
  };
  // (a)
  listed(
    [...first]
      .filter(
        ([record, count]) =>
          last.has(record) && (inTab.get(record) ?? 0) < Math.min(count, last.get(record)!),
      )
      .map(([record]) => record),
    'records listed when the import began and when it ended that the tab lacks (a)',
  );
  listed(
    [...inTab]
      .filter(([record, count]) => most.has(record) && count > most.get(record)!)
      .map(([record]) => record),
    'records in the tab more times than ever listed at once (a)',
  );
  // (b)
  const lastExecution = run.executions;
  const arrivedOnTop = history.onTop.filter(
    ({ execution, during }) => execution < lastExecution || (execution === lastExecution && !during),
  );
  listed(
    arrivedOnTop.map(({ record }) => recordKey(record)).filter((record) => !inTab.has(record)),
    'records inserted on top before the last execution began that the tab lacks (b)',
  );
  // (c)
  listed(
    [...inTab.keys()].filter((record) => !most.has(record)),
    'rows of records no version of the list during the import had (c)',
  );
  // (d)
  listed(notesLost(tab, notes, history.last), 'notes no longer beside records still listed (d)');
  // (e): how many rows linger or are missing, but for records that arrived on top during the last execution.
  const lateOnTop = new Set(
    history.onTop
      .filter(({ execution, during }) => execution === lastExecution && during)
      .map(({ record }) => recordKey(record)),
  );
  let lingering = 0;
  let missing = 0;
  const lingeringRecords = new Set<string>();
  const missingRecords = new Set<string>();
  for (const [record, count] of inTab) {
    const more = Math.max(0, count - (last.get(record) ?? 0));
    lingering += more;
    if (more > 0) lingeringRecords.add(record);
  }
  for (const [record, count] of last) {
    const fewer = lateOnTop.has(record) ? 0 : Math.max(0, count - (inTab.get(record) ?? 0));
    missing += fewer;
    if (fewer > 0) missingRecords.add(record);
  }
  const discrepancy =
    `${lingering} rows linger (deleted: ${history.describeChanges(lingeringRecords, false) || 'none'}) ` +
    `and ${missing} records are missing (listed: ${history.describeChanges(missingRecords, true) || 'none'})`;
  const unconfirmed: string[] = [];
  for (const [where, said] of [
    ['the message', run.message],
    ['the Sync log', run.logLine[LOG.details] ?? ''],
  ] as const) {
    const match = UNCONFIRMED.exec(said);
    if (match) {
      unconfirmed.push(match[1]!);
      const count = Number(match[1]!.replace(/,/g, ''));
      if ((count === 1) !== (match[2] === 'record')) problems.push(`${where} says "${match[0]}"`);
      if (!/Reconcile/.test(said.slice(match.index)))
        problems.push(`${where} does not say that the next Reconcile settles them: "${said}"`);
      if (count < lingering + missing) problems.push(`${where} says "${match[0]}", but ${discrepancy} (e)`);
    } else if (lingering + missing > 0) {
      problems.push(`${where} says nothing of unconfirmed records, but ${discrepancy} (e): "${said}"`);
    }
  }
  if (problems.length > 0) fail(problems.join('\n'));
  await expectNamesShown(harness, tab, label);
  measured.push(
    `${label}: ${describeRun(run)} (bound ${bound}); ${history.versions.length - 1} changes; ` +
      `${lingering} rows linger, ${missing} missing; said unconfirmed: ${unconfirmed.join(' / ') || 'nothing'}`,
  );
}

/** What the checks read of the tab: its rows' ids and names, record keys and the user's notes. */
interface TabView {
  keys: string[];
  /** The note beside each row, by row key. */
  notes: Map<string, string>;
  /** User id, user name, instructor id, instructor name of each row. */
  people: string[][];
}

/** The tab as the user sees it (only the columns the checks read: dates take long to format). */
function readTab(harness: AddonHarness): TabView {
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  if (!workbook.sheetNames.includes(TAB)) return { keys: [], notes: new Map(), people: [] };
  const sheet = workbook.sheet(TAB);
  const last = sheet.lastRow;
  if (last < 2) return { keys: [], notes: new Map(), people: [] };
  const read = (columns: string) => sheet.displayValues(`${columns[0]}2:${columns[1]}${last}`);
  const users = read('AB');
  const instructors = read('FG');
  const keysAndNotes = read('JK');
  return {
    keys: keysAndNotes.map((row) => row[0]!),
    notes: new Map(keysAndNotes.map((row) => [row[0]!, row[1]!])),
    people: users.map((row, index) => [...row, ...instructors[index]!]),
  };
}

/** Every row shows its user's and instructor's names as users.info gives them ('' for unknown ids). */
async function expectNamesShown(harness: AddonHarness, tab: TabView, label: string): Promise<void> {
  const names = new Map((await harness.dataset.data()).users.map((user) => [user.id, user.name]));
  const wrong = tab.people.filter(
    ([userId, userName, instructorId, instructorName]) =>
      userName !== (names.get(userId!) ?? '') || instructorName !== (names.get(instructorId!) ?? ''),
  );
  if (wrong.length > 0) {
    throw new Error(`${label}: ${wrong.length} rows lack their names, e.g. ${JSON.stringify(wrong[0])}`);
  }
}

/** The notes beside records of `list` that are no longer beside them. */
function notesLost(tab: TabView, notes: Map<string, string>, list: Completion[]): string[] {
  const listed = new Set(list.map(recordKey));
  return [...notes]
    .filter(([key, note]) => listed.has(recordOfRow(key)) && tab.notes.get(key) !== note)
    .map(([key, note]) => `${key} (${JSON.stringify(tab.notes.get(key) ?? null)}, not "${note}")`);
}

function tabKeys(harness: AddonHarness): string[] {
  return readTab(harness).keys;
}

/** The Sync log's lines, newest first. */
function syncLog(harness: AddonHarness): string[][] {
  const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  return workbook.sheetNames.includes(SYNC_LOG) ? harness.displayed(SYNC_LOG).slice(1) : [];
}

async function serviceList(harness: AddonHarness): Promise<Completion[]> {
  return (await harness.dataset.data()).completions as unknown as Completion[];
}

afterAll(() => {
  console.log(`progress under change, measured:\n${measured.join('\n')}`);
});

const SECOND_IMPORT: Setup = {
  label: 'a second full import of 25,000 records, one page a 20 s round trip',
  dataset: { seed: 2501, completions: 25_000, users: 60, trainings: 20, equipmentTypes: 0 },
  network: SLOW,
  earlierImport: true,
  operation: 'dialog',
};

/** Runs the import under test with `change` between its executions, checks the property, cleans up. */
async function expectFinishesWithin(
  setup: Setup,
  variant: string,
  change: (prepared: Prepared, history: History, executions: number) => Promise<void>,
): Promise<void> {
  const busy = await runBusy(setup, change);
  try {
    await expectProperty(setup, variant, busy);
  } finally {
    await busy.prepared.harness.done();
  }
}

/** Records inserted at `count` distinct places of the middle half of the list, dated like the record there. */
function backdatedIntoTheMiddle(
  prepared: Prepared,
  list: readonly Completion[],
  count: number,
): MutationsRequest {
  const positions = middlePositions(prepared.random, list, count, new Map());
  return { insertCompletionsAt: positions.map((position) => ({ position })) };
}

const onTop = (count: number): MutationsRequest => ({
  insertCompletionsAt: Array.from({ length: count }, () => ({ position: 0 })),
});

describe('a second full import of 25,000 records over a slow network finishes within 2·q + 2 executions', () => {
  test('with 7 new records on top between every two executions', async () => {
    await expectFinishesWithin(
      SECOND_IMPORT,
      '7 on top between executions',
      async (prepared, history, executions) => {
        if (executions <= 2) typeNoteBesideListed(prepared, history.last);
        await mutate(prepared, history, executions, onTop(7));
      },
    );
  }, 300_000);

  test('Reconcile, with 10 records deleted from the middle between every two executions', async () => {
    const setup: Setup = { ...SECOND_IMPORT, operation: 'reconcile' };
    await expectFinishesWithin(
      setup,
      '10 deleted from the middle between executions',
      async (prepared, history, executions) => {
        if (executions <= 2) typeNoteBesideListed(prepared, history.last);
        await mutate(prepared, history, executions, {
          removeCompletionsAt: middlePositions(prepared.random, history.last, 10, prepared.notes),
        });
      },
    );
  }, 300_000);

  test('with 5 records backdated into the middle between every two executions', async () => {
    await expectFinishesWithin(
      SECOND_IMPORT,
      '5 backdated into the middle between executions',
      async (prepared, history, executions) => {
        if (executions <= 2) typeNoteBesideListed(prepared, history.last);
        await mutate(prepared, history, executions, backdatedIntoTheMiddle(prepared, history.last, 5));
      },
    );
  }, 300_000);
});

test('a first import whose user names take several executions finishes within 2·q + 2, names and all, under changes between executions', async () => {
  const setup: Setup = {
    label: 'a first import of 7,000 records naming 300 users, 5 requests a 20 s round trip',
    dataset: { seed: 7001, completions: 7_000, users: 300, trainings: 20, equipmentTypes: 0 },
    network: { batchSize: 5, roundTripMs: 20_000 },
    earlierImport: false,
    operation: 'dialog',
  };
  const quiet = await quietRun(setup);
  // The names are what takes long: more executions than the pages alone need.
  expect(quiet.executions).toBeGreaterThanOrEqual(3);
  await expectFinishesWithin(
    setup,
    '7 on top and 2 deleted from the middle between executions',
    async (prepared, history, executions) => {
      await mutate(prepared, history, executions, {
        ...onTop(7),
        removeCompletionsAt: middlePositions(prepared.random, history.last, 2, prepared.notes),
      });
    },
  );
}, 300_000);

test('a service that adds 5 records on top after every read of page 1: the import finishes within 2·q + 2, for at most 3× the list requests', async () => {
  const setup: Setup = {
    label: 'a first import of 7,000 records, one page a 20 s round trip',
    dataset: { seed: 7002, completions: 7_000, users: 30, trainings: 20, equipmentTypes: 0 },
    network: SLOW,
    earlierImport: false,
    operation: 'dialog',
  };
  const perRead = 5;
  const busy = await runBusy(setup, async () => {}, {
    faults: { insertOnTopAfterPageOne: { count: perRead } },
  });
  try {
    // The versions of the list: `perRead` records on top after each read of page 1, in order.
    const { history, run } = busy;
    const served = await serviceList(busy.prepared.harness);
    const reads = (served.length - history.first.length) / perRead;
    if (reads !== run.pageOneReads) {
      throw new Error(
        `test model: page 1 was read ${run.pageOneReads} times, but the service added ${served.length - history.first.length} records`,
      );
    }
    let read = 0;
    run.pageOneReadsByExecution.forEach((count, index) => {
      for (let each = 0; each < count; each++) {
        read++;
        const from = perRead * (reads - read);
        history.push(served.slice(from), `during execution ${index + 1}`);
        for (const record of served.slice(from, from + perRead))
          history.onTop.push({ record, execution: index + 1, during: true });
      }
    });
    await expectProperty(setup, `${perRead} on top after every read of page 1`, busy);
    const allowed = 3 * busy.q.listRequests;
    if (run.listRequests > allowed) {
      throw new Error(
        `${setup.label}: the import sent ${run.listRequests} list requests, more than 3× the ${busy.q.listRequests} of a quiet service (${describeRun(run)})`,
      );
    }
  } finally {
    await busy.prepared.harness.done();
  }
}, 300_000);

/** Days between two date numbers (YYYYMMDD). */
function daysBetween(earlier: number, later: number): number {
  const date = (dateNumber: number) =>
    Date.UTC(Math.floor(dateNumber / 10_000), (Math.floor(dateNumber / 100) % 100) - 1, dateNumber % 100);
  return Math.round((date(later) - date(earlier)) / 86_400_000);
}

test('Refresh all after a finished import takes in records spanning several pages, on top and backdated within the overlap, once each', async () => {
  const pageSize = 5;
  const harness = await createAddonHarness({
    dataset: { seed: 404, completions: 400, users: 20, trainings: 8, equipmentTypes: 0 },
  });
  try {
    harness.connect();
    await harness.dataset.setQuirks({ pageSizeCap: pageSize });
    expect(harness.callServer('startCompletionsImport', {}).done).toBe(true);
    const held = await serviceList(harness);
    expect(tabKeys(harness)).toEqual(rowKeys(held));
    const newestHeld = Number(held[0]!.dateNumber);

    // Late entries within the overlap (7 days by default) before the newest record held, then newer ones on top.
    await harness.dataset.mutate({ addBackdatedCompletions: { count: 3, daysBeforeNewest: 2 } });
    await harness.dataset.mutate({ addBackdatedCompletions: { count: 3, daysBeforeNewest: 6 } });
    await harness.dataset.mutate({ addCompletions: 12 });
    const listed = await serviceList(harness);
    const heldKeys = new Set(held.map(recordKey));
    const fresh = listed.flatMap((record, position) =>
      heldKeys.has(recordKey(record)) ? [] : [{ record, position }],
    );
    // What the test is about: 18 new records, filling pages 1 to 3 and some below records held.
    expect(fresh).toHaveLength(18);
    const backdated = fresh.filter(({ record }) => Number(record.dateNumber) <= newestHeld);
    expect(backdated).toHaveLength(6);
    for (const { record } of backdated)
      expect(daysBetween(Number(record.dateNumber), newestHeld)).toBeLessThan(7);
    expect(Math.max(...fresh.map(({ position }) => position))).toBeGreaterThanOrEqual(2 * pageSize);
    expect(fresh.filter(({ position }) => position >= pageSize)).not.toHaveLength(0);
    expect(listed.slice(0, 12).every((record) => !heldKeys.has(recordKey(record)))).toBe(true);

    const requestsBefore = harness.emulator.urlFetch.requests.length;
    harness.clickMenu('Refresh all');
    const line = syncLog(harness).find((candidate) => /completed trainings/.test(candidate[LOG.action]!));
    expect(line?.[LOG.action]).toBe('Refresh completed trainings');
    expect(line?.[LOG.outcome]).toBe('Success');
    const keys = tabKeys(harness);
    const twice = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(twice).toEqual([]);
    const expected = rowKeys(listed);
    const shown = new Set(keys);
    expect(expected.filter((key) => !shown.has(key))).toEqual([]);
    expect([...keys].sort()).toEqual([...expected].sort());
    // The incremental refresh did it, not a full import: it says what it added.
    expect(line?.[LOG.details]).toMatch(/^Added 18 new completed trainings\./);
    const pagesRead = harness.emulator.urlFetch.requests
      .slice(requestsBefore)
      .filter((request) => request.url.endsWith(LIST_URL)).length;
    measured.push(
      `Refresh all, 18 new records on pages 1 to ${Math.ceil((Math.max(...fresh.map(({ position }) => position)) + 1) / pageSize)}: ${pagesRead} list requests`,
    );
  } finally {
    await harness.done();
  }
}, 120_000);
