/**
 * One run at a time in a spreadsheet, whoever starts it: a menu item, a dialog or the schedule.
 * LockService's document lock cannot do it: a time-driven trigger has no active document, so
 * getDocumentLock() is null there. Instead a run holds a lease kept in the spreadsheet's own state,
 * claimed under the script lock, which is held only for the few calls a claim takes (the script
 * lock is shared by every user of the add-on, so it must never be held for a run).
 *
 * Apps Script stops every execution after 6 minutes, so a lease older than that belongs to a run
 * that was stopped before it could release it, and is free to take.
 */
import { DocumentState } from './document-state';

const LEASE_KEY = 'safetySync.runLease';
const LEASE_MS = 390_000;
const CLAIM_WAIT_MS = 5_000;
const RETRY_EVERY_MS = 1_000;

interface Lease {
  id: string;
  untilMs: number;
}

export interface DocumentLock {
  /**
   * The spreadsheet's state as it was when the lease was taken (see DocumentState): the run that
   * holds the lease is the only one to change it, so it is read once, here.
   */
  state: DocumentState;
  release(): void;
}

/** The spreadsheet's state with this run's lease in it, or null when another run holds one. */
function claim(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, id: string): DocumentState | null {
  const scriptLock = LockService.getScriptLock();
  if (!scriptLock.tryLock(CLAIM_WAIT_MS)) return null;
  try {
    const before = DocumentState.read(spreadsheet);
    const lease = before.get<Lease>(LEASE_KEY);
    if (lease && lease.untilMs > Date.now()) return null;
    before.set(LEASE_KEY, { id, untilMs: Date.now() + LEASE_MS } satisfies Lease);
    // Apps Script commits writes at flush(), at the next read of the spreadsheet or at the end of the
    // execution: unflushed, the lease may not be there yet for a run that takes the lock next.
    SpreadsheetApp.flush();
    // Read again (nothing is left to commit, so it costs no commit) for the lease's own item.
    const after = DocumentState.read(spreadsheet);
    return after.get<Lease>(LEASE_KEY)?.id === id ? after : null;
  } finally {
    scriptLock.releaseLock();
  }
}

/** The spreadsheet's run lock, waiting up to `waitMs` for another run to end; null if it did not. */
export function tryLockDocument(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  waitMs: number,
): DocumentLock | null {
  const id = Utilities.getUuid();
  const giveUpAtMs = Date.now() + waitMs;
  let state = claim(spreadsheet, id);
  while (!state) {
    const leftMs = giveUpAtMs - Date.now();
    if (leftMs <= 0) return null;
    Utilities.sleep(Math.min(RETRY_EVERY_MS, leftMs));
    state = claim(spreadsheet, id);
  }
  const held = state;
  return {
    state: held,
    // Without reading (a read would commit the run's writes a second time): an execution ends
    // within 6 minutes, before its lease does, so while it runs nobody else writes the lease.
    release() {
      held.delete(LEASE_KEY);
    },
  };
}
