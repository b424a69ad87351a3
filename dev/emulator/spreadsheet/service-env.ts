/**
 * What every script-visible Spreadsheet object shares, and the checks they all make before touching a
 * sheet. Script-visible objects keep their state in #private fields so the script cannot reach it;
 * objects the script hands back (a Range to setRanges) are recognised
 * through module-level WeakMaps, never through properties.
 */
import {
  AppsScriptException,
  type ExecutionContext,
  type ScriptRealm,
  type ServiceCallCounter,
} from '../core';
import type { GoogleReadings } from '../readings';
import { type AccessPolicy, PROTECTED_EDIT } from './access-policy';
import type { CustomFunctionEvaluator, FormulaSupport } from './formulas';
import { type GridBox } from './grid-box';
import type { ScriptEnums } from './script-enums';
import type { UiRecorder } from './ui-recorder';
import type { WriteBuffer } from './write-buffer';
import type {
  DeveloperMetadataData,
  FilterData,
  NamedRangeData,
  ProtectionData,
  RuleData,
  SheetModel,
  WorkbookModel,
} from './workbook-model';

/**
 * The script-visible classes, made for the objects that hand out one another (a Sheet's getRange, a
 * Range's getSheet). Filled once where the service is assembled, so that the api-* modules never
 * import each other.
 */
export interface ServiceClasses {
  spreadsheet(workbook: WorkbookModel): GoogleAppsScript.Spreadsheet.Spreadsheet;
  sheet(sheet: SheetModel): GoogleAppsScript.Spreadsheet.Sheet;
  range(sheet: SheetModel, box: GridBox): GoogleAppsScript.Spreadsheet.Range;
  rangeList(sheet: SheetModel, boxes: readonly GridBox[]): GoogleAppsScript.Spreadsheet.RangeList;
  filter(sheet: SheetModel, filter: FilterData): GoogleAppsScript.Spreadsheet.Filter;
  protection(sheet: SheetModel, protection: ProtectionData): GoogleAppsScript.Spreadsheet.Protection;
  namedRange(sheet: SheetModel, named: NamedRangeData): GoogleAppsScript.Spreadsheet.NamedRange;
  developerMetadata(
    workbook: WorkbookModel,
    metadata: DeveloperMetadataData,
  ): GoogleAppsScript.Spreadsheet.DeveloperMetadata;
  conditionalFormatRule(data: RuleData): GoogleAppsScript.Spreadsheet.ConditionalFormatRule;
  conditionalFormatRuleBuilder(): GoogleAppsScript.Spreadsheet.ConditionalFormatRuleBuilder;
  filterCriteriaBuilder(): GoogleAppsScript.Spreadsheet.FilterCriteriaBuilder;
  dataValidationBuilder(): GoogleAppsScript.Spreadsheet.DataValidationBuilder;
  ui(recorder: UiRecorder): GoogleAppsScript.Base.Ui;
}

export interface ServiceEnv {
  readonly counter: ServiceCallCounter;
  readonly classes: ServiceClasses;
  readonly realm: ScriptRealm;
  readonly access: AccessPolicy;
  readonly writes: WriteBuffer;
  readonly workbooks: ReadonlyMap<string, WorkbookModel>;
  readonly enums: ScriptEnums;
  readonly evaluateCustomFunction: CustomFunctionEvaluator | undefined;
  /** The readings of what Google does not document that the Spreadsheet service acts on. */
  readonly readings: SpreadsheetReadings;
  /** Tabs the Sheets API added, with the execution (its context) that added them. */
  readonly apiAddedSheets: WeakMap<SheetModel, ExecutionContext>;
}

export type SpreadsheetReadings = Pick<
  GoogleReadings,
  | 'spreadsheetServiceSeesApiTab'
  | 'developerMetadataInLimited'
  | 'trashedSpreadsheetOpens'
  | 'semicolonArgumentsInEveryLocale'
>;

/** What a formula a script writes depends on besides its text and its spreadsheet's locale. */
export function formulaSupport(env: ServiceEnv): FormulaSupport {
  return {
    customFunctions: env.evaluateCustomFunction !== undefined,
    semicolonArgumentsInEveryLocale: env.readings.semicolonArgumentsInEveryLocale,
  };
}

