/**
 * What runs as a person is that person's to decide. The scheduled refresh runs as the user who
 * saved the schedule (its owner): their token, their UrlFetch and mail quotas, their account sending
 * the mail. The settings that steer it (who gets the mail, how often and with what, the completions
 * filter, pages at once and the refresh overlap) are kept with the spreadsheet, where any editor can
 * change them; so the owner's scheduled runs use only what the owner confirmed.
 *
 * The confirmation lives in the owner's user properties, which only the owner can write, and the
 * trigger reads them as the owner. It names the schedule (trigger id) it was confirmed for: an
 * editor who replaces the schedule becomes its owner and starts with mail off until they confirm
 * their own recipients; no confirmation carries from one owner to another. What differs between the
 * spreadsheet's settings and the owner's confirmation is a proposal, shown to the owner in Settings
 * with who changed it and when (the change stamps kept with the spreadsheet), to confirm or discard.
 *
 * Who is the owner: the schedule's e-mail (the userinfo.email scope reveals it), a stable identity;
 * the temporary user key (which changes every 30 days) only where Google hides the e-mail.
 */
import type { CompletionsFilter } from '../api/completions-contract';
import { DocumentState, type StateOrSpreadsheet } from '../platform/document-state';
import { currentUserEmail } from '../platform/job-runner';
import { DEFAULT_IMPORT_OPTIONS, type ImportOptions, readImportOptions } from '../platform/settings-store';
import { type NotificationSettings, readNotificationSettings, withDefaults } from './notification-settings';
import type { RefreshSchedule } from './schedule-store';

const CONFIRMATION_KEY_PREFIX = 'safetySync.confirmedSettings.';
const CHANGES_KEY = 'safetySync.settingsChanges';

/** The settings a scheduled run spends the owner's identity and quotas on. */
export interface OwnedSettings {
  notifications: NotificationSettings;
  completionsFilter: CompletionsFilter;
  batchSize: number;
  overlapDays: number;
}

/** Pages at once and the refresh overlap: what spends the owner's UrlFetch quota. */
export interface QuotaSettings {
  batchSize: number;
  overlapDays: number;
}

/** What the owner confirmed for their schedule; null where they confirmed nothing yet. */
export interface Confirmation {
  /** The schedule it was confirmed for: another schedule (maybe another owner's) starts afresh. */
  triggerUid: string;
  /** Null: mail is off until the owner confirms recipients. */
  notifications: NotificationSettings | null;
  /** Null: scheduled imports of completed trainings wait until the owner confirms a filter. */
  completionsFilter: CompletionsFilter | null;
  /** Null: scheduled runs use the defaults. */
  quota: QuotaSettings | null;
  atMs: number;
}

export type SettingsGroup = 'notifications' | 'filter' | 'quota';

/** Who last changed a group of the spreadsheet's settings, and when. */
export interface ChangeStamp {
  by: string;
  atMs: number;
}

export type ChangeStamps = Partial<Record<SettingsGroup, ChangeStamp>>;

/** Google's consumer accounts: no domain of their own, so no "inside" to keep mail to. */
const CONSUMER_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

export function ownedSettingsOf(source: StateOrSpreadsheet): OwnedSettings {
  const state = DocumentState.of(source);
  const options = readImportOptions(state);
  return {
    notifications: readNotificationSettings(state),
    completionsFilter: options.completionsFilter,
    batchSize: options.batchSize,
    overlapDays: options.overlapDays,
  };
}

function confirmationKey(spreadsheetId: string): string {
  return CONFIRMATION_KEY_PREFIX + spreadsheetId;
}

/** The calling user's confirmation for this schedule; null when they confirmed none for it. */
export function readConfirmation(
  spreadsheetId: string,
  schedule: RefreshSchedule | null,
): Confirmation | null {
  if (!schedule) return null;
  const saved = PropertiesService.getUserProperties().getProperty(confirmationKey(spreadsheetId));
  if (!saved) return null;
  const confirmation = JSON.parse(saved) as Confirmation;
  if (confirmation.triggerUid !== schedule.triggerUid) return null;
  return {
    ...confirmation,
    notifications: confirmation.notifications && withDefaults(confirmation.notifications),
  };
}

export function writeConfirmation(spreadsheetId: string, confirmation: Confirmation): void {
  PropertiesService.getUserProperties().setProperty(
    confirmationKey(spreadsheetId),
    JSON.stringify(confirmation),
  );
}

