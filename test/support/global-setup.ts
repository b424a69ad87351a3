/**
 * Once for the whole jest run: builds dist/ (so every test drives the current source as clasp would
 * push it) and starts the sample service. Workers find it through SAMPLE_SERVICE_URL (jest workers
 * inherit the environment set here).
 */
import { build } from '../../dev/build';
import { type SampleServiceProcess, startSampleServiceProcess } from '../../dev/sample-service/process';

/** Where global-teardown finds the process: jest runs both hooks in the same global context. */
export const SAMPLE_SERVICE_PROCESS = Symbol.for('safety-sync.sample-service-process');
export type ProcessSlot = { [SAMPLE_SERVICE_PROCESS]?: SampleServiceProcess };

export default async function globalSetup(): Promise<void> {
  await build();
  const service = await startSampleServiceProcess();
  process.env['SAMPLE_SERVICE_URL'] = service.url;
  (globalThis as ProcessSlot)[SAMPLE_SERVICE_PROCESS] = service;
}
