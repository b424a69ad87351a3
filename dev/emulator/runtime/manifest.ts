/**
 * What appsscript.json allows, enforced as Google enforces it:
 * - `oauthScopes`: once a manifest lists scopes, Apps Script grants exactly those, and a call whose
 *   service needs another throws "Specified permissions are not sufficient to call X. Required
 *   permissions: Y". Without the field Google detects the scopes from the code, so nothing is refused.
 * - `urlFetchWhitelist`: once present, every URL fetched must start with one of its prefixes
 *   (https, a full domain or a `*.` subdomain wildcard, a non-empty path), redirects included.
 *   Google's exact wording for a refused URL is not published; the emulator's names the field, and
 *   the add-on recognises the refusal by the URL it checked itself (src/platform/url-fetch-whitelist.ts).
 * Each emulated call is mapped to its scopes by `Class.method` (the counter's key) in SCOPES below;
 * a class that is not listed needs none (Properties, Cache, Lock, Utilities, HtmlService, Logger).
 *
 * What each user granted (Grants): the manifest's scopes when they last accepted Google's consent
 * screen. Google shows it before a menu item runs for a user whose grants lack a scope the manifest
 * lists ("the script prompts the user for authorization the next time it runs"), but "if the script
 * is published as an add-on that uses installable triggers, the trigger runs the script without
 * prompting for authorization but throws an exception if the script attempts to call the
 * unauthorized service" (developers.google.com/apps-script/reference/script/authorization-status,
 * REQUIRED). So a scope added to the manifest after a user authorised is missing from their triggers'
 * runs until they next open a menu item. A dialog's google.script.run cannot show the consent screen
 * either: it runs with the grants the user has (the stricter reading). Google does not publish the
 * exception's wording; the emulator uses the one Apps Script gives a call the running user has not
 * authorised ("You do not have permission to call X. Required permissions: Y", as requireAuthMode in
 * service-object.ts does), distinct from the manifest's "Specified permissions are not sufficient".
 */
import { AppsScriptException } from '../core';
import type { Executions } from './executions';
import { isSpreadsheetServiceClass } from './spreadsheet-seam';

const AUTH = 'https://www.googleapis.com/auth/';
export const SCOPE = {
  spreadsheets: `${AUTH}spreadsheets`,
  currentSpreadsheet: `${AUTH}spreadsheets.currentonly`,
  externalRequest: `${AUTH}script.external_request`,
  scriptApp: `${AUTH}script.scriptapp`,
  containerUi: `${AUTH}script.container.ui`,
  email: `${AUTH}userinfo.email`,
  sendMail: `${AUTH}script.send_mail`,
} as const;

/** Any one of the scopes of a list allows the call (Google's reference lists them so). */
type ScopeChoice = readonly string[];

const SPREADSHEET_SCOPES: ScopeChoice = [SCOPE.currentSpreadsheet, SCOPE.spreadsheets];
/** Opening another document than the one the script is bound to needs the full scope. */
const OTHER_DOCUMENT_SCOPES: ScopeChoice = [SCOPE.spreadsheets];
/**
 * The Sheets API takes `spreadsheets` (and Drive scopes the add-on does not ask for); it does not know
 * Apps Script's `spreadsheets.currentonly`, so the stricter reading leaves it out.
 */
const SHEETS_API_SCOPES: ScopeChoice = [SCOPE.spreadsheets];
const NO_SCOPE: ScopeChoice = [];

/**
 * By class: every method; by `Class.method`: that method (it wins over its class). Every class of the
 * Spreadsheet service not listed takes SPREADSHEET_SCOPES.
 */
const SCOPES: ReadonlyMap<string, ScopeChoice> = new Map<string, ScopeChoice>([
  ['SpreadsheetApp.openById', OTHER_DOCUMENT_SCOPES],
  ['SpreadsheetApp.openByUrl', OTHER_DOCUMENT_SCOPES],
  ['SpreadsheetApp.create', OTHER_DOCUMENT_SCOPES],
  // A menu is built in AuthMode.NONE, before any authorisation: getUi and the menus need no scope.
  ['SpreadsheetApp.getUi', NO_SCOPE],
  ['Sheets', SHEETS_API_SCOPES],
  ['Sheets.Spreadsheets', SHEETS_API_SCOPES],
  ['Sheets.Spreadsheets.Values', SHEETS_API_SCOPES],
  ['UrlFetchApp', [SCOPE.externalRequest]],
  ['ScriptApp.newTrigger', [SCOPE.scriptApp]],
  ['ScriptApp.getProjectTriggers', [SCOPE.scriptApp]],
  ['ScriptApp.getUserTriggers', [SCOPE.scriptApp]],
  ['ScriptApp.deleteTrigger', [SCOPE.scriptApp]],
  ['TriggerBuilder', [SCOPE.scriptApp]],
  ['ClockTriggerBuilder', [SCOPE.scriptApp]],
  ['Trigger', [SCOPE.scriptApp]],
  ['Ui.alert', [SCOPE.containerUi]],
  ['Ui.prompt', [SCOPE.containerUi]],
  ['Ui.showModalDialog', [SCOPE.containerUi]],
  ['Ui.showModelessDialog', [SCOPE.containerUi]],
  ['Ui.showSidebar', [SCOPE.containerUi]],
  ['Session.getActiveUser', [SCOPE.email]],
  ['Session.getEffectiveUser', [SCOPE.email]],
  ['MailApp', [SCOPE.sendMail]],
]);

export function requiredScopes(call: string): ScopeChoice {
  const exact = SCOPES.get(call);
  if (exact) return exact;
  const className = call.slice(0, call.lastIndexOf('.'));
  return SCOPES.get(className) ?? (isSpreadsheetServiceClass(className) ? SPREADSHEET_SCOPES : NO_SCOPE);
}