/** What a scheduled run uses of the owner's confirmation: confirmed pages at once and overlap. */
export function confirmedQuotaOptions(confirmation: Confirmation | null): Partial<ImportOptions> {
  return (
    confirmation?.quota ?? {
      batchSize: DEFAULT_IMPORT_OPTIONS.batchSize,
      overlapDays: DEFAULT_IMPORT_OPTIONS.overlapDays,
    }
  );
}

export function readChangeStamps(source: StateOrSpreadsheet): ChangeStamps {
  return DocumentState.of(source).get<ChangeStamps>(CHANGES_KEY) ?? {};
}

export function writeChangeStamps(state: DocumentState, stamps: ChangeStamps): void {
  state.set(CHANGES_KEY, stamps);
}

/** Session.getTemporaryActiveUserKey(), or '' where Google gives none. */
export function userKey(): string {
  try {
    return Session.getTemporaryActiveUserKey();
  } catch {
    return '';
  }
}

/** Whether the user running now owns this schedule (their trigger runs it). */
export function isScheduleOwner(schedule: RefreshSchedule | null): boolean {
  if (!schedule) return false;
  const email = currentUserEmail();
  if (email !== '' && schedule.ownerEmail !== '') {
    return email.toLowerCase() === schedule.ownerEmail.toLowerCase();
  }
  const key = userKey();
  return key !== '' && key === schedule.ownerKey;
}

