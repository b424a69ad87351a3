/**
 * Remembering a time zone's UTC offsets so that converting 100,000 timestamps does not ask the
 * platform 100,000 times (in Apps Script each ask is a Utilities.formatDate call). Offsets change
 * rarely: the offset at both ends of a calendar month is asked, and only a month whose ends differ
 * is searched (by halving) for the quarter hour it changes. That assumes at most one change per month,
 * true of every zone with daylight saving time today.
 */
import type { UtcOffsetAt } from './dates';

/** Zones change offset on a quarter hour of UTC at the finest (Lord Howe Island: on a half hour). */
const STEP_MS = 900_000;

interface Month {
  /** The first instant at which `offsetAfter` applies (the month's start when nothing changes). */
  changeMs: number;
  offsetBefore: number;
  offsetAfter: number;
}

function monthBounds(epochMs: number): { startMs: number; endMs: number } {
  const date = new Date(epochMs);
  const startMs = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const endMs = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return { startMs, endMs };
}

export function rememberUtcOffsets(offsetAt: UtcOffsetAt): UtcOffsetAt {
  const months = new Map<number, Month>();
  const monthOf = (epochMs: number): Month => {
    const { startMs, endMs } = monthBounds(epochMs);
    let month = months.get(startMs);
    if (!month) {
      const offsetBefore = offsetAt(startMs);
      const offsetAfter = offsetAt(endMs - STEP_MS);
      // The change lies in (low, high], on a step.
      let low = startMs;
      let high = offsetBefore === offsetAfter ? startMs : endMs - STEP_MS;
      while (high - low > STEP_MS) {
        const middle = low + Math.floor((high - low) / STEP_MS / 2) * STEP_MS;
        if (offsetAt(middle) === offsetBefore) low = middle;
        else high = middle;
      }
      month = { changeMs: high, offsetBefore, offsetAfter };
      months.set(startMs, month);
    }
    return month;
  };
  // Records come sorted by time, so the month of the last lookup is usually the month of the next.
  let last = { startMs: 0, endMs: 0, month: undefined as Month | undefined };
  return (epochMs) => {
    if (!(epochMs >= last.startMs && epochMs < last.endMs && last.month)) {
      last = { ...monthBounds(epochMs), month: monthOf(epochMs) };
    }
    const month = last.month!;
    return epochMs < month.changeMs ? month.offsetBefore : month.offsetAfter;
  };
}
