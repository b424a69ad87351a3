/**
 * Settings → Notifications: who gets the e-mail digest and the refresh alerts, how often, and what
 * they include. Off until someone turns it on. It belongs to the spreadsheet, so it is kept in its
 * document state (developer metadata) with the schedule: the scheduled refresh that sends the mail
 * runs from a time-driven trigger, with no active document, where document properties are out of
 * reach, while a spreadsheet opened by id still has its metadata. Addresses only, never the token.
 */
import { FieldRefusedError, wholeNumberField } from '../platform/field-refusal';
import { DocumentState, type StateOrSpreadsheet, writeDocumentState } from '../platform/document-state';

const NOTIFICATIONS_KEY = 'safetySync.notifications';

/** Google's limit on the recipients of one message (MailApp). */
const MAX_RECIPIENTS = 50;
/** A year: an item open longer than that was escalated long ago or never will be. */
const MAX_ESCALATION_DAYS = 365;

const DIGEST_FREQUENCIES = ['off', 'each-run', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

export const DIGEST_TOPICS = [
  'expiredInspections',
  'expiringInspections',
  'neverInspected',
  'expiredTrainings',
  'expiringTrainings',
  'refreshFailures',
] as const;
export type DigestTopic = (typeof DIGEST_TOPICS)[number];

/**
 * What personal data a message may carry: "counts" (counts and links only: no person's name, no
 * training) or "names" (each lapsed or expiring training with the person's name). Inspections carry
 * no personal data and are listed either way.
 */
export const PERSONAL_DATA_CHOICES = ['counts', 'names'] as const;
export type PersonalDataInMail = (typeof PERSONAL_DATA_CHOICES)[number];

/** How much of the sender's daily MailApp quota one run may spend. */
export interface MailShare {
  /** At most this many recipients a run. */
  maxRecipientsPerRun: number;
  /** At most this share (percent) of the recipients left in the sender's daily quota. */
  percentOfRemaining: number;
}

export interface NotificationSettings {
  recipients: string[];
  frequency: DigestFrequency;
  topics: DigestTopic[];
  /**
   * The topics the dialog offered when these settings were saved: a topic added since is one the
   * user never chose about (see withDefaults). Absent in settings saved before it was kept.
   */
  topicsOffered?: DigestTopic[];
  personalData: PersonalDataInMail;
  /** Whether addresses outside the schedule owner's domain may receive the mail. */
  allowOutsideDomain: boolean;
  mailShare: MailShare;
  /**
   * Whether each manager (a People row's Manager e-mail, once the schedule owner confirmed it) gets a
   * digest of their own people's trainings with the digest (src/refresh/team-digests.ts).
   */
  teamDigests: boolean;
  /**
   * Days after a manager was first told of an item that it goes to their own manager, while still
   * open; 0: never.
   */
  escalationDays: number;
}

export const DEFAULT_MAIL_SHARE: MailShare = { maxRecipientsPerRun: 20, percentOfRemaining: 50 };

const DEFAULT_NOTIFICATIONS: NotificationSettings = {
  recipients: [],
  frequency: 'off',
  topics: [...DIGEST_TOPICS],
  topicsOffered: [...DIGEST_TOPICS],
  personalData: 'counts',
  allowOutsideDomain: false,
  mailShare: DEFAULT_MAIL_SHARE,
  teamDigests: false,
  escalationDays: 0,
};

/** The dialog's Notifications fields, as they come from the page. */
export interface NotificationForm {
  notifyRecipients?: string;
  notifyFrequency?: string;
  notifyTopics?: string[];
  notifyPersonalData?: string;
  notifyAllowOutside?: boolean;
  notifyMaxPerRun?: number | string;
  notifySharePercent?: number | string;
  notifyTeams?: boolean;
  notifyEscalationDays?: number | string;
}

export function readNotificationSettings(spreadsheet: StateOrSpreadsheet): NotificationSettings {
  const state = DocumentState.of(spreadsheet);
  return withDefaults(state.get<Partial<NotificationSettings>>(NOTIFICATIONS_KEY));
}

/** The topics offered before "Never inspected" was: what settings saved without topicsOffered chose from. */
const FIRST_TOPICS: readonly DigestTopic[] = [
  'expiredInspections',
  'expiringInspections',
  'expiredTrainings',
  'expiringTrainings',
  'refreshFailures',
];

/**
 * Saved settings with what settings saved before a field existed lacked. A topic added since they
 * were saved is on where the user chose its kin: "Never inspected" where they chose expired
 * inspections (a schedule nobody recorded an inspection for is as pressing); a user who chose
 * refresh alerts only keeps getting only those.
 */
export function withDefaults(saved: Partial<NotificationSettings> | null | undefined): NotificationSettings {
  const settings = { ...DEFAULT_NOTIFICATIONS, ...saved };
  const offered = saved?.topicsOffered ?? FIRST_TOPICS;
  const added = !offered.includes('neverInspected') && settings.topics.includes('expiredInspections');
  const topics = added
    ? DIGEST_TOPICS.filter((topic) => topic === 'neverInspected' || settings.topics.includes(topic))
    : settings.topics;
  return { ...settings, topics, topicsOffered: [...DIGEST_TOPICS] };
}

export function saveNotificationSettings(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  settings: NotificationSettings,
): void {
  writeDocumentState(spreadsheet, NOTIFICATIONS_KEY, settings);
}

/** Whether anything is ever sent: a frequency other than Off, and someone to send it to. */
export function notificationsOn(settings: NotificationSettings): boolean {
  return settings.frequency !== 'off' && settings.recipients.length > 0;
}

/** A plain address (local@domain.tld): no display names, no spaces, one @. */
const ADDRESS = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\.]+(\.[^\s@,;<>"()[\]\\.]+)+$/;

/** Whether the text is one plain address, as the recipients field takes it. */
export function isPlainAddress(text: string): boolean {
  return ADDRESS.test(text);
}

/** The addresses typed, one per line or separated by commas or semicolons, each checked. */
function checkRecipients(text: string): string[] {
  const typed = text.split(/[\s,;]+/).filter((address) => address !== '');
  const wrong = typed.find((address) => !ADDRESS.test(address));
  if (wrong !== undefined) {
    throw new FieldRefusedError(
      'notifyRecipients',
      `"${wrong.slice(0, 80)}" is not an e-mail address. Enter addresses like name@example.com, separated by commas.`,
    );
  }
  const recipients = [...new Set(typed.map((address) => address.toLowerCase()))];
  if (recipients.length > MAX_RECIPIENTS) {
    throw new FieldRefusedError(
      'notifyRecipients',
      `Enter at most ${MAX_RECIPIENTS} addresses (Google sends a message to no more); a group address counts as one.`,
    );
  }
  return recipients;
}

/** The Notifications fields as settings; a field left out keeps what is saved. */
export function notificationsFromForm(
  form: NotificationForm,
  current: NotificationSettings,
): NotificationSettings {
  const recipients =
    form.notifyRecipients === undefined ? current.recipients : checkRecipients(form.notifyRecipients);
  const frequency = form.notifyFrequency ?? current.frequency;
  if (!(DIGEST_FREQUENCIES as readonly string[]).includes(frequency)) {
    throw new FieldRefusedError(
      'notifyFrequency',
      'Choose Off, With each scheduled run that changes something, Daily or Weekly.',
    );
  }
  const topics = form.notifyTopics ?? current.topics;
  if (
    !Array.isArray(topics) ||
    topics.some((topic) => !(DIGEST_TOPICS as readonly string[]).includes(topic))
  ) {
    throw new FieldRefusedError('notifyFrequency', 'Choose what to include from the boxes shown.');
  }
  if (frequency !== 'off' && recipients.length === 0) {
    throw new FieldRefusedError(
      'notifyRecipients',
      'Enter at least one e-mail address to send notifications to, or set "Send" to Off.',
    );
  }
  if (frequency !== 'off' && topics.length === 0) {
    throw new FieldRefusedError(
      'notifyFrequency',
      'Tick at least one thing to include, or set "Send" to Off.',
    );
  }
  const personalData = form.notifyPersonalData ?? current.personalData;
  if (!(PERSONAL_DATA_CHOICES as readonly string[]).includes(personalData)) {
    throw new FieldRefusedError('notifyPersonalData', 'Choose "Counts and links only" or "Names and items".');
  }
  const allowOutsideDomain = form.notifyAllowOutside ?? current.allowOutsideDomain;
  if (typeof allowOutsideDomain !== 'boolean') {
    throw new FieldRefusedError('notifyAllowOutside', 'Tick the box or leave it clear.');
  }
  return {
    recipients,
    frequency: frequency as DigestFrequency,
    topics: DIGEST_TOPICS.filter((topic) => topics.includes(topic)),
    topicsOffered: [...DIGEST_TOPICS],
    personalData: personalData as PersonalDataInMail,
    allowOutsideDomain,
    mailShare: {
      maxRecipientsPerRun: wholeNumberField(
        'notifyMaxPerRun',
        form.notifyMaxPerRun,
        { min: 1, max: MAX_RECIPIENTS },
        current.mailShare.maxRecipientsPerRun,
      ),
      percentOfRemaining: wholeNumberField(
        'notifySharePercent',
        form.notifySharePercent,
        { min: 1, max: 100 },
        current.mailShare.percentOfRemaining,
      ),
    },
    ...teamFields(form, current),
  };
}

/** "Send each manager their team's items" and the escalation's days (empty: none). */
function teamFields(
  form: NotificationForm,
  current: NotificationSettings,
): Pick<NotificationSettings, 'teamDigests' | 'escalationDays'> {
  const teamDigests = form.notifyTeams ?? current.teamDigests;
  if (typeof teamDigests !== 'boolean') {
    throw new FieldRefusedError('notifyTeams', 'Tick the box or leave it clear.');
  }
  const escalationDays =
    form.notifyEscalationDays === ''
      ? 0
      : wholeNumberField(
          'notifyEscalationDays',
          form.notifyEscalationDays,
          { min: 0, max: MAX_ESCALATION_DAYS },
          current.escalationDays,
        );
  return { teamDigests, escalationDays };
}
