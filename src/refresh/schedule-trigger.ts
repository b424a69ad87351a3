/**
 * The schedule's time-driven trigger. An add-on may have one per user per document, so saving a
 * schedule first deletes the user's trigger for this spreadsheet; a trigger can only be deleted by
 * the user who created it, so a trigger that finds itself replaced or left behind deletes itself.
 */
import { configureTrigger, type Frequency } from './schedule-frequency';
import { forgetTrigger, rememberTriggerSpreadsheet, spreadsheetIdOfTrigger } from './schedule-store';

/** The top-level function the trigger runs (an export of src/main.ts). */
export const SCHEDULED_REFRESH_HANDLER = 'runScheduledRefresh';

/** Creates the current user's trigger for the active spreadsheet; returns its id. */
export function createScheduleTrigger(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  frequency: Frequency,
): string {
  const builder = ScriptApp.newTrigger(SCHEDULED_REFRESH_HANDLER).timeBased();
  const trigger = configureTrigger(builder, frequency, spreadsheet.getSpreadsheetTimeZone()).create();
  const uid = trigger.getUniqueId();
  rememberTriggerSpreadsheet(uid, spreadsheet.getId());
  return uid;
}

/**
 * Deletes the current user's schedule triggers for this spreadsheet (there is at most one). Google
 * does not document whether getUserTriggers(spreadsheet) lists time-driven triggers, so they are
 * also found among the user's project triggers by the spreadsheet each trigger's id is kept with.
 */
export function deleteMyScheduleTriggers(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  const spreadsheetId = spreadsheet.getId();
  const mine = new Map<string, GoogleAppsScript.Script.Trigger>();
  for (const trigger of ScriptApp.getUserTriggers(spreadsheet)) mine.set(trigger.getUniqueId(), trigger);
  for (const trigger of ScriptApp.getProjectTriggers()) {
    if (spreadsheetIdOfTrigger(trigger.getUniqueId()) === spreadsheetId)
      mine.set(trigger.getUniqueId(), trigger);
  }
  for (const [uid, trigger] of mine) {
    if (trigger.getHandlerFunction() !== SCHEDULED_REFRESH_HANDLER) continue;
    forgetTrigger(uid);
    ScriptApp.deleteTrigger(trigger);
  }
}

/** Run from the trigger itself: deletes it (it must be the current user's) and forgets its spreadsheet. */
export function deleteTriggerById(triggerUid: string): void {
  for (const trigger of ScriptApp.getProjectTriggers()) {
    if (trigger.getUniqueId() === triggerUid) ScriptApp.deleteTrigger(trigger);
  }
  forgetTrigger(triggerUid);
}
