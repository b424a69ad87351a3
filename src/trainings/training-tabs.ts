/**
 * Writes the training tabs (Trainings, People, Training matrix, Expiring trainings, Compliance
 * history) from what the
 * spreadsheet already holds ("Completed trainings" and the user's cells of Trainings and People), for
 * one day, with no request: read everything, check that it all fits, then write, with a number of
 * Spreadsheet calls that does not grow with the completions. Each tab is found by its sheet id
 * (training-tab-set.ts), under whatever name its user gave it.
 */
import { STATUS_COLOURS } from '../sheets/status-words';
import type { CalendarDate, UtcOffsetAt } from '../lib/dates';
import type { Table } from '../sheets/table';
import { checkRoomForTabs, readSheetGrids, type SheetGrid, type TabSize } from '../sheets/cell-limit';
import { readStatusColours } from '../sheets/conditional-formats';
import { readTab, type TabContent } from '../sheets/tab-content';
import { prepareTab } from '../sheets/tab-frame';
import { writeTableOver } from '../sheets/table-writer';
import { CATALOGUE_TAB, type CatalogueRead, catalogueTable, readCatalogue } from './catalogue';
import { type CompletionRow, readCompletionsTab } from './completions-tab';
import {
  EXPIRING_COLUMN,
  EXPIRING_COLUMNS,
  expiringRowCount,
  type ExpiringSheetIds,
  expiringTable,
} from './expiring';
import { completedPairs, exemptedPairs, overallCompliance, requiredCompliance } from './matrix-compliance';
import { type MatrixGrid, matrixGrid } from './matrix-grid';
import { computeTrainingTables, type TrainingTables } from './training-tables';
import { planRequirementsTab, type RequirementsTabPlan } from './requirements-tab';
import { type ExemptionsTabPlan, planExemptionsTab } from './exemptions-tab';
import { type MatrixTab, readMatrixTab, writeMatrix } from './matrix-tab';
import { keepTrainingTabsComputed, trainingsRefreshedAtMs } from './computed-day';
import { describeTrainingTabs, expiredCount } from './training-summary';
import type { DocumentState } from '../platform/document-state';
import { readImportOptions } from '../platform/settings-store';
import {
  findTrainingTabs,
  type FoundTrainingTabs,
  keepTrainingTabIds,
  remadeSheets,
} from './training-tab-set';
import { completionsPerMonth, monthStarts, SECTION_LAYOUTS } from '../platform/overview/overview';
import { type OverviewOptions, type OverviewPlan, planOverview } from '../platform/overview/overview-tab';
import { keepLaterColumnsOwned, laterColumnsOwned } from '../platform/later-columns';
import { writeCatalogueTab } from './catalogue-tab';
import { type LinkedRollUps, linkRollUps } from './roll-up-views';
import { type PeopleTabPlan, planPeopleTab } from './people-tab';
import { wholeTabValues } from '../sheets/input-tab';
import { complianceTrend, HISTORY_TAB } from './compliance-history';

export interface TrainingDay {
  utcOffsetAt: UtcOffsetAt;
  today: CalendarDate;
}

/** How a run writes the Overview's Trainings section beside the training tabs (overview-tab.ts). */
export interface TrainingOverview extends Omit<OverviewOptions, 'utcOffsetAt'> {
  state: DocumentState;
}

export const NARROW_ADVICE =
  'Narrow the completions with a user or training filter (Safety Sync → Import completed trainings…), ' +
  'or import them into a new spreadsheet.';

/**
 * The training tabs, read and computed, ready to be written: a run reads everything first and
 * commits its writes once (Apps Script commits buffered writes before every read, 0.3–0.8 s each on
 * Google), so the reading is here and `prepare` and `write` read nothing but the new tabs' ids.
 */