/**
 * Whether the Spreadsheet service shows this tab: under the reading that it does not see a tab the
 * Sheets API added in the same execution, such a tab is there only from the next execution.
 */
export function shownByService(env: ServiceEnv, sheet: SheetModel): boolean {
  return env.readings.spreadsheetServiceSeesApiTab || env.apiAddedSheets.get(sheet) !== env.access.context();
}

export const OUTSIDE_SHEET = 'The coordinates of the range are outside the dimensions of the sheet.';

/** An array made in the script's realm, holding the given items (which may be emulated objects). */
export function toScriptArray<T>(realm: ScriptRealm, items: readonly T[]): T[] {
  const array = realm.toScript<T[]>([]);
  for (const item of items) array.push(item);
  return array;
}

/** A read: it commits the running execution's writes to the spreadsheet first (write-buffer.ts). */
export function readableWorkbook(env: ServiceEnv, workbook: WorkbookModel): WorkbookModel {
  env.access.read(workbook);
  env.writes.beforeRead(workbook);
  return workbook;
}

export function writableWorkbook(env: ServiceEnv, workbook: WorkbookModel, method: string): WorkbookModel {
  env.access.write(workbook, method);
  env.writes.beforeWrite(workbook, method);
  return workbook;
}

/**
 * A tab deleted since the script got it (Spreadsheet.deleteSheet, or its user): what Google does with
 * its Sheet and Range objects is not documented, so every use throws (stricter than any answer).
 */
function existingSheet(sheet: SheetModel): SheetModel {
  if (sheet.deleted) throw new AppsScriptException(`The sheet "${sheet.name}" was deleted.`);
  return sheet;
}

export function readableSheet(env: ServiceEnv, sheet: SheetModel): SheetModel {
  readableWorkbook(env, sheet.workbook);
  return existingSheet(sheet);
}

export function writableSheet(env: ServiceEnv, sheet: SheetModel, method: string): SheetModel {
  writableWorkbook(env, sheet.workbook, method);
  return existingSheet(sheet);
}

/**
 * What a write covers, for the protections it must respect: cells (a range protection over any of
 * them, or a sheet protection, stops it), 'sheet' (the tab's own settings and structure: only a
 * sheet protection stops it), or 'whole' (deleting the tab: any protection on it stops it).
 */
export type WriteScope = GridBox | 'sheet' | 'whole';

function boxesMeet(a: GridBox, b: GridBox): boolean {
  return a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
}

/** Whether a protection the user may not edit covers what the write touches. */
export function isProtectedFrom(env: ServiceEnv, sheet: SheetModel, scope: WriteScope): boolean {
  return sheet.protections.some(
    (protection) =>
      !env.access.mayEdit(sheet.workbook, protection) &&
      (protection.box === null ||
        scope === 'whole' ||
        (scope !== 'sheet' && boxesMeet(protection.box, scope))),
  );
}

/** Throws Google's message when a protection the user may not edit covers what the write touches. */
export function requireUnprotected(env: ServiceEnv, sheet: SheetModel, scope: WriteScope): void {
  if (isProtectedFrom(env, sheet, scope)) throw new AppsScriptException(PROTECTED_EDIT);
}

/** writableSheet, then the protections over `scope`. */
export function editableSheet(
  env: ServiceEnv,
  sheet: SheetModel,
  method: string,
  scope: WriteScope,
): SheetModel {
  const writable = writableSheet(env, sheet, method);
  requireUnprotected(env, writable, scope);
  return writable;
}

/** Making a Range or RangeList of a sheet: checked like a read, but commits nothing (write-buffer.ts). */
export function addressableSheet(env: ServiceEnv, sheet: SheetModel): SheetModel {
  env.access.read(sheet.workbook);
  return existingSheet(sheet);
}

/** Ranges are re-checked at every use: rows may have been deleted since the Range was made. */
export function checkInsideSheet(sheet: SheetModel, box: GridBox): void {
  if (box.bottom > sheet.maxRows || box.right > sheet.maxColumns)
    throw new AppsScriptException(OUTSIDE_SHEET);
}
