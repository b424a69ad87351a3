/**
 * Tabs inserted and grown through the Sheets advanced service (Sheets.Spreadsheets.batchUpdate's
 * addSheet and appendDimension): the API answers the new tab's id, the Spreadsheet service then
 * shows the tab at its size, a batch is checked whole (a taken title, the workbook's 10 million
 * cells) and refused while SpreadsheetApp writes are buffered.
 */
import { emulate } from './fixtures/script-emulator';

const MANIFEST = JSON.stringify({
  timeZone: 'Etc/UTC',
  dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
});

const SCRIPT = `
  function ss() { return SpreadsheetApp.getActiveSpreadsheet(); }
  function batch(requests) {
    try { return Sheets.Spreadsheets.batchUpdate({ requests: requests }, ss().getId()).replies; }
    catch (e) { return { error: e.message }; }
  }
  function tabs() {
    return ss().getSheets().map(function (s) { return [s.getName(), s.getSheetId(), s.getMaxRows(), s.getMaxColumns()]; });
  }
  function addThenShow(title, rows) {
    var replies = batch([{ addSheet: { properties: { title: title, gridProperties: { rowCount: rows, columnCount: 10 } } } }]);
    var sheet = ss().getSheetByName(title);
    return { replies: replies, shown: [sheet.getSheetId(), sheet.getMaxRows(), sheet.getMaxColumns()] };
  }
  function bufferedThenAdd() {
    var id = ss().getId();
    ss().getSheets()[0].getRange('A1').setValues([['x']]);
    try { return Sheets.Spreadsheets.batchUpdate({ requests: [{ addSheet: { properties: { title: 'Later' } } }] }, id); }
    catch (e) { return { error: e.message }; }
  }
`;

/** Under the reading in which the Spreadsheet service shows an API-added tab at once (readings.ts). */
function open() {
  const emulator = emulate(SCRIPT, {
    files: { 'appsscript.json': MANIFEST },
    readings: { spreadsheetServiceSeesApiTab: true },
  });
  const spreadsheetId = emulator.createSpreadsheet();
  const run = (fn: string, ...args: unknown[]) => emulator.run(fn, args, { kind: 'menu', spreadsheetId });
  return { run };
}

test('addSheet answers the new tab’s id, and the Spreadsheet service shows it at its size at once', () => {
  const { run } = open();
  const { replies, shown } = run('addThenShow', 'Imported', 5_000) as {
    replies: { addSheet: { properties: { sheetId: number; title: string } } }[];
    shown: number[];
  };
  const added = replies[0]!.addSheet.properties;
  expect(added.title).toBe('Imported');
  expect(shown).toEqual([added.sheetId, 5_000, 10]);
  // Without a size, a tab is as large as a new one in Sheets.
  const [reply] = run('batch', [{ addSheet: { properties: { title: 'Plain' } } }]) as {
    addSheet: { properties: { sheetId: number } };
  }[];
  expect((run('tabs') as unknown[][]).find((tab) => tab[0] === 'Plain')).toEqual([
    'Plain',
    reply!.addSheet.properties.sheetId,
    1000,
    26,
  ]);
});

test('appendDimension adds rows and columns at the end of a tab', () => {
  const { run } = open();
  const [, firstId] = (run('tabs') as unknown[][])[0]!;
  run('batch', [
    { appendDimension: { sheetId: firstId, dimension: 'ROWS', length: 250 } },
    { appendDimension: { sheetId: firstId, dimension: 'COLUMNS', length: 4 } },
  ]);
  expect((run('tabs') as unknown[][])[0]!.slice(2)).toEqual([1250, 30]);
});

test('a batch with a taken title, or over 10 million cells, changes nothing', () => {
  const { run } = open();
  const before = run('tabs');
  const taken = run('batch', [
    { addSheet: { properties: { title: 'New' } } },
    { addSheet: { properties: { title: 'NEW' } } },
  ]) as { error: string };
  expect(taken.error).toMatch(/Invalid requests\[1\]: A sheet with the name "NEW" already exists/);
  const large = run('batch', [
    { addSheet: { properties: { title: 'Large', gridProperties: { rowCount: 400_000, columnCount: 26 } } } },
  ]) as { error: string };
  expect(large.error).toMatch(/above the limit of 10000000 cells/);
  expect(run('tabs')).toEqual(before);
});

test('is refused while SpreadsheetApp writes are buffered', () => {
  const { run } = open();
  expect(run('bufferedThenAdd')).toEqual({ error: expect.stringMatching(/buffered \(flush first\)/) });
});
