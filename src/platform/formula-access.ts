/**
 * Whether the custom functions of this spreadsheet may call the service, and with which token.
 *
 * A custom function runs anonymously: it cannot know who typed it, and getUserProperties() there
 * is the spreadsheet owner's store. Reading the import token from there would let any editor use
 * the owner's token by typing a formula. So formulas read only a token that a user explicitly lent
 * to this document in Settings ("Formulas in this spreadsheet may use my token"): a copy of their
 * connection in the document's properties, which any user can remove by turning the option off.
 *
 * The lender must be able to take the token back from everywhere, also from spreadsheets they are
 * not in. So every lend has an id: the lender's user properties list their lends (no token), and
 * removing or replacing the token revokes each one in the script properties, which every execution
 * can read, a custom function included (they hold no secret: one property per revoked id). A
 * formula checks its copy's id there before it sends anything; custom functions may not write
 * properties, so the revoked copy itself is deleted the next time a user opens Settings or starts an
 * import here.
 *
 * Whether a custom function may read the document properties at all is not documented (Google's
 * guide says only that Properties "works" there). Where it may not, no store a formula can read is
 * safe for the token: script properties are shared by every spreadsheet using the add-on, user
 * properties there are not the lender's, and cells and developer metadata are open to viewers. So
 * the formulas that call the service then say so in their cell and point to the menu's imports,
 * which write the same data with the user's own connection.
 */
import type { Connection } from './settings-store';

const KEYS = {
  baseUrl: 'safetySync.formulaBaseUrl',
  token: 'safetySync.formulaToken',
  lendId: 'safetySync.formulaLendId',
  lender: 'safetySync.formulaLender',
  lentAtMs: 'safetySync.formulaLentAtMs',
} as const;

/** Script properties: one per revoked lend id, its value when it was revoked. */
const REVOKED_PREFIX = 'safetySync.revokedLend.';
/** The lender's user properties: one per spreadsheet where they lend their token (a LendRecord). */
const LEND_PREFIX = 'safetySync.formulaLend.';

const ALLOW_IT =
  'Someone with an API token can allow it: Safety Sync → Settings… → tick "Formulas in this spreadsheet may use my token".';

/** Thrown by a function when no token was lent to formulas, or it was withdrawn; says how to lend one. */
class FormulaAccessOffError extends Error {
  constructor(withdrawn = false) {
    super(
      withdrawn
        ? `Formulas in this spreadsheet may not call the safety service: the person who lent them a token has withdrawn it, so nothing was requested. ${ALLOW_IT}`
        : `Formulas in this spreadsheet may not call the safety service yet, so nothing was requested. ${ALLOW_IT}`,
    );
    this.name = 'FormulaAccessOffError';
  }
}

/** Thrown by a function when Google does not let formulas read this spreadsheet's properties. */
class FormulaStoreUnreadableError extends Error {
  constructor() {
    super(
      "Google does not let formulas read this spreadsheet's settings here, so they cannot reach the token lent to them and nothing was requested. " +
        'Use the Safety Sync menu instead: Import completed trainings…, Import equipment types or Refresh all write the same data into tabs.',
    );
    this.name = 'FormulaStoreUnreadableError';
  }
}

/** Where a user's token is lent: what Settings lists, and the id that revokes it. */
interface LendRecord {
  lendId: string;
  spreadsheetId: string;
  spreadsheetName: string;
  atMs: number;
}

interface LentCopy extends Connection {
  lendId: string;
}

function documentProperties(): GoogleAppsScript.Properties.Properties {
  const properties = PropertiesService.getDocumentProperties();
  if (!properties) throw new Error('Formulas can only use the service from within a spreadsheet.');
  return properties;
}

/** The copy lent to this spreadsheet, revoked or not; null when none (one without an id could not be revoked). */
function copyIn(properties: Record<string, string>): LentCopy | null {
  const baseUrl = properties[KEYS.baseUrl];
  const token = properties[KEYS.token];
  const lendId = properties[KEYS.lendId];
  return baseUrl && token && lendId ? { baseUrl, token, lendId } : null;
}

function lentCopy(): LentCopy | null {
  return copyIn(documentProperties().getProperties());
}

function isRevoked(lendId: string): boolean {
  return PropertiesService.getScriptProperties().getProperty(REVOKED_PREFIX + lendId) !== null;
}

function revoke(lendIds: readonly string[]): void {
  if (lendIds.length === 0) return;
  const at = String(Date.now());
  PropertiesService.getScriptProperties().setProperties(
    Object.fromEntries(lendIds.map((lendId) => [REVOKED_PREFIX + lendId, at])),
  );
}

