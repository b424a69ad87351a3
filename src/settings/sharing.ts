/**
 * Settings in a shared spreadsheet: who decides what the scheduled refresh does with its owner's
 * identity (refresh/schedule-owner.ts has the rule). Here is what Settings shows each person (the
 * owner: what someone else changed, to confirm or discard; an editor: that their change is a
 * proposal), what a save records (the Sync log names who changed what, addresses included, never
 * the token), and what the owner's Confirm and Discard do. An owner who has not authorised what the
 * add-on now asks for (a scope added since) is told where to: their scheduled runs go without it.
 */
import { FieldRefusedError } from '../platform/field-refusal';
import { recordEvent } from '../platform/job-runner';
import { saveImportOptions, readImportOptions } from '../platform/settings-store';
import { spreadsheetClock } from '../platform/time-zone';
import { type NotificationSettings, saveNotificationSettings } from '../refresh/notification-settings';
import {
  changedGroups,
  confirmGroups,
  describeGroup,
  isScheduleOwner,
  outsideDomainRefusal,
  ownedSettingsOf,
  type OwnedSettings,
  ownerDomain,
  readChangeStamps,
  readConfirmation,
  recipientAllowed,
  type SettingsGroup,
  stampChanges,
  unconfirmedGroups,
  withConfirmed,
  writeChangeStamps,
  writeConfirmation,
} from '../refresh/schedule-owner';
import { pendingAuthorizationUrl } from '../refresh/mail-authorization';
import { readSchedule, type RefreshSchedule } from '../refresh/schedule-store';
import { formatMoment } from '../refresh/status';
import { confirmManagers, readConfirmedManagers } from '../refresh/team-confirmation';
import { readTeams, teamAddresses } from '../refresh/team-roster';
import { DocumentState } from '../platform/document-state';
import { UnreadableTab } from '../platform/problem-lists';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export interface ProposedChange {
  group: SettingsGroup;
  /** The spreadsheet's setting now, in words. */
  proposed: string;
  /** What the owner's scheduled runs use until they confirm, in words. */
  confirmed: string;
  changedBy: string;
  /** "27 Nov 2026, 14:05", or '' when nobody is on record. */
  changedAt: string;
}

export interface ProposedAddress {
  address: string;
  /** Whether the owner's domain rule lets it receive the mail once confirmed. */
  allowed: boolean;
}

export interface SharingView {
  /** The e-mail of the schedule's owner; null without a schedule. */
  scheduleOwner: string | null;
  youOwnTheSchedule: boolean;
  /** The owner's domain that mail keeps to, or null (a consumer account, or no schedule). */
  ownerDomain: string | null;
  /** For the owner: what differs from what they confirmed, with the addresses to confirm one by one. */
  proposal: { changes: ProposedChange[]; newAddresses: ProposedAddress[] } | null;
  /** What the person looking should know about who decides, in sentences. */
  notes: string[];
  /** Recipients left in the caller's daily mail quota: shown to the owner, whose quota the mail spends. */
  mailQuotaLeft: number | null;
  /** With team digests on: the manager addresses on People the owner has not confirmed. */
  managers: ManagerAddresses | null;
}

export interface ManagerAddresses {
  /** How many addresses People gives (managers and their managers). */
  onPeople: number;
  /**
   * Those the owner has not confirmed, for the owner to confirm all at once; null for an editor
   * (the owner's confirmation is in the owner's own properties).
   */
  waiting: ProposedAddress[] | null;
  /** Why People cannot be read (a cell the roster refuses), or null. */
  problem: string | null;
}

const OWNER_GROUP_WORDS =
  'e-mail notifications, the completions filter, pages at once and the refresh overlap';

