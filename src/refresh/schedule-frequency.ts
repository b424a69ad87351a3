/**
 * How often the scheduled refresh runs: every 1, 2, 4, 6, 8 or 12 hours (the intervals Apps Script
 * allows an add-on's time-driven trigger), or daily at an hour of the spreadsheet's time zone.
 */
import { FieldRefusedError } from '../platform/field-refusal';

export const HOURLY_INTERVALS = [1, 2, 4, 6, 8, 12] as const;

export type Frequency = { everyHours: number } | { dailyAtHour: number };

/** What the Schedule dialog sends: `every` is "off", an hourly interval ("4") or "daily". */
export interface ScheduleForm {
  every: string;
  atHour?: string | number;
}

const HOUR_MS = 3_600_000;

/** The frequency the form asks for, or null for "off". */
export function frequencyFromForm(form: ScheduleForm): Frequency | null {
  const every = String(form?.every ?? '');
  if (every === 'off') return null;
  if (every === 'daily') {
    const hour = Number(form.atHour);
    if (form.atHour === '' || form.atHour === undefined || !Number.isInteger(hour) || hour < 0 || hour > 23) {
      throw new FieldRefusedError<keyof ScheduleForm>(
        'atHour',
        'Choose the hour of the day, from 00:00 to 23:00.',
      );
    }
    return { dailyAtHour: hour };
  }
  const hours = Number(every);
  if (!(HOURLY_INTERVALS as readonly number[]).includes(hours)) {
    throw new FieldRefusedError<keyof ScheduleForm>(
      'every',
      'Choose every 1, 2, 4, 6, 8 or 12 hours, daily, or off.',
    );
  }
  return { everyHours: hours };
}

/** The time between two runs. */
export function intervalMs(frequency: Frequency): number {
  return 'everyHours' in frequency ? frequency.everyHours * HOUR_MS : 24 * HOUR_MS;
}

function twoDigits(hour: number): string {
  return hour < 10 ? `0${hour}` : String(hour);
}

/** "every hour", "every 4 hours", "daily between 06:00 and 07:00 (Europe/London)". */
export function describeFrequency(frequency: Frequency, timeZone: string): string {
  if ('everyHours' in frequency) {
    return frequency.everyHours === 1 ? 'every hour' : `every ${frequency.everyHours} hours`;
  }
  // Google starts a daily trigger at a random minute within the hour.
  const hour = frequency.dailyAtHour;
  return `daily between ${twoDigits(hour)}:00 and ${twoDigits((hour + 1) % 24)}:00 (${timeZone})`;
}