export interface TrainingTabsPlan {
  /** Inserts the tabs not there yet and grows them; the caller then commits (SpreadsheetApp.flush). */
  prepare(): void;
  /**
   * After that commit and before any other write (a tab's id is a read, free only while nothing
   * waits to be committed, and the Sheets API sees only what is committed): the ids the Expiring
   * trainings tab links to, and the matrix's filter views the Overview's roll-ups link to.
   */
  readIds(completionsSheetId: number): void;
  /**
   * Whether `prepare` inserts a tab: the caller then prepares every tab through the Spreadsheet
   * service, as Google does not document whether the service shows a tab the Sheets API added in
   * the same execution.
   */
  insertsTabs: boolean;
  write(): TrainingTabsWritten;
}

export interface TrainingTabsWritten {
  matrixSheet: GoogleAppsScript.Spreadsheet.Sheet;
  summary: string;
  /** The sentence saying which tabs their user had deleted and the run made again; null for none. */
  remade: string | null;
  /** What Compliance history recorded, when it recorded a month; null otherwise. */
  history: string | null;
}

/** Everything read and computed for the training tabs, before any of them is written. */
interface PlannedTrainingTabs extends TrainingTables {
  tabs: FoundTrainingTabs;
  completions: readonly CompletionRow[];
  day: TrainingDay;
  catalogue: CatalogueRead;
  catalogueContent: TabContent;
  catalogueToWrite: Table;
  peoplePlan: PeopleTabPlan;
  requirementsPlan: RequirementsTabPlan;
  exemptionsPlan: ExemptionsTabPlan;
  matrixTab: MatrixTab;
  grid: MatrixGrid;
  expiringContent: TabContent;
  expiringColours: ReturnType<typeof readStatusColours>;
  historyContent: TabContent;
  overviewPlan: OverviewPlan;
  /** When the completions were last read from the service, as the Overview says; null: not known. */
  refreshedAtMs: number | null;
}

/**
 * Reads the training tabs and computes them from `completions` (as "Completed trainings" holds them,
 * or will once the run has written it), for one day, with no request; refuses, before anything is
 * written, what would not fit beside the `alongside` tabs the run writes too.
 */
export function planTrainingTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  completions: readonly CompletionRow[],
  day: TrainingDay,
  defaultExpiringDays: number,
  grids: readonly SheetGrid[],
  overview: TrainingOverview,
  alongside: readonly TabSize[] = [],
): TrainingTabsPlan {
  const tabs = findTrainingTabs(spreadsheet, overview.state);
  const { found, names } = tabs;
  const catalogueContent = readTab(spreadsheet, names.catalogue, CATALOGUE_TAB, found.catalogue.sheet);
  const catalogue = readCatalogue(wholeTabValues(catalogueContent.sheet), defaultExpiringDays);
  const { completionsFilter } = readImportOptions(overview.state);
  const peoplePlan = planPeopleTab(
    spreadsheet,
    found.people,
    names.people,
    completions,
    day.utcOffsetAt,
    Boolean(completionsFilter.user_id || completionsFilter.training_id),
  );
  const requirementsPlan = planRequirementsTab(spreadsheet, found.requirements, names.requirements);
  const exemptionsPlan = planExemptionsTab(spreadsheet, found.exemptions, names.exemptions);
  const matrixTab = readMatrixTab(found.matrix.sheet);
  const historyContent = readTab(spreadsheet, names.history, HISTORY_TAB, found.history.sheet);
  const tables = computeTrainingTables(
    {
      catalogue,
      completions,
      roster: peoplePlan.people,
      requirements: requirementsPlan.requirements,
      exemptions: exemptionsPlan.exemptions,
      showInactive: matrixTab.showInactive,
      today: day.today,
      defaultExpiringDays,
      history: historyContent,
    },
    names,
    (sizes) =>
      checkRoomForTabs(
        grids,
        [...sizes, peoplePlan.size, requirementsPlan.size, exemptionsPlan.size],
        NARROW_ADVICE,
        alongside,
      ),
  );
  const catalogueToWrite = catalogueTable(tables.trainings, completions);
  const grid = matrixGrid(tables.matrix);
  const { expiringContent, expiringColours } = readExpiringTab(spreadsheet, tabs, overview.state);
  // A run that read nothing from the service says when the last one that did read the completions.
  const refreshedAtMs = overview.refreshedAtMs ?? trainingsRefreshedAtMs(overview.state);
  const overviewPlan = planOverview(spreadsheet, overview.state, 'trainings', {
    ...overview,
    refreshedAtMs,
    utcOffsetAt: day.utcOffsetAt,
  });
  return trainingTabsPlan(spreadsheet, overview.state, {
    ...tables,
    tabs,
    completions,
    day,
    catalogue,
    catalogueContent,
    catalogueToWrite,
    peoplePlan,
    requirementsPlan,
    exemptionsPlan,
    matrixTab,
    grid,
    expiringContent,
    expiringColours,
    historyContent,
    overviewPlan,
    refreshedAtMs,
  });
}