export function sharingView(spreadsheet: Spreadsheet): SharingView {
  const state = DocumentState.read(spreadsheet);
  const schedule = readSchedule(state);
  if (!schedule) {
    return {
      scheduleOwner: null,
      youOwnTheSchedule: false,
      ownerDomain: null,
      proposal: null,
      notes: [
        'No scheduled refresh: nothing runs as anyone and no mail is sent. Whoever schedules the refresh decides what it sends.',
      ],
      mailQuotaLeft: null,
      managers: null,
    };
  }
  const owner = schedule.ownerEmail || 'the schedule’s owner';
  const base = {
    scheduleOwner: schedule.ownerEmail,
    ownerDomain: ownerDomain(schedule.ownerEmail),
  };
  if (!isScheduleOwner(schedule)) {
    return {
      ...base,
      youOwnTheSchedule: false,
      proposal: null,
      notes: [
        `The scheduled refresh runs as ${owner}, with their token and e-mail quota. What you change in ${OWNER_GROUP_WORDS} is a proposal: ${owner}'s scheduled runs use it once ${owner} confirms it in Settings.`,
      ],
      mailQuotaLeft: null,
      managers: managerAddresses(spreadsheet, state, schedule, false),
    };
  }
  const owned = ownedSettingsOf(state);
  const confirmation = readConfirmation(spreadsheet.getId(), schedule);
  const groups = unconfirmedGroups(owned, confirmation);
  const confirmed = withConfirmed(owned, confirmation);
  const stamps = readChangeStamps(state);
  const changes = groups.map((group): ProposedChange => {
    const stamp = stamps[group];
    return {
      group,
      proposed: describeGroup(group, owned),
      confirmed: confirmedWords(group, confirmation, confirmed),
      changedBy: stamp?.by ?? 'no one on record',
      changedAt: stamp ? formatMoment(spreadsheet, stamp.atMs) : '',
    };
  });
  const confirmedRecipients = new Set(confirmation?.notifications?.recipients ?? []);
  const newAddresses = groups.includes('notifications')
    ? owned.notifications.recipients
        .filter((address) => !confirmedRecipients.has(address))
        .map((address) => ({
          address,
          allowed: recipientAllowed(address, schedule.ownerEmail, owned.notifications.allowOutsideDomain),
        }))
    : [];
  // Until the owner authorises again, MailApp (its quota too) is refused to them.
  const authorizationUrl = pendingAuthorizationUrl();
  return {
    ...base,
    youOwnTheSchedule: true,
    proposal: changes.length ? { changes, newAddresses } : null,
    notes: [
      `You own the scheduled refresh: it runs with your token and sends mail from your account. Only what you confirm of ${OWNER_GROUP_WORDS} reaches your scheduled runs.`,
      ...(authorizationUrl
        ? [
            `Google needs you to authorise Safety Sync again for what it now asks (sending the e-mail from your account, say): until you do, your scheduled runs go without it and send no mail. Google asks when you next open a Safety Sync menu item, or authorise at ${authorizationUrl}`,
          ]
        : []),
    ],
    mailQuotaLeft: authorizationUrl ? null : MailApp.getRemainingDailyQuota(),
    managers: managerAddresses(spreadsheet, state, schedule, true),
  };
}

/**
 * The manager addresses People gives (team-roster.ts) that the owner has not confirmed, when the
 * spreadsheet's settings turn team digests on; null otherwise. The list is the owner's alone: their
 * confirmation is in their own properties, out of an editor's reach.
 */
function managerAddresses(
  spreadsheet: Spreadsheet,
  state: DocumentState,
  schedule: RefreshSchedule,
  forOwner: boolean,
): ManagerAddresses | null {
  const notifications = ownedSettingsOf(state).notifications;
  if (!notifications.teamDigests) return null;
  let addresses: string[];
  try {
    addresses = teamAddresses(readTeams(spreadsheet, state, spreadsheetClock(spreadsheet).utcOffsetAt));
  } catch (error) {
    if (!(error instanceof UnreadableTab)) throw error;
    return { onPeople: 0, waiting: forOwner ? [] : null, problem: error.message };
  }
  if (!forOwner) return { onPeople: addresses.length, waiting: null, problem: null };
  const confirmed = readConfirmedManagers(spreadsheet.getId(), schedule);
  return {
    onPeople: addresses.length,
    waiting: addresses
      .filter((address) => !confirmed.has(address))
      .map((address) => ({
        address,
        allowed: recipientAllowed(address, schedule.ownerEmail, notifications.allowOutsideDomain),
      })),
    problem: null,
  };
}

