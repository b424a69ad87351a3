/**
 * What the running execution may do with documents and the UI, decided at each call from the
 * current ExecutionContext (the same objects can be used across executions in the emulator, so
 * permission is never decided once at creation).
 *
 * Who may write: the effective user's role in the spreadsheet (owner, editor, viewer: Drive
 * sharing) and the protections over what they write. Google's Protection reference: "The owner of
 * the spreadsheet is always able to edit protected ranges and sheets" (canEdit); a warning-only
 * protection lets everyone edit after a confirmation, which a script does not see; otherwise only
 * the protection's editors may. setDomainEdit grants a Google Workspace domain and "throws an
 * exception if the spreadsheet does not belong to a Google Workspace domain": emulated
 * spreadsheets belong to none, so it grants no one here. A time-driven trigger runs as its owner,
 * whose e-mail is the context's, so it has its owner's rights.
 */
import { AppsScriptException, type ExecutionContext } from '../core';
import type { GoogleReadings } from '../readings';
import type { ProtectionData, WorkbookModel } from './workbook-model';

export type SpreadsheetRole = 'owner' | 'editor' | 'viewer';

export const NO_DOCUMENT_ACCESS = 'You do not have permission to access the document in this context';
export const NO_UI_IN_CONTEXT = 'Cannot call SpreadsheetApp.getUi() from this context.';
export const AUTHORIZATION_REQUIRED = 'Authorization is required to perform that action.';
/**
 * What a script gets when it writes where its user may not: the message Sheets users report from
 * setValue(s) into a protected range. Google documents no message for a viewer's script; the
 * emulator gives the same one (a viewer may edit nothing, as if all were protected).
 */
export const PROTECTED_EDIT =
  'You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you need to edit.';

export function missingDocument(id: string): AppsScriptException {
  return new AppsScriptException(
    `Document ${id} is missing (perhaps it was deleted, or you don't have read access?)`,
  );
}

export class AccessPolicy {
  readonly #currentContext: () => ExecutionContext;
  readonly #roleOf: (spreadsheetId: string, email: string) => SpreadsheetRole;
  readonly #readings: Pick<GoogleReadings, 'trashedSpreadsheetOpens'>;

  constructor(
    currentContext: () => ExecutionContext,
    roleOf: (spreadsheetId: string, email: string) => SpreadsheetRole,
    readings: Pick<GoogleReadings, 'trashedSpreadsheetOpens'>,
  ) {
    this.#currentContext = currentContext;
    this.#roleOf = roleOf;
    this.#readings = readings;
  }

  /**
   * Whether a script finds the document missing: deleted, gone from the trash, or in the trash under
   * the reading that a trashed file does not open (readings.ts, trashedSpreadsheetOpens).
   */
  missing(workbook: WorkbookModel): boolean {
    return workbook.gone || (workbook.trashedAtMs !== null && !this.#readings.trashedSpreadsheetOpens);
  }

  #role(workbook: WorkbookModel): SpreadsheetRole {
    return this.#roleOf(workbook.id, this.#currentContext().userEmail);
  }

  /** Protection.canEdit: the owner always, a viewer never, others when it warns only or names them. */
  mayEdit(workbook: WorkbookModel, protection: ProtectionData): boolean {
    const role = this.#role(workbook);
    if (role === 'viewer') return false;
    return (
      role === 'owner' ||
      protection.warningOnly ||
      protection.editors.includes(this.#currentContext().userEmail)
    );
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
    if (this.missing(workbook)) throw missingDocument(workbook.id);
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
    if (this.#role(workbook) === 'viewer') throw new AppsScriptException(PROTECTED_EDIT);
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
