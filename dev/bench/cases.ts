/**
 * The benchmark cases, each run in the emulator the way a user would: the built add-on through its
 * dialog, menu and cells, the reference scripts through the editor's Run button. Every case checks
 * that the import really happened (the rows are there) before its numbers count.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { type CostFigures, createEmulator, type Emulator, loadDist } from '../emulator';
import { COMPLETIONS_METHOD } from '../../src/api/completions-contract';
import { EQUIPMENT_TYPES_METHOD } from '../../src/api/equipment';
import type { ImportStepResult } from '../../src/trainings/completions/actions';
import { COMPLETIONS_SHEET } from '../../src/trainings/completions/table';
import { EQUIPMENT_TYPES_SHEET } from '../../src/equipment/tables';
import { CATALOGUE_SHEET } from '../../src/trainings/catalogue';
import { EXPIRING_SHEET } from '../../src/trainings/expiring';
import { MATRIX_SHEET } from '../../src/trainings/matrix';
import { addNewestCompletions, type DatasetHandle, userIdsOf } from './datasets';
import { measureRun } from './measure';
import type { BuildMeasurement, Measurement } from './measurement';

export const DIST_DIR = path.resolve(__dirname, '../../dist');
const TIME_ZONE = 'Europe/London';
const REFERENCE_FILES = {
  expert: 'reference-expert.js',
  competent: 'reference-competent.js',
  sequential: 'reference-sequential.js',
  naive: 'reference-naive.js',
} as const;
/** What the reference scripts share, loaded with each as a second file of the project. */
const REFERENCE_SHARED_FILE = 'reference-service.js';
const WARM_LOADS = 5;
/**
 * The reference scripts run to the end, however long Google would take: the naive one needs far more
 * than an execution's 6 minutes at 10,000 records, and the bench prices what it would cost.
 */
const UNLIMITED_MS = 24 * 3_600_000;

/** What every case that runs the emulator is given: the figures its clock is charged with. */
interface Charged {
  costFigures: CostFigures;
}

export type CaseSpec =
  | (Charged & {
      kind: 'add-on full import';
      dataset: DatasetHandle;
      batchSize: number;
      records: number;
      expectedUserRequests: number;
      /** Then adds this many completions and runs Refresh all on top of the import. */
      refresh?: { newRecords: number; knownUserIds: string[] };
    })
  | (Charged & {
      kind: 'reference full import';
      reference: keyof typeof REFERENCE_FILES;
      dataset: DatasetHandle;
      records: number;
      expectedUserRequests: number;
    })
  | (Charged & { kind: 'equipment import'; dataset: DatasetHandle; batchSize: number; types: number })
  | (Charged & {
      kind: 'custom function';
      dataset: DatasetHandle;
      batchSize: number;
      records: number;
      expectedUserRequests: number;
    })
  | { kind: 'build' };

export type ReferenceImportSpec = Extract<CaseSpec, { kind: 'reference full import' }>;

export type CaseResult = { measurements: Measurement[] } | { build: BuildMeasurement };

export async function runCase(spec: CaseSpec): Promise<CaseResult> {
  switch (spec.kind) {
    case 'add-on full import':
      return { measurements: await addOnFullImport(spec) };
    case 'reference full import':
      return { measurements: [runReference(spec).measurement] };
    case 'equipment import':
      return { measurements: [equipmentImport(spec)] };
    case 'custom function':
      return { measurements: customFunction(spec) };
    case 'build':
      return { build: measureBuild() };
  }
}

interface AddOn {
  emulator: Emulator;
  spreadsheetId: string;
  callServer(functionName: string, ...args: unknown[]): unknown;
  clickMenu(caption: string): unknown;
}

/** dist/Code.js in a fresh emulator, connected to the dataset through its own Settings dialog. */
function openAddOn(dataset: DatasetHandle, batchSize: number, costFigures: CostFigures): AddOn {
  // Formulas are measured where Google lets them read the token lent to them (the emulator's
  // default is the stricter reading, under which they request nothing).
  const emulator = createEmulator({
    ...loadDist(DIST_DIR),
    costFigures,
    urlFetchRoundTripMs: dataset.latencyMs,
    readings: { documentStoresInCustomFunction: true },
  });
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Safety', timeZone: TIME_ZONE });
  emulator.onOpen(spreadsheetId, { authMode: 'LIMITED' });
  const addOn: AddOn = {
    emulator,
    spreadsheetId,
    callServer: (functionName, ...args) => emulator.callServer(spreadsheetId, functionName, ...args),
    clickMenu: (caption) => emulator.clickMenu(spreadsheetId, 'Safety Sync', caption),
  };
  const outcome = addOn.callServer('saveSettings', {
    baseUrl: dataset.serviceUrl,
    token: dataset.token,
    batchSize,
  });
  if (!(outcome as { ok: boolean }).ok)
    throw new Error(`Settings refused the connection: ${JSON.stringify(outcome)}`);
  return addOn;
}

