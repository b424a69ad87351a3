/**
 * One run at a time in a spreadsheet, whoever starts it: a menu item, a dialog or the schedule.
 * LockService's document lock cannot do it: a time-driven trigger has no active document, so
 * getDocumentLock() is null there. Instead a run holds a lease on the spreadsheet, claimed under the
 * script lock, which is held only for the few calls a claim takes (the script lock is shared by every
 * user of the add-on, so it must never be held for a run).
 *
 * The lease is a script property named after the spreadsheet's id: script properties are shared by
 * every user of the add-on and a write there is seen at once by every execution, where a lease in the
 * spreadsheet would need a commit of its own (SpreadsheetApp.flush, 0.3–0.8 s on Google) before the
 * script lock could be released. It holds no secret: the time it expires.
 *
 * Apps Script stops every execution after 6 minutes, so a lease older than that belongs to a run
 * that was stopped before it could release it, and is free to take.
 */
import { DocumentState } from './document-state';

const LEASE_PREFIX = 'safetySync.runLease.';
/** Where earlier versions kept the lease: the spreadsheet's own state. */
const LEGACY_LEASE_KEY = 'safetySync.runLease';
const LEASE_MS = 390_000;
const CLAIM_WAIT_MS = 5_000;
const RETRY_EVERY_MS = 1_000;

interface Lease {
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

function leaseOf(json: string | null): Lease | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as Lease;
  } catch {
    return null;
  }
}

/**
 * Takes the lease when it is free. Leases of runs that were stopped stay behind (one small property
 * each): when the store is full, the expired ones of every spreadsheet make room.
 */
function claim(key: string): boolean {
  const scriptLock = LockService.getScriptLock();
  if (!scriptLock.tryLock(CLAIM_WAIT_MS)) return false;
  try {
    const properties = PropertiesService.getScriptProperties();
    const lease = leaseOf(properties.getProperty(key));
    if (lease && lease.untilMs > Date.now()) return false;
    const ours = JSON.stringify({ untilMs: Date.now() + LEASE_MS } satisfies Lease);
    try {
      properties.setProperty(key, ours);
    } catch {
      dropExpiredLeases(properties);
      properties.setProperty(key, ours);
    }
    return true;
  } finally {
    scriptLock.releaseLock();
  }
}

/**
 * Rewrites the store without the expired leases, in one write (a deletion each would take minutes
 * once thousands are there). Leases are written under the script lock, held here; a lease released
 * meanwhile may come back, and then holds its spreadsheet until it expires.
 */
function dropExpiredLeases(properties: GoogleAppsScript.Properties.Properties): void {
  const kept = Object.entries(properties.getProperties()).filter(
    ([key, json]) => !key.startsWith(LEASE_PREFIX) || (leaseOf(json)?.untilMs ?? 0) > Date.now(),
  );
  properties.setProperties(Object.fromEntries(kept), true);
}

/** The spreadsheet's run lock, waiting up to `waitMs` for another run to end; null if it did not. */
export function tryLockDocument(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  waitMs: number,
): DocumentLock | null {
  const key = LEASE_PREFIX + spreadsheet.getId();
  const giveUpAtMs = Date.now() + waitMs;
  while (!claim(key)) {
    const leftMs = giveUpAtMs - Date.now();
    if (leftMs <= 0) return null;
    Utilities.sleep(Math.min(RETRY_EVERY_MS, leftMs));
  }
  const state = DocumentState.read(spreadsheet);
  return {
    state,
    // Without reading: an execution ends within 6 minutes, before its lease does, so while it runs
    // nobody else writes the lease.
    release() {
      // After the run's writes, as the last of them (written first, it would cost a commit); no call
      // when there is none.
      state.delete(LEGACY_LEASE_KEY);
      PropertiesService.getScriptProperties().deleteProperty(key);
    },
  };
}
