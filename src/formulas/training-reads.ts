/**
 * What the training functions read from this spreadsheet's tabs, for one call: the completions, the
 * Trainings catalogue and, for a compliance share, the Exemptions tab. The tabs are found by the ids
 * the add-on keeps in the document state; where a custom function may not read it (developer
 * metadata in every authorisation mode is not documented), by their usual names, with the default
 * options. None of these is an argument: a formula sees a change to them when it recalculates.
 */
import { DocumentState } from '../platform/document-state';
import { DEFAULT_IMPORT_OPTIONS, readImportOptions } from '../platform/settings-store';
import type { SpreadsheetClock } from '../platform/time-zone';
import { wholeTabValues } from '../sheets/input-tab';
import { EXEMPTIONS_SHEET, readExemptions } from '../trainings/exemptions';
import { findTrainingTabs } from '../trainings/training-tab-set';
import { readTrainingSources, type TrainingSources } from '../trainings/training-sources';
import type { MatrixTabs } from './people-formulas';
import { type TrainingFacts, trainingFacts } from './training-formulas';

interface TrainingTabsRead {
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  /** null where a custom function may not read it. */
  state: DocumentState | null;
  sources: TrainingSources;
  defaultExpiringDays: number;
}

function readTrainingTabs(clock: SpreadsheetClock): TrainingTabsRead {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  let state: DocumentState | null;
  try {
    state = DocumentState.read(spreadsheet);
  } catch {
    state = null;
  }
  const defaultExpiringDays = (state ? readImportOptions(state) : DEFAULT_IMPORT_OPTIONS)
    .trainingExpiringDays;
  const sources = readTrainingSources(spreadsheet, state, clock.utcOffsetAt, defaultExpiringDays);
  return { spreadsheet, state, sources, defaultExpiringDays };
}

/** Each pair's completions and each training's rule, for SAFETY_TRAINING_STATUS and _EXPIRY. */
export function readTrainingFacts(clock: SpreadsheetClock): TrainingFacts {
  const { sources, defaultExpiringDays } = readTrainingTabs(clock);
  return trainingFacts(sources.completionsTab.completions, sources.catalogue, defaultExpiringDays);
}

/** The completions, the catalogue and the exemptions, for a share counted as the Training matrix counts. */
export function readMatrixTabs(clock: SpreadsheetClock): MatrixTabs {
  const { spreadsheet, state, sources, defaultExpiringDays } = readTrainingTabs(clock);
  // Found as findAddonTab finds the add-on's tabs: by the id kept with the other training tabs', or
  // without the state by its usual name.
  const exemptionsSheet = state
    ? findTrainingTabs(spreadsheet, state).found.exemptions.sheet
    : spreadsheet.getSheetByName(EXEMPTIONS_SHEET);
  return {
    completions: sources.completionsTab.completions,
    catalogue: sources.catalogue,
    exemptions: readExemptions(wholeTabValues(exemptionsSheet)),
    defaultExpiringDays,
  };
}