function expectDataRows(
  emulator: Emulator,
  spreadsheetId: string,
  sheetName: string,
  expected: number,
): void {
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  const failures = workbook.ui.alerts.filter((alert) => /failed/i.test(alert.title ?? ''));
  if (failures.length > 0)
    throw new Error(`The run failed: ${failures.map((alert) => alert.message).join(' | ')}`);
  const rows = workbook.sheet(sheetName).lastRow - 1;
  if (rows !== expected)
    throw new Error(`"${sheetName}" holds ${rows} rows after the run instead of ${expected}.`);
}

async function addOnFullImport(
  spec: Extract<CaseSpec, { kind: 'add-on full import' }>,
): Promise<Measurement[]> {
  const addOn = openAddOn(spec.dataset, spec.batchSize, spec.costFigures);
  const fullImport = measureRun(
    addOn.emulator,
    {
      scenario: 'full import',
      implementation: 'add-on',
      records: spec.records,
      fetchMethod: COMPLETIONS_METHOD,
      expectedUserRequests: spec.expectedUserRequests,
      firstInProcess: true,
    },
    // As the import dialog does: start, then continue while an execution's time did not suffice.
    () => {
      let step = addOn.callServer('startCompletionsImport', {}) as ImportStepResult;
      while (!step.done) step = addOn.callServer('continueCompletionsImport') as ImportStepResult;
    },
  );
  expectDataRows(addOn.emulator, addOn.spreadsheetId, COMPLETIONS_SHEET, spec.records);
  const trainingStatus = measureRun(
    addOn.emulator,
    {
      scenario: 'training status',
      implementation: 'add-on',
      records: spec.records,
      fetchMethod: COMPLETIONS_METHOD,
      expectedUserRequests: 0,
      firstInProcess: false,
    },
    () => addOn.clickMenu('Show training status'),
  );
  expectTrainingTabs(addOn.emulator, addOn.spreadsheetId);
  if (!spec.refresh) return [fullImport, trainingStatus];

  const added = await addNewestCompletions(spec.dataset, spec.refresh.newRecords);
  const known = new Set(spec.refresh.knownUserIds);
  const newUserIds = [...userIdsOf(added)].filter((id) => !known.has(id));
  const refresh = measureRun(
    addOn.emulator,
    {
      scenario: 'incremental refresh',
      implementation: 'add-on',
      records: spec.records + added.length,
      fetchMethod: COMPLETIONS_METHOD,
      expectedUserRequests: newUserIds.length,
      firstInProcess: false,
    },
    () => addOn.clickMenu('Refresh all'),
  );
  expectDataRows(addOn.emulator, addOn.spreadsheetId, COMPLETIONS_SHEET, spec.records + added.length);
  return [fullImport, trainingStatus, refresh];
}

/** The training tabs are there, with a row per person in the matrix, and no alert said otherwise. */
function expectTrainingTabs(emulator: Emulator, spreadsheetId: string): void {
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  if (workbook.ui.alerts.length > 0)
    throw new Error(
      `Show training status failed: ${workbook.ui.alerts.map((alert) => alert.message).join(' | ')}`,
    );
  for (const sheetName of [CATALOGUE_SHEET, MATRIX_SHEET, EXPIRING_SHEET]) {
    if (workbook.sheet(sheetName).lastRow < 2)
      throw new Error(`"${sheetName}" is empty after Show training status.`);
  }
}

/** A reference's run, and the emulator it ran in, where its tab can be read. */
export interface ReferenceRun {
  measurement: Measurement;
  emulator: Emulator;
  spreadsheetId: string;
}

