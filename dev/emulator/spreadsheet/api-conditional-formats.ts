/**
 * Conditional format rules: the builder (SpreadsheetApp.newConditionalFormatRule), the built rule and
 * its BooleanCondition. Supported conditions: text equal to / contains / starts with / ends with,
 * number equal to / less than / greater than / between, date before / after an exact date (a Date,
 * kept as its instant and read as a calendar day in the spreadsheet's time zone; relative dates are
 * not emulated), cell empty / not empty, custom formula.
 * Supported formats: background, font colour, bold, italic. Gradients are not emulated.
 */
import { types } from 'node:util';
import { AppsScriptException, strict } from '../core';
import { normalizeColor, requireString, signatureMismatch } from './arguments';
import { rangeRefOf } from './api-range';
import { type ServiceEnv, toScriptArray } from './service-env';
import type { ConditionType, ConditionalFormat, RangeRef, RuleData } from './workbook-model';

type Builder = GoogleAppsScript.Spreadsheet.ConditionalFormatRuleBuilder;
type Rule = GoogleAppsScript.Spreadsheet.ConditionalFormatRule;
type BooleanCondition = GoogleAppsScript.Spreadsheet.BooleanCondition;

interface RuleDraft {
  type?: ConditionType;
  values: (string | number)[];
  format: ConditionalFormat;
  ranges: RangeRef[];
}

const ruleData = new WeakMap<object, RuleData>();

export function ruleDataOf(value: unknown): RuleData | undefined {
  return typeof value === 'object' && value !== null ? ruleData.get(value) : undefined;
}

function copyDraft<T extends RuleDraft>(draft: T): T {
  return { ...draft, values: [...draft.values], format: { ...draft.format }, ranges: [...draft.ranges] };
}

export function exposeConditionalFormatRuleBuilder(env: ServiceEnv, draft?: RuleDraft): Builder {
  return new RuleBuilderApi(
    env,
    draft ? copyDraft(draft) : { values: [], format: {}, ranges: [] },
  ) as unknown as Builder;
}

export function exposeConditionalFormatRule(env: ServiceEnv, data: RuleData): Rule {
  return new RuleApi(env, copyDraft(data)) as unknown as Rule;
}

function exposeBooleanCondition(env: ServiceEnv, draft: RuleDraft): BooleanCondition {
  const { type, values, format } = draft;
  const condition = {
    getCriteriaType: (): GoogleAppsScript.Spreadsheet.BooleanCriteria =>
      type as unknown as GoogleAppsScript.Spreadsheet.BooleanCriteria,
    getCriteriaValues: (): unknown[] =>
      env.realm.toScript(isDateCondition(type) ? values.map((ms) => new Date(Number(ms))) : [...values]),
    getBackground: (): string | null => format.background ?? null,
    getFontColor: (): string | null => format.fontColor ?? null,
    getBold: (): boolean | null => format.bold ?? null,
    getItalic: (): boolean | null => format.italic ?? null,
  } satisfies Partial<BooleanCondition>;
  return strict('BooleanCondition', condition, env.counter) as unknown as BooleanCondition;
}

function isDateCondition(type: ConditionType | undefined): boolean {
  return type === 'DATE_BEFORE' || type === 'DATE_AFTER';
}

type BuilderMethod =
  | 'whenTextEqualTo'
  | 'whenTextContains'
  | 'whenTextStartsWith'
  | 'whenTextEndsWith'
  | 'whenNumberEqualTo'
  | 'whenNumberLessThan'
  | 'whenNumberGreaterThan'
  | 'whenNumberBetween'
  | 'whenDateBefore'
  | 'whenDateAfter'
  | 'whenCellEmpty'
  | 'whenCellNotEmpty'
  | 'whenFormulaSatisfied'
  | 'setBackground'
  | 'setFontColor'
  | 'setBold'
  | 'setItalic'
  | 'setRanges'
  | 'getRanges'
  | 'getBooleanCondition'
  | 'getGradientCondition'
  | 'copy'
  | 'build';

class RuleBuilderApi implements Pick<Builder, BuilderMethod> {
  readonly #env: ServiceEnv;
  readonly #draft: RuleDraft;
  readonly #self: RuleBuilderApi;

  constructor(env: ServiceEnv, draft: RuleDraft) {
    this.#env = env;
    this.#draft = draft;
    this.#self = strict('ConditionalFormatRuleBuilder', this, env.counter);
    return this.#self;
  }

