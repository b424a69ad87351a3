/**
 * Overlapping executions. Apps Script runs a menu click, a dialog call and a trigger side by side;
 * the emulator runs one at a time, so a test that needs two to overlap schedules the second to
 * start just before the first makes a given service call (while it waits on UrlFetchApp, say). The
 * second runs to its end inside that moment, on the execution stack, as a short overlapping
 * execution would; locks and stores are shared exactly as on Google.
 */
export class Overlaps {
  private readonly pending: { serviceCall: string; overlap: () => void }[] = [];

  /** One-shot: `overlap` runs before the next call of `serviceCall` ("Class.method"). */
  add(serviceCall: string, overlap: () => void): void {
    if (!/^\w+\.\w+$/.test(serviceCall)) throw new Error(`Expected "Class.method", got ${serviceCall}`);
    this.pending.push({ serviceCall, overlap });
  }

  /** The ServiceCallCounter's hook. An overlap is removed before it runs, so its own calls do not start it again. */
  beforeCall(serviceCall: string): void {
    const index = this.pending.findIndex((entry) => entry.serviceCall === serviceCall);
    if (index < 0) return;
    const { overlap } = this.pending.splice(index, 1)[0]!;
    overlap();
  }

  /** Overlaps scheduled but not started: a test can check that the call it waited for happened. */
  count(): number {
    return this.pending.length;
  }
}
