/**
 * The cost model: Google's time for each call, cell, commit and fetch round, charged on the emulated
 * clock that enforces the execution limits, and kept as quantities the bench prices.
 */
import { type ChildProcess, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  type CostFigures,
  type CostQuantities,
  calibratedFigures,
  calibratedFiguresFromFile,
  FETCH_ALL_CONCURRENT_REQUESTS,
  noQuantities,
  parseCalibration,
  presetFigures,
  priceQuantities,
} from '../../dev/emulator/runtime/cost-model';
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
  function writeGrid(rows, columns) {
    var grid = [];
    for (var r = 0; r < rows; r++) { var row = []; for (var c = 0; c < columns; c++) row.push(r * c); grid.push(row); }
    sheet().getRange(1, 1, rows, columns).setValues(grid);
  }
  function writeThenRead(times) {
    for (var i = 0; i < times; i++) { sheet().getRange('A1').setValues([[i]]); sheet().getRange('A1').getValues(); }
  }
  function formatGrid(rows, columns) {
    var formats = [];
    for (var r = 0; r < rows; r++) { var row = []; for (var c = 0; c < columns; c++) row.push('@'); formats.push(row); }
    sheet().getRange(1, 1, rows, columns).setNumberFormats(formats);
  }
  function writeThenFlush() { sheet().getRange('A1').setValues([[1]]); SpreadsheetApp.flush(); }
  function rememberTwice() {
    CacheService.getScriptCache().put('a', '1');
    CacheService.getScriptCache().put('b', '2');
    return CacheService.getScriptCache().get('a');
  }
  function formatWholeRange(rows, columns) {
    var range = sheet().getRange(1, 1, rows, columns);
    range.setNumberFormat('0.00');
    range.setFontWeight('bold');
    range.clearContent();
  }
  function fillWithFormula(rows) { sheet().getRange(1, 1, rows, 1).setFormulaR1C1('=ROW()'); }
  function cacheLarge(kb) {
    var cache = CacheService.getScriptCache();
    cache.put('large', new Array(kb * 1024 + 1).join('x'));
    return cache.get('large').length;
  }
  function fetchAllOf(urls) { return UrlFetchApp.fetchAll(urls).length; }
  function fetchOne(url) { return UrlFetchApp.fetch(url).getResponseCode(); }
