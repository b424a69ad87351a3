/**
 * The training rules as the tests compute them, separately from src/ (Date.UTC month arithmetic,
 * not src/lib/dates.ts): the status on a day of one person's training, from the service's records.
 */
import type { Completion } from './sample-service';

export interface Rule {
  name: string;
  validityMonths: number | null;
  required: boolean;
  expiringDays: number;
}

export interface Expected {
  status: string;
  latest: Completion | null;
  expiry: string | null;
  daysLeft: number | null;
}

const MS_PER_DAY = 86_400_000;

export function isoOf(dateNumber: number): string {
  const text = String(dateNumber);
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}

function utcOf(iso: string): number {
  const [year, month, day] = iso.split('-').map(Number);
  return Date.UTC(year!, month! - 1, day!);
}

/** `months` calendar months after a day; a day the month lacks becomes the month's last. */
function plusMonths(iso: string, months: number): string {
  const [year, month, day] = iso.split('-').map(Number);
  const lastDay = new Date(Date.UTC(year!, month! - 1 + months + 1, 0)).getUTCDate();
  const target = new Date(Date.UTC(year!, month! - 1 + months, 1));
  target.setUTCDate(Math.min(day!, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The oracle: the status on `day` of one person's training, from the service's records. */
export function expected(records: readonly Completion[], rule: Rule, day: string): Expected {
  let latest: Completion | null = null;
  for (const record of records) {
    if (isoOf(Number(record.dateNumber)) > day) continue;
    const later =
      latest === null ||
      Number(record.dateNumber) > Number(latest.dateNumber) ||
      (record.dateNumber === latest.dateNumber && record.created > latest.created);
    if (later) latest = record;
  }
  if (latest === null) return { status: 'Not done', latest, expiry: null, daysLeft: null };
  const expiry =
    latest.specialExpirationDateNumber !== undefined
      ? isoOf(latest.specialExpirationDateNumber)
      : rule.validityMonths === null
        ? null
        : plusMonths(isoOf(Number(latest.dateNumber)), rule.validityMonths);
  if (expiry === null) return { status: 'Valid (no expiry)', latest, expiry, daysLeft: null };
  const daysLeft = (utcOf(expiry) - utcOf(day)) / MS_PER_DAY;
  const status = daysLeft < 0 ? 'Expired' : daysLeft <= rule.expiringDays ? 'Expiring' : 'Valid';
  return { status, latest, expiry, daysLeft };
}
