/**
 * The script-visible Spreadsheet. deleteSheet and deleteActiveSheet delete a tab as its user would
 * (structural-changes.ts has what goes with it and Google's refusals).
 */
import { AppsScriptException, strict } from '../core';
import { isInteger, requireString, signatureMismatch } from './arguments';
import { metadataArguments } from './api-developer-metadata';
import { checkRangeName, namedRangesOf, rangeArgument } from './api-named-range';
import { sheetModelOf } from './api-sheet';
import { PROTECTION_TYPES, isMemberOf } from './script-enums';
import {
  type ServiceEnv,
  readableWorkbook,
  requireUnprotected,
  shownByService,
  toScriptArray,
  writableWorkbook,
} from './service-env';
import { deleteSheet } from './structural-changes';
import { type WorkbookModel, newNamedRange } from './workbook-model';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export function exposeSpreadsheet(env: ServiceEnv, workbook: WorkbookModel): Spreadsheet {
  return new SpreadsheetApi(env, workbook) as unknown as Spreadsheet;
}

export function spreadsheetUrl(id: string): string {
  return `https://docs.google.com/spreadsheets/d/${id}/edit`;
}

/** insertSheet(), (index), (name) or (name, index), each optionally followed by options. */
function insertSheetArguments(args: unknown[]): { name?: string; index?: number } {
  const positional = [...args];
  const options = positional[positional.length - 1];
  if (typeof options === 'object' && options !== null) {
    if ('template' in options)
      throw new AppsScriptException('not emulated: Spreadsheet.insertSheet({template})');
    positional.pop();
  }
  const [first, second, ...extra] = positional;
  if (extra.length === 0) {
    if (first === undefined) return {};
    if (isInteger(first) && second === undefined) return { index: first };
    if (typeof first === 'string' && (second === undefined || isInteger(second)))
      return { name: first, index: second };
  }
  throw signatureMismatch('Spreadsheet.insertSheet', args);
}

type SpreadsheetMethod =
  | 'getId'
  | 'getName'
  | 'getSpreadsheetTimeZone'
  | 'getSpreadsheetLocale'
  | 'setSpreadsheetLocale'
  | 'getSheets'
  | 'getSheetByName'
  | 'getSheetById'
  | 'insertSheet'
  | 'deleteSheet'
  | 'deleteActiveSheet'
  | 'getProtections'
  | 'getNamedRanges'
  | 'setNamedRange'
  | 'getRangeByName'
  | 'addDeveloperMetadata'
  | 'getDeveloperMetadata'
  | 'toast';

class SpreadsheetApi implements Pick<Spreadsheet, SpreadsheetMethod> {
  readonly #env: ServiceEnv;
  readonly #workbook: WorkbookModel;

  constructor(env: ServiceEnv, workbook: WorkbookModel) {
    this.#env = env;
    this.#workbook = workbook;
    return strict('Spreadsheet', this, env.counter);
  }

  #read(): WorkbookModel {
    return readableWorkbook(this.#env, this.#workbook);
  }

  #write(method: string): WorkbookModel {
    return writableWorkbook(this.#env, this.#workbook, method);
  }

  getId(): string {
    return this.#read().id;
  }

  getName(): string {
    return this.#read().name;
  }

  getSpreadsheetTimeZone(): string {
    return this.#read().timeZone;
  }

  /** The locale as Sheets names it ("en_GB", "de_DE"). */
  getSpreadsheetLocale(): string {
    return this.#read().locale;
  }

  /** Formulas already in cells keep their text: only what is written afterwards reads the new locale. */
  setSpreadsheetLocale(locale: string): void {
    requireString('Spreadsheet.setSpreadsheetLocale', [locale], locale);
    this.#write('setSpreadsheetLocale').locale = locale;
  }

