/**
 * The Sheets advanced service (Sheets.Spreadsheets.Values.batchUpdate, RAW): present only where the
 * manifest enables it, as strict as the Sheets API (ranges within the grid, 2 MB requests, quotas),
 * writing past SpreadsheetApp's buffer, and priced with the cost model's Sheets API figures.
 */
import { presetFigures } from '../../dev/emulator/runtime/cost-model';
import {
  SHEETS_API_MAX_REQUEST_BYTES,
  WRITE_REQUESTS_PER_MINUTE_PER_PROJECT,
  WRITE_REQUESTS_PER_MINUTE_PER_USER,
} from '../../dev/emulator/spreadsheet';
import type { EmulatorOptions } from '../../dev/emulator';
import { emulate } from './fixtures/script-emulator';

const MANIFEST = JSON.stringify({
  timeZone: 'Etc/UTC',
  dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
});

const SCRIPT = `
  function id() { return SpreadsheetApp.getActiveSpreadsheet().getId(); }
  function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
  function hasSheets() { return typeof Sheets !== 'undefined'; }
  // The id is read before any write: reading it commits them (a read of the spreadsheet).
  function raw(data, spreadsheetId) {
    return Sheets.Spreadsheets.Values.batchUpdate({ valueInputOption: 'RAW', data: data }, spreadsheetId || id())
      .totalUpdatedCells;
  }
  /** The error a request gets, as the script sees it. */
  function refusal(data, spreadsheetId) {
    try { raw(data, spreadsheetId); return null; } catch (e) { return { name: e.name, message: e.message, code: e.details && e.details.code }; }
  }
  function requests(count) {
    var refused = null;
    for (var i = 0; i < count && refused === null; i++) refused = refusal([{ range: 'A1', values: [[i]] }]);
    return refused;
  }
  function formatsThenRaw(data) { sheet().getRange('A1:A3').setNumberFormat('@'); SpreadsheetApp.flush(); return raw(data); }
  function bufferedThenRaw(flush) {
    var spreadsheetId = id();
    sheet().getRange('A1').setValues([['typed']]);
    if (flush) SpreadsheetApp.flush();
    raw([{ range: 'A1', values: [['raw']] }], spreadsheetId);
    return sheet().getRange('A1').getValues()[0][0];
  }
  function insertThenRaw(flush) {
    var spreadsheetId = id();
    sheet().insertRowsAfter(1000, 10);
    if (flush) SpreadsheetApp.flush();
    return refusal([{ range: 'A1005', values: [['new row']] }], spreadsheetId);
  }
  function rawInCustomFunction() { return raw([{ range: 'A1', values: [['x']] }]); }
`;

function openSheet(options: Partial<EmulatorOptions> = {}) {
  const emulator = emulate(SCRIPT, { files: { 'appsscript.json': MANIFEST }, ...options });
  const spreadsheetId = emulator.createSpreadsheet();
  const run = (name: string, ...args: unknown[]) => emulator.run(name, args, { kind: 'menu', spreadsheetId });
  const sheet = () => emulator.workbooks.get(spreadsheetId)!.sheet('Sheet1');
  return { emulator, run, sheet };
}

const API_ERROR = 'API call to sheets.spreadsheets.values.batchUpdate failed with error: ';

