/** The script-visible SpreadsheetApp global. */
import { AppsScriptException, strict } from '../core';
import { NO_UI_IN_CONTEXT, missingDocument } from './access-policy';
import { requireString } from './arguments';
import type { ServiceEnv } from './service-env';
import type { WorkbookModel } from './workbook-model';

type SpreadsheetApp = GoogleAppsScript.Spreadsheet.SpreadsheetApp;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export function exposeSpreadsheetApp(env: ServiceEnv): SpreadsheetApp {
  return new SpreadsheetAppApi(env) as unknown as SpreadsheetApp;
}

// getActiveSpreadsheet is left out of the Pick: it returns null where Sheets does (no active document
// in a time-driven trigger), which @types/google-apps-script omits.
type SpreadsheetAppMember =
  | 'ProtectionType'
  | 'BooleanCriteria'
  | 'DeveloperMetadataVisibility'
  | 'openById'
  | 'getUi'
  | 'flush'
  | 'newConditionalFormatRule'
  | 'newFilterCriteria'
  | 'newDataValidation'
  | 'DataValidationCriteria';

class SpreadsheetAppApi implements Pick<SpreadsheetApp, SpreadsheetAppMember> {
  readonly ProtectionType: typeof GoogleAppsScript.Spreadsheet.ProtectionType;
  readonly BooleanCriteria: typeof GoogleAppsScript.Spreadsheet.BooleanCriteria;
  readonly DeveloperMetadataVisibility: typeof GoogleAppsScript.Spreadsheet.DeveloperMetadataVisibility;
  readonly DataValidationCriteria: typeof GoogleAppsScript.Spreadsheet.DataValidationCriteria;
  readonly #env: ServiceEnv;

  constructor(env: ServiceEnv) {
    this.ProtectionType = env.enums.ProtectionType;
    this.BooleanCriteria = env.enums.BooleanCriteria;
    this.DeveloperMetadataVisibility = env.enums.DeveloperMetadataVisibility;
    this.DataValidationCriteria = env.enums.DataValidationCriteria;
    this.#env = env;
    return strict('SpreadsheetApp', this, env.counter);
  }

  #existing(id: string): WorkbookModel {
    const workbook = this.#env.workbooks.get(id);
    if (!workbook) throw missingDocument(id);
    this.#env.access.read(workbook);
    return this.#env.writes.visible(workbook);
  }

  #active(): WorkbookModel | null {
    this.#env.access.documents();
    const id = this.#env.access.context().activeSpreadsheetId;
    return id === null ? null : this.#existing(id);
  }

  getActiveSpreadsheet(): Spreadsheet | null {
    const workbook = this.#active();
    return workbook && this.#env.classes.spreadsheet(workbook);
  }

  openById(id: string): Spreadsheet {
    this.#env.access.openById();
    requireString('SpreadsheetApp.openById', [id], id);
    const workbook = this.#env.workbooks.get(id);
    if (!workbook) {
      throw new AppsScriptException(
        'Unexpected error while getting the method or property openById on object SpreadsheetApp.',
      );
    }
    return this.#env.classes.spreadsheet(this.#existing(workbook.id));
  }

  /** The UI of the document the user has open; there is none in custom functions and time triggers. */
  getUi(): GoogleAppsScript.Base.Ui {
    this.#env.access.ui();
    const id = this.#env.access.context().activeSpreadsheetId;
    if (id === null) throw new AppsScriptException(NO_UI_IN_CONTEXT);
    const workbook = this.#env.workbooks.get(id);
    if (!workbook || this.#env.access.missing(workbook)) throw missingDocument(id);
    return this.#env.classes.ui(workbook.ui);
  }

  flush(): void {
    this.#env.access.documents();
    this.#env.writes.flush();
  }

  newConditionalFormatRule(): GoogleAppsScript.Spreadsheet.ConditionalFormatRuleBuilder {
    this.#env.access.documents();
    return this.#env.classes.conditionalFormatRuleBuilder();
  }

  newFilterCriteria(): GoogleAppsScript.Spreadsheet.FilterCriteriaBuilder {
    this.#env.access.documents();
    return this.#env.classes.filterCriteriaBuilder();
  }

  newDataValidation(): GoogleAppsScript.Spreadsheet.DataValidationBuilder {
    this.#env.access.documents();
    return this.#env.classes.dataValidationBuilder();
  }
}