/** A reference script as its own Apps Script project, run from the editor against the same dataset. */
export function runReference(spec: ReferenceImportSpec): ReferenceRun {
  const read = (file: string) => fs.readFileSync(path.join(__dirname, file), 'utf8');
  const emulator = createEmulator({
    code: `${read(REFERENCE_SHARED_FILE)}\n${read(REFERENCE_FILES[spec.reference])}`,
    // The add-on's manifest: the same time zone, scopes a hand-written script would need too, and
    // the Sheets advanced service (the `Sheets` global) the expert reference writes through.
    files: { 'appsscript.json': loadDist(DIST_DIR).files['appsscript.json']! },
    costFigures: spec.costFigures,
    urlFetchRoundTripMs: spec.dataset.latencyMs,
    executionLimitMs: { full: UNLIMITED_MS },
  });
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Safety', timeZone: TIME_ZONE });
  emulator.properties.script.set('SERVICE_URL', spec.dataset.serviceUrl);
  emulator.properties.script.set('SERVICE_TOKEN', spec.dataset.token);
  const measurement = measureRun(
    emulator,
    {
      scenario: 'full import',
      implementation: spec.reference,
      records: spec.records,
      fetchMethod: COMPLETIONS_METHOD,
      expectedUserRequests: spec.expectedUserRequests,
      firstInProcess: true,
    },
    () => emulator.run('importCompletedTrainings', [], { kind: 'menu', spreadsheetId }),
  );
  expectDataRows(emulator, spreadsheetId, COMPLETIONS_SHEET, spec.records);
  return { measurement, emulator, spreadsheetId };
}

function equipmentImport(spec: Extract<CaseSpec, { kind: 'equipment import' }>): Measurement {
  const addOn = openAddOn(spec.dataset, spec.batchSize, spec.costFigures);
  const measurement = measureRun(
    addOn.emulator,
    {
      scenario: 'equipment import',
      implementation: 'add-on',
      records: spec.types,
      fetchMethod: EQUIPMENT_TYPES_METHOD,
      expectedUserRequests: null,
      firstInProcess: true,
    },
    () => addOn.clickMenu('Import equipment types'),
  );
  expectDataRows(addOn.emulator, addOn.spreadsheetId, EQUIPMENT_TYPES_SHEET, spec.types);
  return measurement;
}

/** =SAFETY_COMPLETIONS() in a cell: first with nothing cached, then recalculated with the same arguments. */
function customFunction(spec: Extract<CaseSpec, { kind: 'custom function' }>): Measurement[] {
  const addOn = openAddOn(spec.dataset, spec.batchSize, spec.costFigures);
  addOn.callServer('setFormulaAccess', true);
  const evaluate = () => {
    const result = addOn.emulator.customFunction(addOn.spreadsheetId, 'SAFETY_COMPLETIONS', []);
    if ('error' in result) throw new Error(`=SAFETY_COMPLETIONS() shows an error: ${result.error}`);
    const rows = (result.value as unknown[][]).length - 1;
    if (rows !== spec.records)
      throw new Error(`=SAFETY_COMPLETIONS() gave ${rows} rows instead of ${spec.records}.`);
  };
  const run = (
    scenario: 'custom function, cold' | 'custom function, recalculated',
    firstInProcess: boolean,
  ) =>
    measureRun(
      addOn.emulator,
      {
        scenario,
        implementation: 'add-on',
        records: spec.records,
        fetchMethod: COMPLETIONS_METHOD,
        expectedUserRequests: firstInProcess ? spec.expectedUserRequests : 0,
        firstInProcess,
      },
      evaluate,
    );
  return [run('custom function, cold', true), run('custom function, recalculated', false)];
}

/**
 * Google loads the whole script at the start of every execution: each menu click, dialog call and
 * formula. The first load here compiles and runs dist/Code.js in a bare context of a process that
 * has never seen it; later loads in new contexts may reuse V8's compiled code.
 */
function measureBuild(): BuildMeasurement {
  const file = path.join(DIST_DIR, 'Code.js');
  const code = fs.readFileSync(file, 'utf8');
  const load = () => {
    const startedMs = performance.now();
    new vm.Script(code, { filename: 'Code.js' }).runInContext(vm.createContext({}));
    return performance.now() - startedMs;
  };
  const coldLoadMs = load();
  const warm = Array.from({ length: WARM_LOADS }, load).sort((a, b) => a - b);
  return { codeBytes: fs.statSync(file).size, coldLoadMs, warmLoadMs: warm[Math.floor(WARM_LOADS / 2)]! };
}
