/**
 * Safety Sync → Schedule refresh…: how often this spreadsheet refreshes itself, whose schedule it is
 * (it runs with its creator's token), when it last ran and how that went.
 *
 * One schedule per spreadsheet: saving replaces the one there (the previous creator's trigger finds
 * itself replaced at its next run and deletes itself, since only its creator may). The functions the
 * dialog calls are top-level, so an editor could type them into a cell: none returns a token, and
 * the ones that change the schedule refuse to run there.
 */
import { type FieldOutcome, refusalOf, refuseField } from '../platform/field-refusal';
import { activeSpreadsheet, requireUi } from '../platform/interactive';
import { formatMoment, refreshStatus } from './status';
import { currentUserEmail } from '../platform/job-runner';
import {
  frequencyFields,
  frequencyFromForm,
  type FrequencyFields,
  type ScheduleForm,
  type ScheduleOptions,
  scheduleOptions,
} from './schedule-frequency';
import { deleteSchedule, readSchedule, type RefreshSchedule, writeSchedule } from './schedule-store';
import { createScheduleTrigger, deleteMyScheduleTriggers } from './schedule-trigger';
import { confirmNewSchedule, isScheduleOwner, userKey } from './schedule-owner';
import { missingConnectionParts, readConnection } from '../platform/settings-store';

export interface ScheduleView extends FrequencyFields {
  /** The lists the dialog's choices offer. */
  options: ScheduleOptions;
  /** The spreadsheet's time zone, which a daily or monthly hour follows. */
  timeZone: string;
  scheduled: boolean;
  /** Who created the schedule: their e-mail ('' when Google does not reveal it). */
  owner: string;
  /** Whether the creator is the user looking, told even when the e-mail is hidden. */
  ownedByYou: boolean;
  /** "1 Mar 2024, 14:05" and one sentence, or null before the first scheduled run. */
  lastRun: string | null;
  lastRunSummary: string | null;
  paused: boolean;
  stale: boolean;
  /** Last refreshed, how often, and what is wrong if anything. */
  status: string[];
}

export type ScheduleSaveOutcome = FieldOutcome<keyof ScheduleForm, { schedule: ScheduleView }>;

export function showScheduleDialog(): void {
  const ui = requireUi('Schedule refresh');
  const html = HtmlService.createHtmlOutputFromFile('schedule').setWidth(440).setHeight(670);
  ui.showModalDialog(html, 'Schedule refresh');
}

function viewOf(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): ScheduleView {
  const schedule = readSchedule(spreadsheet);
  const status = refreshStatus(spreadsheet);
  return {
    ...frequencyFields(schedule?.frequency ?? null),
    options: scheduleOptions(),
    timeZone: spreadsheet.getSpreadsheetTimeZone(),
    owner: schedule?.ownerEmail ?? '',
    scheduled: schedule !== null,
    ownedByYou: isScheduleOwner(schedule),
    lastRun: schedule?.lastRunAtMs ? formatMoment(spreadsheet, schedule.lastRunAtMs) : null,
    lastRunSummary: schedule?.lastRunSummary ?? null,
    paused: schedule?.paused != null,
    stale: status.stale,
    status: status.sentences,
  };
}

export function getSchedule(): ScheduleView {
  // From a cell it would show any editor whose schedule it is (their e-mail) and how its runs went.
  requireUi('Reading the schedule');
  return viewOf(activeSpreadsheet());
}

/** Creates (or replaces) this spreadsheet's schedule with the user's own trigger; "off" removes it. */
export function saveSchedule(form: ScheduleForm): ScheduleSaveOutcome {
  requireUi('Scheduling a refresh');
  const spreadsheet = activeSpreadsheet();
  let frequency;
  try {
    frequency = frequencyFromForm(form);
  } catch (error) {
    const refusal = refusalOf<keyof ScheduleForm>(error);
    if (refusal) return refusal;
    throw error;
  }
  if (frequency === null) return { ok: true, schedule: removeSchedule() };
  const missing = missingConnectionParts(readConnection());
  if (missing) {
    return refuseField('every', `The schedule runs with your own connection. ${missing}`);
  }
  const previous = readSchedule(spreadsheet);
  deleteMyScheduleTriggers(spreadsheet);
  let triggerUid: string;
  try {
    triggerUid = createScheduleTrigger(spreadsheet, frequency);
  } catch (error) {
    // Ours was deleted above: the spreadsheet must not claim a schedule that no longer runs.
    if (previous && isScheduleOwner(previous)) deleteSchedule(spreadsheet);
    const reason = error instanceof Error ? error.message : String(error);
    return refuseField('every', `Google refused the schedule: ${reason}`);
  }
  const schedule: RefreshSchedule = {
    frequency,
    timeZone: spreadsheet.getSpreadsheetTimeZone(),
    triggerUid,
    ownerEmail: currentUserEmail(),
    ownerKey: userKey(),
    createdAtMs: Date.now(),
    lastRunAtMs: null,
    lastRunSummary: null,
    lastProblem: null,
    authFailuresInARow: 0,
    paused: null,
  };
  writeSchedule(spreadsheet, schedule);
  confirmNewSchedule(spreadsheet, previous, schedule);
  return { ok: true, schedule: viewOf(spreadsheet) };
}

/**
 * Removes this spreadsheet's schedule, whoever created it (as any editor may turn it off). The
 * user's own trigger is deleted now; another user's deletes itself at its next run.
 */
export function removeSchedule(): ScheduleView {
  requireUi('Removing the scheduled refresh');
  const spreadsheet = activeSpreadsheet();
  deleteMyScheduleTriggers(spreadsheet);
  deleteSchedule(spreadsheet);
  return viewOf(spreadsheet);
}
