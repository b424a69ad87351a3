import { rememberUtcOffsets } from '../../src/lib/utc-offsets';

/** The offset as the platform tells it, in minutes east of UTC (what Utilities.formatDate 'Z' gives). */
function platformOffset(timeZone: string): (epochMs: number) => number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  return (epochMs) => {
    const name = format.formatToParts(new Date(epochMs)).find((part) => part.type === 'timeZoneName')!.value;
    const match = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name)!;
    return match[1] ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  };
}

const QUARTER_HOUR_MS = 900_000;

test.each([
  'Europe/London',
  'America/New_York',
  'Australia/Lord_Howe',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'America/Santiago',
])(
  '%s: every quarter hour of 2023–2024 gets the platform offset, for a few dozen asks a year',
  (timeZone) => {
    const platform = platformOffset(timeZone);
    let asks = 0;
    const remembered = rememberUtcOffsets((epochMs) => {
      asks++;
      return platform(epochMs);
    });
    const mismatches: string[] = [];
    for (let t = Date.UTC(2023, 0, 1); t < Date.UTC(2025, 0, 1); t += QUARTER_HOUR_MS) {
      if (remembered(t) !== platform(t)) mismatches.push(new Date(t).toISOString());
    }
    expect(mismatches).toEqual([]);
    // 24 months, two asks each, and a dozen more for each month in which the offset changes.
    expect(asks).toBeLessThanOrEqual(24 * 2 + 4 * 12);
  },
);
