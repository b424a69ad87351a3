/**
 * Where the add-on keeps what it is told. The API token and base URL belong to the user (user
 * properties: no other user of the document can read them); import options belong to the
 * spreadsheet (its document state, which the scheduled refresh can read too), so every editor's
 * imports and the scheduled refresh agree.
 */
import { MAX_BATCH_SIZE } from '../api/batch-size';
import type { CompletionsFilter } from '../api/completions-contract';
import { DocumentState, type StateOrSpreadsheet, writeDocumentState } from './document-state';

const KEYS = {
  baseUrl: 'safetySync.baseUrl',
  token: 'safetySync.token',
  importOptions: 'safetySync.importOptions',
} as const;

export interface Connection {
  baseUrl: string;
  token: string;
}

export interface ImportOptions {
  completionsFilter: CompletionsFilter;
  /** Pages (or users) requested at once through fetchAll. */
  batchSize: number;
  /** How far before the newest record held an incremental refresh re-reads. */
  overlapDays: number;
  /** Upcoming inspections lists what falls due within this many days. */
  horizonDays: number;
  /** A training counts as Expiring this many days before its expiry, unless the Trainings tab says otherwise. */
  trainingExpiringDays: number;
  /** How long a custom function's answer is reused before the service is asked again. */
  formulaCacheSeconds: number;
}

export const DEFAULT_IMPORT_OPTIONS: ImportOptions = {
  completionsFilter: {},
  // The most a round may hold: on Google a round costs its overhead once and its requests in waves,
  // so fewer, larger rounds are cheaper (docs/performance.md, "What a run costs on Google"); after a refusal the
  // client sends fewer requests at once (api/client.ts).
  batchSize: MAX_BATCH_SIZE,
  overlapDays: 7,
  horizonDays: 30,
  trainingExpiringDays: 30,
  formulaCacheSeconds: 600,
};

/** What is missing before the add-on can call the service, in words, or null when nothing is. */
export function missingConnectionParts(connection: Partial<Connection>): string | null {
  const missing = [
    !connection.baseUrl && 'the service base URL',
    !connection.token && 'your API token',
  ].filter(Boolean);
  return missing.length
    ? `Safety Sync needs ${missing.join(' and ')}. Open Safety Sync → Settings… to add it.`
    : null;
}

export function readConnection(): Partial<Connection> {
  // One read for both: each is a round trip to the property store.
  const properties = PropertiesService.getUserProperties().getProperties();
  return { baseUrl: properties[KEYS.baseUrl], token: properties[KEYS.token] };
}

export function saveConnection(connection: Connection): void {
  PropertiesService.getUserProperties().setProperties({
    [KEYS.baseUrl]: connection.baseUrl,
    [KEYS.token]: connection.token,
  });
}

export function deleteToken(): void {
  PropertiesService.getUserProperties().deleteProperty(KEYS.token);
}

/**
 * The open spreadsheet; runs without one (the scheduled refresh) pass theirs. Not interactive.ts's
 * helper: that module needs runner.ts, which needs this one.
 */
function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  if (!spreadsheet) throw new Error('Safety Sync needs an open spreadsheet.');
  return spreadsheet;
}

export function readImportOptions(spreadsheet: StateOrSpreadsheet = activeSpreadsheet()): ImportOptions {
  const state = DocumentState.of(spreadsheet);
  return { ...DEFAULT_IMPORT_OPTIONS, ...state.get<Partial<ImportOptions>>(KEYS.importOptions) };
}

export function saveImportOptions(options: ImportOptions, spreadsheet = activeSpreadsheet()): void {
  writeDocumentState(spreadsheet, KEYS.importOptions, options);
}
