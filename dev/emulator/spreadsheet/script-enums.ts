/**
 * Apps Script enums as the script sees them. Each value is its name ('YES'), so `==` comparisons and
 * `String(value)` behave like the real enum objects; the containers are strict, so a misspelt member
 * throws instead of being undefined.
 */
import { type ServiceCallCounter, strict } from '../core';
import type { ButtonName, ButtonSetName } from './ui-recorder';

export const PROTECTION_TYPES = ['RANGE', 'SHEET'] as const;
export const METADATA_VISIBILITIES = ['DOCUMENT', 'PROJECT'] as const;
export const BUTTONS: readonly ButtonName[] = ['CLOSE', 'OK', 'CANCEL', 'YES', 'NO'];
export const BUTTON_SETS: readonly ButtonSetName[] = ['OK', 'OK_CANCEL', 'YES_NO', 'YES_NO_CANCEL'];
/** All of Apps Script's criteria, so that reading any of them works; the builder creates a subset. */
export const BOOLEAN_CRITERIA = [
  'CELL_EMPTY',
  'CELL_NOT_EMPTY',
  'DATE_AFTER',
  'DATE_BEFORE',
  'DATE_EQUAL_TO',
  'DATE_AFTER_RELATIVE',
  'DATE_BEFORE_RELATIVE',
  'DATE_EQUAL_TO_RELATIVE',
  'NUMBER_BETWEEN',
  'NUMBER_EQUAL_TO',
  'NUMBER_GREATER_THAN',
  'NUMBER_GREATER_THAN_OR_EQUAL_TO',
  'NUMBER_LESS_THAN',
  'NUMBER_LESS_THAN_OR_EQUAL_TO',
  'NUMBER_NOT_BETWEEN',
  'NUMBER_NOT_EQUAL_TO',
  'TEXT_CONTAINS',
  'TEXT_DOES_NOT_CONTAIN',
  'TEXT_EQUAL_TO',
  'TEXT_STARTS_WITH',
  'TEXT_ENDS_WITH',
  'CUSTOM_FORMULA',
] as const;

/** All of Apps Script's data validation criteria, so that reading any of them works. */
export const DATA_VALIDATION_CRITERIA = [
  'DATE_AFTER',
  'DATE_BEFORE',
  'DATE_BETWEEN',
  'DATE_EQUAL_TO',
  'DATE_IS_VALID_DATE',
  'DATE_NOT_BETWEEN',
  'DATE_ON_OR_AFTER',
  'DATE_ON_OR_BEFORE',
  'NUMBER_BETWEEN',
  'NUMBER_EQUAL_TO',
  'NUMBER_GREATER_THAN',
  'NUMBER_GREATER_THAN_OR_EQUAL_TO',
  'NUMBER_LESS_THAN',
  'NUMBER_LESS_THAN_OR_EQUAL_TO',
  'NUMBER_NOT_BETWEEN',
  'NUMBER_NOT_EQUAL_TO',
  'TEXT_CONTAINS',
  'TEXT_DOES_NOT_CONTAIN',
  'TEXT_EQUAL_TO',
  'TEXT_IS_VALID_EMAIL',
  'TEXT_IS_VALID_URL',
  'VALUE_IN_LIST',
  'VALUE_IN_RANGE',
  'CUSTOM_FORMULA',
  'CHECKBOX',
] as const;

function scriptEnum<T>(className: string, names: readonly string[], counter: ServiceCallCounter): T {
  const members = Object.freeze(Object.fromEntries(names.map((name) => [name, name])));
  return strict(className, members, counter) as T;
}

export interface ScriptEnums {
  ProtectionType: typeof GoogleAppsScript.Spreadsheet.ProtectionType;
  BooleanCriteria: typeof GoogleAppsScript.Spreadsheet.BooleanCriteria;
  Button: typeof GoogleAppsScript.Base.Button;
  ButtonSet: typeof GoogleAppsScript.Base.ButtonSet;
  DeveloperMetadataVisibility: typeof GoogleAppsScript.Spreadsheet.DeveloperMetadataVisibility;
  DataValidationCriteria: typeof GoogleAppsScript.Spreadsheet.DataValidationCriteria;
}

export function createScriptEnums(counter: ServiceCallCounter): ScriptEnums {
  return {
    ProtectionType: scriptEnum('ProtectionType', PROTECTION_TYPES, counter),
    BooleanCriteria: scriptEnum('BooleanCriteria', BOOLEAN_CRITERIA, counter),
    Button: scriptEnum('Button', BUTTONS, counter),
    ButtonSet: scriptEnum('ButtonSet', BUTTON_SETS, counter),
    DeveloperMetadataVisibility: scriptEnum('DeveloperMetadataVisibility', METADATA_VISIBILITIES, counter),
    DataValidationCriteria: scriptEnum('DataValidationCriteria', DATA_VALIDATION_CRITERIA, counter),
  };
}

export function isMemberOf<T extends string>(names: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (names as readonly string[]).includes(value);
}