describe('where it exists', () => {
  it('is a global only when appsscript.json enables the advanced service', () => {
    expect(openSheet().run('hasSheets')).toBe(true);
    const without = emulate(SCRIPT, {
      files: { 'appsscript.json': JSON.stringify({ timeZone: 'Etc/UTC' }) },
    });
    const spreadsheetId = without.createSpreadsheet();
    expect(without.run('hasSheets', [], { kind: 'menu', spreadsheetId })).toBe(false);
  });

  it('refuses an advanced service it does not emulate rather than leave it out', () => {
    const drive = JSON.stringify({
      dependencies: { enabledAdvancedServices: [{ userSymbol: 'Drive', serviceId: 'drive', version: 'v3' }] },
    });
    expect(() => emulate(SCRIPT, { files: { 'appsscript.json': drive } })).toThrow(/not emulated.*drive/);
  });

  it('fails as on Google when the Sheets API is not enabled in the Cloud project', () => {
    const { run, sheet } = openSheet({ sheetsApiInCloudProject: 'disabled' });
    expect(run('refusal', [{ range: 'A1', values: [['x']] }])).toEqual({
      name: 'GoogleJsonResponseException',
      code: 403,
      message: expect.stringMatching(
        new RegExp(
          `^${API_ERROR}Google Sheets API has not been used in project \\d+ before or it is disabled`,
        ),
      ),
    });
    expect(sheet().values()).toEqual([]);
  });

  it('cannot be used from a custom function, which may not write', () => {
    const { emulator } = openSheet();
    const spreadsheetId = emulator.createSpreadsheet();
    expect(() => emulator.run('rawInCustomFunction', [], { kind: 'custom-function', spreadsheetId })).toThrow(
      /permission/,
    );
  });
});

describe('RAW values', () => {
  it('stores strings as strings, numbers as numbers; "" clears and null leaves a cell as it was', () => {
    const { run, sheet } = openSheet();
    run('raw', [{ range: 'A1:C2', values: [['keep', 'clear me', 1]] }]);
    expect(
      run('raw', [
        { range: "'Sheet1'!A1:C2", values: [[null, '', 2]] },
        { range: 'A3:F3', values: [['=1+1', "'quoted", '00042', ' spaced ', 'TRUE', '1/2/2024']] },
      ]),
    ).toBe(9);
    expect(
      sheet()
        .values()
        .slice(0, 3)
        .map((row) => row.slice(0, 6)),
    ).toEqual([
      ['keep', '', 2, '', '', ''],
      ['', '', '', '', '', ''],
      ['=1+1', "'quoted", '00042', ' spaced ', 'TRUE', '1/2/2024'],
    ]);
    expect(
      sheet()
        .formulas()[2]!
        .every((formula) => formula === ''),
    ).toBe(true);
  });

  it('leaves number formats alone: a number written into a plain-text cell stays a number', () => {
    const { run, sheet } = openSheet();
    run('formatsThenRaw', [{ range: 'A1:A2', values: [[7], ['x']] }]);
    expect(sheet().values()[0]![0]).toBe(7);
    expect(sheet().numberFormats()[0]![0]).toBe('@');
  });

  it('refuses values the API cannot hold, and writes nothing of the request', () => {
    const { run, sheet } = openSheet();
    const refused = run('refusal', [
      { range: 'A1', values: [['first']] },
      { range: 'B1', values: [[{ a: 1 }]] },
    ]) as { message: string; code: number };
    expect(refused.code).toBe(400);
    expect(refused.message).toMatch(/^API call .* failed with error: Invalid data\[1\]\.values\[0\]\[0\]/);
    expect(sheet().values()).toEqual([]);
  });
});