  #when(type: ConditionType, values: (string | number)[]): Builder {
    this.#draft.type = type;
    this.#draft.values = values;
    return this.#self as unknown as Builder;
  }

  #text(method: string, type: ConditionType, text: unknown): Builder {
    requireString(`ConditionalFormatRuleBuilder.${method}`, [text], text);
    return this.#when(type, [text]);
  }

  #numbers(method: string, type: ConditionType, numbers: unknown[]): Builder {
    if (!numbers.every((number) => typeof number === 'number' && Number.isFinite(number))) {
      throw signatureMismatch(`ConditionalFormatRuleBuilder.${method}`, numbers);
    }
    return this.#when(type, numbers as number[]);
  }

  /** A Date only: a RelativeDate (or anything else) is refused, an invalid Date too (stricter). */
  #date(method: string, type: ConditionType, date: unknown): Builder {
    if (!types.isDate(date) || Number.isNaN(date.getTime())) {
      throw signatureMismatch(`ConditionalFormatRuleBuilder.${method}`, [date]);
    }
    return this.#when(type, [date.getTime()]);
  }

  #format(change: ConditionalFormat): Builder {
    Object.assign(this.#draft.format, change);
    return this.#self as unknown as Builder;
  }

  whenTextEqualTo(text: string): Builder {
    return this.#text('whenTextEqualTo', 'TEXT_EQUAL_TO', text);
  }

  whenTextContains(text: string): Builder {
    return this.#text('whenTextContains', 'TEXT_CONTAINS', text);
  }

  whenTextStartsWith(text: string): Builder {
    return this.#text('whenTextStartsWith', 'TEXT_STARTS_WITH', text);
  }

  whenTextEndsWith(text: string): Builder {
    return this.#text('whenTextEndsWith', 'TEXT_ENDS_WITH', text);
  }

  whenNumberEqualTo(number: number): Builder {
    return this.#numbers('whenNumberEqualTo', 'NUMBER_EQUAL_TO', [number]);
  }

  whenNumberLessThan(number: number): Builder {
    return this.#numbers('whenNumberLessThan', 'NUMBER_LESS_THAN', [number]);
  }

  whenNumberGreaterThan(number: number): Builder {
    return this.#numbers('whenNumberGreaterThan', 'NUMBER_GREATER_THAN', [number]);
  }

  whenNumberBetween(start: number, end: number): Builder {
    return this.#numbers('whenNumberBetween', 'NUMBER_BETWEEN', [start, end]);
  }

  whenDateBefore(date: unknown): Builder {
    return this.#date('whenDateBefore', 'DATE_BEFORE', date);
  }

  whenDateAfter(date: unknown): Builder {
    return this.#date('whenDateAfter', 'DATE_AFTER', date);
  }

  whenCellEmpty(): Builder {
    return this.#when('CELL_EMPTY', []);
  }

  whenCellNotEmpty(): Builder {
    return this.#when('CELL_NOT_EMPTY', []);
  }

  whenFormulaSatisfied(formula: string): Builder {
    requireString('ConditionalFormatRuleBuilder.whenFormulaSatisfied', [formula], formula);
    if (!formula.startsWith('='))
      throw new AppsScriptException(`A custom formula must start with "=" (got "${formula}").`);
    return this.#when('CUSTOM_FORMULA', [formula]);
  }

  setBackground(color: string | null): Builder {
    return this.#format({
      background:
        color === null
          ? undefined
          : normalizeColor('ConditionalFormatRuleBuilder.setBackground', [color], color),
    });
  }

  setFontColor(color: string | null): Builder {
    return this.#format({
      fontColor:
        color === null
          ? undefined
          : normalizeColor('ConditionalFormatRuleBuilder.setFontColor', [color], color),
    });
  }

  setBold(bold: boolean | null): Builder {
    if (bold !== null && typeof bold !== 'boolean')
      throw signatureMismatch('ConditionalFormatRuleBuilder.setBold', [bold]);
    return this.#format({ bold: bold ?? undefined });
  }

  setItalic(italic: boolean | null): Builder {
    if (italic !== null && typeof italic !== 'boolean')
      throw signatureMismatch('ConditionalFormatRuleBuilder.setItalic', [italic]);
    return this.#format({ italic: italic ?? undefined });
  }

  setRanges(ranges: GoogleAppsScript.Spreadsheet.Range[]): Builder {
    const refs = Array.isArray(ranges) ? ranges.map(rangeRefOf) : [undefined];
    if (!refs.every((ref): ref is RangeRef => ref !== undefined)) {
      throw signatureMismatch('ConditionalFormatRuleBuilder.setRanges', [ranges]);
    }
    this.#draft.ranges = refs;
    return this.#self as unknown as Builder;
  }

  getRanges(): GoogleAppsScript.Spreadsheet.Range[] {
    return toScriptArray(
      this.#env.realm,
      this.#draft.ranges.map(({ sheet, box }) => this.#env.classes.range(sheet, box)),
    );
  }

  getBooleanCondition(): BooleanCondition | null {
    return this.#draft.type ? exposeBooleanCondition(this.#env, this.#draft) : null;
  }

  getGradientCondition(): null {
    return null;
  }

  copy(): Builder {
    return exposeConditionalFormatRuleBuilder(this.#env, this.#draft);
  }

  build(): Rule {
    const { type } = this.#draft;
    if (!type)
      throw new AppsScriptException('A conditional format rule needs a condition (call a when… method).');
    if (Object.values(this.#draft.format).every((value) => value === undefined)) {
      throw new AppsScriptException(
        'A conditional format rule needs a format (background, font colour, bold or italic).',
      );
    }
    return exposeConditionalFormatRule(this.#env, { ...this.#draft, type });
  }
}

class RuleApi implements Pick<Rule, 'getRanges' | 'getBooleanCondition' | 'getGradientCondition' | 'copy'> {
  readonly #env: ServiceEnv;
  readonly #data: RuleData;

  constructor(env: ServiceEnv, data: RuleData) {
    this.#env = env;
    this.#data = data;
    const self = strict('ConditionalFormatRule', this, env.counter);
    ruleData.set(self, data);
    return self;
  }

  getRanges(): GoogleAppsScript.Spreadsheet.Range[] {
    return toScriptArray(
      this.#env.realm,
      this.#data.ranges.map(({ sheet, box }) => this.#env.classes.range(sheet, box)),
    );
  }

  getBooleanCondition(): BooleanCondition {
    return exposeBooleanCondition(this.#env, this.#data);
  }

  getGradientCondition(): null {
    return null;
  }

  copy(): Builder {
    return exposeConditionalFormatRuleBuilder(this.#env, this.#data);
  }
}
