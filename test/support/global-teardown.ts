/** Stops the sample service that global-setup started, and waits until it has exited. */
import { SAMPLE_SERVICE_PROCESS, type ProcessSlot } from './global-setup';

const GRACE_PERIOD_MS = 5_000;

export default async function globalTeardown(): Promise<void> {
  const slot = globalThis as ProcessSlot;
  const child = slot[SAMPLE_SERVICE_PROCESS];
  delete slot[SAMPLE_SERVICE_PROCESS];
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (!(await settlesWithin(exited, GRACE_PERIOD_MS))) {
    child.kill('SIGKILL');
    await exited;
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