function confirmedWords(
  group: SettingsGroup,
  confirmation: ReturnType<typeof readConfirmation>,
  confirmed: OwnedSettings,
): string {
  const none =
    group === 'notifications'
      ? 'E-mail: off'
      : group === 'filter'
        ? 'nothing yet: scheduled imports of completed trainings wait'
        : 'nothing yet: the defaults';
  const has =
    group === 'notifications'
      ? confirmation?.notifications
      : group === 'filter'
        ? confirmation?.completionsFilter
        : confirmation?.quota;
  return has ? describeGroup(group, confirmed) : none;
}

/**
 * Refuses recipients outside the schedule owner's domain unless outside addresses are allowed: the
 * mail goes from the owner's account. Without a schedule there is no owner yet: the rule applies
 * when someone schedules the refresh and confirms.
 */
export function checkRecipientDomains(
  schedule: RefreshSchedule | null,
  notifications: NotificationSettings,
): void {
  if (!schedule) return;
  const outside = notifications.recipients.find(
    (address) => !recipientAllowed(address, schedule.ownerEmail, notifications.allowOutsideDomain),
  );
  if (outside !== undefined) {
    throw new FieldRefusedError('notifyRecipients', outsideDomainRefusal(outside, schedule.ownerEmail));
  }
}

/**
 * After a save: stamps who changed which settings and, with a schedule, confirms them when its owner
 * saved them and writes a Sync log line naming what changed. Returns whether the change is a proposal (someone
 * other than the schedule's owner made it).
 */
export function recordSettingsChange(spreadsheet: Spreadsheet, before: OwnedSettings): boolean {
  const state = DocumentState.read(spreadsheet);
  const after = ownedSettingsOf(state);
  const changed = changedGroups(before, after);
  if (changed.length === 0) return false;
  const nowMs = Date.now();
  writeChangeStamps(state, stampChanges(readChangeStamps(state), changed, nowMs));
  // Without a schedule nothing runs as anyone: the stamps say who changed what, for its future owner.
  const schedule = readSchedule(state);
  if (!schedule) return false;
  const byOwner = isScheduleOwner(schedule);
  if (byOwner) {
    const confirmation = readConfirmation(spreadsheet.getId(), schedule);
    writeConfirmation(
      spreadsheet.getId(),
      confirmGroups(confirmation, schedule.triggerUid, after, changed, nowMs),
    );
  }
  const owner = schedule.ownerEmail || 'the schedule’s owner';
  const what = changed.map((group) => describeGroup(group, after)).join('. ');
  const effect = byOwner
    ? 'Confirmed for the scheduled refresh.'
    : `A proposal: ${owner}'s scheduled refresh goes on with what ${owner} confirmed until ${owner} confirms it in Safety Sync → Settings….`;
  logSettingsEvent(spreadsheet, 'Settings changed', `${what}. ${effect}`);
  return !byOwner;
}

function requireOwner(state: DocumentState): RefreshSchedule {
  const schedule = readSchedule(state);
  if (!schedule)
    throw new Error('This spreadsheet has no scheduled refresh, so there is nothing to confirm.');
  if (!isScheduleOwner(schedule)) {
    throw new Error(
      `Only ${schedule.ownerEmail || 'the schedule’s owner'}, whose scheduled refresh uses these settings, can confirm or discard them.`,
    );
  }
  return schedule;
}

/**
 * The owner confirms what the spreadsheet holds now. A new recipient is confirmed only when the
 * owner ticked it and the domain rule allows it; the others are taken off the spreadsheet's list.
 */
