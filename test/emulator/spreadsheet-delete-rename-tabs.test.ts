/**
 * Tabs deleted and renamed from a script (Spreadsheet.deleteSheet, deleteActiveSheet, Sheet.setName)
 * and by their user, through the same implementation: what goes with a deleted tab, what becomes
 * #REF!, and Google's refusals (the last sheet, the last visible sheet, a name taken in any case, an
 * empty name).
 */
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function ss() { return SpreadsheetApp.getActiveSpreadsheet(); }
  function tab(name) { return ss().getSheetByName(name); }
  function add(name) { ss().insertSheet(name); return 'added'; }
  function remove(name) { ss().deleteSheet(tab(name)); return ss().getSheets().map(function (s) { return s.getName(); }); }
  function removeActive() { return ss().deleteActiveSheet().getName(); }
  function activate(name) { tab(name).activate(); }
  function hide(name) { tab(name).hideSheet(); }
  function rename(from, to) { return tab(from).setName(to).getName(); }
  function write(name, a1, values) { tab(name).getRange(a1).setValues(values); }
  function dressUp(name) {
    var sheet = tab(name);
    ss().setNamedRange('Kept', sheet.getRange('A1:B2'));
    sheet.getRange('A1:C5').createFilter();
    sheet.protect().setDescription('Mine');
    sheet.setConditionalFormatRules([SpreadsheetApp.newConditionalFormatRule()
      .whenTextEqualTo('x').setBackground('#ff0000').setRanges([sheet.getRange('A1:A5')]).build()]);
    sheet.insertChart(sheet.newChart().addRange(sheet.getRange('A1:B3'))
      .setChartType(Charts.ChartType.COLUMN).setPosition(2, 4, 0, 0).build());
  }
  function chartElsewhere(home, name) {
    tab(home).insertChart(tab(home).newChart().addRange(tab(home).getRange('A1:B3'))
      .addRange(tab(name).getRange('C1:D4')).setChartType(Charts.ChartType.COLUMN).setPosition(2, 4, 0, 0).build());
  }
  function namedRanges() { return ss().getNamedRanges().map(function (n) { return n.getName(); }); }
  function useAfterDelete(name) {
    var sheet = tab(name);
    var range = sheet.getRange('A1');
    ss().deleteSheet(sheet);
    var failures = [];
    [function () { sheet.getName(); }, function () { sheet.getRange('A1'); }, function () { range.getValues(); },
     function () { ss().deleteSheet(sheet); }].forEach(function (use) {
      try { use(); failures.push('no error'); } catch (e) { failures.push(e.message); }
    });
    return failures;
  }
  function notASheet() { ss().deleteSheet('Data'); }
