/**
 * The competent and expert references, which the bench reports the add-on against, run as the bench
 * runs them: each its own Apps Script project in the emulator, against the sample service. Each must
 * import every record with its users' names, and do it the way it claims to: the competent one reads
 * in a few fetchAll rounds and writes one setValues, the expert one reads alike and writes through
 * the Sheets API.
 */
import { type ReferenceRun, runReference } from '../../dev/bench/cases';
import {
  createDataset,
  datasetData,
  type DatasetHandle,
  datasetUserIds,
  deleteDataset,
  userIdsOf,
} from '../../dev/bench/datasets';
import { presetFigures } from '../../dev/emulator/runtime/cost-model';
import type { DatasetData } from '../../dev/sample-service/admin';
import { COMPLETIONS_SHEET } from '../../src/trainings/completions/table';
import { sampleServiceUrl } from '../support/sample-service';

const RECORDS = 2_500;
/** More users than a fetchAll of the references asks for, so that their names take two batches. */
const USERS = 150;
const NAMES_PER_FETCH_ALL = 100;
/** The references' columns, User ID to Created. */
const COLUMNS = 9;

let dataset: DatasetHandle;
let data: DatasetData;

beforeAll(async () => {
  dataset = await createDataset(sampleServiceUrl(), {
    seed: 8,
    users: USERS,
    completions: RECORDS,
    latencyMs: 20,
  });
  data = await datasetData(dataset);
});

afterAll(async () => {
  await deleteDataset(dataset);
});

async function importWith(reference: 'competent' | 'expert', into = dataset, records = RECORDS) {
  return runReference({
    kind: 'reference full import',
    reference,
    dataset: into,
    records,
    expectedUserRequests: (await datasetUserIds(into)).size,
    costFigures: presetFigures('central'),
  });
}

/** The rows a correct import holds, one per record, in any order, each with its users' names. */
function expectEveryRecordOnceWithNames(rows: readonly (readonly unknown[])[]): void {
  const names = new Map(data.users.map((user) => [user.id, user.name]));
  const expected = data.completions.map((record) => [
    record.user_id,
    names.get(record.user_id) ?? '',
    record.training_id,
    record.dateNumber,
    record.specialExpirationDateNumber ?? '',
    record.instructor_id,
    names.get(record.instructor_id) ?? '',
    record.groupTraining_id,
    record.created,
  ]);
  const comparable = (table: readonly (readonly unknown[])[]) =>
    table.map((row) => JSON.stringify(row)).sort();
  // Ids and names exactly as the service has them ("00042" stays text, "=HYPERLINK(…)" is no formula).
  expect(comparable(rows)).toEqual(comparable(expected));
  // The data has ids the service does not know (an empty name); the names of the others are there.
  const named = rows.filter((row) => row[1] !== '');
  expect(named.length).toBeGreaterThan(RECORDS * 0.9);
}

/** The tab the reference wrote: its header, then every record once with its names, and nothing more. */
function expectCompleteTab(run: ReferenceRun): void {
  const sheet = run.emulator.workbooks.get(run.spreadsheetId)!.sheet(COMPLETIONS_SHEET);
  expect(sheet.lastRow).toBe(RECORDS + 1);
  const [header, ...rows] = sheet.values(`A1:I${RECORDS + 1}`);
  expect(header![0]).toBe('User ID');
  expectEveryRecordOnceWithNames(rows);
}

test('the competent reference imports every record with its names: page 1, then the rest and the names in fetchAll batches of 100, one setValues', async () => {
  const run = await importWith('competent');
  expectCompleteTab(run);
  const { measurement } = run;
  const users = userIdsOf(data.completions).size;
  expect(users).toBeGreaterThan(NAMES_PER_FETCH_ALL);
  expect(measurement.requestsByMethod).toEqual({ 'completedtrainings.list': 3, 'users.info': users });
  // Page 1 alone (it says how many follow), pages 2 and 3 together, the names 100 at a time.
  expect(measurement.google.fetchRounds.map((round) => round.requests)).toEqual([
    1,
    2,
    NAMES_PER_FETCH_ALL,
    users - NAMES_PER_FETCH_ALL,
  ]);
  expect(measurement.valueWrites).toBe(1);
  expect(measurement.google.cellsWritten).toBe((RECORDS + 1) * COLUMNS);
  expect(measurement.google.sheetsApiRequests).toBe(0);
});

test('the expert reference reads as the competent one and writes the whole table through the Sheets API', async () => {
  const run = await importWith('expert');
  expectCompleteTab(run);
  const { measurement } = run;
  expect(measurement.google.fetchRounds).toHaveLength(4);
  expect(measurement.google.sheetsApiRequests).toBeGreaterThanOrEqual(1);
  expect(measurement.google.sheetsApiCells).toBe((RECORDS + 1) * COLUMNS);
  expect(measurement.google.cellsWritten).toBe(0);
  expect(measurement.valueWrites).toBe(0);
});

test('the expert reference writes a table of more than 2 MB in several Sheets API requests, as the API takes none larger', async () => {
  // About 2.5 MB of rows; without latency, as only the write matters here.
  const records = 25_000;
  const large = await createDataset(sampleServiceUrl(), { seed: 8, users: 50, completions: records });
  try {
    const run = await importWith('expert', large, records);

    expect(run.emulator.workbooks.get(run.spreadsheetId)!.sheet(COMPLETIONS_SHEET).lastRow).toBe(records + 1);
    expect(run.measurement.google.sheetsApiRequests).toBeGreaterThanOrEqual(2);
    expect(run.measurement.google.sheetsApiCells).toBe((records + 1) * COLUMNS);
  } finally {
    await deleteDataset(large);
  }
}, 60_000);
