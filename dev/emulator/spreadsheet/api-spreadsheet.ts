/** The script-visible Spreadsheet. */
import { AppsScriptException, strict } from '../core';
import { parseA1 } from './a1-notation';
import { isInteger, requireString, signatureMismatch } from './arguments';
import { metadataArguments } from './api-developer-metadata';
import { boxOfA1, sheetModelOf } from './api-sheet';
import { PROTECTION_TYPES, isMemberOf } from './script-enums';
import { isValidTimeZone } from './serial-dates';
import { type ServiceEnv, toScriptArray } from './service-env';
import type { SheetModel, WorkbookModel } from './workbook-model';

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
  | 'getUrl'
  | 'getSpreadsheetTimeZone'
  | 'setSpreadsheetTimeZone'
  | 'getSpreadsheetLocale'
  | 'setSpreadsheetLocale'
  | 'getSheets'
  | 'getNumSheets'
  | 'getSheetByName'
  | 'getSheetById'
  | 'insertSheet'
  | 'deleteSheet'
  | 'getActiveSheet'
  | 'setActiveSheet'
  | 'getRange'
  | 'getProtections'
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
    this.#env.access.read(this.#workbook);
    return this.#workbook;
  }

  #write(method: string): WorkbookModel {
    this.#env.access.write(this.#workbook, method);
    return this.#workbook;
  }

  /** A Sheet the script passed in, which must belong to this spreadsheet and still exist. */
  #ownSheet(method: string, value: unknown): SheetModel {
    const sheet = sheetModelOf(value);
    if (!sheet || sheet.workbook !== this.#workbook)
      throw signatureMismatch(`Spreadsheet.${method}`, [value]);
    if (sheet.deleted) throw new AppsScriptException(`The sheet "${sheet.name}" has been deleted.`);
    return sheet;
  }

  getId(): string {
    return this.#read().id;
  }

  getName(): string {
    return this.#read().name;
  }

  getUrl(): string {
    return spreadsheetUrl(this.#read().id);
  }

  getSpreadsheetTimeZone(): string {
    return this.#read().timeZone;
  }

  /** Cells keep their serials: the same wall-clock times now stand for other instants. */
  setSpreadsheetTimeZone(timezone: string): void {
    requireString('Spreadsheet.setSpreadsheetTimeZone', [timezone], timezone);
    const workbook = this.#write('setSpreadsheetTimeZone');
    if (!isValidTimeZone(timezone)) throw new AppsScriptException(`Invalid argument: ${timezone}`);
    workbook.timeZone = timezone;
  }

  getSpreadsheetLocale(): string {
    return this.#read().locale;
  }

  setSpreadsheetLocale(locale: string): void {
    requireString('Spreadsheet.setSpreadsheetLocale', [locale], locale);
    this.#write('setSpreadsheetLocale').locale = locale;
  }

  getSheets(): Sheet[] {
    const workbook = this.#read();
    return toScriptArray(
      this.#env.realm,
      workbook.sheets.map((sheet) => this.#env.classes.sheet(sheet)),
    );
  }

  getNumSheets(): number {
    return this.#read().sheets.length;
  }

  /** Exact, case-sensitive match: the emulator does not promise Sheets' leniency here. */
  getSheetByName(name: string): Sheet | null {
    requireString('Spreadsheet.getSheetByName', [name], name);
    const sheet = this.#read().sheetByName(name);
    return sheet ? this.#env.classes.sheet(sheet) : null;
  }

  getSheetById(id: number): Sheet | null {
    if (!isInteger(id)) throw signatureMismatch('Spreadsheet.getSheetById', [id]);
    const sheet = this.#read().sheets.find((candidate) => candidate.gid === id);
    return sheet ? this.#env.classes.sheet(sheet) : null;
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
    const workbook = this.#write('deleteSheet');
    workbook.deleteSheet(this.#ownSheet('deleteSheet', sheet));
  }

  getActiveSheet(): Sheet {
    return this.#env.classes.sheet(this.#read().activeSheet);
  }

  setActiveSheet(sheet: Sheet): Sheet {
    const workbook = this.#write('setActiveSheet');
    workbook.activeSheet = this.#ownSheet('setActiveSheet', sheet);
    return this.#env.classes.sheet(workbook.activeSheet);
  }

  /** "Sheet1!A1:B2", or plain A1 notation on the active sheet. */
  getRange(a1Notation: string): GoogleAppsScript.Spreadsheet.Range {
    requireString('Spreadsheet.getRange', [a1Notation], a1Notation);
    const workbook = this.#read();
    const sheetName = parseA1(a1Notation)?.sheetName ?? null;
    const sheet = sheetName === null ? workbook.activeSheet : workbook.sheetByName(sheetName);
    if (!sheet) throw new AppsScriptException('Range not found');
    return this.#env.classes.range(sheet, boxOfA1(sheet, a1Notation));
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

  addDeveloperMetadata(...args: unknown[]): Spreadsheet {
    const { key, value, visibility } = metadataArguments('Spreadsheet.addDeveloperMetadata', args);
    this.#write('addDeveloperMetadata').addDeveloperMetadata(key, value, visibility);
    return exposeSpreadsheet(this.#env, this.#workbook);
  }

  /** The metadata on the spreadsheet itself (not on its sheets, rows or columns). */
  getDeveloperMetadata(): GoogleAppsScript.Spreadsheet.DeveloperMetadata[] {
    const workbook = this.#read();
    return toScriptArray(
      this.#env.realm,
      workbook.developerMetadata.map((metadata) => this.#env.classes.developerMetadata(workbook, metadata)),
    );
  }

  toast(msg: string, title?: string, timeoutSeconds?: number | null): void {
    const workbook = this.#write('toast');
    if (timeoutSeconds !== undefined && timeoutSeconds !== null && typeof timeoutSeconds !== 'number') {
      throw signatureMismatch('Spreadsheet.toast', [msg, title, timeoutSeconds]);
    }
    workbook.ui.toasts.push({
      message: String(msg),
      title: title === undefined ? '' : String(title),
      timeoutSeconds: timeoutSeconds ?? null,
    });
  }
}
