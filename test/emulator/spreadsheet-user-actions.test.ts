/**
 * A user rearranging a workbook as in the Sheets UI (the test-side view's actions) and the script's
 * equivalents: inserting, deleting and moving rows and columns, renaming tabs, sorting and filtering
 * through the filter, notes and data validation. What follows the cells: every formula's references
 * on every tab, the filter, conditional formats, protections, formats, notes and validation.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup(sheetNames = ['Data', 'Summary tab']) {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ name: 'Actions', sheetNames });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  const view = service.workbooks.get(id)!;
  return { ...service, id, spreadsheet, view, data: view.sheet('Data') };
}

/** The formula typed in Data!Z50 after `change`, as a user would read it in the formula bar. */
function formulaAfter(formula: string, change: (view: ReturnType<typeof setup>['view']) => void): string {
  const { view } = setup();
  view.typeValues('Data!Z50', [[formula]]);
  change(view);
  const cell = view
    .sheet('Data')
    .cells()
    .flat()
    .find((candidate) => candidate.formula !== '');
  return cell!.formula;
}

describe('references follow inserted rows and columns', () => {
  it.each([
    [
      'rows inserted before row 2 move an open range',
      '=ARRAYFORMULA(D2:D)',
      2,
      'before',
      '=ARRAYFORMULA(D7:D)',
    ],
    [
      'rows inserted after row 2 keep an open range',
      '=ARRAYFORMULA(D2:D)',
      2,
      'after',
      '=ARRAYFORMULA(D2:D)',
    ],
    ['rows inserted strictly inside grow a range', '=SUM(D2:D10)', 2, 'after', '=SUM(D2:D15)'],
    ['rows inserted at a range’s first row move it', '=SUM(D2:D10)', 2, 'before', '=SUM(D7:D15)'],
    ['rows inserted below a range leave it', '=SUM(D2:D10)', 10, 'after', '=SUM(D2:D10)'],
    ['absolute references move too', '=$D$2+D$3+$D4', 2, 'before', '=$D$7+D$8+$D9'],
    ['whole-row references move', '=SUM(2:3)', 1, 'after', '=SUM(7:8)'],
    ['whole-column references stay', '=SUM(D:E)', 1, 'before', '=SUM(D:E)'],
    ['text and names are left alone', '=IF(B5>0,"B5",D2B)', 1, 'before', '=IF(B10>0,"B5",D2B)'],
  ] as const)('%s', (_, formula, row, side, expected) => {
    expect(
      formulaAfter(formula, (view) =>
        side === 'before'
          ? view.sheet('Data').insertRowsBefore(row, 5)
          : view.sheet('Data').insertRowsAfter(row, 5),
      ),
    ).toBe(expected);
  });

  it.each([
    ['columns inserted before a column move references', '=SUM(B2:C3)+$B$1', 'before', 2, '=SUM(D2:E3)+$D$1'],
    ['columns inserted inside a range grow it', '=SUM(B2:D2)', 'after', 2, '=SUM(B2:F2)'],
    ['whole-column references move', '=SUM(C:C)', 'before', 1, '=SUM(E:E)'],
    ['whole-row references stay', '=SUM(2:2)', 'before', 1, '=SUM(2:2)'],
  ] as const)('%s', (_, formula, side, column, expected) => {
    expect(
      formulaAfter(formula, (view) =>
        side === 'before'
          ? view.sheet('Data').insertColumnsBefore(column, 2)
          : view.sheet('Data').insertColumnsAfter(column, 2),
      ),
    ).toBe(expected);
  });

  it('rewrites references to the changed tab from every other tab, and only those', () => {
    const { view, spreadsheet } = setup(['Data', 'Summary tab', 'Other']);
    view.typeValues("'Summary tab'!A1:C1", [
      ["=Data!D2+'Summary tab'!D2+D2", "=SUM('data'!D2:D)", '=Other!D2'],
    ]);
    spreadsheet.getSheetByName('Data')!.insertRowsBefore(1, 3);
    expect(view.sheet('Summary tab').formulas('A1:C1')).toEqual([
      ["=Data!D5+'Summary tab'!D2+D2", "=SUM('data'!D5:D)", '=Other!D2'],
    ]);
  });

  it('moves the formula cells themselves with their rows', () => {
    const { view, data } = setup();
    view.typeValues('Data!A3:B3', [['=B3*2', '7']]);
    data.insertRowsBefore(2, 1);
    expect(data.formulas('A4:B4')).toEqual([['=B4*2', '']]);
    expect(data.values('A3:B4')).toEqual([
      ['', ''],
      ['#NAME?', 7],
    ]);
  });
});

