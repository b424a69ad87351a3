/**
 * Completions per month, the Overview's first table, against an oracle that counts with Date.UTC
 * month arithmetic (not src/lib/dates.ts): seeded cases whose days cluster on month ends, leap days
 * and year ends around "today", including completions outside the 24 months. A failure names its
 * seed; OVERVIEW_SEED=n replays one.
 */
import { SeededRandom } from '../../../dev/sample-service/random';
import { type CalendarDate, fromIsoDate, toIsoDate } from '../../../src/lib/dates';
import { completionsPerMonth } from '../../../src/platform/overview/overview';

const DAY_MS = 86_400_000;
const TODAYS = [
  '2024-02-29',
  '2024-03-01',
  '2023-12-31',
  '2024-01-01',
  '2025-01-31',
  '2100-02-28',
  '2000-02-29',
];

function isoOfUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The 24 months ending with today's as "YYYY-MM", oldest first, each with its count. */
function oracle(dates: readonly string[], today: string): [string, number][] {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const months = Array.from({ length: 24 }, (_, index) =>
    isoOfUtc(Date.UTC(year, month - 1 - 23 + index, 1)).slice(0, 7),
  );
  return months.map((key) => [key, dates.filter((date) => date.slice(0, 7) === key).length]);
}

function generateCase(seed: number): { today: string; dates: string[] } {
  const random = new SeededRandom(seed, 'overview-months');
  const today = random.pick(TODAYS);
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const dates = Array.from({ length: random.int(0, 60) }, () => {
    // Around today (26 months back to 2 ahead), often on a month's first or last days.
    const ms = todayMs + random.int(-800, 60) * DAY_MS;
    const date = new Date(ms);
    if (random.chance(0.5)) {
      const edge = random.chance(0.5)
        ? 1
        : new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
      date.setUTCDate(edge);
    }
    return isoOfUtc(date.getTime());
  });
  return { today, dates };
}

const seeds = process.env['OVERVIEW_SEED']
  ? [Number(process.env['OVERVIEW_SEED'])]
  : Array.from({ length: 300 }, (_, i) => i + 1);

test.each(seeds)('seed %i: each of the last 24 months counts the completions that fall in it', (seed) => {
  const { today, dates } = generateCase(seed);
  const counted = completionsPerMonth(
    dates.map((date) => fromIsoDate(date)!),
    fromIsoDate(today)!,
  ).map(({ first, count }): [string, number] => [toIsoDate(first as CalendarDate).slice(0, 7), count]);
  expect({ seed, today, dates, counted }).toEqual({ seed, today, dates, counted: oracle(dates, today) });
});