  getSheets(): Sheet[] {
    const workbook = this.#read();
    return toScriptArray(
      this.#env.realm,
      workbook.sheets
        .filter((sheet) => shownByService(this.#env, sheet))
        .map((sheet) => this.#env.classes.sheet(sheet)),
    );
  }

  /** Exact, case-sensitive match: the emulator does not promise Sheets' leniency here. */
  getSheetByName(name: string): Sheet | null {
    requireString('Spreadsheet.getSheetByName', [name], name);
    const sheet = this.#read().sheetByName(name);
    return sheet && shownByService(this.#env, sheet) ? this.#env.classes.sheet(sheet) : null;
  }

  getSheetById(id: number): Sheet | null {
    if (!Number.isInteger(id)) throw signatureMismatch('Spreadsheet.getSheetById', [id]);
    const sheet = this.#read().sheetByGid(id);
    return sheet && shownByService(this.#env, sheet) ? this.#env.classes.sheet(sheet) : null;
  }

  /**
   * The new sheet becomes the active one, as in Sheets; a template in options is not emulated.
   */
  insertSheet(...args: unknown[]): Sheet {
    const workbook = this.#write('insertSheet');
    const { name = workbook.defaultSheetName(), index = workbook.sheets.length } = insertSheetArguments(args);
    if (index < 0 || index > workbook.sheets.length) {
      throw new AppsScriptException(
        `The sheet index ${index} is out of range (0–${workbook.sheets.length}).`,
      );
    }
    const sheet = workbook.addSheet(name, index);
    workbook.activeSheet = sheet;
    return this.#env.classes.sheet(sheet);
  }

  deleteSheet(sheet: Sheet): void {
    const model = sheetModelOf(sheet);
    if (!model) throw signatureMismatch('Spreadsheet.deleteSheet', [sheet]);
    const workbook = this.#write('deleteSheet');
    if (model.workbook !== workbook)
      throw new AppsScriptException('The sheet must be in the same spreadsheet.');
    requireUnprotected(this.#env, model, 'whole');
    deleteSheet(model);
  }

  /** Returns the sheet that is active after it (the first visible one). */
  deleteActiveSheet(): Sheet {
    const workbook = this.#write('deleteActiveSheet');
    requireUnprotected(this.#env, workbook.activeSheet, 'whole');
    deleteSheet(workbook.activeSheet);
    return this.#env.classes.sheet(workbook.activeSheet);
  }

  getProtections(
    type: GoogleAppsScript.Spreadsheet.ProtectionType,
  ): GoogleAppsScript.Spreadsheet.Protection[] {
    if (!isMemberOf(PROTECTION_TYPES, type)) throw signatureMismatch('Spreadsheet.getProtections', [type]);
    const protections = this.#read().sheets.flatMap((sheet) =>
      sheet.protections
        .filter((protection) => protection.type === type)
        .map((protection) => this.#env.classes.protection(sheet, protection)),
    );
    return toScriptArray(this.#env.realm, protections);
  }

  getNamedRanges(): GoogleAppsScript.Spreadsheet.NamedRange[] {
    const named = namedRangesOf(this.#read()).map(({ sheet, named }) =>
      this.#env.classes.namedRange(sheet, named),
    );
    return toScriptArray(this.#env.realm, named);
  }

  setNamedRange(name: string, range: GoogleAppsScript.Spreadsheet.Range): void {
    const args = [name, range];
    requireString('Spreadsheet.setNamedRange', args, name);
    const workbook = this.#write('setNamedRange');
    const ref = rangeArgument(workbook, 'Spreadsheet.setNamedRange', args, range);
    checkRangeName(workbook, name);
    ref.sheet.namedRanges.push(newNamedRange(name, ref.box));
  }

  /** Case-insensitive, as Sheets resolves names in formulas. */
  getRangeByName(name: string): GoogleAppsScript.Spreadsheet.Range | null {
    requireString('Spreadsheet.getRangeByName', [name], name);
    const found = namedRangesOf(this.#read()).find(
      ({ named }) => named.name.toLowerCase() === name.toLowerCase(),
    );
    return found ? this.#env.classes.range(found.sheet, found.named.box) : null;
  }

  addDeveloperMetadata(...args: unknown[]): Spreadsheet {
    const { key, value, visibility } = metadataArguments('Spreadsheet.addDeveloperMetadata', args);
    this.#write('addDeveloperMetadata').addDeveloperMetadata(key, value, visibility);
    return exposeSpreadsheet(this.#env, this.#workbook);
  }

  /** The metadata on the spreadsheet itself (not on its sheets, rows or columns). */
  getDeveloperMetadata(): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
    const workbook = this.#read();
    if (this.#env.access.context().authMode === 'LIMITED' && !this.#env.readings.developerMetadataInLimited)
      throw new AppsScriptException('You do not have permission to call getDeveloperMetadata');
    return toScriptArray(
      this.#env.realm,
      workbook.developerMetadata.map((metadata) => this.#env.classes.developerMetadata(workbook, metadata)),
    );
  }

  /** A toast is shown at once: it is not a change to the spreadsheet, so it is not buffered. */
  toast(msg: string, title?: string, timeoutSeconds?: number | null): void {
    this.#env.access.write(this.#workbook, 'toast');
    if (timeoutSeconds !== undefined && timeoutSeconds !== null && typeof timeoutSeconds !== 'number') {
      throw signatureMismatch('Spreadsheet.toast', [msg, title, timeoutSeconds]);
    }
    this.#workbook.ui.toasts.push({
      message: String(msg),
      title: title === undefined ? '' : String(title),
      timeoutSeconds: timeoutSeconds ?? null,
    });
  }
}
