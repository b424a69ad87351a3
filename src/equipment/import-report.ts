/**
 * What an equipment import says when it has written its tabs: one summary sentence for the user
 * (types added and removed, inspections due, text cut, tabs made again) and, for the Sync log, the
 * notes on what it skipped or removed.
 */
import type { EquipmentType, RejectedRecord } from '../api/schemas';
import { formatCount } from '../lib/numbers';
import type { TextCut } from '../sheets/cell-text';
import type { JobReport } from '../platform/job-runner';
import {
  describeCuts,
  describeRejected,
  LISTED_PROBLEMS,
  listProblems,
  summarizeRejected,
} from '../platform/problem-lists';
import { InspectionStatus } from './inspections';
import { describeDeletedTabs, type EquipmentTab } from './linked-tabs';
import { describeInspectionCounts, type InspectionCounts, type ScheduleEntry } from './upcoming';

/** What the run read, wrote and left out, as the report needs it. */
export interface EquipmentImportFacts {
  types: readonly EquipmentType[];
  rejected: readonly RejectedRecord[];
  metafieldCount: number;
  scheduleCount: number;
  /** The type ids the types tab held before the run. */
  typeIdsBefore: ReadonlySet<string>;
  scheduleEntries: readonly ScheduleEntry[];
  /** The "Last inspected" cells the schedules tab held before the run, by partKey. */
  lastInspected: ReadonlyMap<string, unknown>;
  /** Every text cut to fit a cell, in the order the run cut them. */
  cuts: readonly TextCut[];
  counts: InspectionCounts;
  horizonDays: number;
  /** Tabs someone deleted that the run made again. */
  deleted: readonly EquipmentTab[];
  /** The note of the first large write that took the slower way, or null. */
  slowerWrite: string | null;
  metafieldsWithNotes: number;
  userRowsDropped: number;
  /** What the Inspection log gained, in a sentence; null when nothing. */
  logged: string | null;
}

export function reportEquipmentImport(facts: EquipmentImportFacts): JobReport {
  const { types, rejected, typeIdsBefore, scheduleEntries } = facts;
  const typeIds = new Set(types.map((type) => type.id));
  const added = [...typeIds].filter((id) => !typeIdsBefore.has(id)).length;
  const removed = [...typeIdsBefore].filter((id) => !typeIds.has(id)).length;
  const scheduleKeys = new Set(scheduleEntries.map((entry) => entry.key));
  const datesDropped = [...facts.lastInspected.keys()].filter((key) => !scheduleKeys.has(key)).length;
  const unsupported = scheduleEntries.filter(
    (entry) => entry.inspection.status === InspectionStatus.unsupportedSchedule,
  );

  const summary = [
    `Imported ${formatCount(types.length)} equipment types (${added} new, ${removed} removed), ` +
      `${formatCount(facts.metafieldCount)} metafields and ${formatCount(facts.scheduleCount)} schedules` +
      `${rejected.length ? `; ${rejected.length} records skipped` : ''}.`,
    describeInspectionCounts(facts.counts, facts.horizonDays),
    facts.logged,
    describeCuts(facts.cuts),
    facts.deleted.length ? `${describeDeletedTabs(facts.deleted)} and made again.` : null,
  ]
    .filter((sentence): sentence is string => sentence !== null)
    .join(' ');
  const notes = [
    facts.slowerWrite,
    listProblems(
      unsupported.length,
      unsupported
        .slice(0, LISTED_PROBLEMS)
        .map((entry) => `schedule ${entry.scheduleId} (${entry.inspection.reason ?? ''})`),
      'schedules imported with status "Unsupported schedule"',
    ),
    facts.metafieldsWithNotes
      ? `${facts.metafieldsWithNotes} metafields imported with a note (see their Note column).`
      : null,
    describeRejected(summarizeRejected(rejected)),
    datesDropped
      ? `${datesDropped} "Last inspected" dates belonged to schedules the service no longer lists and were removed.`
      : null,
    facts.userRowsDropped
      ? `${facts.userRowsDropped} rows with values in your own columns were removed with their type, metafield or schedule.`
      : null,
  ].filter((note): note is string => note !== null);
  return { added, removed, summary, details: [summary, ...notes].join(' ') };
}
