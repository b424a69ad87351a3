/**
 * "Last refreshed": when every import of the spreadsheet last ran to its end (Refresh all or the
 * schedule), and whether the data is stale: with a schedule, when that is more than twice its
 * interval ago, or the schedule paused itself. Users see it where they look:
 * - a note on the header cell (A1) of every imported tab, rewritten after each refresh, scheduled
 *   or not, so the warning appears when a scheduled run fails and clears when one succeeds;
 * - the Safety Sync menu (built when the spreadsheet opens, when the add-on may read the document);
 * - the Schedule refresh and Settings dialogs.
 */
import { findLinkedTabs } from '../equipment/linked-tabs';
import { findAddonTab } from '../platform/addon-tabs';
import { DocumentState, readDocumentState, writeDocumentState } from '../platform/document-state';
import { COMPLETIONS_ADDON_TAB } from '../trainings/completions-tab';
import { describeFrequency, intervalMs } from './schedule-frequency';
import { readSchedule, type RunProblem, type RefreshSchedule } from './schedule-store';

const REFRESHED_KEY = 'safetySync.lastRefreshed';
/** The data is stale when the last refresh is older than this many intervals of the schedule. */
const STALE_AFTER_INTERVALS = 2;

export interface RefreshStatus {
  /** "1 Mar 2024, 14:05", in the spreadsheet's time zone; null before the first refresh. */
  lastRefreshed: string | null;
  stale: boolean;
  scheduled: boolean;
  /** What the user should know, in sentences: when, how often, and what is wrong if anything. */
  sentences: string[];
}

export function markRefreshed(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, atMs: number): void {
  writeDocumentState(spreadsheet, REFRESHED_KEY, { atMs });
}

function lastRefreshedMs(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): number | null {
  return readDocumentState<{ atMs: number }>(spreadsheet, REFRESHED_KEY)?.atMs ?? null;
}

/** A moment as the spreadsheet's users read it. */
export function formatMoment(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, epochMs: number): string {
  return Utilities.formatDate(new Date(epochMs), spreadsheet.getSpreadsheetTimeZone(), 'd MMM yyyy, HH:mm');
}

export function describeProblem(problem: RunProblem): string {
  return problem.requestId ? `${problem.identifier} (request ID ${problem.requestId})` : problem.identifier;
}

function isStale(schedule: RefreshSchedule | null, lastMs: number | null, nowMs: number): boolean {
  if (!schedule) return false;
  if (schedule.paused) return true;
  const since = lastMs ?? schedule.createdAtMs;
  return nowMs - since > STALE_AFTER_INTERVALS * intervalMs(schedule.frequency);
}

export function refreshStatus(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): RefreshStatus {
  const schedule = readSchedule(spreadsheet);
  const lastMs = lastRefreshedMs(spreadsheet);
  const lastRefreshed = lastMs === null ? null : formatMoment(spreadsheet, lastMs);
  const stale = isStale(schedule, lastMs, Date.now());
  const sentences = [lastRefreshed ? `Last refreshed ${lastRefreshed}.` : 'Not refreshed yet.'];
  if (schedule && !schedule.paused) {
    sentences.push(`Scheduled refresh: ${describeFrequency(schedule.frequency, schedule.timeZone)}.`);
  }
  if (schedule?.paused) {
    sentences.push(
      `The scheduled refresh paused itself on ${formatMoment(spreadsheet, schedule.paused.atMs)} after ` +
        `repeated ${schedule.paused.identifier} errors. Save a working token in Safety Sync → Settings…, ` +
        'then save the schedule again in Safety Sync → Schedule refresh… to resume it.',
    );
  } else if (stale && schedule) {
    const problem = schedule.lastProblem
      ? ` The last scheduled run failed: ${describeProblem(schedule.lastProblem)}.`
      : '';
    sentences.push(
      `This data may be out of date: the last refresh was more than twice the schedule's interval ago.${problem} ` +
        'See the Sync log tab.',
    );
  }
  return { lastRefreshed, stale, scheduled: schedule !== null, sentences };
}

/** Writes the status as a note on the header cell of every imported tab, once there is one to tell. */
export function showRefreshStatus(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  const status = refreshStatus(spreadsheet);
  if (status.lastRefreshed === null && !status.scheduled) return;
  const note = [
    status.stale ? 'Safety Sync: DATA MAY BE OUT OF DATE' : 'Safety Sync',
    ...status.sentences,
  ].join('\n');
  // The imported tabs, found by their sheet ids under whatever names their user gave them.
  const state = DocumentState.read(spreadsheet);
  const { types, metafields, schedules, upcoming } = findLinkedTabs(spreadsheet, state).sheets;
  const completions = findAddonTab(spreadsheet, state, COMPLETIONS_ADDON_TAB).sheet;
  for (const sheet of [completions, types, metafields, schedules, upcoming])
    sheet?.getRange(1, 1).setNote(note);
}

/** The menu's status line, or null when there is nothing to say. */
export function refreshStatusCaption(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string | null {
  const status = refreshStatus(spreadsheet);
  if (status.stale) {
    return status.lastRefreshed
      ? `⚠ Out of date: last refreshed ${status.lastRefreshed}`
      : '⚠ Out of date: never refreshed';
  }
  return status.lastRefreshed ? `Last refreshed ${status.lastRefreshed}` : null;
}
