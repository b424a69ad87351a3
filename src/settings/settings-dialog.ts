/**
 * Safety Sync → Settings…: the service base URL and API token (per user), and the import options
 * (per spreadsheet). The functions the dialog calls are top-level, so any editor could also type
 * them into a cell: none returns the token (only its last four characters), and the ones that
 * change something refuse to run from a cell.
 */
import { checkBatchSize, MAX_BATCH_SIZE } from '../api/batch-size';
import { InvalidParameterError } from '../api/errors';
import { type ConnectionTestResult, testServiceConnection } from './connection-test';
import { filterAsTyped } from '../trainings/completions/typed-filter';
import {
  dropRevokedLend,
  followConnectionChange,
  grantFormulaAccess,
  hasFormulaAccess,
  lentSpreadsheets,
  revokeFormulaAccess,
  revokeMyLends,
} from '../platform/formula-access';
import { MAX_CACHE_SECONDS } from '../formulas/cache';
import {
  type FieldOutcome,
  FieldRefusedError,
  refusalOf,
  refuseField,
  wholeNumberField,
} from '../platform/field-refusal';
import { activeSpreadsheet, requireUi } from '../platform/interactive';
import { DocumentState } from '../platform/document-state';
import { baseUrlRefusal } from '../platform/url-fetch-whitelist';
import { ownedSettingsOf } from '../refresh/schedule-owner';
import { readSchedule, type RefreshSchedule } from '../refresh/schedule-store';
import {
  checkRecipientDomains,
  confirmManagerAddresses,
  confirmProposal,
  discardProposal,
  recordSettingsChange,
  type SharingView,
  sharingView,
} from './sharing';
import { refreshStatus } from '../refresh/status';
import {
  type NotificationForm,
  type NotificationSettings,
  notificationsFromForm,
  readNotificationSettings,
  saveNotificationSettings,
} from '../refresh/notification-settings';
import {
  deleteToken,
  type ImportOptions,
  missingConnectionParts,
  readConnection,
  readImportOptions,
  saveConnection,
  saveImportOptions,
} from '../platform/settings-store';

export interface SettingsView {
  baseUrl: string;
  /** "set, ending in …1a2b" or "not set": never the token. */
  tokenStatus: string;
  importOptions: ImportOptions;
  /** Whether this spreadsheet's formulas may call the service with a token lent to them. */
  formulaAccess: boolean;
  /** Where the user's own token is lent to formulas, in any spreadsheet (the ones revoked left out). */
  formulaLends: { spreadsheetId: string; spreadsheetName: string; atMs: number }[];
  /** Last refreshed, the schedule, and what is wrong with it (paused, stale), in sentences. */
  refreshStatus: string[];
  refreshStale: boolean;
  /** Who gets the e-mail digest and alerts of the scheduled refresh, how often, and with what. */
  notifications: NotificationSettings;
  /** Who decides what the scheduled refresh does, and what waits for its owner's confirmation. */
  sharing: SharingView;
  /**
   * Whether this spreadsheet's scheduled refresh runs: the digest goes out only with it, whoever
   * owns it, so with none (or one that paused itself) a digest that is on sends nothing.
   */
  scheduledRefresh: ScheduledRefreshState;
}

export type ScheduledRefreshState = 'none' | 'paused' | 'running';

function scheduledRefreshState(schedule: RefreshSchedule | null): ScheduledRefreshState {
  if (!schedule) return 'none';
  return schedule.paused ? 'paused' : 'running';
}

export interface SettingsForm extends NotificationForm {
  baseUrl: string;
  /** Empty to keep the token already saved. */
  token: string;
  userId?: string;
  trainingId?: string;
  batchSize?: number | string;
  overlapDays?: number | string;
  horizonDays?: number | string;
  trainingExpiringDays?: number | string;
  formulaCacheSeconds?: number | string;
}

function tokenStatus(token: string | undefined): string {
  return token ? `set, ending in …${token.slice(-4)}` : 'not set';
}

export function getSettings(): SettingsView {
  // From a cell it would show any editor the owner's service address, recipients and filter.
  requireUi('Reading the settings');
  dropRevokedLend();
  const connection = readConnection();
  const spreadsheet = activeSpreadsheet();
  const status = refreshStatus(spreadsheet);
  return {
    baseUrl: connection.baseUrl ?? '',
    tokenStatus: tokenStatus(connection.token),
    importOptions: readImportOptions(),
    formulaAccess: hasFormulaAccess(),
    formulaLends: lentSpreadsheets(),
    refreshStatus: status.sentences,
    refreshStale: status.stale,
    notifications: readNotificationSettings(spreadsheet),
    sharing: sharingView(spreadsheet),
    scheduledRefresh: scheduledRefreshState(readSchedule(spreadsheet)),
  };
}

const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/i;

/**
 * The base URL as the client needs it: https (loopback http only reaches a local sample service),
 * inside the manifest's urlFetchWhitelist when it has one.
 */
export function checkBaseUrl(value: string): string {
  const url = value.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
  if (!/^https:\/\/[^/\s]+\.[^/\s]+/i.test(url) && !LOOPBACK.test(url)) {
    throw new FieldRefusedError(
      'baseUrl',
      'Enter the service address starting with https://, e.g. https://safety.example.com',
    );
  }
  const refusal = baseUrlRefusal(url);
  if (refusal) throw new FieldRefusedError('baseUrl', refusal);
  return url;
}

