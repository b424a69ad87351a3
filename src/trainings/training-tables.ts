/**
 * What the Trainings tab, the Training matrix, the Expiring trainings list, Compliance history and
 * the Overview's roll-ups show, computed from the completions, the catalogue, and the People,
 * Requirements and Exemptions tabs, for one day; the tabs' sizes are checked before the cells'
 * statuses are computed, and again with the list's and the history's real sizes.
 */
import type { TabSize } from '../sheets/cell-limit';
import type { TabContent } from '../sheets/tab-content';
import type { CalendarDate } from '../lib/dates';
import { CATALOGUE_COLUMNS, type CatalogueEntry, type CatalogueRead, mergeCatalogue } from './catalogue';
import type { CompletionRow } from './completions-tab';
import { EXPIRING_COLUMNS, type ExpiringEntry, expiringEntries, expiringRowCount } from './expiring';
import { groupsBySite, matrixPeople, type TrainingMatrix, trainingMatrix } from './matrix';
import { matrixSize } from './matrix-grid';
import type { RosterEntry } from './people';
import type { Requirement } from './requirements';
import type { TrainingTab } from './training-tab-set';
import { rollUps, type RollUps } from './roll-ups';
import { historyUpdate, type HistoryUpdate, matrixAsOf } from './compliance-history';

export interface TrainingTables {
  trainings: CatalogueEntry[];
  matrix: TrainingMatrix;
  entries: ExpiringEntry[];
  /** The Overview's figures by site and department; null while nobody has either. */
  rollUps: RollUps | null;
  history: HistoryUpdate;
}

export interface TrainingTableSources {
  catalogue: CatalogueRead;
  completions: readonly CompletionRow[];
  /** The People tab after this run. */
  roster: readonly RosterEntry[];
  requirements: readonly Requirement[];
  /** The Exemptions tab: exempted pairs (pairKey) and their reasons. */
  exemptions: ReadonlyMap<string, string>;
  /** The matrix's "Show inactive people" choice. */
  showInactive: boolean;
  today: CalendarDate;
  defaultExpiringDays: number;
  /** Compliance history as the tab holds it. */
  history: Pick<TabContent, 'records' | 'layout'>;
}

/**
 * The trainings, the matrix and the expiring list; `checkRoom` refuses the tabs' sizes before
 * anything is written: first before the statuses of every cell are computed, then again with the
 * list's real size.
 */
export function computeTrainingTables(
  sources: TrainingTableSources,
  names: Record<TrainingTab, string>,
  checkRoom: (sizes: TabSize[]) => void,
): TrainingTables {
  const { catalogue, completions, roster, requirements, exemptions, showInactive } = sources;
  const requiredIds = requirements.map((requirement) => requirement.trainingId);
  const trainings = mergeCatalogue(catalogue, completions, sources.defaultExpiringDays, requiredIds);
  const catalogueSize: TabSize = {
    sheetName: names.catalogue,
    rows: trainings.length + 1,
    columns: Math.max(catalogue.lastColumn, CATALOGUE_COLUMNS.length) + catalogue.missingHeaders.length,
  };
  const people = matrixPeople(roster, showInactive);
  const shape = {
    bySite: groupsBySite(people),
    requirementsListed: requirements.length > 0,
    exemptionsListed: exemptions.size > 0,
  };
  const matrixTabSize = { sheetName: names.matrix, ...matrixSize(shape, people.length, trainings.length) };
  checkRoom([catalogueSize, matrixTabSize]);
  const matrix = trainingMatrix({ ...sources, trainings });
  const entries = expiringEntries(matrix);
  const expiringSize = {
    sheetName: names.expiring,
    rows: expiringRowCount(entries) + 1,
    columns: EXPIRING_COLUMNS.length,
  };
  const history = complianceHistory(sources, trainings, matrix);
  const historySize = {
    sheetName: names.history,
    rows: history.table.rows.length + 1,
    columns: sources.history.layout.width,
  };
  checkRoom([catalogueSize, matrixTabSize, expiringSize, historySize]);
  return { trainings, matrix, entries, rollUps: rollUps(matrix), history };
}

/** The history's rows after this run; the day's own matrix serves this month when everyone has started. */
function complianceHistory(
  sources: TrainingTableSources,
  trainings: CatalogueEntry[],
  matrix: TrainingMatrix,
): HistoryUpdate {
  const { today, roster, completions } = sources;
  const started = roster.every((entry) => entry.startDate === null || entry.startDate <= today);
  const earliest = completions.reduce<CalendarDate | null>(
    (first, row) => (first === null || row.completed < first ? row.completed : first),
    null,
  );
  return historyUpdate(
    sources.history.records,
    (day) => (day === today && started ? matrix : matrixAsOf({ ...sources, trainings }, day)),
    { today, earliest, pairs: roster.length * trainings.length },
  );
}