describe('formulas keep evaluating after their references move', () => {
  it('computes custom functions and links from the cells their references now name', () => {
    const service = createTestSpreadsheetService({
      evaluateCustomFunction: (name, args) => (name === 'TWICE' ? (args[0] as number) * 2 : undefined),
    });
    const id = service.workbooks.create({ sheetNames: ['Data'] });
    const view = service.workbooks.get(id)!;
    const data = view.sheet('Data');
    view.typeValues('Data!A1:C1', [['21', '=TWICE(A1)', '=HYPERLINK(A1,"go")']]);
    data.insertRowsBefore(1, 2);
    data.insertColumnsBefore(1, 1);
    view.typeValues('Data!B3', [['50']]);
    view.recalculate();
    expect(data.formulas('C3:D3')).toEqual([['=TWICE(B3)', '=HYPERLINK(B3,"go")']]);
    expect(data.values('C3:D3')).toEqual([[100, 'go']]);
  });
});

describe('references follow deleted rows and columns', () => {
  it.each([
    ['a range shrinks when rows inside it go', '=SUM(D2:D10)', 5, 2, '=SUM(D2:D8)'],
    ['a range loses the deleted part of its start', '=SUM(D2:D10)', 1, 3, '=SUM(D1:D7)'],
    ['an open range keeps its open end', '=ARRAYFORMULA(D3:D)', 1, 1, '=ARRAYFORMULA(D2:D)'],
    ['rows below a reference change nothing', '=D2', 5, 3, '=D2'],
  ] as const)('%s', (_, formula, row, count, expected) => {
    expect(formulaAfter(formula, (view) => view.sheet('Data').deleteRows(row, count))).toBe(expected);
  });

  it('shows #REF! where every cell of a reference was deleted', () => {
    const { view, data } = setup();
    view.typeValues('Data!A1:B1', [['=HYPERLINK(C5,"x")', '=SUM(C5:C6)+D1']]);
    data.deleteRows(5, 2);
    expect(data.formulas('A1:B1')).toEqual([['=HYPERLINK(#REF!,"x")', '=SUM(#REF!)+D1']]);
    expect(data.values('A1:B1')).toEqual([['#REF!', '#REF!']]);
  });

  it('deletes columns the same way', () => {
    expect(formulaAfter('=SUM(B1:E1)+F1', (view) => view.sheet('Data').deleteColumns(3, 2))).toBe(
      '=SUM(B1:C1)+D1',
    );
    expect(formulaAfter('=C1', (view) => view.sheet('Data').deleteColumns(3, 1))).toBe('=#REF!');
  });
});

describe('moving rows and columns', () => {
  it('moves a column left and right as Sheet.moveColumns does, cells and references together', () => {
    const { view, data, spreadsheet } = setup();
    view.typeValues('Data!A1:D1', [['a', 'b', 'c', '=C1']]);
    spreadsheet.getSheetByName('Data')!.moveColumns(spreadsheet.getSheetByName('Data')!.getRange('C:C'), 1);
    expect(data.values('A1:C1')).toEqual([['c', 'a', 'b']]);
    expect(data.formulas('D1')).toEqual([['=A1']]);
    data.moveColumns(1, 1, 4);
    expect(data.values('A1:C1')).toEqual([['a', 'b', 'c']]);
    expect(data.formulas('D1')).toEqual([['=C1']]);
  });

  it('numbers the destination before the move, as the Sheets API documents it', () => {
    const { view, data } = setup();
    view.typeValues('Data!A1:A5', [['0'], ['1'], ['2'], ['3'], ['4']]);
    data.moveRows(2, 2, 5);
    expect(data.values('A1:A5').flat()).toEqual([0, 3, 1, 2, 4]);
    data.moveRows(3, 2, 1);
    expect(data.values('A1:A5').flat()).toEqual([1, 2, 0, 3, 4]);
  });

  it('moves rows with their formats and notes, and references to them', () => {
    const { view, data } = setup();
    view.typeValues('Data!A1:A4', [['one'], ['two'], ['three'], ['=A2']]);
    data.setNote('A2', 'note on two');
    data.setNumberFormat('A2', '@');
    data.moveRows(2, 1, 4);
    expect(data.values('A1:A3')).toEqual([['one'], ['three'], ['two']]);
    expect(data.notes('A3')).toEqual([['note on two']]);
    expect(data.numberFormats('A3')).toEqual([['@']]);
    expect(data.formulas('A4')).toEqual([['=A3']]);
  });

  it('takes each end of a range where its row goes', () => {
    expect(formulaAfter('=SUM(B2:B5)', (view) => view.sheet('Data').moveRows(5, 1, 2))).toBe('=SUM(B2:B3)');
    expect(formulaAfter('=SUM(B2:B5)', (view) => view.sheet('Data').moveRows(3, 1, 10))).toBe('=SUM(B2:B4)');
  });

  it('refuses a destination inside the moved lines, and out of bounds', () => {
    const { data, spreadsheet } = setup();
    expect(() => data.moveRows(2, 3, 3)).toThrow('inside the rows being moved');
    const sheet = spreadsheet.getSheetByName('Data')!;
    expect(() => sheet.moveColumns(sheet.getRange('A:B'), 28)).toThrow('Those columns are out of bounds.');
  });
});

