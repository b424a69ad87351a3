/**
 * The script-visible Filter: its range, its columns' criteria, sorting through it, and removing it.
 * Rows the criteria hide: filter-rows.ts.
 */
import { AppsScriptException, strict } from '../core';
import { isInteger, requireBoolean, signatureMismatch } from './arguments';
import { exposeFilterCriteria, filterCriteriaDataOf } from './api-filter-criteria';
import { type ServiceEnv, readableSheet, writableSheet } from './service-env';
import { sortThroughFilter } from './structural-changes';
import type { FilterData, SheetModel } from './workbook-model';

type Filter = GoogleAppsScript.Spreadsheet.Filter;
type FilterCriteria = GoogleAppsScript.Spreadsheet.FilterCriteria;

export function exposeFilter(env: ServiceEnv, sheet: SheetModel, filter: FilterData): Filter {
  return new FilterApi(env, sheet, filter) as unknown as Filter;
}

type FilterMethod =
  | 'getRange'
  | 'remove'
  | 'getColumnFilterCriteria'
  | 'setColumnFilterCriteria'
  | 'removeColumnFilterCriteria'
  | 'sort';

class FilterApi implements Pick<Filter, FilterMethod> {
  readonly #env: ServiceEnv;
  readonly #sheet: SheetModel;
  readonly #filter: FilterData;
  readonly #self: FilterApi;

  constructor(env: ServiceEnv, sheet: SheetModel, filter: FilterData) {
    this.#env = env;
    this.#sheet = sheet;
    this.#filter = filter;
    this.#self = strict('Filter', this, env.counter);
    return this.#self;
  }

  get #public(): Filter {
    return this.#self as unknown as Filter;
  }

  #checkCurrent(sheet: SheetModel): void {
    if (sheet.filter !== this.#filter) throw new AppsScriptException('This filter has been removed.');
  }

  /** A sheet column (1-based) the filter covers. */
  #column(method: string, args: unknown[], column: unknown): number {
    if (!isInteger(column)) throw signatureMismatch(`Filter.${method}`, args);
    const { box } = this.#filter;
    if (column < box.left || column > box.right) {
      throw new AppsScriptException(`The column ${column} is outside the range of the filter.`);
    }
    return column;
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

  getColumnFilterCriteria(columnPosition: number): FilterCriteria | null {
    this.#checkCurrent(readableSheet(this.#env, this.#sheet));
    const column = this.#column('getColumnFilterCriteria', [columnPosition], columnPosition);
    const criteria = this.#filter.criteria.get(column);
    return criteria ? exposeFilterCriteria(this.#env, criteria) : null;
  }

  setColumnFilterCriteria(columnPosition: number, filterCriteria: FilterCriteria | null): Filter {
    const args = [columnPosition, filterCriteria];
    const criteria = filterCriteria === null ? null : filterCriteriaDataOf(filterCriteria);
    if (criteria === undefined) throw signatureMismatch('Filter.setColumnFilterCriteria', args);
    this.#checkCurrent(writableSheet(this.#env, this.#sheet, 'setColumnFilterCriteria'));
    const column = this.#column('setColumnFilterCriteria', args, columnPosition);
    if (criteria) this.#filter.criteria.set(column, criteria);
    else this.#filter.criteria.delete(column);
    return this.#public;
  }

  removeColumnFilterCriteria(columnPosition: number): Filter {
    this.#checkCurrent(writableSheet(this.#env, this.#sheet, 'removeColumnFilterCriteria'));
    this.#filter.criteria.delete(
      this.#column('removeColumnFilterCriteria', [columnPosition], columnPosition),
    );
    return this.#public;
  }

  /** Sorts the filter's rows below its header row by one column; cells beside the filter stay. */
  sort(columnPosition: number, ascending: boolean): Filter {
    requireBoolean('Filter.sort', [columnPosition, ascending], ascending);
    const sheet = writableSheet(this.#env, this.#sheet, 'sort');
    this.#checkCurrent(sheet);
    sortThroughFilter(sheet, this.#column('sort', [columnPosition, ascending], columnPosition), ascending);
    return this.#public;
  }
}
