/**
 * The tabs a training run writes together — Trainings, People, Requirements, Exemptions, Training
 * matrix, Expiring trainings and Compliance history — each found by its sheet id (platform/addon-tabs.ts), under whatever name its user gave
 * it, and kept together in the document state, as they are written together.
 */
import type { DocumentState } from '../platform/document-state';
import {
  type AddonTab,
  addonTab,
  findAddonTab,
  type FoundTab,
  keepAddonTabIds,
} from '../platform/addon-tabs';
import { CATALOGUE_SHEET } from './catalogue';
import { EXPIRING_SHEET } from './expiring';
import { MATRIX_SHEET } from './matrix';
import { PEOPLE_SHEET } from './people';
import { REQUIREMENTS_SHEET } from './requirements';
import { EXEMPTIONS_SHEET } from './exemptions';
import { HISTORY_SHEET } from './compliance-history';

const STATE_KEY = 'safetySync.trainingTabs';
const TRAINING_TABS = {
  catalogue: addonTab(STATE_KEY, 'catalogue', CATALOGUE_SHEET),
  people: addonTab(STATE_KEY, 'people', PEOPLE_SHEET),
  requirements: addonTab(STATE_KEY, 'requirements', REQUIREMENTS_SHEET),
  exemptions: addonTab(STATE_KEY, 'exemptions', EXEMPTIONS_SHEET),
  matrix: addonTab(STATE_KEY, 'matrix', MATRIX_SHEET),
  expiring: addonTab(STATE_KEY, 'expiring', EXPIRING_SHEET),
  history: addonTab(STATE_KEY, 'history', HISTORY_SHEET),
} as const satisfies Record<string, AddonTab>;
export const CATALOGUE_ADDON_TAB = TRAINING_TABS.catalogue;
export const EXPIRING_ADDON_TAB = TRAINING_TABS.expiring;

export type TrainingTab = keyof typeof TRAINING_TABS;
const TAB_ORDER = Object.keys(TRAINING_TABS) as TrainingTab[];

/** The training tabs, each where the run found it. */
export interface FoundTrainingTabs {
  found: Record<TrainingTab, FoundTab>;
  /** The name each has now, or the one it is made under. */
  names: Record<TrainingTab, string>;
}

export function findTrainingTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
): FoundTrainingTabs {
  const found = Object.fromEntries(
    TAB_ORDER.map((tab) => [tab, findAddonTab(spreadsheet, state, TRAINING_TABS[tab])]),
  ) as Record<TrainingTab, FoundTab>;
  const names = Object.fromEntries(
    TAB_ORDER.map((tab) => [tab, found[tab].sheet?.getName() ?? found[tab].newName!]),
  ) as Record<TrainingTab, string>;
  return { found, names };
}

/** Records where the tabs are now (null: a tab whose id the run could not read). */
export function keepTrainingTabIds(state: DocumentState, ids: Record<TrainingTab, number | null>): void {
  keepAddonTabIds(
    state,
    TAB_ORDER.map((tab) => [TRAINING_TABS[tab], ids[tab]]),
  );
}

/** The tabs their user had deleted, which the run made again, by their own names. */
export function remadeSheets({ found }: FoundTrainingTabs): string[] {
  return TAB_ORDER.flatMap((tab) => (found[tab].deleted ? [TRAINING_TABS[tab].name] : []));
}
