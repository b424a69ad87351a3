/**
 * The bench's Google-side figures are the same on any machine: the emulator's clock is virtual, so
 * a run pauses at the same rounds and costs the same calls, cells, commits and fetch rounds however
 * loaded this machine is. The same small case runs twice on two datasets made alike, the second
 * while another thread keeps a core busy, and gives the same checksum and the same estimate.
 */
import { Worker } from 'node:worker_threads';

import { type CaseSpec, runCase } from '../../dev/bench/cases';
import { createDataset, datasetUserIds, deleteDataset } from '../../dev/bench/datasets';
import { googleChecksum, googleEstimate } from '../../dev/bench/google';
import type { Measurement } from '../../dev/bench/measurement';
import { noQuantities, presetFigures } from '../../dev/emulator/runtime/cost-model';
import { DEFAULT_IMPORT_OPTIONS } from '../../src/platform/settings-store';
import { sampleServiceUrl } from '../support/sample-service';
import { madeUpMeasurement } from './made-up-measurement';

const RECORDS = 2_500;
const FIGURES = { low: presetFigures('low'), central: presetFigures('central'), high: presetFigures('high') };

async function measureOnce(): Promise<Measurement[]> {
  const dataset = await createDataset(sampleServiceUrl(), {
    seed: 8,
    users: 30,
    completions: RECORDS,
    latencyMs: 20,
  });
  try {
    const userIds = await datasetUserIds(dataset);
    const spec: CaseSpec = {
      kind: 'add-on full import',
      dataset,
      records: RECORDS,
      expectedUserRequests: userIds.size,
      batchSize: DEFAULT_IMPORT_OPTIONS.batchSize,
      costFigures: FIGURES.central,
      refresh: { newRecords: 5, knownUserIds: [...userIds] },
    };
    const result = await runCase(spec);
    if (!('measurements' in result)) throw new Error('The case gave no measurements.');
    return result.measurements;
  } finally {
    await deleteDataset(dataset);
  }
}

test('two runs of the same case give identical Google-side figures, the second on a loaded machine', async () => {
  const first = await measureOnce();
  const busy = new Worker('for (;;) {}', { eval: true });
  let second: Measurement[];
  try {
    second = await measureOnce();
  } finally {
    await busy.terminate();
  }

  expect(second.map((m) => m.scenario)).toEqual(['full import', 'training status', 'incremental refresh']);
  expect(googleChecksum(second)).toBe(googleChecksum(first));
  const central = (runs: Measurement[]) => runs.map((m) => googleEstimate(m, FIGURES).central.total);
  expect(central(second)).toEqual(central(first));
  // Something was priced: the checksum covers real work, not empty ledgers.
  expect(Math.min(...central(first))).toBeGreaterThan(0);
  expect(first[0]!.google.fetchRounds.length).toBeGreaterThan(2);
}, 300_000);

test('the checksum follows what a run did on Google, not how long it took here', () => {
  const run = madeUpMeasurement({
    expectedUserRequests: 10,
    requestsByMethod: { 'completedtrainings.list': 2 },
    spreadsheetCalls: 40,
    valueWrites: 2,
    fetchMs: 500,
    runMs: 900,
    cpuMs: 300,
    google: { ...noQuantities(), commits: 1, cellsWritten: 11_000 },
  });
  const slowerHere = { ...run, fetchMs: 800, runMs: 2_000, cpuMs: 700, peakRssMb: 180 };
  const oneMoreCommit = { ...run, google: { ...run.google, commits: 2 } };
  expect(googleChecksum([slowerHere])).toBe(googleChecksum([run]));
  expect(googleChecksum([oneMoreCommit])).not.toBe(googleChecksum([run]));
  expect(googleChecksum([run, oneMoreCommit])).toBe(googleChecksum([oneMoreCommit, run]));
});
