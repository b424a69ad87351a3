/**
 * Whether the custom functions of this spreadsheet may call the service, and with which token.
 *
 * A custom function runs anonymously: it cannot know who typed it, and getUserProperties() there
 * is the spreadsheet owner's store. Reading the import token from there would let any editor use
 * the owner's token by typing a formula. So formulas read only a token that a user explicitly lent
 * to this document in Settings ("Formulas in this spreadsheet may use my token"): a copy of their
 * connection in the document's properties, which any user can remove by turning the option off.
 */
import type { Connection } from '../platform/settings-store';

const KEYS = {
  baseUrl: 'safetySync.formulaBaseUrl',
  token: 'safetySync.formulaToken',
} as const;

/** Thrown by a function when no token was lent to formulas; says how to lend one. */
export class FormulaAccessOffError extends Error {
  constructor() {
    super(
      'Formulas in this spreadsheet may not call the safety service yet, so nothing was requested. ' +
        'Someone with an API token can allow it: Safety Sync → Settings… → tick "Formulas in this spreadsheet may use my token".',
    );
    this.name = 'FormulaAccessOffError';
  }
}

function documentProperties(): GoogleAppsScript.Properties.Properties {
  const properties = PropertiesService.getDocumentProperties();
  if (!properties) throw new Error('Formulas can only use the service from within a spreadsheet.');
  return properties;
}

/** The connection lent to formulas, or null when formulas may not call the service. */
export function readFormulaConnection(): Connection | null {
  const properties = documentProperties();
  const baseUrl = properties.getProperty(KEYS.baseUrl);
  const token = properties.getProperty(KEYS.token);
  return baseUrl && token ? { baseUrl, token } : null;
}

export function hasFormulaAccess(): boolean {
  return readFormulaConnection() !== null;
}

/** Lends this connection to the formulas of this spreadsheet (replacing any lent before). */
export function grantFormulaAccess(connection: Connection): void {
  documentProperties().setProperties({ [KEYS.baseUrl]: connection.baseUrl, [KEYS.token]: connection.token });
}

export function revokeFormulaAccess(): void {
  const properties = documentProperties();
  properties.deleteProperty(KEYS.token);
  properties.deleteProperty(KEYS.baseUrl);
}

/**
 * After a user changed their connection: when formulas use this user's previous token, they follow
 * the change (a new token, or none once it is removed) instead of keeping a stale copy.
 */
export function followConnectionChange(previousToken: string | undefined, next: Connection | null): void {
  const lent = readFormulaConnection();
  if (!lent || !previousToken || lent.token !== previousToken) return;
  if (next) grantFormulaAccess(next);
  else revokeFormulaAccess();
}