/** Expiring trainings as it is: its table, and the status colours the user's rules give it. */
function readExpiringTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  { found, names }: FoundTrainingTabs,
  state: DocumentState,
): Pick<PlannedTrainingTabs, 'expiringContent' | 'expiringColours'> {
  const expiringContent = readTab(
    spreadsheet,
    names.expiring,
    {
      columns: EXPIRING_COLUMNS,
      keyColumn: EXPIRING_COLUMN.key,
      laterColumnsOwned: laterColumnsOwned(state, found.expiring.sheetId),
    },
    found.expiring.sheet,
  );
  const expiringColours = readStatusColours(
    expiringContent.sheet,
    EXPIRING_COLUMN.status + 1,
    STATUS_COLOURS,
  );
  return { expiringContent, expiringColours };
}

/**
 * What the written tabs link to: the expiring list's id for the Overview's (null: not found), and
 * where its roll-ups link.
 */
type TrainingTabIds = ExpiringSheetIds & {
  expiring: number | null;
  rollUps: LinkedRollUps;
};

/** The plan's three steps over what was read; `write` fails if the ids were not read first. */
function trainingTabsPlan(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  planned: PlannedTrainingTabs,
): TrainingTabsPlan {
  const { tabs, catalogueContent, peoplePlan, matrixTab, expiringContent, historyContent, overviewPlan } =
    planned;
  // The tabs that are the user's entirely, planned alike.
  const userTabs = [planned.requirementsPlan, planned.exemptionsPlan];
  let ids: TrainingTabIds | null = null;
  // The ids of the tabs found, and of those the run makes once it has read them (null: not read).
  const keptIds = {
    catalogue: tabs.found.catalogue.sheetId,
    people: tabs.found.people.sheetId,
    requirements: tabs.found.requirements.sheetId,
    exemptions: tabs.found.exemptions.sheetId,
    expiring: tabs.found.expiring.sheetId,
    history: tabs.found.history.sheetId,
  };
  return {
    prepare() {
      prepareTab(catalogueContent, planned.catalogueToWrite.rows.length + 1, catalogueContent.layout.width);
      peoplePlan.prepare();
      for (const tab of userTabs) tab.prepare();
      matrixTab.sheet ??= spreadsheet.insertSheet(tabs.names.matrix);
      prepareTab(expiringContent, expiringRowCount(planned.entries) + 1, expiringContent.layout.width);
      prepareTab(historyContent, planned.history.table.rows.length + 1, historyContent.layout.width);
      overviewPlan.prepare();
    },
    readIds(completionsSheetId) {
      matrixTab.sheet ??= spreadsheet.insertSheet(tabs.names.matrix);
      keptIds.catalogue ??= catalogueContent.sheet?.getSheetId() ?? null;
      keptIds.people ??= peoplePlan.sheetId();
      keptIds.requirements ??= planned.requirementsPlan.sheetId();
      keptIds.exemptions ??= planned.exemptionsPlan.sheetId();
      keptIds.expiring ??= expiringContent.sheet?.getSheetId() ?? null;
      keptIds.history ??= historyContent.sheet?.getSheetId() ?? null;
      const matrixSheetId = matrixTab.sheet.getSheetId();
      ids = {
        matrix: matrixSheetId,
        completions: completionsSheetId,
        expiring: keptIds.expiring,
        rollUps: linkRollUps(
          state,
          { spreadsheetId: catalogueContent.spreadsheetId, matrixSheetId },
          planned.matrix,
          planned.rollUps,
        ),
      };
      overviewPlan.readIds();
    },
    insertsTabs:
      !catalogueContent.sheet ||
      peoplePlan.inserts ||
      userTabs.some((tab) => tab.inserts) ||
      !matrixTab.sheet ||
      !expiringContent.sheet ||
      !historyContent.sheet ||
      overviewPlan.inserts,
    write() {
      if (!ids || !matrixTab.sheet)
        throw new Error('The training tabs were written before their ids were read.');
      const matrixSheet = matrixTab.sheet;
      writePlannedTabs(planned, matrixSheet, ids);
      keepTrainingTabIds(state, { ...keptIds, matrix: ids.matrix });
      ids.rollUps.keepIds();
      keepLaterColumnsOwned(state, keptIds.expiring, EXPIRING_COLUMNS);
      keepTrainingTabsComputed(state, planned.day.today, planned.refreshedAtMs);
      const { matrix, trainings, entries, history } = planned;
      const described = describeTrainingTabs(remadeSheets(tabs), matrix, trainings, entries, history);
      const { note } = ids.rollUps;
      return {
        matrixSheet,
        ...described,
        summary: note === null ? described.summary : `${described.summary} ${note}`,
      };
    },
  };
}

