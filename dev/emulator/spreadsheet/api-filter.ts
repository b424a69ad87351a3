/** The script-visible Filter: its range, and removing it. Filter criteria and sorting are not emulated. */
import { AppsScriptException, strict } from '../core';
import { type ServiceEnv, readableSheet, writableSheet } from './service-env';
import type { FilterData, SheetModel } from './workbook-model';

type Filter = GoogleAppsScript.Spreadsheet.Filter;

export function exposeFilter(env: ServiceEnv, sheet: SheetModel, filter: FilterData): Filter {
  return new FilterApi(env, sheet, filter) as unknown as Filter;
}

class FilterApi implements Pick<Filter, 'getRange' | 'remove'> {
  readonly #env: ServiceEnv;
  readonly #sheet: SheetModel;
  readonly #filter: FilterData;

  constructor(env: ServiceEnv, sheet: SheetModel, filter: FilterData) {
    this.#env = env;
    this.#sheet = sheet;
    this.#filter = filter;
    return strict('Filter', this, env.counter);
  }

  #checkCurrent(sheet: SheetModel): void {
    if (sheet.filter !== this.#filter) throw new AppsScriptException('This filter has been removed.');
  }

  getRange(): GoogleAppsScript.Spreadsheet.Range {
    const sheet = readableSheet(this.#env, this.#sheet);
    this.#checkCurrent(sheet);
    return this.#env.classes.range(sheet, this.#filter.box);
  }

  remove(): void {
    const sheet = writableSheet(this.#env, this.#sheet, 'remove');
    this.#checkCurrent(sheet);
    sheet.filter = null;
  }
}