function optionsFromForm(form: SettingsForm, current: ImportOptions): ImportOptions {
  const completionsFilter = filterAsTyped({ userId: form.userId, trainingId: form.trainingId });
  const batchSize = wholeNumberField(
    'batchSize',
    form.batchSize,
    { min: 1, max: MAX_BATCH_SIZE },
    current.batchSize,
  );
  checkBatchSize(batchSize);
  return {
    completionsFilter,
    batchSize,
    overlapDays: wholeNumberField('overlapDays', form.overlapDays, { min: 0, max: 365 }, current.overlapDays),
    horizonDays: wholeNumberField(
      'horizonDays',
      form.horizonDays,
      { min: 1, max: 3650 },
      current.horizonDays,
    ),
    trainingExpiringDays: wholeNumberField(
      'trainingExpiringDays',
      form.trainingExpiringDays,
      { min: 0, max: 3650 },
      current.trainingExpiringDays,
    ),
    formulaCacheSeconds: wholeNumberField(
      'formulaCacheSeconds',
      form.formulaCacheSeconds,
      { min: 60, max: MAX_CACHE_SECONDS },
      current.formulaCacheSeconds,
    ),
  };
}

/**
 * One cheap authenticated call with what the form says (the saved token when the field is empty):
 * the outcome in words, next to the field to correct. It saves nothing, a token that fails least.
 */
export function testConnection(form: SettingsForm): ConnectionTestResult {
  requireUi('Test connection');
  let baseUrl: string;
  try {
    baseUrl = checkBaseUrl(form?.baseUrl ?? '');
  } catch (error) {
    if (error instanceof FieldRefusedError) return refuseField('baseUrl', error.message);
    throw error;
  }
  const typed = form.token?.trim();
  const token = typed || readConnection().token;
  if (!token) return refuseField('token', 'Paste your API token first.');
  return testServiceConnection(baseUrl, token, Boolean(typed));
}

/** The form's fields, as the dialog names them. */
export type SettingsField = keyof SettingsForm;

export type SaveOutcome = FieldOutcome<
  SettingsField,
  {
    settings: SettingsView;
    /** Saved by someone other than the schedule's owner: it waits for the owner's confirmation. */
    savedAsProposal: boolean;
  }
>;

/** Saves everything or nothing; a wrong field comes back named, for the dialog to show beside it. */
export function saveSettings(form: SettingsForm): SaveOutcome {
  requireUi('Saving settings');
  const spreadsheet = activeSpreadsheet();
  try {
    const baseUrl = checkBaseUrl(form.baseUrl);
    const token = form.token.trim() || readConnection().token;
    if (!token) throw new FieldRefusedError('token', 'Paste your API token.');
    // One read of the spreadsheet's settings, the schedule and its owner's rule as they are now.
    const state = DocumentState.read(spreadsheet);
    const options = optionsFromForm(form, readImportOptions(state));
    const savedNotifications = readNotificationSettings(state);
    const notifications = notificationsFromForm(form, savedNotifications);
    checkRecipientDomains(readSchedule(state), notifications);
    const before = ownedSettingsOf(state);
    const previousToken = readConnection().token;
    saveConnection({ baseUrl, token });
    followConnectionChange(previousToken, { baseUrl, token }, spreadsheet);
    saveImportOptions(options);
    if (JSON.stringify(notifications) !== JSON.stringify(savedNotifications)) {
      saveNotificationSettings(spreadsheet, notifications);
    }
    const savedAsProposal = recordSettingsChange(spreadsheet, before);
    return { ok: true, settings: getSettings(), savedAsProposal };
  } catch (error) {
    const refusal = refusalOf<SettingsField>(error);
    if (refusal) return refusal;
    if (error instanceof InvalidParameterError) return refuseField(fieldOf(error.parameter), error.message);
    throw error;
  }
}

function fieldOf(parameter: string): SettingsField {
  if (parameter === 'user_id') return 'userId';
  if (parameter === 'training_id') return 'trainingId';
  return 'batchSize';
}

/**
 * The schedule's owner confirms what others changed: the settings as the spreadsheet holds them, and
 * of the new recipients those ticked (one by one).
 */
export function confirmSettings(tickedAddresses: string[]): SettingsView {
  requireUi('Confirming settings');
  if (!Array.isArray(tickedAddresses)) throw new Error('confirmSettings needs the list of ticked addresses.');
  confirmProposal(activeSpreadsheet(), tickedAddresses);
  return getSettings();
}

/**
 * The schedule's owner confirms the manager addresses Settings showed them (confirm all): each then
 * receives its team digest and escalations.
 */
export function confirmManagers(addresses: string[]): SettingsView {
  requireUi('Confirming manager addresses');
  if (!Array.isArray(addresses)) throw new Error('confirmManagers needs the list of addresses shown.');
  confirmManagerAddresses(activeSpreadsheet(), addresses);
  return getSettings();
}

/** The schedule's owner puts the settings back to what they confirmed. */
export function discardSettings(): SettingsView {
  requireUi('Discarding changed settings');
  discardProposal(activeSpreadsheet());
  return getSettings();
}

export function removeToken(): SettingsView {
  requireUi('Removing the token');
  revokeMyLends();
  deleteToken();
  return getSettings();
}

/**
 * "Formulas in this spreadsheet may use my token": on, it lends the user's own connection to the
 * formulas of this spreadsheet, so every editor's formulas read the service with it; off, it takes
 * back (revokes) whichever token was lent, whoever lent it.
 */
export function setFormulaAccess(enabled: boolean): SettingsView {
  requireUi('Letting formulas use your token');
  const spreadsheet = activeSpreadsheet();
  if (typeof enabled !== 'boolean') throw new Error('setFormulaAccess needs true or false.');
  if (enabled) {
    const connection = readConnection();
    const missing = missingConnectionParts(connection);
    if (missing) throw new Error(missing);
    grantFormulaAccess(spreadsheet, { baseUrl: connection.baseUrl!, token: connection.token! });
  } else {
    revokeFormulaAccess(spreadsheet);
  }
  return getSettings();
}