describe('what is stored on a sheet follows its cells', () => {
  it('moves the filter, its criteria, conditional formats and protections', () => {
    const { spreadsheet, SpreadsheetApp, data } = setup();
    const sheet = spreadsheet.getSheetByName('Data')!;
    const filter = sheet.getRange('B1:D10').createFilter();
    filter.setColumnFilterCriteria(3, SpreadsheetApp.newFilterCriteria().setHiddenValues(['x']).build());
    const rule = SpreadsheetApp.newConditionalFormatRule()
      .whenFormulaSatisfied('=$C2>0')
      .setBold(true)
      .setRanges([sheet.getRange('C2:C10')])
      .build();
    sheet.setConditionalFormatRules([rule]);
    sheet.getRange('C2:C3').protect();
    data.insertColumnsBefore(1, 1);
    data.insertRowsBefore(1, 1);
    expect(data.filter).toBe('C2:E11');
    expect(data.filterCriteria(4)).toEqual({ hiddenValues: ['x'], condition: null });
    expect(data.filterCriteria(3)).toBeNull();
    expect(data.conditionalRules()).toMatchObject([{ ranges: ['D3:D11'], values: ['=$D3>0'] }]);
    expect(data.protections()).toMatchObject([{ range: 'D3:D4' }]);
  });
});

describe('renaming a tab', () => {
  it('renames it in every formula that names it, whatever the case', () => {
    const { view, data, spreadsheet } = setup(['Data', 'Summary tab']);
    view.typeValues('Data!A1:B1', [["='Summary tab'!B2", "=SUM('summary TAB'!B:B)+\"'Summary tab'!B2\""]]);
    view.sheet('Summary tab').rename('Totals');
    expect(data.formulas('A1:B1')).toEqual([['=Totals!B2', '=SUM(Totals!B:B)+"\'Summary tab\'!B2"']]);
    spreadsheet.getSheetByName('Totals')!.setName("Bob's totals");
    expect(data.formulas('A1')).toEqual([["='Bob''s totals'!B2"]]);
    expect(view.sheetNames).toEqual(['Data', "Bob's totals"]);
  });

  it('refuses a name another tab has, as Sheet.setName does', () => {
    const { data } = setup();
    expect(() => data.rename('summary TAB')).toThrow('A sheet with the name "summary TAB" already exists.');
  });
});

