/**
 * Filter criteria: the builder (SpreadsheetApp.newFilterCriteria) and the built criteria a filter's
 * column holds. Supported: hidden values, and the text conditions contains / equal to / starts with /
 * ends with, cell empty / not empty. Built criteria are immutable, so that what a script reads from a
 * column can be set back on it (or on another filter) unchanged.
 */
import { AppsScriptException, strict } from '../core';
import { requireString, signatureMismatch } from './arguments';
import { type ServiceEnv } from './service-env';
import type { ConditionType, FilterCriteriaData } from './workbook-model';

type Builder = GoogleAppsScript.Spreadsheet.FilterCriteriaBuilder;
type Criteria = GoogleAppsScript.Spreadsheet.FilterCriteria;

const criteriaData = new WeakMap<object, FilterCriteriaData>();

/** The data behind a FilterCriteria the script passed in, or undefined if it is not one. */
export function filterCriteriaDataOf(value: unknown): FilterCriteriaData | undefined {
  return typeof value === 'object' && value !== null ? criteriaData.get(value) : undefined;
}

const NO_CRITERIA: FilterCriteriaData = { hiddenValues: [], condition: null };

export function exposeFilterCriteriaBuilder(
  env: ServiceEnv,
  data: FilterCriteriaData = NO_CRITERIA,
): Builder {
  return new FilterCriteriaBuilderApi(env, data) as unknown as Builder;
}

export function exposeFilterCriteria(env: ServiceEnv, data: FilterCriteriaData): Criteria {
  const criteria = {
    copy: (): Builder => exposeFilterCriteriaBuilder(env, data),
    getHiddenValues: (): string[] => env.realm.toScript([...data.hiddenValues]),
    getCriteriaType: (): GoogleAppsScript.Spreadsheet.BooleanCriteria | null =>
      (data.condition?.type ?? null) as GoogleAppsScript.Spreadsheet.BooleanCriteria | null,
    getCriteriaValues: (): string[] => env.realm.toScript([...(data.condition?.values ?? [])]),
  } satisfies Partial<Record<keyof Criteria, unknown>>;
  const self = strict('FilterCriteria', criteria, env.counter);
  criteriaData.set(self, data);
  return self as unknown as Criteria;
}

type BuilderMethod =
  | 'setHiddenValues'
  | 'getHiddenValues'
  | 'whenTextContains'
  | 'whenTextEqualTo'
  | 'whenTextStartsWith'
  | 'whenTextEndsWith'
  | 'whenCellEmpty'
  | 'whenCellNotEmpty'
  | 'getCriteriaType'
  | 'getCriteriaValues'
  | 'copy'
  | 'build';

class FilterCriteriaBuilderApi implements Pick<Builder, BuilderMethod> {
  readonly #env: ServiceEnv;
  #data: FilterCriteriaData;
  readonly #self: FilterCriteriaBuilderApi;

  constructor(env: ServiceEnv, data: FilterCriteriaData) {
    this.#env = env;
    this.#data = data;
    this.#self = strict('FilterCriteriaBuilder', this, env.counter);
    return this.#self;
  }

  #with(change: Partial<FilterCriteriaData>): Builder {
    this.#data = { ...this.#data, ...change };
    return this.#self as unknown as Builder;
  }

  #text(method: string, type: ConditionType, text: unknown): Builder {
    requireString(`FilterCriteriaBuilder.${method}`, [text], text);
    return this.#with({ condition: { type, values: [text] } });
  }

  setHiddenValues(values: string[]): Builder {
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
      throw signatureMismatch('FilterCriteriaBuilder.setHiddenValues', [values]);
    }
    return this.#with({ hiddenValues: [...values] });
  }

  getHiddenValues(): string[] {
    return this.#env.realm.toScript([...this.#data.hiddenValues]);
  }

  whenTextContains(text: string): Builder {
    return this.#text('whenTextContains', 'TEXT_CONTAINS', text);
  }

  whenTextEqualTo(text: string): Builder {
    return this.#text('whenTextEqualTo', 'TEXT_EQUAL_TO', text);
  }

  whenTextStartsWith(text: string): Builder {
    return this.#text('whenTextStartsWith', 'TEXT_STARTS_WITH', text);
  }

  whenTextEndsWith(text: string): Builder {
    return this.#text('whenTextEndsWith', 'TEXT_ENDS_WITH', text);
  }

  whenCellEmpty(): Builder {
    return this.#with({ condition: { type: 'CELL_EMPTY', values: [] } });
  }

  whenCellNotEmpty(): Builder {
    return this.#with({ condition: { type: 'CELL_NOT_EMPTY', values: [] } });
  }

  getCriteriaType(): GoogleAppsScript.Spreadsheet.BooleanCriteria {
    return (this.#data.condition?.type ?? null) as unknown as GoogleAppsScript.Spreadsheet.BooleanCriteria;
  }

  getCriteriaValues(): string[] {
    return this.#env.realm.toScript([...(this.#data.condition?.values ?? [])]);
  }

  copy(): Builder {
    return exposeFilterCriteriaBuilder(this.#env, this.#data);
  }

  build(): Criteria {
    if (this.#data.hiddenValues.length === 0 && !this.#data.condition) {
      throw new AppsScriptException('Filter criteria need hidden values or a condition.');
    }
    return exposeFilterCriteria(this.#env, this.#data);
  }
}
