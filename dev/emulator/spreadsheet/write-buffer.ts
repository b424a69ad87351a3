/**
 * Buffered writes, as Apps Script does them: it buffers Spreadsheet writes and commits them at
 * SpreadsheetApp.flush(), at a read of the same spreadsheet, or at the end of the execution (Google's
 * best-practices page, developers.google.com/apps-script/guides/support/best-practices, as
 * docs/performance.md sums it up; its cost table puts a commit at 0.3–0.8 s). Until an execution commits, other executions
 * see the spreadsheet as it was at its last commit: a lease written and released without flush() may
 * not be seen by the next execution.
 *
 * The emulator applies a write at once (the writer's own checks and reads see it) and keeps, from an
 * execution's first uncommitted write to a spreadsheet, a copy of the committed spreadsheet that every
 * other execution is shown instead (overlapping executions: runtime/overlaps.ts). That copy is
 * read-only: an overlapping execution that writes a spreadsheet another execution has uncommitted
 * writes to would depend on the order Google applies the two batches, which the emulator does not
 * model, so the write throws "not emulated" (stricter than Google, never looser). Another execution
 * can only start while an overlap is scheduled, so the copy is made only then (it costs a copy of
 * every cell).
 *
 * A read is any call that needs the spreadsheet's content or structure; making a Range or RangeList
 * handle (Sheet.getRange, Sheet.getRangeList) is not one, so that a script writing table after table
 * is not charged a commit per table it addresses.
 */
import { AppsScriptException, type ExecutionContext, type ServiceCallCounter } from '../core';
import type { SheetModel, WorkbookModel } from './workbook-model';

/** A sheet's size as the last commit left it. */
export interface CommittedGrid {
  maxRows: number;
  maxColumns: number;
}

interface UncommittedWrites {
  /** The execution that wrote (its context object is its identity). */
  writer: ExecutionContext;
  /** The spreadsheet as it was at the last commit, for every other execution; null if none can run. */
  committed: WorkbookModel | null;
  /** Each sheet's size at the last commit (cheap to keep, unlike a copy): what the Sheets API sees. */
  committedGrids: Map<SheetModel, CommittedGrid>;
}

/**
 * What a write that bypasses the buffer (the Sheets API, spreadsheet/api-sheets-advanced.ts) meets:
 * nothing buffered, or the running execution's buffered writes, which Google sends after it.
 */
export type BufferState =
  { buffered: false } | { buffered: true; committedGrids: ReadonlyMap<SheetModel, CommittedGrid> };

export class WriteBuffer {
  readonly #counter: ServiceCallCounter;
  readonly #currentContext: () => ExecutionContext;
  readonly #atExecutionEnd: (commit: () => void) => void;
  readonly #othersMayRun: () => boolean;
  readonly #uncommitted = new Map<WorkbookModel, UncommittedWrites>();
  readonly #committedCopies = new WeakSet<WorkbookModel>();

  constructor(
    counter: ServiceCallCounter,
    currentContext: () => ExecutionContext,
    atExecutionEnd: (commit: () => void) => void,
    othersMayRun: () => boolean,
  ) {
    this.#counter = counter;
    this.#currentContext = currentContext;
    this.#atExecutionEnd = atExecutionEnd;
    this.#othersMayRun = othersMayRun;
  }

  /** The spreadsheet as the running execution sees it: without other executions' uncommitted writes. */
  visible(workbook: WorkbookModel): WorkbookModel {
    const writes = this.#uncommitted.get(workbook);
    if (!writes || writes.writer === this.#currentContext()) return workbook;
    if (!writes.committed)
      throw new Error(`No committed copy of ${workbook.id}: an execution started with no overlap scheduled`);
    return writes.committed;
  }

  /** A read commits the running execution's own writes to the spreadsheet first. */
  beforeRead(workbook: WorkbookModel): void {
    if (this.#uncommitted.get(workbook)?.writer === this.#currentContext()) this.#commit(workbook);
  }

  beforeWrite(workbook: WorkbookModel, method: string): void {
    const writer = this.#currentContext();
    const writes = this.#uncommitted.get(workbook);
    if (this.#committedCopies.has(workbook) || (writes && writes.writer !== writer)) {
      throw new AppsScriptException(
        `not emulated: ${method} on a spreadsheet another execution has uncommitted writes to`,
      );
    }
    if (writes) return;
    const committed = this.#othersMayRun() ? workbook.copy() : null;
    if (committed) this.#committedCopies.add(committed);
    const committedGrids = new Map(
      workbook.sheets.map((sheet) => [sheet, { maxRows: sheet.maxRows, maxColumns: sheet.maxColumns }]),
    );
    this.#uncommitted.set(workbook, { writer, committed, committedGrids });
    this.#atExecutionEnd(() => {
      if (this.#uncommitted.get(workbook)?.writer === writer) this.#commit(workbook);
    });
  }

  /**
   * Before a write that goes to Google's side at once, without this buffer. Another execution's
   * uncommitted writes, or a committed copy shown to one, would make the outcome depend on an order
   * the emulator does not model: refused as "not emulated", as beforeWrite does.
   */
  beforeDirectWrite(workbook: WorkbookModel, method: string): BufferState {
    const writes = this.#uncommitted.get(workbook);
    if (!writes) return { buffered: false };
    if (writes.writer !== this.#currentContext() || writes.committed) {
      throw new AppsScriptException(
        `not emulated: ${method} on a spreadsheet with writes another execution may see uncommitted`,
      );
    }
    return { buffered: true, committedGrids: writes.committedGrids };
  }

  /** SpreadsheetApp.flush(): commits the running execution's writes; nothing pending costs nothing. */
  flush(): void {
    const writer = this.#currentContext();
    for (const [workbook, writes] of [...this.#uncommitted]) {
      if (writes.writer === writer) this.#commit(workbook);
    }
  }

  #commit(workbook: WorkbookModel): void {
    this.#uncommitted.delete(workbook);
    this.#counter.recordCommit();
  }
}
