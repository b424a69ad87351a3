/**
 * Safety Sync → Show training status, and the same recomputation after every import and refresh of
 * completed trainings: the training tabs from the tabs already in the spreadsheet, for today in its
 * time zone, without a request (so it needs no connection). Editing the Trainings tab and choosing
 * the menu item is how a manager sees the effect of a validity or a "required" at once.
 */
import { activeSpreadsheet, requireUi } from '../platform/interactive';
import { holdingDocumentLock, type JobContext, type JobReport } from '../platform/job-runner';
import { readImportOptions } from '../platform/settings-store';
import { takeWrittenOverview } from '../platform/overview/overview-tab';
import type { SheetGrid, TabSize } from '../sheets/cell-limit';
import { completionsOfTable } from './completions-tab';
import {
  planTrainingTabs,
  type TrainingTabsPlan,
  type TrainingTabsWritten,
  writeTrainingTabs,
} from './training-tabs';

const SHOW_TRAINING_STATUS_ACTION = 'Show training status';

export function showTrainingStatus(): void {
  const ui = requireUi(SHOW_TRAINING_STATUS_ACTION);
  try {
    const spreadsheet = activeSpreadsheet();
    const outcome = holdingDocumentLock(spreadsheet, (clock, state) =>
      writeTrainingTabs(
        spreadsheet,
        { utcOffsetAt: clock.utcOffsetAt, today: clock.today() },
        readImportOptions(spreadsheet).trainingExpiringDays,
        // Nothing was read from the service: the Overview says when the completions last were.
        { state, upkeep: true, refreshedAtMs: null },
      ),
    );
    // The landing page, which it rewrote: its figures link to the lists.
    (takeWrittenOverview() ?? outcome.matrixSheet).activate();
    spreadsheet.toast(outcome.summary, 'Safety Sync', 10);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ui.alert(`Safety Sync: ${SHOW_TRAINING_STATUS_ACTION} failed`, message, ui.ButtonSet.OK);
  }
}

/**
 * A refresh of completed trainings that ran to its end (it holds the document lock) brings the
 * training tabs up to date from the tab (a full import plans them with its own writes: see
 * planTrainingStatus). The completions are in by then: a training status that cannot be written
 * does not fail the refresh: its report says why, and the training tabs keep their content.
 */
export function withTrainingStatus(context: JobContext, report: JobReport): JobReport {
  if (report.continuing) return report;
  return withTrainingOutcome(report, () =>
    writeTrainingTabs(
      context.spreadsheet,
      { utcOffsetAt: context.utcOffsetAt, today: context.today },
      context.options.trainingExpiringDays,
      { state: context.state, upkeep: true, refreshedAtMs: Date.now() },
    ),
  );
}

/**
 * The training tabs of a full import, planned from the rows it is about to write on "Completed
 * trainings" (read, computed and checked before the import writes anything), or why they cannot be.
 */
export function planTrainingStatus(
  context: JobContext,
  rows: readonly (readonly unknown[])[],
  grids: readonly SheetGrid[],
  completionsTab: TabSize,
): TrainingTabsPlan | { failure: string } {
  try {
    return planTrainingTabs(
      context.spreadsheet,
      completionsOfTable(rows, context.utcOffsetAt),
      { utcOffsetAt: context.utcOffsetAt, today: context.today },
      context.options.trainingExpiringDays,
      grids,
      // The Overview's numbers only, when it is there: its tab and charts cost more Spreadsheet
      // calls than the full import can spare (docs/performance.md, Benchmark); the other runs make them.
      { state: context.state, upkeep: false, refreshedAtMs: Date.now() },
      [completionsTab],
    );
  } catch (error) {
    return { failure: trainingFailure(error) };
  }
}

/**
 * A report with the training tabs' outcome: a failure to update them is said, not thrown, and so
 * are tabs their user had deleted, which the write made again, and the months Compliance history
 * recorded.
 */
export function withTrainingOutcome(report: JobReport, write: () => TrainingTabsWritten): JobReport {
  try {
    const { remade, history } = write();
    const said = [remade, history].filter((part) => part !== null).join(' ');
    return said ? { ...report, details: `${report.details ?? report.summary} ${said}` } : report;
  } catch (error) {
    return withFailure(report, trainingFailure(error));
  }
}

function trainingFailure(error: unknown): string {
  return `The training tabs were not updated: ${error instanceof Error ? error.message : String(error)}`;
}

export function withFailure(report: JobReport, failure: string): JobReport {
  return {
    ...report,
    summary: `${report.summary} ${failure}`,
    details: `${report.details ?? report.summary} ${failure}`,
  };
}
