/**
 * Named ranges and protected ranges, through the Spreadsheet service and through the Sheets
 * advanced service (Sheets.Spreadsheets.get and .batchUpdate) over one model: each sees what the
 * other made, names are valid and unique, a batch is checked whole and applied whole, ranges follow
 * their cells as rows and columns are inserted.
 */
import { emulate } from './fixtures/script-emulator';

const MANIFEST = JSON.stringify({
  timeZone: 'Etc/UTC',
  dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
});

const SCRIPT = `
  function ss() { return SpreadsheetApp.getActiveSpreadsheet(); }
  function sheet() { return ss().getSheets()[0]; }
  function name(text, a1) { ss().setNamedRange(text, sheet().getRange(a1)); return 'named'; }
  function names() { return ss().getNamedRanges().map(function (n) { var r = n.getRange(); return n.getName() + '=' + [r.getRow(), r.getColumn(), r.getNumRows(), r.getNumColumns()].join(','); }); }
  function rename(from, to) { ss().getNamedRanges().filter(function (n) { return n.getName() === from; })[0].setName(to); return 'renamed'; }
  function protect(a1, description) { sheet().getRange(a1).protect().setDescription(description).setWarningOnly(true); return 'protected'; }
  function moveProtection(a1) { sheet().getProtections(SpreadsheetApp.ProtectionType.RANGE)[0].setRange(sheet().getRange(a1)); return 'moved'; }
  function fromApi() {
    var got = Sheets.Spreadsheets.get(ss().getId(), { fields: 'namedRanges,sheets(properties,protectedRanges)' });
    return { namedRanges: got.namedRanges, protectedRanges: got.sheets[0].protectedRanges, sheetId: got.sheets[0].properties.sheetId };
  }
  function batch(requests) {
    var id = ss().getId();
    try { return Sheets.Spreadsheets.batchUpdate({ requests: requests }, id).replies; }
    catch (e) { return { error: e.message }; }
  }
  function bufferedThenGet() { var id = ss().getId(); sheet().getRange('A1').setValues([['x']]); return Sheets.Spreadsheets.get(id, { fields: 'namedRanges' }); }
`;

function open() {
  const emulator = emulate(SCRIPT, { files: { 'appsscript.json': MANIFEST } });
  const spreadsheetId = emulator.createSpreadsheet();
  const run = (fn: string, ...args: unknown[]) => emulator.run(fn, args, { kind: 'menu', spreadsheetId });
  const view = () => emulator.workbooks.get(spreadsheetId)!;
  return { run, view };
}

describe('named ranges', () => {
  test('are made, listed, renamed and follow their cells', () => {
    const { run, view } = open();
    run('name', 'Audits', 'B2:C5');
    view().sheet('Sheet1').insertRowsBefore(1, 2);
    view().sheet('Sheet1').insertColumnsBefore(2);
    expect(run('names')).toEqual(['Audits=4,3,4,2']);
    run('rename', 'Audits', 'Audits_2024');
    expect(view().namedRanges()).toEqual([{ name: 'Audits_2024', sheet: 'Sheet1', range: 'C4:D7' }]);
  });

  test.each(['1st', 'A1', 'R1C1', 'true', 'has space', 'dash-ed', ''])('refuse the name "%s"', (bad) => {
    const { run } = open();
    expect(() => run('name', bad, 'A1')).toThrow(/Invalid range name/);
  });

  test('refuse a name already taken, whatever its case', () => {
    const { run, view } = open();
    run('name', 'Audits', 'A1');
    expect(() => run('name', 'AUDITS', 'B1')).toThrow('A named range called "AUDITS" already exists.');
    expect(view().namedRanges()).toHaveLength(1);
  });
});

describe('the Sheets API over the same model', () => {
  test('get lists what the Spreadsheet service made; batchUpdate changes it for both', () => {
    const { run, view } = open();
    run('name', 'Audits', 'A1:B3');
    run('protect', 'C1:C9', 'mine');
    const before = run('fromApi') as {
      namedRanges: { namedRangeId: string; name: string; range: object }[];
      protectedRanges: {
        protectedRangeId: number;
        description: string;
        warningOnly: boolean;
        range: object;
      }[];
      sheetId: number;
    };
    expect(before.namedRanges).toEqual([
      {
        namedRangeId: expect.any(String),
        name: 'Audits',
        range: {
          sheetId: before.sheetId,
          startRowIndex: 0,
          endRowIndex: 3,
          startColumnIndex: 0,
          endColumnIndex: 2,
        },
      },
    ]);
    expect(before.protectedRanges).toEqual([
      expect.objectContaining({ description: 'mine', warningOnly: true }),
    ]);
    const grid = (rows: number, columns: number) => ({
      sheetId: before.sheetId,
      startRowIndex: 0,
      endRowIndex: rows,
      startColumnIndex: 0,
      endColumnIndex: columns,
    });
    const replies = run('batch', [
      {
        updateNamedRange: {
          namedRange: { namedRangeId: before.namedRanges[0]!.namedRangeId, range: grid(10, 2) },
          fields: 'range',
        },
      },
      { addNamedRange: { namedRange: { name: 'Second', range: grid(1, 1) } } },
      {
        updateProtectedRange: {
          protectedRange: {
            protectedRangeId: before.protectedRanges[0]!.protectedRangeId,
            range: grid(4, 4),
          },
          fields: 'range',
        },
      },
      { addProtectedRange: { protectedRange: { range: grid(2, 2), description: 'new', warningOnly: true } } },
    ]);
    expect(replies).toHaveLength(4);
    expect(run('names')).toEqual(['Audits=1,1,10,2', 'Second=1,1,1,1']);
    expect(
      view()
        .sheet('Sheet1')
        .protections()
        .map((p) => [p.range, p.description, p.warningOnly]),
    ).toEqual([
      ['A1:D4', 'mine', true],
      ['A1:B2', 'new', true],
    ]);
    run('moveProtection', 'E1:E2');
    expect(view().sheet('Sheet1').protections()[0]!.range).toBe('E1:E2');
  });

  test('a batch with one bad request changes nothing', () => {
    const { run, view } = open();
    run('name', 'Audits', 'A1');
    const { sheetId } = run('fromApi') as { sheetId: number };
    const cell = { sheetId, startRowIndex: 0, endRowIndex: 1, startColumnIndex: 0, endColumnIndex: 1 };
    for (const bad of [
      { addNamedRange: { namedRange: { name: 'audits', range: cell } } },
      { addNamedRange: { namedRange: { name: 'Far', range: { ...cell, endRowIndex: 5000 } } } },
      { addProtectedRange: { protectedRange: { range: { ...cell, sheetId: 999 } } } },
      { deleteProtectedRange: { protectedRangeId: 12345 } },
    ]) {
      const outcome = run('batch', [
        { addNamedRange: { namedRange: { name: 'Fine', range: cell } } },
        bad,
      ]) as {
        error: string;
      };
      expect(outcome.error).toMatch(
        /^API call to sheets\.spreadsheets\.batchUpdate failed with error: Invalid requests\[1\]/,
      );
    }
    expect(
      view()
        .namedRanges()
        .map((named) => named.name),
    ).toEqual(['Audits']);
    expect(view().sheet('Sheet1').protections()).toEqual([]);
  });

  test('is refused while SpreadsheetApp writes are buffered (Google would not show them yet)', () => {
    const { run } = open();
    expect(() => run('bufferedThenGet')).toThrow(/buffered \(flush first\)/);
  });
});
