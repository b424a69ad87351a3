/**
 * How a scheduled run's messages leave: from the schedule owner's account, each only to addresses
 * the owner's domain rule allows, and all of one run (the digest, the alerts, every team digest and
 * escalation) within one share of the owner's daily MailApp quota, fixed at the run's first message.
 * Each message that goes, or does not, is a Sync log line: its subject and recipients, never the
 * token.
 */
import type { UtcOffsetAt } from '../lib/dates';
import { scrub } from '../api/errors';
import { recordEvent } from '../platform/job-runner';
import { readConnection } from '../platform/settings-store';
import type { SyncLog } from '../platform/sync-log';
import type { Mail } from './notification-mail';
import type { NotificationSettings } from './notification-settings';
import { recipientAllowed } from './schedule-owner';

/** What one run may still send: the owner's share of their daily quota, spent by each message. */
export interface MailRun {
  log: SyncLog | null;
  /** The e-mail of the schedule's owner, whose account sends and whose domain rule applies. */
  scheduleOwner: string;
  utcOffsetAt: UtcOffsetAt;
  /** What the owner confirmed. */
  settings: NotificationSettings;
  /** Recipients this run may still send to; fixed at the first message of the run. */
  allowance: { left: number; why: string } | null;
}

export function mailRun(
  phase: Pick<MailRun, 'log' | 'scheduleOwner' | 'utcOffsetAt'>,
  settings: NotificationSettings,
): MailRun {
  return {
    log: phase.log,
    scheduleOwner: phase.scheduleOwner,
    utcOffsetAt: phase.utcOffsetAt,
    settings,
    allowance: null,
  };
}

/**
 * The owner's share for this run: at most their "per run" recipients and their percentage of what
 * is left of their daily quota (MailApp counts each recipient), so their other scripts keep theirs.
 */
function runAllowance(settings: NotificationSettings): { left: number; why: string } {
  const remaining = MailApp.getRemainingDailyQuota();
  const { maxRecipientsPerRun, percentOfRemaining } = settings.mailShare;
  const ofRemaining = Math.floor((remaining * percentOfRemaining) / 100);
  return {
    left: Math.min(maxRecipientsPerRun, ofRemaining),
    why:
      `the schedule owner's share for a run is ${Math.min(maxRecipientsPerRun, ofRemaining)} recipients ` +
      `(at most ${maxRecipientsPerRun} a run and ${percentOfRemaining}% of the ${remaining} left in their daily quota; ` +
      'Google renews it daily: 100 recipients on a consumer account, 1,500 on Workspace). ' +
      'The owner changes the share in Safety Sync → Settings… → Notifications',
  };
}

/** The recipients the run may still send to (its share fixed now if no message went yet), and why. */
export function allowanceOf(run: MailRun): { left: number; why: string } {
  run.allowance ??= runAllowance(run.settings);
  return run.allowance;
}

export function logMail(
  run: MailRun,
  event: { action: string; outcome: 'Success' | 'Skipped' | 'Failed'; details: string; error?: string },
  startedAtMs = Date.now(),
): void {
  recordEvent(run.log, { startedAtMs, ...event }, run.utcOffsetAt);
}

/**
 * Sends one message within the owner's rules: only to addresses the domain rule allows, and only when
 * the run's share of the owner's quota holds every recipient. The Sync log says when it does not go,
 * and `retry` what happens then.
 */
export function sendMail(
  run: MailRun,
  action: string,
  mail: Mail,
  { to, retry }: { to: readonly string[]; retry: string },
): boolean {
  const startedAtMs = Date.now();
  const log = (outcome: 'Success' | 'Skipped' | 'Failed', details: string, error?: string) =>
    logMail(run, { action, outcome, details, error }, startedAtMs);
  // Confirmed under the rule already; checked again here, where the owner's account sends.
  const recipients = to.filter((address) =>
    recipientAllowed(address, run.scheduleOwner, run.settings.allowOutsideDomain),
  );
  const refused = to.length - recipients.length;
  const refusedNote = refused
    ? ` ${refused} address${refused === 1 ? '' : 'es'} outside the owner's domain left out.`
    : '';
  try {
    if (recipients.length === 0) {
      log('Skipped', `"${mail.subject}" was not sent: no confirmed recipient is inside the owner's domain.`);
      return false;
    }
    const allowance = allowanceOf(run);
    if (recipients.length > allowance.left) {
      log(
        'Skipped',
        `"${mail.subject}" was not sent: it goes to ${recipients.length} recipients and ${allowance.why}; ${retry}`,
      );
      return false;
    }
    MailApp.sendEmail({
      to: recipients.join(','),
      subject: mail.subject,
      body: mail.body,
      htmlBody: mail.htmlBody,
      name: 'Safety Sync',
    });
    allowance.left -= recipients.length;
    log(
      'Success',
      `"${mail.subject}" sent to ${recipients.length} recipient${recipients.length === 1 ? '' : 's'}: ${recipients.join(', ')}.${refusedNote}`,
    );
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log('Failed', `"${mail.subject}" was not sent: ${scrub(message, readConnection().token ?? '')}`, 'mail');
    return false;
  }
}
