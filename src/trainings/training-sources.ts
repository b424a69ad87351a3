/**
 * What the custom functions compute training statuses from (formulas/training-reads.ts): the
 * imported completions and the user's catalogue, read as they are, with no tab written.
 */
import type { UtcOffsetAt } from '../lib/dates';
import type { DocumentState } from '../platform/document-state';
import { findAddonTab } from '../platform/addon-tabs';
import { wholeTabValues } from '../sheets/input-tab';
import { type CatalogueRead, readCatalogue } from './catalogue';
import { type CompletionsTab, readCompletionsTab } from './completions-tab';
import { CATALOGUE_ADDON_TAB } from './training-tab-set';

export interface TrainingSources {
  completionsTab: CompletionsTab;
  catalogueSheet: GoogleAppsScript.Spreadsheet.Sheet | null;
  catalogue: CatalogueRead;
}

/**
 * What every training status is computed from: the imported completions and the user's catalogue.
 * `state`: null where the document state cannot be read (see findAddonTab).
 */
export function readTrainingSources(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState | null,
  utcOffsetAt: UtcOffsetAt,
  defaultExpiringDays: number,
): TrainingSources {
  const completionsTab = readCompletionsTab(spreadsheet, state, utcOffsetAt);
  const catalogueSheet = findAddonTab(spreadsheet, state, CATALOGUE_ADDON_TAB).sheet;
  return {
    completionsTab,
    catalogueSheet,
    catalogue: readCatalogue(wholeTabValues(catalogueSheet), defaultExpiringDays),
  };
}