describe('sorting through the filter', () => {
  function sortable() {
    const fixture = setup();
    const { view, spreadsheet } = fixture;
    view.typeValues('Data!A1:D5', [
      ['Name', 'Score', '', 'Outside'],
      ['carol', '2', '=B3', 'c'],
      ['alice', '', '', 'a'],
      ['Bob', '10', '', 'b'],
      ['dave', 'x', '', 'd'],
    ]);
    fixture.data.setNote('A2', 'about carol');
    spreadsheet.getSheetByName('Data')!.getRange('A1:C5').createFilter();
    return fixture;
  }

  it('moves whole rows of the filter’s columns below the header; other columns stay', () => {
    const { data } = sortable();
    data.sortFilter(1, true);
    expect(data.values('A1:D5')).toEqual([
      ['Name', 'Score', '', 'Outside'],
      ['alice', '', '', 'c'],
      ['Bob', 10, '', 'a'],
      ['carol', 2, '#NAME?', 'b'],
      ['dave', 'x', '', 'd'],
    ]);
    expect(data.notes('A4')).toEqual([['about carol']]);
    // A moved formula is written for its new row, as if copied there.
    expect(data.formulas('C4')).toEqual([['=B5']]);
  });

  it('puts numbers before text and blanks last, either way', () => {
    const { data, spreadsheet } = sortable();
    data.sortFilter(2, true);
    expect(data.values('B2:B5').flat()).toEqual([2, 10, 'x', '']);
    spreadsheet.getSheetByName('Data')!.getFilter()!.sort(2, false);
    expect(data.values('B2:B5').flat()).toEqual(['x', 10, 2, '']);
  });

  it('leaves references elsewhere pointing at the same positions', () => {
    const { view, data } = sortable();
    view.typeValues("'Summary tab'!A1", [['=Data!A2']]);
    data.sortFilter(1, false);
    expect(view.sheet('Summary tab').formulas('A1')).toEqual([['=Data!A2']]);
  });

  it('sorts a range from the script by sheet columns', () => {
    const { spreadsheet, data } = sortable();
    const sheet = spreadsheet.getSheetByName('Data')!;
    sheet.getRange('A2:B5').sort({ column: 1, ascending: false });
    expect(data.values('A2:A5').flat()).toEqual(['dave', 'carol', 'Bob', 'alice']);
    expect(() => sheet.getRange('A2:B5').sort(4)).toThrow('within the range');
  });
});

describe('sorting the sheet (Data → Sort sheet)', () => {
  it('moves whole rows below the frozen ones, every column with them', () => {
    const { view, spreadsheet, data } = setup();
    view.typeValues('Data!A1:C4', [
      ['Name', 'Score', 'Note'],
      ['carol', '2', '=B2*2'],
      ['alice', '', 'first'],
      ['Bob', '10', ''],
    ]);
    spreadsheet.getSheetByName('Data')!.setFrozenRows(1);
    data.sortSheet(1, true);
    expect(data.values('A1:B4')).toEqual([
      ['Name', 'Score'],
      ['alice', ''],
      ['Bob', 10],
      ['carol', 2],
    ]);
    // The third column moved with its rows; a moved formula is written for its new row.
    expect(data.values('C2:C3').flat()).toEqual(['first', '']);
    expect(data.formulas('C4')).toEqual([['=B4*2']]);
    data.sortSheet(2, false);
    expect(data.values('A2:A4').flat()).toEqual(['Bob', 'carol', 'alice']);
  });

  it('sorts from row 1 when no row is frozen, and refuses a column outside the sheet', () => {
    const { view, data } = setup();
    view.typeValues('Data!A1:A3', [['b'], ['c'], ['a']]);
    data.sortSheet(1, true);
    expect(data.values('A1:A3').flat()).toEqual(['a', 'b', 'c']);
    expect(() => data.sortSheet(data.maxColumns + 1, true)).toThrow('outside the sheet');
  });
});

describe('filter criteria', () => {
  it('are set by the user, read and restored by the script, and hide rows', () => {
    const { view, data, spreadsheet } = setup();
    view.typeValues('Data!A1:B4', [
      ['Status', 'Site'],
      ['Done', 'North'],
      ['Open', 'South'],
      ['Done', 'Northwest'],
    ]);
    const sheet = spreadsheet.getSheetByName('Data')!;
    sheet.getRange('A1:B4').createFilter();
    data.setFilterCriteria(1, { hiddenValues: ['Open'] });
    data.setFilterCriteria(2, { textContains: 'west' });
    expect(data.rowsHiddenByFilter()).toEqual([2, 3]);
    expect(sheet.isRowHiddenByFilter(4)).toBe(false);

    const filter = sheet.getFilter()!;
    const hidden = filter.getColumnFilterCriteria(1)!;
    const contains = filter.getColumnFilterCriteria(2)!;
    expect([...hidden.getHiddenValues()]).toEqual(['Open']);
    expect([contains.getCriteriaType(), [...contains.getCriteriaValues()]]).toEqual([
      'TEXT_CONTAINS',
      ['west'],
    ]);

    filter.remove();
    const restored = sheet.getRange('A1:B4').createFilter();
    restored.setColumnFilterCriteria(1, hidden.copy().build());
    restored.setColumnFilterCriteria(2, contains);
    expect(data.filterCriteria(1)).toEqual({ hiddenValues: ['Open'], condition: null });
    expect(data.filterCriteria(2)).toEqual({
      hiddenValues: [],
      condition: { type: 'TEXT_CONTAINS', values: ['west'] },
    });
    expect(restored.getColumnFilterCriteria(2)!.getCriteriaType()).toBe('TEXT_CONTAINS');
    expect(() => restored.getColumnFilterCriteria(3)).toThrow('outside the range of the filter');
    restored.removeColumnFilterCriteria(1);
    expect(restored.getColumnFilterCriteria(1)).toBeNull();
  });

  it('need something to filter on', () => {
    const { SpreadsheetApp } = setup();
    expect(() => SpreadsheetApp.newFilterCriteria().build()).toThrow('hidden values or a condition');
  });
});