describe('as strict as the API', () => {
  it('refuses a range beyond the grid, naming its limits, and writes nothing of the request', () => {
    const { run, sheet } = openSheet();
    expect(
      run('refusal', [
        { range: 'A1', values: [['first']] },
        { range: 'A1000:A1001', values: [['x'], ['y']] },
      ]),
    ).toEqual({
      name: 'GoogleJsonResponseException',
      code: 400,
      message: `${API_ERROR}Range (A1000:A1001) exceeds grid limits. Max rows: 1000, max columns: 26`,
    });
    expect(sheet().values()).toEqual([]);
  });

  it('takes a single cell as where the values start, and refuses values that do not fit a larger range', () => {
    const { run, sheet } = openSheet();
    expect(
      run('raw', [
        {
          range: 'B2',
          values: [
            ['a', 'b'],
            ['c', 'd'],
          ],
        },
      ]),
    ).toBe(4);
    expect(sheet().values(`B2:C3`)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(run('refusal', [{ range: 'Z1000', values: [['a', 'b']] }])).toMatchObject({
      message: `${API_ERROR}Range (Z1000) exceeds grid limits. Max rows: 1000, max columns: 26`,
    });
    expect(run('refusal', [{ range: 'A1:B1', values: [['a', 'b', 'c']] }])).toMatchObject({
      message: `${API_ERROR}Requested writing within range [A1:B1], but tried writing to column [C]`,
    });
  });

  it('refuses a sheet that does not exist', () => {
    const { run } = openSheet();
    expect(run('refusal', [{ range: "'Nowhere'!A1", values: [['a']] }])).toMatchObject({
      message: `${API_ERROR}Unable to parse range: 'Nowhere'!A1`,
    });
  });

  it('refuses a request over 2 MB', () => {
    const { run, sheet } = openSheet();
    const cell = 'x'.repeat(40_000);
    const rows = Math.ceil(SHEETS_API_MAX_REQUEST_BYTES / cell.length);
    const values = Array.from({ length: rows }, () => [cell]);
    expect(run('refusal', [{ range: `A1:A${rows}`, values }])).toMatchObject({
      code: 400,
      message: `${API_ERROR}Request payload size exceeds the limit: ${SHEETS_API_MAX_REQUEST_BYTES} bytes.`,
    });
    expect(run('raw', [{ range: `A1:A${rows - 3}`, values: values.slice(0, rows - 3) }])).toBe(rows - 3);
    expect(sheet().values()[0]![0]).toBe(cell);
  });

  it('answers 429 past 60 write requests a minute per user, and takes them again a minute later', () => {
    const { emulator, run } = openSheet();
    expect(run('requests', WRITE_REQUESTS_PER_MINUTE_PER_USER)).toBeNull();
    expect(run('requests', 1)).toEqual({
      name: 'GoogleJsonResponseException',
      code: 429,
      message: `${API_ERROR}Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456789012'.`,
    });
    emulator.clock.advance(60_000);
    expect(run('requests', 1)).toBeNull();
  });

  it('answers 429 past 300 write requests a minute for the whole project, whoever makes them', () => {
    const { emulator, run } = openSheet();
    const others = WRITE_REQUESTS_PER_MINUTE_PER_PROJECT / WRITE_REQUESTS_PER_MINUTE_PER_USER;
    for (let user = 0; user < others; user++)
      emulator.sheetsApiQuotas.spend(`user${user}@example.com`, WRITE_REQUESTS_PER_MINUTE_PER_USER);
    expect(run('requests', 1)).toMatchObject({
      code: 429,
      message: expect.stringContaining("limit 'Write requests per minute' of service"),
    });
  });
});

describe('past the write buffer', () => {
  it('is overwritten by a SpreadsheetApp write still buffered, unless the script flushes first', () => {
    const { run } = openSheet();
    expect(run('bufferedThenRaw', false)).toBe('typed');
    expect(run('bufferedThenRaw', true)).toBe('raw');
  });

  it('sees only committed rows: rows inserted and not flushed are beyond its grid', () => {
    const { run, sheet } = openSheet();
    expect(run('insertThenRaw', false)).toMatchObject({
      message: `${API_ERROR}Range (A1005) exceeds grid limits. Max rows: 1000, max columns: 26`,
    });
    expect(run('insertThenRaw', true)).toBeNull();
    expect(sheet().values()[1004]![0]).toBe('new row');
  });
});

describe('priced', () => {
  it('per request and per cell at the Sheets API figures, counted apart from setValues cells', () => {
    const { emulator, run } = openSheet();
    emulator.costs.reset();
    const before = emulator.clock.now();
    const values = Array.from({ length: 100 }, (_, row) =>
      Array.from({ length: 10 }, (_, column) => row * column),
    );
    run('raw', [{ range: 'A1:J100', values }]);
    expect(emulator.costs.quantities()).toMatchObject({
      sheetsApiRequests: 1,
      sheetsApiCells: 1_000,
      cellsWritten: 0,
    });
    const central = presetFigures('central');
    expect(emulator.clock.now() - before).toBeGreaterThanOrEqual(
      Math.floor(central.sheetsApiRequestMs + 1_000 * central.sheetsApiPerCellMs),
    );
  });
});
