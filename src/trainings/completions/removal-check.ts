/**
 * The last safety net before a full import removes rows: a row that carries the user's own cells
 * (a note, a sign-off, a formula beside it) goes only when its record is confirmed gone. The full
 * read says it is gone; a cheap filtered read (the record's user and training, 1,000 a page) must
 * agree. When the service still lists one of them, the import refuses to finish and changes
 * nothing: a read that missed a live record must never cost a user's notes.
 */
import type { ServiceClient } from '../../api/client';
import { completionKey, splitRowKey } from '../../api/completion-key';
import { readCompletionPages } from '../../api/completions';
import { type CompletionsFilter } from '../../api/completions-contract';
import type { ReadControl } from '../../api/read-control';
import { listProblems } from '../../platform/problem-lists';
import { UserFacingError } from '../../platform/user-facing-error';
import type { TabContent, TabRecord } from '../../sheets/tab-content';
import { COMPLETION_COLUMN } from './table';

/** A row of the "Completed trainings" tab, as far as removing it or ordering the tab is concerned. */
export interface HeldRow {
  key: string;
  userId: string;
  trainingId: string;
  /** Whether any of the user's own columns holds something. */
  hasUserContent: boolean;
  /** The completion date as a number that orders the rows (later is larger). */
  completionDate: number;
}

/** The rows of the tab as `content` holds them (see readTabContent). */
export function heldRowsOf(content: TabContent | null): HeldRow[] {
  const cell = (record: TabRecord, field: keyof typeof COMPLETION_COLUMN) =>
    record.table[COMPLETION_COLUMN[field]];
  return (content?.records ?? [])
    .filter((record) => record.key !== '')
    .map((record) => ({
      key: record.key,
      userId: String(cell(record, 'userId')),
      trainingId: String(cell(record, 'trainingId')),
      hasUserContent: record.hasUserContent,
      completionDate: Number(cell(record, 'completionDate')) || 0,
    }));
}

function describeRow(row: HeldRow): string {
  return `user ${row.userId}, training ${row.trainingId}`;
}

/** The filtered reads that confirm the removal of `removed` rows: one per user and training. */
function removalChecks(removed: readonly HeldRow[]): { filter: CompletionsFilter; rows: HeldRow[] }[] {
  const byFilter = new Map<string, { filter: CompletionsFilter; rows: HeldRow[] }>();
  for (const row of removed.filter((held) => held.hasUserContent)) {
    const filter: CompletionsFilter = {};
    // An empty id cannot filter (the service would take it as no filter): the other one does.
    if (row.userId !== '') filter.user_id = row.userId;
    if (row.trainingId !== '') filter.training_id = row.trainingId;
    if (!filter.user_id && !filter.training_id) continue;
    const signature = JSON.stringify([filter.user_id, filter.training_id]);
    const group = byFilter.get(signature) ?? { filter, rows: [] };
    group.rows.push(row);
    byFilter.set(signature, group);
  }
  return [...byFilter.values()];
}

/** Rounds a check of one user's completions of one training takes at most, as a rule. */
const ROUNDS_A_CHECK = 3;

/** What confirming removals came to: the Sync log's sentence, or a pause; and which rows it confirmed gone. */
export type RemovalCheck =
  | { note: string | null; confirmedGone: string[]; stillListed: HeldRow[] }
  | { paused: true; confirmedGone: string[] };

/**
 * Confirms that the records of `removed` rows with the user's content are gone, one filtered read
 * per user and training (rows in `confirmedGone`, checked by an earlier execution of the run, are
 * not read again), and lists those the service still lists (see stillListedRefusal). `control` may
 * pause it between checks: what it confirmed so far comes back, for the next execution to go on from.
 */
export function confirmRemovals(
  client: ServiceClient,
  batchSize: number,
  removed: readonly HeldRow[],
  control: ReadControl & { canAfford?: (rounds: number) => boolean },
  confirmedGone: ReadonlySet<string>,
  first = false,
): RemovalCheck {
  let begun = 0;
  const canBegin = () =>
    !control.shouldPause?.() && ((first && begun === 0) || (control.canAfford?.(ROUNDS_A_CHECK) ?? true));
  const withContent = removed.filter((row) => row.hasUserContent);
  const confirmed = withContent.filter((row) => confirmedGone.has(row.key)).map((row) => row.key);
  const stillListed: HeldRow[] = [];
  for (const { filter, rows } of removalChecks(removed.filter((row) => !confirmedGone.has(row.key)))) {
    if (!canBegin()) return { paused: true, confirmedGone: confirmed };
    begun++;
    // A check is read whole once begun, in one pass: paused midway, it would begin again from
    // page 1 in the next execution, and on a slow network never end. One pass answers whether a
    // record is listed (a change while it reads may hide one: the row is then kept, as listed,
    // or goes as gone, as the pass saw it). It begins only where a read of a few pages fits, and
    // always first thing in an execution (`first`).
    const read = readCompletionPages(client, { filter, onePass: true }, batchSize, {
      ...(control.round && { round: control.round }),
    });
    // How many times the service lists each record: a row is its record's n-th twin.
    const listed = new Map<string, number>();
    for (const record of read.records) {
      const key = completionKey(record);
      listed.set(key, (listed.get(key) ?? 0) + 1);
    }
    for (const row of rows) {
      const { key, occurrence } = splitRowKey(row.key);
      if ((listed.get(key) ?? 0) >= occurrence) stillListed.push(row);
      else confirmed.push(row.key);
    }
  }
  return {
    confirmedGone: confirmed,
    stillListed,
    note: listProblems(
      withContent.length,
      withContent.map(describeRow),
      withContent.length === 1
        ? 'row with your own notes removed, because its record is gone (the service no longer lists it for its user and training)'
        : 'rows with your own notes removed, because their records are gone (the service no longer lists them for their user and training)',
    ),
  };
}

/** The refusal when rows with the user's notes are missing from the full read but still listed. */
export function stillListedRefusal(stillListed: readonly HeldRow[]): UserFacingError {
  return new UserFacingError(
    `Nothing was changed: ${listProblems(
      stillListed.length,
      stillListed.map(describeRow),
      stillListed.length === 1
        ? 'row with your own notes was missing from the full read, but the service still lists its record'
        : 'rows with your own notes were missing from the full read, but the service still lists their records',
    )} Run the import again; if this repeats, send the request IDs in the Sync log to the service's support.`,
  );
}
