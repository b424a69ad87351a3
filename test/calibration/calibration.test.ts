/**
 * The calibration project's logic, run where it can run here: in the emulator, whose cost model it
 * measures as it would measure Google. Its document must load as a calibration, and each figure must
 * come out about as large as what the emulator charges for it (this machine's own time only adds).
 */
import { type ChildProcess, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import { buildCalibration } from '../../dev/calibration/build';
import { calibrationInClaspOutput, recordAnswer } from '../../dev/calibration/command';
import {
  createEmulator,
  type CostFigures,
  type Emulator,
  type GoogleReadings,
  LOOSER_READINGS,
  READING_NAMES,
  STRICTER_READINGS,
} from '../../dev/emulator';
import {
  defaultReadings,
  type GoogleAnswer,
  parseGoogleAnswer,
  readingsFromCalibration,
} from '../../dev/emulator/readings';
import {
  calibratedFigures,
  type Calibration,
  parseCalibration,
  presetFigures,
} from '../../dev/emulator/runtime/cost-model';

let server: ChildProcess;
let echoUrl: string;
let project: { code: string; manifest: string; probe: string };

beforeAll(async () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibration-'));
  await buildCalibration(outDir);
  project = {
    code: fs.readFileSync(path.join(outDir, 'Code.js'), 'utf8'),
    manifest: fs.readFileSync(path.join(outDir, 'appsscript.json'), 'utf8'),
    probe: fs.readFileSync(path.join(outDir, 'probe.html'), 'utf8'),
  };
  fs.rmSync(outDir, { recursive: true });
  server = fork(path.join(__dirname, '..', 'emulator', 'fixtures', 'http-test-server.ts'), {
    execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
    stdio: 'inherit',
  });
  const port = await new Promise<number>((resolve) =>
    server.once('message', (message: { port: number }) => resolve(message.port)),
  );
  echoUrl = `http://127.0.0.1:${port}/echo`;
});

afterAll(() => server.disconnect());

function calibrate(
  costFigures: CostFigures,
  properties: Record<string, string> = {},
  manifest = project.manifest,
): { calibration: Calibration; emulator: Emulator } {
  const emulator = createEmulator({
    code: project.code,
    files: { 'appsscript.json': manifest },
    costFigures,
  });
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Calibration' });
  emulator.properties.script.set('CALIBRATION_ECHO_URL', echoUrl);
  for (const [key, value] of Object.entries(properties)) emulator.properties.script.set(key, value);
  const printed = emulator.run('runCalibration', [], { kind: 'menu', spreadsheetId }) as string;
  expect(emulator.logs.map((entry) => entry.text)).toContain(printed);
  return { calibration: parseCalibration(printed, 'the calibration log'), emulator };
}

describe('in the emulator, with its own figures', () => {
  let calibration: Calibration;
  beforeAll(() => {
    ({ calibration } = calibrate(presetFigures('central')));
  });

  it('prints a calibration document the bench and the emulator load', () => {
    const central = presetFigures('central');
    const figures = calibratedFigures(central, calibration);
    expect(Object.keys(figures).sort()).toEqual(Object.keys(central).sort());
  });

  it('measures every per-call figure about as large as the emulator charges it, or larger', () => {
    const central = presetFigures('central');
    const { figures } = calibration;
    // Medians of whole milliseconds, some less another median: within a tenth below the charge.
    const perCall = [
      'commitMs',
      'spreadsheetCallMs',
      'appendRowMs',
      'fetchRoundTripMs',
      'fetchAllBatchMs',
      'cacheReadMs',
      'cacheWriteMs',
      'propertiesReadMs',
      'propertiesWriteMs',
    ] as const;
    const belowCharge = perCall.filter(
      (name) => !(figures[name] !== null && figures[name] + 1 >= central[name] * 0.9),
    );
    expect(belowCharge).toEqual([]);
  });

  it('measures the Sheets API about as the emulator charges it', () => {
    const central = presetFigures('central');
    const { sheetsApiPerCellMs, sheetsApiRequestMs } = calibration.figures;
    expect(sheetsApiPerCellMs).toBeGreaterThanOrEqual(central.sheetsApiPerCellMs * 0.9);
    expect(sheetsApiRequestMs! + 1).toBeGreaterThanOrEqual(central.sheetsApiRequestMs * 0.9);
  });

  it('leaves the Sheets API unmeasured where its advanced service is missing', () => {
    const { dependencies: _dependencies, ...withoutServices } = JSON.parse(project.manifest) as Record<
      string,
      unknown
    >;
    const missing = calibrate(presetFigures('central'), {}, JSON.stringify(withoutServices)).calibration;
    expect(missing.figures).toMatchObject({ sheetsApiPerCellMs: null, sheetsApiRequestMs: null });
  });

  it("records the emulator's behaviours, and which it could not observe", () => {
    expect(calibration.behaviours).toEqual({
      userTriggersListClockTrigger: expect.any(Boolean),
      plainTextKeepsApostrophe: expect.stringMatching(/^".*00123"$/),
      // No id of a deleted spreadsheet was given.
      openByIdOfDeletedSpreadsheet: null,
      // The emulator's default reading: the tab is there from the next execution only.
      spreadsheetServiceSeesApiTab: false,
      cachePutAllLimit: 'total',
      // The emulator's default reading: `;` separates nothing in en_US.
      semicolonArgumentsInEnUs: 'parse error',
      // Neither the spreadsheet's onOpen nor the probe dialog has run.
      developerMetadataInLimited: null,
      unserialisableReturn: null,
      // What the probe cells showed, computed or an error value.
      documentStoresInCustomFunction: expect.any(String),
      customFunctionDateArgument: expect.any(String),
    });
  });
});