/** Google's way of writing a choice of scopes in its message. */
function describeChoice(scopes: ScopeChoice): string {
  return scopes.length === 1 ? scopes[0]! : `(${scopes.join(' || ')})`;
}

interface ManifestFields {
  oauthScopes?: unknown;
  urlFetchWhitelist?: unknown;
}

export class ManifestPolicy {
  /** Null: the manifest lists no scopes, so Google grants what the code uses. */
  readonly #scopes: ReadonlySet<string> | null;
  /** Null: no whitelist, every URL may be fetched. */
  readonly #whitelist: readonly RegExp[] | null;

  constructor(manifestText: string | undefined) {
    const manifest = (manifestText === undefined ? {} : JSON.parse(manifestText)) as ManifestFields;
    this.#scopes =
      manifest.oauthScopes === undefined ? null : new Set(stringList('oauthScopes', manifest.oauthScopes));
    this.#whitelist =
      manifest.urlFetchWhitelist === undefined
        ? null
        : stringList('urlFetchWhitelist', manifest.urlFetchWhitelist).map(prefixPattern);
  }

  /** The scopes the manifest lists, or null when it lists none (Google detects them from the code). */
  get scopes(): readonly string[] | null {
    return this.#scopes && [...this.#scopes];
  }

  /** Throws Google's permission error when the manifest's scopes do not allow `call` (`Class.method`). */
  checkCall(call: string): void {
    if (!this.#scopes) return;
    const needed = requiredScopes(call);
    if (needed.length === 0 || needed.some((scope) => this.#scopes!.has(scope))) return;
    throw new AppsScriptException(
      `Specified permissions are not sufficient to call ${call}. Required permissions: ${describeChoice(needed)}`,
    );
  }

  /** Throws when the manifest has a urlFetchWhitelist that no prefix of matches `url`. */
  checkUrl(url: string): void {
    if (!this.#whitelist || this.#whitelist.some((pattern) => pattern.test(url))) return;
    throw new AppsScriptException(
      `UrlFetch to ${withoutQuery(url)} is not allowed: it matches no prefix of urlFetchWhitelist in the script's manifest.`,
    );
  }
}

/**
 * The scopes each user granted. A user the emulator has no record of granted the manifest's: they
 * installed the add-on under it, and whoever made a trigger made it in a run that asked them. A test
 * models a user who authorised under an older manifest with `set`; their next menu item (Google's
 * consent screen, accepted) grants the manifest's scopes again.
 */
export class Grants {
  readonly #recorded = new Map<string, ReadonlySet<string>>();

  constructor(
    private readonly manifest: ManifestPolicy,
    private readonly executions: Executions,
  ) {}

  /** Test helper: `user` last authorised when the manifest listed only `scopes`. */
  set(user: string, scopes: readonly string[]): void {
    this.manifestScopes();
    this.#recorded.set(user, new Set(scopes));
  }

  /** The scopes `user` has granted. */
  of(user: string): string[] {
    return [...(this.#recorded.get(user) ?? this.manifestScopes())];
  }

  /**
   * The counter's hook, after the manifest's check: a menu item in FULL mode first records the
   * consent Google asked for before it ran (no call of the run comes earlier); then a call in FULL
   * mode needs a scope the running user granted. Other modes grant nothing (authorization-mode
   * checks refuse what they cannot do).
   */
  checkCall(call: string): void {
    const execution = this.executions.current();
    if (!execution || execution.context.authMode !== 'FULL' || !this.manifest.scopes) return;
    if (execution.context.kind === 'menu') this.#recorded.delete(execution.user);
    const recorded = this.#recorded.get(execution.user);
    const needed = requiredScopes(call);
    if (!recorded || needed.length === 0 || needed.some((scope) => recorded.has(scope))) return;
    throw new AppsScriptException(
      `You do not have permission to call ${call}. Required permissions: ${describeChoice(needed)}`,
    );
  }

  /**
   * ScriptApp.getAuthorizationInfo for the running user: in FULL mode, which scopes of `scopes` (by
   * default the manifest's) they have not granted; no other mode asks the user for anything.
   */
  authorizationFor(authMode: string, scopes: readonly string[] | undefined) {
    const asked = scopes ?? this.manifestScopes();
    const granted = new Set(this.of(this.executions.requireCurrent().user));
    return {
      required: authMode === 'FULL' && asked.some((scope) => !granted.has(scope)),
      authorized: asked.filter((scope) => granted.has(scope)),
    };
  }

  private manifestScopes(): readonly string[] {
    const scopes = this.manifest.scopes;
    if (!scopes) throw new Error('not emulated: authorisation of a manifest that lists no oauthScopes');
    return scopes;
  }
}

function stringList(field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw new Error(`appsscript.json: ${field} must be a list of strings`);
  return value as string[];
}

/**
 * A whitelist prefix as Google requires it (developers.google.com/apps-script/manifest/allowlist-url):
 * https, a full domain (a leading `*.` matches any subdomain), a non-empty path. A manifest breaking
 * these rules is refused by clasp push, so the emulator refuses it too.
 */
function prefixPattern(prefix: string): RegExp {
  const match = /^https:\/\/((?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?)(\/.*)$/i.exec(prefix);
  if (!match)
    throw new Error(
      `appsscript.json: urlFetchWhitelist entry ${JSON.stringify(prefix)} must be https://, a full domain and a path (at least "/")`,
    );
  const [, host, path] = match;
  const hostPattern = host!.startsWith('*.')
    ? `(?:[a-z0-9-]+\\.)+${escapeRegExp(host!.slice(2))}`
    : escapeRegExp(host!);
  return new RegExp(`^https://${hostPattern}${escapeRegExp(path!)}`, 'i');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function withoutQuery(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}
