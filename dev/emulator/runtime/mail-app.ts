/**
 * MailApp: records what the script would send instead of sending it, with Google's limits
 * (developers.google.com/apps-script/guides/services/quotas): recipients a day per user (100 on a
 * consumer account, 1,500 on Workspace; To, Cc and Bcc each count; renewed 24 hours after the
 * user's first message: runtime/daily-quota.ts), at most 50 recipients a message,
 * a body of at most 200 KB (the consumer figure; Workspace allows 400 KB). Where Google's exact rule
 * is not published the stricter reading is taken: the plain and HTML bodies count together, and an
 * address must look like local@domain.tld. Only FULL authorization may send (a custom function or a
 * simple trigger may not). Attachments, inline images and the (to, replyTo, subject, body) form are
 * not emulated.
 *
 * Not priced in the cost model: there is no published figure for a MailApp call.
 */
import { AppsScriptException } from '../core';
import type { ServiceEnvironment } from './service-object';
import { expose, isPlainRecord, requireAuthMode, signatureMismatch, utf8Length } from './service-object';
import { DailyQuota } from './daily-quota';

const MAX_RECIPIENTS_PER_MESSAGE = 50;
const MAX_BODY_BYTES = 200 * 1024;
const SEND_MAIL_SCOPE = 'https://www.googleapis.com/auth/script.send_mail';
const KNOWN_OPTIONS = new Set(['to', 'cc', 'bcc', 'subject', 'body', 'htmlBody', 'name', 'replyTo']);
const NOT_EMULATED_OPTIONS = new Set(['attachments', 'inlineImages']);
const ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]+$/;

/** One message as it would have gone out. */
export interface SentMail {
  /** The user whose account sent it (the execution's user) and whose quota paid. */
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
  htmlBody: string | null;
  /** The sender's display name, when the script set one. */
  name: string | null;
  replyTo: string | null;
  /** Emulated epoch ms when it was sent. */
  atMs: number;
}

/** What the script sent, and each user's daily recipient quota. */
export class MailRecorder {
  readonly sent: SentMail[] = [];
  private readonly quota: DailyQuota;

  constructor(dailyQuota: number) {
    this.quota = new DailyQuota(dailyQuota);
  }

  /** Recipients left to the user at `nowMs`, in the window their first message opened. */
  remainingToday(user: string, nowMs: number): number {
    return this.quota.remaining(user, nowMs);
  }

  /**
   * Spends `recipients` of the user's quota at `nowMs`, as if other mail had been sent (tests): in
   * the window open then, or in one it opens, which closes 24 hours after `nowMs`.
   */
  spend(user: string, recipients: number, nowMs: number): void {
    this.quota.spend(user, recipients, nowMs);
  }
}

function addresses(value: unknown, method: string, args: readonly unknown[]): string[] {
  if (value === undefined) return [];
  if (typeof value !== 'string') throw signatureMismatch(method, args);
  const list = value
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
  for (const address of list) {
    if (!ADDRESS.test(address)) throw new AppsScriptException(`Invalid email: ${address}`);
  }
  return list;
}

function optionalString(value: unknown, method: string, args: readonly unknown[]): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw signatureMismatch(method, args);
  return value;
}

/** The message of either sendEmail form, as one record of options. */
function messageOf(args: readonly unknown[]): Record<string, unknown> {
  const method = 'MailApp.sendEmail';
  if (args.length === 1 && isPlainRecord(args[0])) return args[0];
  const [recipient, subject, body, options, ...extra] = args;
  if (extra.length > 0 || args.length < 3) throw signatureMismatch(method, args);
  if (typeof recipient !== 'string' || typeof subject !== 'string' || typeof body !== 'string') {
    if (args.length === 4 && args.every((arg) => typeof arg === 'string')) {
      throw new AppsScriptException('not emulated: MailApp.sendEmail(recipient, replyTo, subject, body)');
    }
    throw signatureMismatch(method, args);
  }
  if (options !== undefined && !isPlainRecord(options)) {
    if (typeof options === 'string') {
      throw new AppsScriptException('not emulated: MailApp.sendEmail(recipient, replyTo, subject, body)');
    }
    throw signatureMismatch(method, args);
  }
  return { ...(options ?? {}), to: recipient, subject, body };
}

export function createMailApp(
  env: ServiceEnvironment,
  recorder: MailRecorder,
): GoogleAppsScript.Mail.MailApp {
  const requireFull = (method: string) => requireAuthMode(env, method, ['FULL'], SEND_MAIL_SCOPE);
  const mailApp = {
    getRemainingDailyQuota(): number {
      const execution = requireFull('MailApp.getRemainingDailyQuota');
      return recorder.remainingToday(execution.user, env.clock.now());
    },
    sendEmail(...args: unknown[]): void {
      const method = 'MailApp.sendEmail';
      const execution = requireFull(method);
      const message = messageOf(args);
      for (const option of Object.keys(message)) {
        if (NOT_EMULATED_OPTIONS.has(option)) {
          throw new AppsScriptException(`not emulated: the ${option} option of ${method}`);
        }
        if (!KNOWN_OPTIONS.has(option)) throw signatureMismatch(method, args);
      }
      const to = addresses(message['to'], method, args);
      const cc = addresses(message['cc'], method, args);
      const bcc = addresses(message['bcc'], method, args);
      const subject = optionalString(message['subject'], method, args) ?? '';
      const body = optionalString(message['body'], method, args) ?? '';
      const htmlBody = optionalString(message['htmlBody'], method, args);
      const recipients = to.length + cc.length + bcc.length;
      if (recipients === 0) throw new AppsScriptException('Failed to send email: no recipient');
      if (recipients > MAX_RECIPIENTS_PER_MESSAGE) {
        throw new AppsScriptException('Limit Exceeded: Email Recipients Per Message.');
      }
      if (utf8Length(body) + utf8Length(htmlBody ?? '') > MAX_BODY_BYTES) {
        throw new AppsScriptException('Limit Exceeded: Email Body Size.');
      }
      const now = env.clock.now();
      if (recorder.remainingToday(execution.user, now) < recipients) {
        throw new AppsScriptException('Service invoked too many times for one day: email.');
      }
      recorder.spend(execution.user, recipients, now);
      recorder.sent.push({
        from: execution.user,
        to,
        cc,
        bcc,
        subject,
        body,
        htmlBody,
        name: optionalString(message['name'], method, args),
        replyTo: addresses(message['replyTo'], method, args)[0] ?? null,
        atMs: now,
      });
    },
  };
  return expose('MailApp', mailApp, env) as unknown as GoogleAppsScript.Mail.MailApp;
}