it('recovers distinctive figures from the emulator, per cell and per call', () => {
  // Large enough that this machine's own time, which only adds, stays far below them.
  const distinctive: CostFigures = {
    ...presetFigures('central'),
    setValuesPerCellMs: 0.5,
    setNumberFormatsPerCellMs: 0.3,
    getValuesPerCellMs: 0.2,
    commitMs: 1_234,
    cacheWriteMs: 777,
    fetchAllBatchMs: 2_500,
  };
  const { figures } = calibrate(distinctive).calibration;
  const names = [
    'setValuesPerCellMs',
    'setNumberFormatsPerCellMs',
    'getValuesPerCellMs',
    'commitMs',
    'cacheWriteMs',
    'fetchAllBatchMs',
  ] as const;
  const recovered = names.filter(
    (name) => figures[name]! >= distinctive[name] * 0.95 && figures[name]! < distinctive[name] * 2,
  );
  expect(recovered).toEqual(names);
});

it("reports openById's error for the spreadsheet it is given", () => {
  const { calibration } = calibrate(presetFigures('central'), {
    CALIBRATION_DELETED_SPREADSHEET_ID: 'no-such-spreadsheet',
  });
  expect(calibration.behaviours.openByIdOfDeletedSpreadsheet).toEqual(expect.any(String));
  expect(calibration.behaviours.openByIdOfDeletedSpreadsheet).not.toBe('opened');
});

it('answers its probes when Sheets computes them', () => {
  const emulator = createEmulator({ code: project.code, files: { 'appsscript.json': project.manifest } });
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Calibration', timeZone: 'Europe/London' });
  const stores = emulator.customFunction(spreadsheetId, 'CALIBRATION_DOCUMENT_STORES', []);
  expect(stores).toEqual({ value: expect.stringMatching(/^document properties: .+; document cache: .+$/) });
  const date = emulator.customFunction(spreadsheetId, 'CALIBRATION_DATE_ARGUMENT', [
    new Date(Date.UTC(2024, 0, 15)),
  ]);
  expect(date).toEqual({
    value: '2024-01-15T00:00:00.000Z (script time zone Etc/UTC, spreadsheet time zone Europe/London)',
  });
});

/**
 * What Google answers settles the emulator's readings: the calibration project, run in the emulator
 * under known readings as a deployer runs it on Google (a reload for its onOpen, its probe dialog,
 * then runCalibration), must recover exactly those readings; and `npm run calibrate -- --answer`
 * records an answer the emulator then defaults from.
 */
