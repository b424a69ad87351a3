/**
 * The emulated Spreadsheet service: `SpreadsheetApp` for the script, `workbooks` for tests and the
 * runtime. Where Sheets is strict the emulator is at least as strict, so that a script that passes
 * here does not fail on Google for a reason the emulator could have seen.
 */
import type { ExecutionContext, ScriptRealm, ServiceCallCounter } from '../core';
import { AccessPolicy, type SpreadsheetRole } from './access-policy';
import { createChartsService } from './api-charts';
import { exposeConditionalFormatRule, exposeConditionalFormatRuleBuilder } from './api-conditional-formats';
import { exposeDataValidationBuilder } from './api-data-validation';
import { exposeDeveloperMetadata } from './api-developer-metadata';
import { exposeFilter } from './api-filter';
import { exposeFilterCriteriaBuilder } from './api-filter-criteria';
import { exposeProtection } from './api-protection';
import { exposeNamedRange } from './api-named-range';
import { exposeRange } from './api-range';
import { exposeRangeList } from './api-range-list';
import { exposeSheet } from './api-sheet';
import { exposeSpreadsheet } from './api-spreadsheet';
import { type SheetsServiceDeps } from './api-sheets-advanced';
import { exposeSheetsAdvancedService } from './api-sheets-spreadsheets';
import { exposeSpreadsheetApp } from './api-spreadsheet-app';
import { exposeUi } from './api-ui';
import { createScriptEnums } from './script-enums';
import type { CustomFunctionEvaluator } from './formulas';
import type { ServiceClasses, ServiceEnv, SpreadsheetReadings } from './service-env';
import type { WorkbookModel } from './workbook-model';
import { WorkbookStore } from './workbook-store';
import { WriteBuffer } from './write-buffer';

export { UnknownFunctionError } from './formulas';
export {
  type CloudProjectApi,
  READ_REQUESTS_PER_MINUTE_PER_PROJECT,
  READ_REQUESTS_PER_MINUTE_PER_USER,
  type SheetsApiRequestKind,
  SheetsApiQuotas,
  SHEETS_API_MAX_REQUEST_BYTES,
  WRITE_REQUESTS_PER_MINUTE_PER_PROJECT,
  WRITE_REQUESTS_PER_MINUTE_PER_USER,
} from './api-sheets-advanced';
export { SPREADSHEET_SERVICE_CLASSES, spreadsheetServiceCalls } from './service-classes';
export type {
  ButtonName,
  ButtonSetName,
  MenuEntry,
  RecordedDialog,
  RecordedDialogBox,
  RecordedMenu,
  RecordedToast,
  ScriptedAnswer,
  UiRecorder,
} from './ui-recorder';
export type {
  CellView,
  ChartView,
  FilterCriteriaInput,
  FilterCriteriaView,
  ValidationInput,
  ValidationView,
  ConditionalRuleView,
  ProtectionView,
  SheetView,
  WorkbookOptions,
  WorkbookView,
} from './workbook-store';
export { WorkbookStore };
export type { FilterSpecData, FilterViewData, GridRangeData } from './workbook-model';

export interface SpreadsheetServiceDeps {
  /** Every script-visible method call is counted here. */
  counter: ServiceCallCounter;
  /** Values handed to the script (Dates, arrays) are made in its realm. */
  realm: ScriptRealm;
  /** What the running execution may do; read at every call. Its identity is the execution's. */
  currentContext(): ExecutionContext;
  /** The user's role in the spreadsheet (Drive sharing): what they may write (access-policy.ts). */
  roleOf(spreadsheetId: string, email: string): SpreadsheetRole;
  /** Runs `commit` when the running execution ends, however it ends (buffered writes: write-buffer.ts). */
  atExecutionEnd(commit: () => void): void;
  /** Whether another execution may start before the running one ends (an overlap is scheduled). */
  othersMayRun(): boolean;
  /**
   * Computes a custom function for a cell formula (=SAFETY_X(...)) during workbooks.recalculate.
   * `spreadsheetId` is the document of the cell. Throw UnknownFunctionError for a name that is not a
   * custom function (the cell shows #NAME?); any other error shows #ERROR! with its message.
   * Arguments are plain data with Dates from the script's realm.
   */
  evaluateCustomFunction?: CustomFunctionEvaluator;
  /** The emulated time (epoch ms). */
  now(): number;
  /** The readings of what Google does not document that the service acts on (readings.ts). */
  readings: SpreadsheetReadings;
}

export function createSpreadsheetService(deps: SpreadsheetServiceDeps): {
  SpreadsheetApp: GoogleAppsScript.Spreadsheet.SpreadsheetApp;
  /** The Charts service, for its ChartType enum (the chart builder's types). */
  Charts: GoogleAppsScript.Charts.Charts;
  workbooks: WorkbookStore;
  /** The Sheets advanced service over the same documents, for a manifest that enables it. */
  sheetsAdvancedService(deps: SheetsServiceDeps): GoogleAppsScript.Sheets;
} {
  const models = new Map<string, WorkbookModel>();
  const classes: ServiceClasses = {
    spreadsheet: (workbook) => exposeSpreadsheet(env, workbook),
    sheet: (sheet) => exposeSheet(env, sheet),
    range: (sheet, box) => exposeRange(env, sheet, box),
    rangeList: (sheet, boxes) => exposeRangeList(env, sheet, boxes),
    filter: (sheet, filter) => exposeFilter(env, sheet, filter),
    protection: (sheet, protection) => exposeProtection(env, sheet, protection),
    namedRange: (sheet, named) => exposeNamedRange(env, sheet, named),
    developerMetadata: (workbook, metadata) => exposeDeveloperMetadata(env, workbook, metadata),
    conditionalFormatRule: (data) => exposeConditionalFormatRule(env, data),
    conditionalFormatRuleBuilder: () => exposeConditionalFormatRuleBuilder(env),
    filterCriteriaBuilder: () => exposeFilterCriteriaBuilder(env),
    dataValidationBuilder: () => exposeDataValidationBuilder(env),
    ui: (recorder) => exposeUi(env, recorder),
  };
  const env: ServiceEnv = {
    counter: deps.counter,
    classes,
    realm: deps.realm,
    access: new AccessPolicy(
      () => deps.currentContext(),
      (spreadsheetId, email) => deps.roleOf(spreadsheetId, email),
      deps.readings,
    ),
    writes: new WriteBuffer(
      deps.counter,
      () => deps.currentContext(),
      deps.atExecutionEnd,
      deps.othersMayRun,
    ),
    workbooks: models,
    enums: createScriptEnums(deps.counter),
    evaluateCustomFunction: deps.evaluateCustomFunction,
    readings: deps.readings,
    apiAddedSheets: new WeakMap(),
  };
  return {
    SpreadsheetApp: exposeSpreadsheetApp(env),
    Charts: createChartsService(deps.counter),
    sheetsAdvancedService: (sheetsDeps) => exposeSheetsAdvancedService(env, sheetsDeps),
    workbooks: new WorkbookStore(
      models,
      deps.realm,
      deps.evaluateCustomFunction,
      () => deps.now(),
      deps.readings,
    ),
  };
}