/** The owner's own domain, or null for a consumer account or a hidden e-mail (no inside to keep to). */
export function ownerDomain(ownerEmail: string): string | null {
  const domain = ownerEmail.split('@')[1]?.toLowerCase();
  return domain && !CONSUMER_DOMAINS.has(domain) ? domain : null;
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Whether the owner's rule lets this address receive the mail: inside their domain, or anywhere once
 * they allowed outside addresses. An owner with no domain confirms each address one by one, so an
 * address they confirmed is allowed.
 */
export function recipientAllowed(address: string, ownerEmail: string, allowOutsideDomain: boolean): boolean {
  const domain = ownerDomain(ownerEmail);
  return domain === null || allowOutsideDomain || domainOf(address) === domain;
}

/** The sentence that refuses an address outside the owner's domain, naming the switch that allows it. */
export function outsideDomainRefusal(address: string, ownerEmail: string): string {
  const domain = ownerDomain(ownerEmail) ?? '';
  return (
    `"${address}" is outside ${domain}, the domain of ${ownerEmail}, whose scheduled refresh sends the mail. ` +
    `Remove it, or tick "Allow mail to addresses outside ${domain}".`
  );
}

const GROUPS: readonly SettingsGroup[] = ['notifications', 'filter', 'quota'];

function groupValue(group: SettingsGroup, settings: OwnedSettings): string {
  if (group === 'notifications') return JSON.stringify(settings.notifications);
  if (group === 'filter') {
    const filter = settings.completionsFilter;
    return JSON.stringify([filter.user_id ?? '', filter.training_id ?? '']);
  }
  return JSON.stringify([settings.batchSize, settings.overlapDays]);
}

export function changedGroups(before: OwnedSettings, after: OwnedSettings): SettingsGroup[] {
  return GROUPS.filter((group) => groupValue(group, before) !== groupValue(group, after));
}

export function sameFilter(a: CompletionsFilter, b: CompletionsFilter): boolean {
  return (a.user_id ?? '') === (b.user_id ?? '') && (a.training_id ?? '') === (b.training_id ?? '');
}

/** The groups in which the spreadsheet's settings differ from what the owner confirmed. */
export function unconfirmedGroups(owned: OwnedSettings, confirmation: Confirmation | null): SettingsGroup[] {
  const mailWanted = owned.notifications.frequency !== 'off' && owned.notifications.recipients.length > 0;
  return GROUPS.filter((group) => {
    const confirmed = confirmedValue(group, confirmation);
    // Mail off and never confirmed is nothing to confirm.
    if (confirmed === null) return group !== 'notifications' || mailWanted;
    return groupValue(group, { ...owned, ...confirmed }) !== groupValue(group, owned);
  });
}

/** A group's confirmed value as settings fields, or null when the owner confirmed none. */
function confirmedValue(
  group: SettingsGroup,
  confirmation: Confirmation | null,
): Partial<OwnedSettings> | null {
  if (!confirmation) return null;
  if (group === 'notifications') {
    return confirmation.notifications && { notifications: confirmation.notifications };
  }
  if (group === 'filter') {
    return confirmation.completionsFilter && { completionsFilter: confirmation.completionsFilter };
  }
  return confirmation.quota;
}

/** The owner's confirmation with these groups confirmed as the spreadsheet has them now. */
export function confirmGroups(
  confirmation: Confirmation | null,
  triggerUid: string,
  owned: OwnedSettings,
  groups: readonly SettingsGroup[],
  atMs: number,
): Confirmation {
  const base: Confirmation = confirmation ?? {
    triggerUid,
    notifications: null,
    completionsFilter: null,
    quota: null,
    atMs,
  };
  return {
    ...base,
    triggerUid,
    atMs,
    notifications: groups.includes('notifications') ? owned.notifications : base.notifications,
    completionsFilter: groups.includes('filter') ? owned.completionsFilter : base.completionsFilter,
    quota: groups.includes('quota')
      ? { batchSize: owned.batchSize, overlapDays: owned.overlapDays }
      : base.quota,
  };
}

/** The settings as the owner confirmed them where they did, and as the spreadsheet has them elsewhere. */
export function withConfirmed(owned: OwnedSettings, confirmation: Confirmation | null): OwnedSettings {
  const confirmed = GROUPS.map((group) => confirmedValue(group, confirmation) ?? {});
  return Object.assign({}, owned, ...confirmed) as OwnedSettings;
}

/** The stamps after the user running now changed these groups. */
export function stampChanges(stamps: ChangeStamps, changed: SettingsGroup[], atMs: number): ChangeStamps {
  const by = currentUserEmail() || 'an editor whose e-mail Google does not show';
  const next = { ...stamps };
  for (const group of changed) next[group] = { by, atMs };
  return next;
}

const PERSONAL_DATA_WORDS = { counts: 'counts and links only', names: 'names and items' } as const;

/** One group of settings in words, as Settings and the Sync log show it (addresses included, never the token). */
export function describeGroup(group: SettingsGroup, settings: OwnedSettings): string {
  if (group === 'filter') {
    const { user_id: userId, training_id: trainingId } = settings.completionsFilter;
    const parts = [userId && `user ${userId}`, trainingId && `training ${trainingId}`].filter(Boolean);
    return `Completions filter: ${parts.length ? parts.join(' and ') : "none (everyone's records the token can read)"}`;
  }
  if (group === 'quota') {
    return `Pages at once: ${settings.batchSize}; refresh overlap: ${settings.overlapDays} days`;
  }
  const mail = settings.notifications;
  if (mail.frequency === 'off' || mail.recipients.length === 0) return 'E-mail: off';
  const share = mail.mailShare;
  return (
    `E-mail: ${mail.frequency === 'each-run' ? 'with each scheduled run that changes something' : mail.frequency} ` +
    `to ${mail.recipients.join(', ')}; ${PERSONAL_DATA_WORDS[mail.personalData]}; ` +
    `${mail.allowOutsideDomain ? 'outside addresses allowed' : "only the owner's domain"}; ` +
    `at most ${share.maxRecipientsPerRun} recipients a run and ${share.percentOfRemaining}% of the quota left` +
    (mail.teamDigests
      ? `; each confirmed manager their team's trainings${mail.escalationDays > 0 ? `, to their manager after ${mail.escalationDays} days open` : ''}`
      : '')
  );
}

/**
 * A schedule saved now: its owner confirms the import settings as the spreadsheet holds them (they
 * chose to run imports with them). Their mail carries over from their own previous schedule, or is
 * confirmed when they saved it themselves and no one else's schedule came before; otherwise mail is
 * off until they confirm their own recipients in Settings.
 */
export function confirmNewSchedule(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  previous: RefreshSchedule | null,
  schedule: RefreshSchedule,
): void {
  const spreadsheetId = spreadsheet.getId();
  const own = previous && isScheduleOwner(previous) ? readConfirmation(spreadsheetId, previous) : null;
  if (own) {
    writeConfirmation(spreadsheetId, { ...own, triggerUid: schedule.triggerUid });
    return;
  }
  const state = DocumentState.read(spreadsheet);
  const owned = ownedSettingsOf(state);
  const me = currentUserEmail().toLowerCase();
  const mailSavedByMe =
    previous === null &&
    me !== '' &&
    readChangeStamps(state).notifications?.by.toLowerCase() === me &&
    owned.notifications.recipients.every((address) =>
      recipientAllowed(address, schedule.ownerEmail, owned.notifications.allowOutsideDomain),
    );
  const groups: SettingsGroup[] = mailSavedByMe ? ['notifications', 'filter', 'quota'] : ['filter', 'quota'];
  writeConfirmation(spreadsheetId, confirmGroups(null, schedule.triggerUid, owned, groups, Date.now()));
}