describe('the answer from Google', () => {
  /**
   * The calibration document the project prints in an emulator with these readings, its probe
   * formulas as Sheets computes them after runCalibration has read them.
   */
  function calibrateUnder(readings: GoogleReadings): string {
    const emulator = createEmulator({
      code: project.code,
      files: { 'appsscript.json': project.manifest, 'probe.html': project.probe },
      readings,
    });
    // West of the script's Etc/UTC, so that a date cell's zone shows.
    const id = emulator.createSpreadsheet({ name: 'Calibration', timeZone: 'America/New_York' });
    emulator.properties.script.set('CALIBRATION_ECHO_URL', echoUrl);
    // A spreadsheet the deployer put in the trash.
    const trashed = emulator.createSpreadsheet({ name: 'Trashed' });
    emulator.workbooks.trash(trashed);
    emulator.properties.script.set('CALIBRATION_DELETED_SPREADSHEET_ID', trashed);
    emulator.onOpen(id, { authMode: 'LIMITED' });
    // What probe.html does with google.script.run's handlers.
    let outcome: string;
    try {
      const value = emulator.callServer(id, 'calibrationDateReturn');
      outcome = value === null ? 'null' : `other: ${JSON.stringify(value)}`;
    } catch (error) {
      outcome = `failure: ${(error as Error).message}`;
    }
    emulator.callServer(id, 'recordUnserialisableReturn', outcome);
    const printed = emulator.run('runCalibration', [], { kind: 'menu', spreadsheetId: id }) as string;
    // The emulator computes custom functions only when told: what Sheets would have shown the probe.
    const workbook = emulator.workbooks.get(id)!;
    workbook.recalculate();
    const [stores, date] = workbook.sheet('Calibration scratch').displayValues('A1:A2').flat();
    const calibration = JSON.parse(printed) as { behaviours: Record<string, unknown> };
    calibration.behaviours.documentStoresInCustomFunction = stores;
    calibration.behaviours.customFunctionDateArgument = date;
    return JSON.stringify(calibration);
  }

  test.each([
    ['the stricter readings', STRICTER_READINGS],
    ['the looser readings', LOOSER_READINGS],
  ])('run under %s, the calibration settles every reading to it', (_name, readings) => {
    const printed = calibrateUnder(readings);
    expect(readingsFromCalibration(parseCalibration(printed, 'the calibration log'))).toEqual(readings);
  });

  test('a behaviour the calibration could not settle keeps its default reading', () => {
    const calibration = parseCalibration(calibrateUnder(LOOSER_READINGS), 'the calibration log');
    const unsettled = {
      ...calibration,
      behaviours: {
        ...calibration.behaviours,
        developerMetadataInLimited: null,
        unserialisableReturn: 'other: {}',
        customFunctionDateArgument: null,
      },
    };
    const answer: GoogleAnswer = { ...unsettled, recordedOn: '2026-11-27', accountKind: 'consumer' };
    const readings = defaultReadings(answer);
    expect(readings).toEqual({
      ...LOOSER_READINGS,
      developerMetadataInLimited: STRICTER_READINGS.developerMetadataInLimited,
      unserialisableReturn: STRICTER_READINGS.unserialisableReturn,
      customFunctionDateZone: STRICTER_READINGS.customFunctionDateZone,
    });
    expect(Object.keys(readings).sort()).toEqual([...READING_NAMES].sort());
  });

  describe('npm run calibrate -- --answer', () => {
    test('records the answer with the day and the account kind, and the emulator defaults from it', () => {
      const answerFile = path.join(os.tmpdir(), 'pasted.json');
      fs.writeFileSync(answerFile, calibrateUnder(LOOSER_READINGS));
      const outFile = path.join(os.tmpdir(), 'google-answer.json');
      recordAnswer({ answerFile, account: 'workspace', outFile, today: new Date('2026-11-27T22:00:00Z') });
      const recorded = parseGoogleAnswer(fs.readFileSync(outFile, 'utf8'), outFile);
      expect(recorded).toMatchObject({ recordedOn: '2026-11-27', accountKind: 'workspace' });
      expect(defaultReadings(recorded)).toEqual(LOOSER_READINGS);
    });

    test('refuses a pasted document that is not a calibration, and writes nothing', () => {
      const answerFile = path.join(os.tmpdir(), 'half.json');
      fs.writeFileSync(answerFile, '{ "kind": "safety-sync-calibration", "figures": {');
      const outFile = path.join(os.tmpdir(), 'not-written.json');
      expect(() => recordAnswer({ answerFile, account: 'consumer', outFile })).toThrow(
        `${answerFile} is not JSON: copy the whole document the calibration printed (from { to }) into it.`,
      );
      expect(fs.existsSync(outFile)).toBe(false);
    });

    test('an answer without its stamps is not one the emulator reads', () => {
      const printed = calibrateUnder(STRICTER_READINGS);
      expect(() => parseGoogleAnswer(printed, 'google-answer.json')).toThrow(
        'google-answer.json has no recordedOn and accountKind: record it with npm run calibrate -- --answer.',
      );
    });
  });

  test("finds runCalibration's document in what clasp run prints, however it wraps it", () => {
    const printed = calibrateUnder(STRICTER_READINGS);
    expect(calibrationInClaspOutput(JSON.stringify(printed))).toBe(printed);
    expect(calibrationInClaspOutput(`Running…\n${JSON.stringify({ response: { result: printed } })}`)).toBe(
      printed,
    );
    expect(
      calibrationInClaspOutput(
        'Script function not found. Please make sure script is deployed as API executable.',
      ),
    ).toBeNull();
  });
});
