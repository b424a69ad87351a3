/**
 * Buffered writes, as Apps Script does them: it buffers Spreadsheet writes and commits them at
 * SpreadsheetApp.flush(), at a read of the same spreadsheet, or at the end of the execution (Google's
 * best-practices page, developers.google.com/apps-script/guides/support/best-practices, as PLATFORM.md
 * sums it up; its cost table puts a commit at 0.3–0.8 s). Until an execution commits, other executions
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
import type { WorkbookModel } from './workbook-model';

interface UncommittedWrites {
  /** The execution that wrote (its context object is its identity). */
  writer: ExecutionContext;
  /** The spreadsheet as it was at the last commit, for every other execution; null if none can run. */
  committed: WorkbookModel | null;
}

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
    this.#uncommitted.set(workbook, { writer, committed });
    this.#atExecutionEnd(() => {
      if (this.#uncommitted.get(workbook)?.writer === writer) this.#commit(workbook);
    });
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
