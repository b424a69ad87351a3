/**
 * Which later columns (ColumnSpec.since) the add-on already has on each of its tabs, by sheet id, in
 * the document state: a tab's run records them once it has written the tab, and passes them to its
 * next read (sheets/added-columns.ts), so that such a column is found wherever the user moved it,
 * while a column of the user's with the same title, on a tab the add-on never gave it, is refused.
 */
import type { ColumnSpec } from '../sheets/table';
import type { DocumentState } from './document-state';

const STATE_KEY = 'safetySync.laterColumns';

/** Titles by sheet id (JSON object keys are strings). */
type Owned = Record<string, string[]>;

/** The later columns the add-on has on the tab `sheetId` (null: a tab not there yet has none). */
export function laterColumnsOwned(state: DocumentState, sheetId: number | null): ReadonlySet<string> {
  if (sheetId === null) return new Set();
  return new Set(state.get<Owned>(STATE_KEY)?.[String(sheetId)] ?? []);
}

/**
 * Records that the tab `sheetId`, just written with `columns`, has every later column among them.
 * No write when the state says so already.
 */
export function keepLaterColumnsOwned(
  state: DocumentState,
  sheetId: number | null,
  columns: readonly ColumnSpec[],
): void {
  if (sheetId === null) return;
  const titles = columns.filter((column) => column.since !== undefined).map((column) => column.header);
  const kept = state.get<Owned>(STATE_KEY) ?? {};
  if (titles.length === 0 || JSON.stringify(kept[String(sheetId)]) === JSON.stringify(titles)) return;
  state.set(STATE_KEY, { ...kept, [String(sheetId)]: titles } satisfies Owned);
}
