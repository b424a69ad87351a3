/**
 * Named ranges: Spreadsheet.setNamedRange / getNamedRanges / getRangeByName and the script-visible
 * NamedRange. A name follows Sheets' rules (letters, digits and underscores, not starting with a
 * digit, not TRUE or FALSE, not a cell reference in A1 or R1C1 notation, 1–250 characters) and is
 * unique in the spreadsheet, case-insensitively. Whether Google's setNamedRange replaces a range of
 * the same name is not documented: the emulator takes the stricter reading and refuses it, so a
 * script finds its named range and updates it with NamedRange.setRange.
 */
import { AppsScriptException, strict } from '../core';
import { requireString, signatureMismatch } from './arguments';
import { rangeRefOf } from './api-range';
import { type ServiceEnv, readableSheet, writableSheet } from './service-env';
import type { NamedRangeData, SheetModel, WorkbookModel } from './workbook-model';

type NamedRange = GoogleAppsScript.Spreadsheet.NamedRange;
type Range = GoogleAppsScript.Spreadsheet.Range;

const MAX_NAME_LENGTH = 250;

/** Every named range of the workbook with its sheet, in the order they were made. */
export function namedRangesOf(workbook: WorkbookModel): { sheet: SheetModel; named: NamedRangeData }[] {
  return workbook.sheets.flatMap((sheet) => sheet.namedRanges.map((named) => ({ sheet, named })));
}

/** Throws unless `name` may name a range in `workbook` (`except`: the range being renamed). */
export function checkRangeName(workbook: WorkbookModel, name: string, except?: NamedRangeData): void {
  checkRangeNameForm(name);
  const taken = namedRangesOf(workbook).some(
    ({ named }) => named !== except && named.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) throw new AppsScriptException(`A named range called "${name}" already exists.`);
}

/** Throws unless `name` has the form of a range name. */
export function checkRangeNameForm(name: string): void {
  const looksLikeReference =
    /^[a-z]{1,3}\d+$/i.test(name) || /^r\d*c\d*$/i.test(name) || /^(true|false)$/i.test(name);
  if (
    name.length === 0 ||
    name.length > MAX_NAME_LENGTH ||
    !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ||
    looksLikeReference
  ) {
    throw new AppsScriptException(
      `Invalid range name "${name}": use letters, numbers and underscores, not starting with a number, and not a cell reference.`,
    );
  }
}

/** The range a script passed, which must be of this workbook. */
export function rangeArgument(workbook: WorkbookModel, method: string, args: unknown[], range: unknown) {
  const ref = rangeRefOf(range);
  if (!ref) throw signatureMismatch(method, args);
  if (ref.sheet.workbook !== workbook)
    throw new AppsScriptException('The range must be in the same spreadsheet.');
  return ref;
}

export function exposeNamedRange(env: ServiceEnv, sheet: SheetModel, named: NamedRangeData): NamedRange {
  return new NamedRangeApi(env, sheet, named) as unknown as NamedRange;
}

type NamedRangeMethod = 'getName' | 'getRange' | 'setName' | 'setRange' | 'remove';

class NamedRangeApi implements Pick<NamedRange, NamedRangeMethod> {
  readonly #env: ServiceEnv;
  /** The sheet it lives on: setRange to another sheet moves it there. */
  #sheet: SheetModel;
  readonly #named: NamedRangeData;
  readonly #self: NamedRangeApi;

  constructor(env: ServiceEnv, sheet: SheetModel, named: NamedRangeData) {
    this.#env = env;
    this.#sheet = sheet;
    this.#named = named;
    this.#self = strict('NamedRange', this, env.counter);
    return this.#self;
  }

  #current(sheet: SheetModel): NamedRangeData {
    if (!sheet.namedRanges.includes(this.#named))
      throw new AppsScriptException('This named range has been removed.');
    return this.#named;
  }

  getName(): string {
    return this.#current(readableSheet(this.#env, this.#sheet)).name;
  }

  getRange(): Range {
    const named = this.#current(readableSheet(this.#env, this.#sheet));
    return this.#env.classes.range(this.#sheet, named.box);
  }

  setName(name: string): NamedRange {
    requireString('NamedRange.setName', [name], name);
    const sheet = writableSheet(this.#env, this.#sheet, 'setName');
    checkRangeName(sheet.workbook, name, this.#current(sheet));
    this.#named.name = name;
    return this.#self as unknown as NamedRange;
  }

  setRange(range: Range): NamedRange {
    const sheet = writableSheet(this.#env, this.#sheet, 'setRange');
    const named = this.#current(sheet);
    const ref = rangeArgument(sheet.workbook, 'NamedRange.setRange', [range], range);
    named.box = { ...ref.box };
    if (ref.sheet !== sheet) {
      sheet.namedRanges = sheet.namedRanges.filter((other) => other !== named);
      ref.sheet.namedRanges.push(named);
      this.#sheet = ref.sheet;
    }
    return this.#self as unknown as NamedRange;
  }

  remove(): void {
    const sheet = writableSheet(this.#env, this.#sheet, 'remove');
    const named = this.#current(sheet);
    sheet.namedRanges = sheet.namedRanges.filter((other) => other !== named);
  }
}