/**
 * The catalogue, the matrix, the expiring list, the history and the Overview's Trainings section, in
 * that order.
 */
function writePlannedTabs(
  planned: PlannedTrainingTabs,
  matrixSheet: GoogleAppsScript.Spreadsheet.Sheet,
  ids: TrainingTabIds,
): void {
  const { catalogue, matrix, entries, expiringContent } = planned;
  writeCatalogueTab(planned.catalogueContent, planned.catalogueToWrite, catalogue);
  planned.peoplePlan.write();
  planned.requirementsPlan.write();
  planned.exemptionsPlan.write();
  writeMatrix(matrixSheet, planned.matrixTab, planned.grid, {
    spreadsheetId: planned.catalogueContent.spreadsheetId,
    sheetName: planned.tabs.names.matrix,
    utcOffsetAt: planned.day.utcOffsetAt,
  });
  const expiringWrite = writeTableOver(expiringContent, expiringTable(matrix, entries, ids));
  planned.expiringColours.apply(expiringWrite.sheet, expiringContent.frame.maxRows);
  writeTableOver(planned.historyContent, planned.history.table);
  const expired = expiredCount(entries);
  planned.overviewPlan.write(
    {
      expired,
      expiring: entries.length - expired,
      of: completedPairs(matrix),
      listSheetId: ids.expiring,
      requiredCompliance: requiredCompliance(matrix),
      overallCompliance: overallCompliance(matrix),
      exempted: exemptedPairs(matrix),
      months: completionsPerMonth(
        planned.completions.map((completion) => completion.completed),
        planned.day.today,
      ),
    },
    {
      rollUps: ids.rollUps.figures,
      trend: complianceTrend(
        planned.history.table.rows,
        monthStarts(
          planned.day.today,
          1 - SECTION_LAYOUTS.trainings.months,
          SECTION_LAYOUTS.trainings.months,
        ),
      ),
    },
  );
}

/** Updates Trainings, Training matrix and Expiring trainings from "Completed trainings" as it is. */
export function writeTrainingTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  day: TrainingDay,
  defaultExpiringDays: number,
  overview: TrainingOverview,
): TrainingTabsWritten {
  const completionsTab = readCompletionsTab(spreadsheet, overview.state, day.utcOffsetAt);
  const completionsSheetId = completionsTab.sheet.getSheetId();
  const plan = planTrainingTabs(
    spreadsheet,
    completionsTab.completions,
    day,
    defaultExpiringDays,
    readSheetGrids(spreadsheet),
    overview,
  );
  plan.prepare();
  SpreadsheetApp.flush();
  plan.readIds(completionsSheetId);
  return plan.write();
}