/** The current user's lends, as their user properties list them. */
function myLends(): LendRecord[] {
  const properties = PropertiesService.getUserProperties().getProperties();
  return Object.keys(properties)
    .filter((key) => key.startsWith(LEND_PREFIX))
    .map((key) => JSON.parse(properties[key]!) as LendRecord);
}

function deleteLentCopy(): void {
  const properties = documentProperties();
  for (const key of Object.values(KEYS)) properties.deleteProperty(key);
}

/**
 * The connection lent to formulas, read from a custom function; throws FormulaStoreUnreadableError
 * when the document properties are closed to it, FormulaAccessOffError when none was lent or it was
 * revoked.
 */
export function formulaConnection(): Connection {
  const properties = PropertiesService.getDocumentProperties();
  if (!properties) throw new FormulaStoreUnreadableError();
  const copy = copyIn(properties.getProperties());
  if (!copy) throw new FormulaAccessOffError();
  if (isRevoked(copy.lendId)) throw new FormulaAccessOffError(true);
  return { baseUrl: copy.baseUrl, token: copy.token };
}

export function hasFormulaAccess(): boolean {
  const copy = lentCopy();
  return copy !== null && !isRevoked(copy.lendId);
}

/**
 * Lends this connection to the formulas of this spreadsheet, as the current user, replacing (and
 * revoking) any lend before, whoever made it.
 */
export function grantFormulaAccess(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  connection: Connection,
): void {
  const previous = lentCopy();
  if (previous) revoke([previous.lendId]);
  const record: LendRecord = {
    lendId: Utilities.getUuid(),
    spreadsheetId: spreadsheet.getId(),
    spreadsheetName: spreadsheet.getName(),
    atMs: Date.now(),
  };
  documentProperties().setProperties({
    [KEYS.baseUrl]: connection.baseUrl,
    [KEYS.token]: connection.token,
    [KEYS.lendId]: record.lendId,
    [KEYS.lender]: Session.getEffectiveUser().getEmail(),
    [KEYS.lentAtMs]: String(record.atMs),
  });
  PropertiesService.getUserProperties().setProperty(
    LEND_PREFIX + record.spreadsheetId,
    JSON.stringify(record),
  );
}

/** Takes back whichever token was lent to this spreadsheet, whoever lent it (off in Settings). */
export function revokeFormulaAccess(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  const copy = lentCopy();
  if (copy) {
    revoke([copy.lendId]);
    // Only the lender's own list can be changed here; another lender's shows it revoked.
    const key = LEND_PREFIX + spreadsheet.getId();
    const userProperties = PropertiesService.getUserProperties();
    const mine = userProperties.getProperty(key);
    if (mine && (JSON.parse(mine) as LendRecord).lendId === copy.lendId) userProperties.deleteProperty(key);
  }
  deleteLentCopy();
}

/** Revokes every lend of the current user, wherever it is (their token is removed or replaced). */
export function revokeMyLends(): void {
  const lends = myLends();
  revoke(lends.map((lend) => lend.lendId));
  const userProperties = PropertiesService.getUserProperties();
  for (const lend of lends) userProperties.deleteProperty(LEND_PREFIX + lend.spreadsheetId);
  dropRevokedLend();
}

/**
 * After the user saved their connection: a different token revokes every lend of theirs; when
 * formulas here used this user's lend, they follow the change with a new one instead of stopping.
 */
export function followConnectionChange(
  previousToken: string | undefined,
  next: Connection,
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
): void {
  const copy = lentCopy();
  const mineHere =
    copy !== null &&
    myLends().some((lend) => lend.lendId === copy.lendId && lend.spreadsheetId === spreadsheet.getId());
  if (next.token !== previousToken) revokeMyLends();
  if (mineHere && (copy.token !== next.token || copy.baseUrl !== next.baseUrl)) {
    grantFormulaAccess(spreadsheet, next);
  }
}

/**
 * Deletes this spreadsheet's lent copy when it was revoked (or has no id): custom functions only
 * refuse to use it, so an execution with a user present (Settings, an import) cleans it up.
 */
export function dropRevokedLend(): void {
  const properties = documentProperties().getProperties();
  if (!Object.values(KEYS).some((key) => key in properties)) return;
  const copy = copyIn(properties);
  if (!copy || isRevoked(copy.lendId)) deleteLentCopy();
}

/** Where the current user's token is lent to formulas now (revoked lends left out), oldest first. */
export function lentSpreadsheets(): { spreadsheetId: string; spreadsheetName: string; atMs: number }[] {
  return myLends()
    .filter((lend) => !isRevoked(lend.lendId))
    .sort((a, b) => a.atMs - b.atMs)
    .map(({ spreadsheetId, spreadsheetName, atMs }) => ({ spreadsheetId, spreadsheetName, atMs }));
}
