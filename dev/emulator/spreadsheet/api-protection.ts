/**
 * The script-visible Protection, backed by stored state (description, warning-only, editors, domain
 * edit). Who may edit what it covers, and so change or remove it: access-policy.ts (mayEdit); the
 * writes that respect it: service-env.ts (requireUnprotected).
 */
import { AppsScriptException, strict } from '../core';
import { PROTECTED_EDIT } from './access-policy';
import { requireBoolean, requireString, signatureMismatch } from './arguments';
import { rangeRefOf } from './api-range';
import { type ServiceEnv, readableSheet, toScriptArray, writableSheet } from './service-env';
import type { ProtectionData, SheetModel } from './workbook-model';

type Protection = GoogleAppsScript.Spreadsheet.Protection;
type User = GoogleAppsScript.Base.User;

export function exposeProtection(env: ServiceEnv, sheet: SheetModel, protection: ProtectionData): Protection {
  return new ProtectionApi(env, sheet, protection) as unknown as Protection;
}

const userEmails = new WeakMap<object, string>();

function exposeUser(env: ServiceEnv, email: string): User {
  const user = strict('User', { getEmail: (): string => email }, env.counter);
  userEmails.set(user, email);
  return user as unknown as User;
}

/** Editors are given as e-mail addresses or as User objects. */
function emailOf(method: string, args: unknown[], value: unknown): string {
  if (typeof value === 'string') return value;
  const email = typeof value === 'object' && value !== null ? userEmails.get(value) : undefined;
  if (email === undefined) throw signatureMismatch(`Protection.${method}`, args);
  return email;
}

type ProtectionMethod =
  | 'getDescription'
  | 'setDescription'
  | 'isWarningOnly'
  | 'setWarningOnly'
  | 'getProtectionType'
  | 'getRange'
  | 'setRange'
  | 'canEdit'
  | 'canDomainEdit'
  | 'setDomainEdit'
  | 'getEditors'
  | 'addEditor'
  | 'addEditors'
  | 'removeEditor'
  | 'removeEditors'
  | 'remove';

class ProtectionApi implements Pick<Protection, ProtectionMethod> {
  readonly #env: ServiceEnv;
  readonly #sheet: SheetModel;
  readonly #protection: ProtectionData;
  readonly #self: ProtectionApi;

  constructor(env: ServiceEnv, sheet: SheetModel, protection: ProtectionData) {
    this.#env = env;
    this.#sheet = sheet;
    this.#protection = protection;
    this.#self = strict('Protection', this, env.counter);
    return this.#self;
  }

  get #public(): Protection {
    return this.#self as unknown as Protection;
  }

  #checkCurrent(sheet: SheetModel): ProtectionData {
    if (!sheet.protections.includes(this.#protection))
      throw new AppsScriptException('This protection has been removed.');
    return this.#protection;
  }

  #read(): ProtectionData {
    return this.#checkCurrent(readableSheet(this.#env, this.#sheet));
  }

  /** Only who may edit the protected cells may change the protection (the reference's examples check canEdit first). */
  #write(method: string): ProtectionData {
    const protection = this.#checkCurrent(writableSheet(this.#env, this.#sheet, method));
    if (!this.#env.access.mayEdit(this.#sheet.workbook, protection))
      throw new AppsScriptException(PROTECTED_EDIT);
    return protection;
  }

  #addEditors(method: string, args: unknown[], editors: unknown[]): Protection {
    const emails = editors.map((editor) => emailOf(method, args, editor));
    const protection = this.#write(method);
    protection.editors = [...new Set([...protection.editors, ...emails])];
    return this.#public;
  }

  #removeEditors(method: string, args: unknown[], editors: unknown[]): Protection {
    const emails = new Set(editors.map((editor) => emailOf(method, args, editor)));
    const protection = this.#write(method);
    protection.editors = protection.editors.filter(
      (email) => email === protection.creator || !emails.has(email),
    );
    return this.#public;
  }

  getDescription(): string {
    return this.#read().description;
  }

  setDescription(description: string): Protection {
    requireString('Protection.setDescription', [description], description);
    this.#write('setDescription').description = description;
    return this.#public;
  }

  isWarningOnly(): boolean {
    return this.#read().warningOnly;
  }

  setWarningOnly(warningOnly: boolean): Protection {
    requireBoolean('Protection.setWarningOnly', [warningOnly], warningOnly);
    this.#write('setWarningOnly').warningOnly = warningOnly;
    return this.#public;
  }

  getProtectionType(): GoogleAppsScript.Spreadsheet.ProtectionType {
    return this.#read().type as unknown as GoogleAppsScript.Spreadsheet.ProtectionType;
  }

  getRange(): GoogleAppsScript.Spreadsheet.Range {
    const { box } = this.#read();
    const sheet = this.#sheet;
    return this.#env.classes.range(
      sheet,
      box ?? { top: 1, left: 1, bottom: sheet.maxRows, right: sheet.maxColumns },
    );
  }

  /** A range protection moves to other cells of its own sheet; a sheet protection has no range to set. */
  setRange(range: GoogleAppsScript.Spreadsheet.Range): Protection {
    const ref = rangeRefOf(range);
    if (!ref) throw signatureMismatch('Protection.setRange', [range]);
    const protection = this.#write('setRange');
    if (protection.type !== 'RANGE')
      throw new AppsScriptException('A sheet protection covers the whole sheet: it has no range to set.');
    if (ref.sheet !== this.#sheet)
      throw new AppsScriptException('The range must be on the sheet of the protection.');
    protection.box = { ...ref.box };
    return this.#public;
  }

  canEdit(): boolean {
    return this.#env.access.mayEdit(this.#sheet.workbook, this.#read());
  }

  canDomainEdit(): boolean {
    return this.#read().domainEdit;
  }

  setDomainEdit(editable: boolean): Protection {
    requireBoolean('Protection.setDomainEdit', [editable], editable);
    this.#write('setDomainEdit').domainEdit = editable;
    return this.#public;
  }

  getEditors(): User[] {
    const editors = this.#read().editors.map((email) => exposeUser(this.#env, email));
    return toScriptArray(this.#env.realm, editors);
  }

  addEditor(emailAddress: string | User): Protection {
    return this.#addEditors('addEditor', [emailAddress], [emailAddress]);
  }

  addEditors(emailAddresses: string[]): Protection {
    if (!Array.isArray(emailAddresses)) throw signatureMismatch('Protection.addEditors', [emailAddresses]);
    return this.#addEditors('addEditors', [emailAddresses], emailAddresses);
  }

  /** The user who protected the range stays an editor whatever is removed, as in Sheets. */
  removeEditor(emailAddress: string | User): Protection {
    return this.#removeEditors('removeEditor', [emailAddress], [emailAddress]);
  }

  removeEditors(emailAddresses: (string | User)[]): Protection {
    if (!Array.isArray(emailAddresses)) throw signatureMismatch('Protection.removeEditors', [emailAddresses]);
    return this.#removeEditors('removeEditors', [emailAddresses], emailAddresses);
  }

  remove(): void {
    this.#write('remove');
    const sheet = this.#sheet;
    sheet.protections = sheet.protections.filter((protection) => protection !== this.#protection);
  }
}
