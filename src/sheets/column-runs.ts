/** Columns as runs of adjacent ones: one range each, so a write costs a call per run, not per column. */
export interface ColumnRun {
  /** 1-based. */
  first: number;
  width: number;
}

/** `columns` (1-based, any order, no repeats) as runs of adjacent ones, left to right. */
export function columnRuns(columns: readonly number[]): ColumnRun[] {
  const runs: ColumnRun[] = [];
  for (const column of [...columns].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last.first + last.width === column) last.width++;
    else runs.push({ first: column, width: 1 });
  }
  return runs;
}
