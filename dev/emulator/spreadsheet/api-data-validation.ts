/**
 * Data validation: the builder (SpreadsheetApp.newDataValidation) and the built rule a cell holds.
 * The builder makes "a valid date" and "a value in a list" rules; a rule read from a cell can be set
 * back, on that cell or another, unchanged (rules are immutable and moved with their cells). A script's
 * writes are not checked against them, as on Google; a user's typing is (WorkbookView.typeValues).
 */
import { AppsScriptException, strict } from '../core';
import { requireBoolean, requireString, signatureMismatch } from './arguments';
import type { DataValidationData, ValidationCriteria } from './cells';
import type { ServiceEnv } from './service-env';

type Builder = GoogleAppsScript.Spreadsheet.DataValidationBuilder;
type Rule = GoogleAppsScript.Spreadsheet.DataValidation;
type CriteriaType = GoogleAppsScript.Spreadsheet.DataValidationCriteria;

const ruleData = new WeakMap<object, DataValidationData>();

/** The data behind a DataValidation the script passed in, or undefined if it is not one. */
export function dataValidationOf(value: unknown): DataValidationData | undefined {
  return typeof value === 'object' && value !== null ? ruleData.get(value) : undefined;
}

interface Draft {
  criteria: ValidationCriteria | null;
  values: readonly unknown[];
  allowInvalid: boolean;
  helpText: string;
}

const EMPTY_DRAFT: Draft = { criteria: null, values: [], allowInvalid: true, helpText: '' };

export function exposeDataValidationBuilder(env: ServiceEnv, draft: Draft = EMPTY_DRAFT): Builder {
  return new DataValidationBuilderApi(env, draft) as unknown as Builder;
}

export function exposeDataValidation(env: ServiceEnv, data: DataValidationData): Rule {
  const rule = {
    copy: (): Builder => exposeDataValidationBuilder(env, data),
    getAllowInvalid: (): boolean => data.allowInvalid,
    getCriteriaType: (): CriteriaType => data.criteria as unknown as CriteriaType,
    getCriteriaValues: (): unknown[] => env.realm.toScript(data.values.map(copyValue)),
    getHelpText: (): string => data.helpText,
  } satisfies Record<keyof Rule, unknown>;
  const self = strict('DataValidation', rule, env.counter);
  ruleData.set(self, data);
  return self as unknown as Rule;
}

function copyValue(value: unknown): unknown {
  return Array.isArray(value) ? [...(value as unknown[])] : value;
}

type BuilderMethod =
  | 'requireDate'
  | 'requireValueInList'
  | 'setAllowInvalid'
  | 'setHelpText'
  | 'getAllowInvalid'
  | 'getCriteriaType'
  | 'getCriteriaValues'
  | 'getHelpText'
  | 'copy'
  | 'build';

class DataValidationBuilderApi implements Pick<Builder, BuilderMethod> {
  readonly #env: ServiceEnv;
  #draft: Draft;
  readonly #self: DataValidationBuilderApi;

  constructor(env: ServiceEnv, draft: Draft) {
    this.#env = env;
    this.#draft = draft;
    this.#self = strict('DataValidationBuilder', this, env.counter);
    return this.#self;
  }

  #with(change: Partial<Draft>): Builder {
    this.#draft = { ...this.#draft, ...change };
    return this.#self as unknown as Builder;
  }

  requireDate(): Builder {
    return this.#with({ criteria: 'DATE_IS_VALID_DATE', values: [] });
  }

  requireValueInList(values: string[], showDropdown = true): Builder {
    const args = [values, showDropdown];
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
      throw signatureMismatch('DataValidationBuilder.requireValueInList', args);
    }
    requireBoolean('DataValidationBuilder.requireValueInList', args, showDropdown);
    return this.#with({ criteria: 'VALUE_IN_LIST', values: [[...values], showDropdown] });
  }

  setAllowInvalid(allowInvalidData: boolean): Builder {
    requireBoolean('DataValidationBuilder.setAllowInvalid', [allowInvalidData], allowInvalidData);
    return this.#with({ allowInvalid: allowInvalidData });
  }

  setHelpText(helpText: string): Builder {
    requireString('DataValidationBuilder.setHelpText', [helpText], helpText);
    return this.#with({ helpText });
  }

  getAllowInvalid(): boolean {
    return this.#draft.allowInvalid;
  }

  getCriteriaType(): CriteriaType {
    return this.#draft.criteria as unknown as CriteriaType;
  }

  getCriteriaValues(): unknown[] {
    return this.#env.realm.toScript(this.#draft.values.map(copyValue));
  }

  getHelpText(): string {
    return this.#draft.helpText;
  }

  copy(): Builder {
    return exposeDataValidationBuilder(this.#env, this.#draft);
  }

  build(): Rule {
    const { criteria } = this.#draft;
    if (!criteria)
      throw new AppsScriptException('A data validation rule needs criteria (call a require… method).');
    return exposeDataValidation(this.#env, Object.freeze({ ...this.#draft, criteria }));
  }
}