`;

/** The central figures with some of them changed, to make a price unmistakable. */
const figures = (changes: Partial<CostFigures>): CostFigures => ({ ...presetFigures('central'), ...changes });

function openSheet(costFigures?: CostFigures) {
  const emulator = emulate(SCRIPT, costFigures ? { costFigures } : {});
  const spreadsheetId = emulator.createSpreadsheet();
  const run = (name: string, ...args: unknown[]) => emulator.run(name, args, { kind: 'menu', spreadsheetId });
  return { emulator, run };
}

describe('charged on the emulated clock', () => {
  it('stops a run whose cell writes would take Google more than 6 minutes', () => {
    // 400 cells at 1 s each: 400 s, more than a menu run's 360 s.
    const { emulator, run } = openSheet(figures({ setValuesPerCellMs: 1_000 }));
    expect(() => run('writeGrid', 20, 20)).toThrow('Exceeded maximum execution time');
    expect(() => run('writeGrid', 15, 20)).not.toThrow();
    expect(emulator.costs.quantities().cellsWritten).toBe(400 + 300);
  });

  it('lets Google time pass for each cell written, call and commit', () => {
    const { emulator, run } = openSheet();
    const before = emulator.clock.now();
    run('writeGrid', 100, 10);
    const central = presetFigures('central');
    // 1,000 cells, the calls that reached the sheet and the commit at the end.
    const spreadsheetCalls = emulator.costs.quantities().calls.spreadsheet;
    expect(spreadsheetCalls).toBeGreaterThanOrEqual(4);
    const priced =
      1_000 * central.setValuesPerCellMs + spreadsheetCalls * central.spreadsheetCallMs + central.commitMs;
    // The clock is virtual: it moved by these prices and nothing else.
    expect(priceQuantities(emulator.costs.quantities(), central).total).toBeCloseTo(priced);
    expect(emulator.clock.now() - before).toBe(Math.floor(priced));
  });

  it('counts a commit at each read after a write, at a flush and at the end of a run', () => {
    const { emulator, run } = openSheet();
    run('writeThenRead', 3);
    expect(emulator.costs.quantities().commits).toBe(3);
    emulator.costs.reset();
    run('writeThenFlush');
    expect(emulator.costs.quantities().commits).toBe(1);
    emulator.costs.reset();
    run('writeGrid', 2, 2);
    expect(emulator.costs.quantities()).toMatchObject({ commits: 1, cellsWritten: 4, cellsRead: 0 });
  });

  it('prices number formats written apart from values', () => {
    const { emulator, run } = openSheet(figures({ setNumberFormatsPerCellMs: 1_000 }));
    expect(() => run('formatGrid', 20, 20)).toThrow('Exceeded maximum execution time');
    run('writeGrid', 20, 20);
    expect(emulator.costs.quantities()).toMatchObject({ cellsWritten: 400, formatsWritten: 400 });
  });

  it('prices a range-wide call by the cells of its range, a formula filled down as a write of each', () => {
    const { emulator, run } = openSheet(figures({ rangeWidePerCellMs: 100 }));
    // 3 calls × 2,000 cells × 100 ms: 600 s, more than a menu run's 360 s.
    expect(() => run('formatWholeRange', 200, 10)).toThrow('Exceeded maximum execution time');
    emulator.costs.reset();
    const before = emulator.clock.now();
    run('formatWholeRange', 50, 10);
    expect(emulator.costs.quantities()).toMatchObject({ cellsRangeWide: 3 * 500, cellsWritten: 0 });
    expect(emulator.clock.now() - before).toBeGreaterThanOrEqual(3 * 500 * 100);
    emulator.costs.reset();
    run('fillWithFormula', 30);
    expect(emulator.costs.quantities()).toMatchObject({ cellsRangeWide: 0, cellsWritten: 30 });
  });

  it('prices what CacheService stores and returns by the KB', () => {
    const { emulator, run } = openSheet(figures({ cachePerKbMs: 2_000 }));
    const before = emulator.clock.now();
    expect(run('cacheLarge', 40)).toBe(40 * 1024);
    expect(emulator.costs.quantities().cacheKb).toBe(2 * 40);
    expect(emulator.clock.now() - before).toBeGreaterThanOrEqual(2 * 40 * 2_000);
    // Twice 95 KB at 2 s a KB: 380 s, more than a menu run's 360 s.
    expect(() => run('cacheLarge', 95)).toThrow('Exceeded maximum execution time');
  });

  it('stops a custom function whose cache writes take more than its 30 seconds', () => {
    const emulator = emulate(SCRIPT, { costFigures: figures({ cacheWriteMs: 20_000 }) });
    const spreadsheetId = emulator.createSpreadsheet();
    expect(emulator.customFunction(spreadsheetId, 'rememberTwice', [])).toEqual({
      error: 'Exceeded maximum execution time',
    });
    expect(emulator.costs.quantities().calls.cacheWrite).toBe(2);
  });
});

describe('fetch rounds', () => {
  let server: ChildProcess;
  let base: string;

  beforeAll(async () => {
    server = fork(path.join(__dirname, 'fixtures', 'http-test-server.ts'), {
      execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
      stdio: 'inherit',
    });
    base = `http://127.0.0.1:${await new Promise<number>((resolve) =>
      server.once('message', (message: { port: number }) => resolve(message.port)),
    )}`;
  });

  afterAll(() => server.disconnect());

  it('records a fetchAll as one round of its requests, a fetch as a round of one, each at its price', () => {
    const { emulator, run } = openSheet(figures({ fetchAllBatchMs: 30_000, fetchRoundTripMs: 1_000 }));
    emulator.urlFetch.roundTripMs = 200;
    const before = emulator.clock.now();
    expect(run('fetchAllOf', [`${base}/slow?ms=50`, `${base}/echo`, `${base}/echo`])).toBe(3);
    expect(run('fetchOne', `${base}/echo`)).toBe(200);
    const rounds = emulator.costs.quantities().fetchRounds;
    // The service's time is its configured latency, not what the slow request took on this machine.
    expect(rounds.map(({ batched, requests, serviceMs }) => ({ batched, requests, serviceMs }))).toEqual([
      { batched: true, requests: 3, serviceMs: 200 },
      { batched: false, requests: 1, serviceMs: 200 },
    ]);
    // The clock moved by the rounds' price and nothing else.
    const priced = priceQuantities(emulator.costs.quantities(), emulator.costs.figures).fetchRounds;
    expect(priced).toBeGreaterThan(30_000 + 2 * 1_000 + 2 * 200);
    expect(emulator.clock.now() - before).toBe(Math.floor(priced));
  });

  it('prices a fetchAll larger than Google runs at once in waves, each a round trip and the latency', () => {
    const { emulator, run } = openSheet(figures({ fetchAllBatchMs: 30_000, fetchRoundTripMs: 1_000 }));
    emulator.urlFetch.roundTripMs = 500;
    const urls = (count: number) => Array.from({ length: count }, () => `${base}/echo`);
    const before = emulator.clock.now();
    expect(run('fetchAllOf', urls(FETCH_ALL_CONCURRENT_REQUESTS))).toBe(FETCH_ALL_CONCURRENT_REQUESTS);
    const oneWaveMs = emulator.clock.now() - before;
    expect(run('fetchAllOf', urls(2 * FETCH_ALL_CONCURRENT_REQUESTS + 1))).toBe(
      2 * FETCH_ALL_CONCURRENT_REQUESTS + 1,
    );
    const threeWavesMs = emulator.clock.now() - before - oneWaveMs;
    expect(oneWaveMs).toBeGreaterThanOrEqual(30_000 + 1_500);
    expect(oneWaveMs).toBeLessThan(30_000 + 2 * 1_500);
    expect(threeWavesMs).toBeGreaterThanOrEqual(30_000 + 3 * 1_500);
    expect(threeWavesMs).toBeLessThan(30_000 + 4 * 1_500);
  });
});

describe('pricing quantities', () => {
  const quantities = (): CostQuantities => ({
    ...noQuantities(),
    calls: { ...noQuantities().calls, spreadsheet: 10, appendRow: 2, cacheRead: 1, propertiesWrite: 1 },
    cellsWritten: 1_000_000,
    formatsWritten: 1_000,
    cellsRangeWide: 10_000,
    cellsRead: 1_000,
    cacheKb: 100,
    commits: 2,
    fetchRounds: [
      { batched: false, requests: 1, serviceMs: 100, largestKb: 100 },
      { batched: true, requests: 10, serviceMs: 120, largestKb: 200 },
    ],
  });

  it('splits a run into fetch rounds, cell writes, commits and other calls', () => {
    const central = presetFigures('central');
    const price = priceQuantities(quantities(), central);
    expect(price.fetchRounds).toBeCloseTo(65 + 100 + 100 * 0.02 + 350 + 65 + 120 + 200 * 0.02);
    // A million cells through setValues: about a minute, as published.
    expect(price.cellWrites).toBeCloseTo(60_000 + 1_000 * 0.06 + 10_000 * 0.006 + 2 * 110);
    expect(price.commits).toBe(1_000);
    expect(price.otherCalls).toBeCloseTo(1_000 * 0.01 + 100 * 0.05 + 10 * 1 + 3 + 62);
    expect(price.total).toBeCloseTo(price.fetchRounds + price.cellWrites + price.commits + price.otherCalls);
  });

  it('orders the presets: low ≤ central ≤ high for every quantity', () => {
    const [low, central, high] = (['low', 'central', 'high'] as const).map(
      (preset) => priceQuantities(quantities(), presetFigures(preset)).total,
    );
    expect(low).toBeLessThan(central!);
    expect(central).toBeLessThan(high!);
  });
});

describe('calibration files', () => {
  const calibration = (changes: Record<string, unknown> = {}) =>
    JSON.stringify({
      kind: 'safety-sync-calibration',
      version: 1,
      measuredAt: '2026-11-23T10:00:00.000Z',
      figures: {
        ...Object.fromEntries(Object.keys(presetFigures('central')).map((name) => [name, null])),
        setValuesPerCellMs: 0.05,
        commitMs: 420,
      },
      behaviours: { userTriggersListClockTrigger: true },
      ...changes,
    });

  it('replace the figures they measured and keep the others', () => {
    const central = presetFigures('central');
    const figuresOf = calibratedFigures(central, parseCalibration(calibration(), 'calibration.json'));
    expect(figuresOf).toEqual({ ...central, setValuesPerCellMs: 0.05, commitMs: 420 });
  });

  it('load from a file into any preset, and price what the emulator then charges', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'calibration-')), 'calibration.json');
    fs.writeFileSync(file, calibration());
    const high = calibratedFiguresFromFile(file, 'high');
    expect(high).toEqual({ ...presetFigures('high'), setValuesPerCellMs: 0.05, commitMs: 420 });
    expect(emulate(SCRIPT, { costFigures: calibratedFiguresFromFile(file) }).costs.figures.commitMs).toBe(
      420,
    );
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  it('say what is wrong with a document that is not one', () => {
    expect(() => parseCalibration('{"kind": "safety', 'calibration.json')).toThrow(
      'calibration.json is not JSON: copy the whole document',
    );
    expect(() => parseCalibration(calibration({ version: 2 }), 'calibration.json')).toThrow(
      /calibration\.json is not a calibration of this version \(version: .*\): run dev\/calibration again/,
    );
  });

  it('refuse a negative figure in the emulator', () => {
    expect(() => emulate(SCRIPT, { costFigures: figures({ commitMs: -1 }) })).toThrow(
      'Cost figure commitMs must be a number of milliseconds ≥ 0, not -1',
    );
  });
});
