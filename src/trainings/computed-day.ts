/**
 * Which day the training tabs hold the statuses of, and when the completions they were computed from
 * were last read from the service. Kept in the document state by the run that writes the tabs, after
 * its writes; a run that does not write them (a cell of Trainings it refuses, a full read of the
 * completions that continues into the next run, tabs too large) leaves both as they were. So a reader
 * of the tabs (the digest) can tell whether their statuses and days left are today's, and a run that
 * only recomputes the tabs (Show training status) can still say when the completions were refreshed.
 */
import { type CalendarDate, fromIsoDate, toIsoDate } from '../lib/dates';
import type { DocumentState } from '../platform/document-state';

const STATE_KEY = 'safetySync.trainingTabsComputed';

interface Computed {
  /** The day the statuses are for, in the spreadsheet's time zone (ISO). */
  day: string;
  /** When the completions were last read from the service (epoch ms); null while no run says. */
  refreshedAtMs: number | null;
}

function computedOf(state: DocumentState): Computed | null {
  const kept = state.get<Partial<Computed>>(STATE_KEY);
  return kept && typeof kept.day === 'string'
    ? { day: kept.day, refreshedAtMs: kept.refreshedAtMs ?? null }
    : null;
}

/**
 * The day the training tabs' statuses (Expired, Expiring, Days left) were computed for; null when no
 * run recorded one (tabs not written yet, or written by a version that did not record it): a reader
 * then cannot tell, and should take the tabs as not today's.
 */
export function trainingTabsComputedOn(state: DocumentState): CalendarDate | null {
  const computed = computedOf(state);
  return computed && fromIsoDate(computed.day);
}

/** When the completions the training tabs hold were last read from the service; null when not recorded. */
export function trainingsRefreshedAtMs(state: DocumentState): number | null {
  return computedOf(state)?.refreshedAtMs ?? null;
}

/** Records, once the training tabs are written, the day they hold and when their completions were read. */
export function keepTrainingTabsComputed(
  state: DocumentState,
  day: CalendarDate,
  refreshedAtMs: number | null,
): void {
  state.set(STATE_KEY, { day: toIsoDate(day), refreshedAtMs } satisfies Computed);
}
