/**
 * Named ranges through the Spreadsheet service: names are valid and unique, ranges follow their
 * cells as rows and columns are inserted.
 */
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function ss() { return SpreadsheetApp.getActiveSpreadsheet(); }
  function sheet() { return ss().getSheets()[0]; }
  function name(text, a1) { ss().setNamedRange(text, sheet().getRange(a1)); return 'named'; }
  function names() { return ss().getNamedRanges().map(function (n) { var r = n.getRange(); return n.getName() + '=' + [r.getRow(), r.getColumn(), r.getNumRows(), r.getNumColumns()].join(','); }); }
  function rename(from, to) { ss().getNamedRanges().filter(function (n) { return n.getName() === from; })[0].setName(to); return 'renamed'; }
`;

function open() {
  const emulator = emulate(SCRIPT);
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
