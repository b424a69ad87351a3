/**
 * Google's daily quotas (developers.google.com/apps-script/guides/services/quotas): "Quotas are per
 * user and reset 24 hours after the first request", so the time they come back varies by user and
 * by quota, and is not midnight anywhere. Each quota here keeps, per user, a window that opens at
 * the user's first use and closes exactly 24 hours later; nothing is given back before it closes
 * (the stricter reading), and the next use after it opens a new one.
 *
 * The figures are the quota page's, for a consumer account (gmail.com) and a Google Workspace one.
 */
export type AccountKind = 'consumer' | 'workspace';

const QUOTA_WINDOW_MS = 24 * 3_600_000;

export interface DailyFigures {
  /** URL Fetch calls. */
  urlFetch: number;
  /** Email recipients (MailApp). */
  mailRecipients: number;
  /** Properties read/write. */
  propertyOperations: number;
  /** Triggers total runtime, in ms. */
  triggerRuntimeMs: number;
}

export const DAILY_FIGURES: Record<AccountKind, DailyFigures> = {
  consumer: {
    urlFetch: 20_000,
    mailRecipients: 100,
    propertyOperations: 50_000,
    triggerRuntimeMs: 90 * 60_000,
  },
  workspace: {
    urlFetch: 100_000,
    mailRecipients: 1_500,
    propertyOperations: 500_000,
    triggerRuntimeMs: 6 * 3_600_000,
  },
};

interface Window {
  openedAtMs: number;
  used: number;
}

/** One quota of every user: how much of it each has used in their current window. */
export class DailyQuota {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limit: number) {}

  /** What the user has used in the window open at `nowMs` (0 when none is). */
  used(user: string, nowMs: number): number {
    return this.openWindow(user, nowMs)?.used ?? 0;
  }

  remaining(user: string, nowMs: number): number {
    return Math.max(this.limit - this.used(user, nowMs), 0);
  }

  /** Counts `amount` against the user's window, opening one at `nowMs` when none is open. */
  spend(user: string, amount: number, nowMs: number): void {
    const open = this.openWindow(user, nowMs);
    if (open) open.used += amount;
    else this.windows.set(user, { openedAtMs: nowMs, used: amount });
  }

  private openWindow(user: string, nowMs: number): Window | undefined {
    const window = this.windows.get(user);
    return window && nowMs < window.openedAtMs + QUOTA_WINDOW_MS ? window : undefined;
  }
}