describe('notes and data validation', () => {
  it('reads and writes notes as grids', () => {
    const { spreadsheet, data } = setup();
    const range = spreadsheet.getSheetByName('Data')!.getRange('A1:B1');
    range.setNotes([['first', null]]);
    data.setNote('B1', 'second');
    expect(range.getNotes()).toEqual([['first', 'second']]);
    expect(range.getNote()).toBe('first');
  });

  it('keeps a user’s rule, which the script reads and sets back elsewhere unchanged', () => {
    const { spreadsheet, data, SpreadsheetApp } = setup();
    data.setDataValidation('C2:C3', { requireDate: true, allowInvalid: false, helpText: 'A date' });
    data.setDataValidation('D2', { valueInList: ['Yes', 'No'] });
    const sheet = spreadsheet.getSheetByName('Data')!;
    const rules = sheet.getRange('C2:D3').getDataValidations();
    expect(rules.map((row) => row.map((rule) => rule && rule.getCriteriaType()))).toEqual([
      ['DATE_IS_VALID_DATE', 'VALUE_IN_LIST'],
      ['DATE_IS_VALID_DATE', null],
    ]);
    expect([...rules[0]![1]!.getCriteriaValues()]).toEqual([['Yes', 'No'], true]);
    expect([rules[0]![0]!.getAllowInvalid(), rules[0]![0]!.getHelpText()]).toEqual([false, 'A date']);

    sheet.getRange('F2:G3').setDataValidations(rules);
    expect(data.dataValidations('F2:G3')).toEqual(data.dataValidations('C2:D3'));
    expect(data.dataValidations('F3:G3')).toEqual([
      [{ criteria: 'DATE_IS_VALID_DATE', values: [], allowInvalid: false, helpText: 'A date' }, null],
    ]);
    sheet
      .getRange('H1')
      .setDataValidation(SpreadsheetApp.newDataValidation().requireValueInList(['a'], false).build());
    expect(data.dataValidations('H1')).toEqual([
      [{ criteria: 'VALUE_IN_LIST', values: [['a'], false], allowInvalid: true, helpText: '' }],
    ]);
  });

  it('refuses what a user types against a rejecting rule, writing nothing; a script is refused the same', () => {
    const { view, data, spreadsheet } = setup();
    data.setDataValidation('A2:A3', { requireDate: true, allowInvalid: false });
    data.setDataValidation('B2:B3', { valueInList: ['Yes', 'No'], allowInvalid: false });
    data.setDataValidation('C2', { requireDate: true });
    view.typeValues('Data!A2:C2', [['2024-01-02', 'Yes', 'soon']]);
    expect(() => view.typeValues('Data!A3:B3', [['', 'Maybe']])).toThrow('B3 rejects "Maybe"');
    expect(() => view.typeValues('Data!A2:B2', [['soon', 'No']])).toThrow('A2 rejects "soon"');
    expect(data.values('A2:C2')).toEqual([[new Date(Date.UTC(2024, 0, 2)), 'Yes', 'soon']]);
    expect(() =>
      spreadsheet
        .getSheetByName('Data')!
        .getRange('A3')
        .setValues([['not a date']]),
    ).toThrow('The data you entered in cell A3 violates the data validation rules set on this cell.');
    expect(data.values('A3')).toEqual([['']]);
  });

  it('moves rules with their cells and clears them on request only', () => {
    const { spreadsheet, data } = setup();
    data.setDataValidation('B2', { requireDate: true });
    data.insertRowsBefore(1, 2);
    data.insertColumnsBefore(1, 1);
    expect(data.dataValidations('C4')[0]![0]).toMatchObject({ criteria: 'DATE_IS_VALID_DATE' });
    const range = spreadsheet.getSheetByName('Data')!.getRange('C4');
    range.clearContent();
    expect(range.getDataValidation()).not.toBeNull();
    range.clearDataValidations();
    expect(range.getDataValidation()).toBeNull();
  });
});
