/**
 * What the running execution may do with documents and the UI, decided at each call from the
 * current ExecutionContext (the same objects can be used across executions in the emulator, so
 * permission is never decided once at creation).
 */
import { AppsScriptException, type ExecutionContext } from '../core';
import type { WorkbookModel } from './workbook-model';

export const NO_DOCUMENT_ACCESS = 'You do not have permission to access the document in this context';
export const NO_UI_IN_CONTEXT = 'Cannot call SpreadsheetApp.getUi() from this context.';
export const AUTHORIZATION_REQUIRED = 'Authorization is required to perform that action.';

export function missingDocument(id: string): AppsScriptException {
  return new AppsScriptException(
    `Document ${id} is missing (perhaps it was deleted, or you don't have read access?)`,
  );
}

export class AccessPolicy {
  readonly #currentContext: () => ExecutionContext;

  constructor(currentContext: () => ExecutionContext) {
    this.#currentContext = currentContext;
  }

  context(): ExecutionContext {
    return this.#currentContext();
  }

  #isCustomFunction(context: ExecutionContext): boolean {
    return context.kind === 'custom-function' || context.authMode === 'CUSTOM_FUNCTION';
  }

  /** SpreadsheetApp calls that need document access but no particular document (flush, builders). */
  documents(): void {
    if (this.#currentContext().authMode === 'NONE') throw new AppsScriptException(NO_DOCUMENT_ACCESS);
  }

  /** In LIMITED mode (a simple trigger) only the document the script is bound to can be touched. */
  read(workbook: WorkbookModel): void {
    const context = this.#currentContext();
    this.documents();
    if (workbook.deleted) throw missingDocument(workbook.id);
    if (context.authMode === 'LIMITED' && workbook.id !== context.activeSpreadsheetId) {
      throw new AppsScriptException(NO_DOCUMENT_ACCESS);
    }
  }

  /** `method` is the bare method name: Sheets says "You do not have permission to call setValues". */
  write(workbook: WorkbookModel, method: string): void {
    this.read(workbook);
    if (this.#isCustomFunction(this.#currentContext())) {
      throw new AppsScriptException(`You do not have permission to call ${method}`);
    }
  }

  openById(): void {
    const context = this.#currentContext();
    this.documents();
    if (this.#isCustomFunction(context) || context.authMode === 'LIMITED') {
      throw new AppsScriptException('You do not have permission to call SpreadsheetApp.openById');
    }
  }

  /** getUi and menus: allowed wherever a user is looking at the document, even before authorization. */
  ui(): void {
    const context = this.#currentContext();
    if (this.#isCustomFunction(context) || context.kind === 'time-trigger') {
      throw new AppsScriptException(NO_UI_IN_CONTEXT);
    }
  }

  /** Alerts, prompts, dialogs and sidebars need the user's authorization, unlike menus. */
  dialogs(): void {
    this.ui();
    if (this.#currentContext().authMode === 'NONE') throw new AppsScriptException(AUTHORIZATION_REQUIRED);
  }
}
