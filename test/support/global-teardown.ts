/** Stops the sample service that global-setup started, and waits until it has exited. */
import { SAMPLE_SERVICE_PROCESS, type ProcessSlot } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const slot = globalThis as ProcessSlot;
  const service = slot[SAMPLE_SERVICE_PROCESS];
  delete slot[SAMPLE_SERVICE_PROCESS];
  await service?.stop();
}