export function confirmProposal(spreadsheet: Spreadsheet, tickedAddresses: readonly string[]): void {
  const state = DocumentState.read(spreadsheet);
  const schedule = requireOwner(state);
  const owned = ownedSettingsOf(state);
  const confirmation = readConfirmation(spreadsheet.getId(), schedule);
  const groups = unconfirmedGroups(owned, confirmation);
  if (groups.length === 0) return;
  const before = new Set(confirmation?.notifications?.recipients ?? []);
  const ticked = new Set(tickedAddresses.map((address) => String(address).toLowerCase()));
  const notifications = owned.notifications;
  const recipients = notifications.recipients.filter(
    (address) =>
      before.has(address) ||
      (ticked.has(address) &&
        recipientAllowed(address, schedule.ownerEmail, notifications.allowOutsideDomain)),
  );
  // Only a mail proposal takes addresses off the list: confirming a filter leaves the mail alone.
  const left = groups.includes('notifications')
    ? notifications.recipients.filter((address) => !recipients.includes(address))
    : [];
  const confirmedOwned = left.length ? { ...owned, notifications: { ...notifications, recipients } } : owned;
  if (left.length) saveNotificationSettings(spreadsheet, confirmedOwned.notifications);
  const nowMs = Date.now();
  writeConfirmation(
    spreadsheet.getId(),
    confirmGroups(confirmation, schedule.triggerUid, confirmedOwned, groups, nowMs),
  );
  if (left.length) writeChangeStamps(state, stampChanges(readChangeStamps(state), ['notifications'], nowMs));
  logSettingsEvent(
    spreadsheet,
    'Settings confirmed',
    groups.map((group) => describeGroup(group, confirmedOwned)).join('. ') +
      '. Confirmed for the scheduled refresh.' +
      (left.length ? ` Not confirmed, taken off the list: ${left.join(', ')}.` : ''),
  );
}

/**
 * The owner confirms these manager addresses (those Settings showed them, all at once or not), of
 * those People gives now and the domain rule allows; the Sync log names them.
 */
export function confirmManagerAddresses(spreadsheet: Spreadsheet, addresses: readonly string[]): void {
  const state = DocumentState.read(spreadsheet);
  const schedule = requireOwner(state);
  const notifications = ownedSettingsOf(state).notifications;
  const onPeople = teamAddresses(readTeams(spreadsheet, state, spreadsheetClock(spreadsheet).utcOffsetAt));
  const allowed = addresses.filter((address) =>
    recipientAllowed(String(address), schedule.ownerEmail, notifications.allowOutsideDomain),
  );
  const confirmed = confirmManagers(spreadsheet.getId(), schedule, onPeople, allowed.map(String));
  if (confirmed.length === 0) return;
  logSettingsEvent(
    spreadsheet,
    'Settings confirmed',
    `Manager addresses confirmed for the team digests: ${confirmed.join(', ')}.`,
  );
}

/** The owner puts the spreadsheet's settings back to what they confirmed. */
export function discardProposal(spreadsheet: Spreadsheet): void {
  const state = DocumentState.read(spreadsheet);
  const schedule = requireOwner(state);
  const owned = ownedSettingsOf(state);
  const confirmation = readConfirmation(spreadsheet.getId(), schedule);
  const groups = unconfirmedGroups(owned, confirmation);
  if (groups.length === 0) return;
  const restored = withConfirmed(owned, confirmation);
  if (groups.includes('notifications')) {
    // Nothing confirmed for mail: put back means off.
    const notifications = confirmation?.notifications ?? {
      ...owned.notifications,
      frequency: 'off' as const,
      recipients: [],
    };
    saveNotificationSettings(spreadsheet, notifications);
    restored.notifications = notifications;
  }
  if (groups.includes('filter') || groups.includes('quota')) {
    const options = readImportOptions(state);
    saveImportOptions(
      {
        ...options,
        completionsFilter: restored.completionsFilter,
        batchSize: restored.batchSize,
        overlapDays: restored.overlapDays,
      },
      spreadsheet,
    );
  }
  const back = changedGroups(owned, restored);
  writeChangeStamps(state, stampChanges(readChangeStamps(state), back, Date.now()));
  logSettingsEvent(
    spreadsheet,
    'Settings proposal discarded',
    `Put back: ${back.map((group) => describeGroup(group, restored)).join('. ')}. ` +
      `Discarded: ${groups.map((group) => describeGroup(group, owned)).join('. ')}.`,
  );
}

function logSettingsEvent(spreadsheet: Spreadsheet, action: string, details: string): void {
  recordEvent(
    spreadsheet,
    { action, outcome: 'Success', details },
    spreadsheetClock(spreadsheet).utcOffsetAt,
  );
}