`;

function open(sheetNames = ['Sheet1', 'Data']) {
  const emulator = emulate(SCRIPT);
  const spreadsheetId = emulator.createSpreadsheet();
  const run = (fn: string, ...args: unknown[]) => emulator.run(fn, args, { kind: 'menu', spreadsheetId });
  const view = () => emulator.workbooks.get(spreadsheetId)!;
  const [first, ...others] = sheetNames;
  view().sheet('Sheet1').rename(first!);
  for (const name of others) view().addSheet(name, { rows: 1000, columns: 26 });
  return { run, view };
}

describe('Spreadsheet.deleteSheet', () => {
  test('removes the tab with its named ranges, filter, protections, conditional formats and charts', () => {
    const { run, view } = open(['Sheet1', 'Data', 'Other']);
    run('dressUp', 'Data');
    run('chartElsewhere', 'Other', 'Data');
    const data = view().sheet('Data');
    expect(run('namedRanges')).toEqual(['Kept']);
    expect([
      data.filter,
      data.protections().length,
      data.conditionalRules().length,
      data.charts().length,
    ]).toEqual(['A1:C5', 1, 1, 1]);

    expect(run('remove', 'Data')).toEqual(['Sheet1', 'Other']);

    expect(view().sheetNames).toEqual(['Sheet1', 'Other']);
    expect(view().namedRanges()).toEqual([]);
    expect(run('namedRanges')).toEqual([]);
    // A chart elsewhere keeps its own tab's cells and stops reading the deleted tab's.
    expect(view().sheet('Other').charts()[0]!.ranges).toEqual(['Other!A1:B3']);
    // The name is free again: a new tab of that name is a new, empty tab.
    run('add', 'Data');
    const again = view().sheet('Data');
    expect(again.gid).not.toBe(data.gid);
    expect([again.filter, again.protections(), again.conditionalRules(), again.charts()]).toEqual([
      null,
      [],
      [],
      [],
    ]);
  });

  test('turns every formula reference to the tab into #REF!, and leaves #gid links as links', () => {
    const { run, view } = open(['Sheet1', 'Data', "Bob's tab"]);
    const link = `#gid=${view().sheet('Data').gid}&range=A2`;
    view().typeValues('Sheet1!A1:C1', [
      ['=Data!A1', "=SUM(data!A1:B2, 'Bob''s tab'!A1) + 1", `=HYPERLINK("${link}", "Go")`],
    ]);
    run('remove', 'Data');
    const cells = view().sheet('Sheet1').cells('A1:C1')[0]!;
    expect(cells.map((cell) => cell.formula)).toEqual([
      '=#REF!',
      "=SUM(#REF!, 'Bob''s tab'!A1) + 1",
      `=HYPERLINK("${link}", "Go")`,
    ]);
    expect(cells.map((cell) => cell.error?.code ?? null)).toEqual(['#REF!', '#REF!', null]);
    expect([cells[2]!.link, cells[2]!.display]).toEqual([link, 'Go']);
  });

  test('refuses the only sheet and the last visible one, in Google\u2019s words', () => {
    expect(() => open(['Only']).run('remove', 'Only')).toThrow(
      "You can't remove all the sheets in a document.",
    );
    const { run, view } = open(['Shown', 'Hidden']);
    run('hide', 'Hidden');
    expect(() => run('remove', 'Shown')).toThrow("You can't remove all the visible sheets in a document.");
    expect(run('remove', 'Hidden')).toEqual(['Shown']);
    expect(view().sheetNames).toEqual(['Shown']);
  });

  test('makes the deleted tab\u2019s Sheet and Range objects throw, and takes only a Sheet', () => {
    const { run } = open();
    expect(run('useAfterDelete', 'Data')).toEqual([
      'The sheet "Data" was deleted.',
      'The sheet "Data" was deleted.',
      'The sheet "Data" was deleted.',
      'The sheet "Data" was deleted already.',
    ]);
    expect(() => run('notASheet')).toThrow(/Spreadsheet\.deleteSheet/);
  });

  test('deleteActiveSheet deletes the active tab and returns the one active after it', () => {
    const { run, view } = open(['First', 'Second', 'Third']);
    run('activate', 'Third');
    expect(run('removeActive')).toBe('First');
    expect(view().sheetNames).toEqual(['First', 'Second']);
    expect(view().activeSheetName).toBe('First');
  });
});

describe('a user deleting a tab', () => {
  test('is the same change as the script\u2019s, with the same refusals', () => {
    const { view } = open(['Sheet1', 'Data']);
    view().typeValues('Sheet1!A1', [['=Data!B2']]);
    view().deleteSheet('Data');
    expect(view().sheet('Sheet1').cells('A1')[0]![0]).toMatchObject({
      formula: '=#REF!',
      error: { code: '#REF!' },
    });
    expect(() => view().deleteSheet('Sheet1')).toThrow("You can't remove all the sheets in a document.");
  });
});

describe('Sheet.setName', () => {
  test('renames the tab and the formulas that name it', () => {
    const { run, view } = open();
    view().typeValues('Sheet1!A1', [['=Data!A1']]);
    expect(run('rename', 'Data', 'Figures')).toBe('Figures');
    expect(view().sheetNames).toEqual(['Sheet1', 'Figures']);
    expect(view().sheet('Sheet1').formulas('A1')).toEqual([['=Figures!A1']]);
    // Its own name in another case is no other tab's.
    expect(run('rename', 'Figures', 'FIGURES')).toBe('FIGURES');
  });

  test.each([
    ['data', 'A sheet with the name "data" already exists. Please enter another name.'],
    ['SHEET1', 'A sheet with the name "SHEET1" already exists. Please enter another name.'],
    ['', 'Sheet names cannot be empty.'],
    ['   ', 'Sheet names cannot be empty.'],
  ])('refuses "%s"', (name, message) => {
    const { run, view } = open(['Sheet1', 'Data', 'Other']);
    expect(() => run('rename', 'Other', name)).toThrow(message);
    expect(view().sheetNames).toEqual(['Sheet1', 'Data', 'Other']);
  });
});
