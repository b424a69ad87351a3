/**
 * Sheets, their size and what is attached to them: names, gids, hidden sheets, the 10 million cell
 * limit, inserting and deleting rows (stored ranges follow), frozen rows, column widths, filters,
 * conditional format rules and protections.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup(sheetNames?: string[]) {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ name: 'Structure', sheetNames });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  return {
    ...service,
    id,
    spreadsheet,
    sheet: spreadsheet.getSheets()[0]!,
    view: () => service.workbooks.get(id)!,
  };
}

describe('sheets', () => {
  it('start as 1000 × 26 with gid 0 for the first; later gids are stable but not positions', () => {
    const { spreadsheet, sheet } = setup();
    expect([sheet.getName(), sheet.getSheetId(), sheet.getMaxRows(), sheet.getMaxColumns()]).toEqual([
      'Sheet1',
      0,
      1000,
      26,
    ]);
    const second = spreadsheet.insertSheet('Second');
    expect(second.getSheetId()).toBeGreaterThan(1);
    expect(setup().spreadsheet.insertSheet('Second').getSheetId()).toBe(second.getSheetId());
  });

  it('insertSheet places, names and activates the new sheet', () => {
    const { spreadsheet, view } = setup();
    spreadsheet.insertSheet('Last');
    const first = spreadsheet.insertSheet('First', 0);
    expect(spreadsheet.getSheets().map((s) => s.getName())).toEqual(['First', 'Sheet1', 'Last']);
    expect(first.getSheetId()).toBe(spreadsheet.getSheets()[0]!.getSheetId());
    expect(view().activeSheetName).toBe('First');
    expect(spreadsheet.insertSheet().getName()).toBe('Sheet4');
    expect(() => spreadsheet.insertSheet('Far', 9)).toThrow('out of range');
    expect(() => spreadsheet.insertSheet({ template: first })).toThrow(
      'not emulated: Spreadsheet.insertSheet({template})',
    );
  });

  it('refuses a duplicate name, whatever its case', () => {
    const { spreadsheet } = setup();
    spreadsheet.insertSheet('Data');
    expect(() => spreadsheet.insertSheet('data')).toThrow(
      'A sheet with the name "data" already exists. Please enter another name.',
    );
  });

  it('refuses names longer than 100 characters and empty names', () => {
    const { spreadsheet } = setup();
    spreadsheet.insertSheet('x'.repeat(100));
    expect(() => spreadsheet.insertSheet('y'.repeat(101))).toThrow(
      'Sheet names cannot be longer than 100 characters.',
    );
    expect(() => spreadsheet.insertSheet('  ')).toThrow('Sheet names cannot be empty.');
  });

  it('finds sheets by exact name only', () => {
    const { spreadsheet } = setup(['Data']);
    expect(spreadsheet.getSheetByName('Data')).not.toBeNull();
    expect(spreadsheet.getSheetByName('data')).toBeNull();
  });

  it('keeps one sheet visible', () => {
    const { spreadsheet, sheet } = setup(['Only', 'Hidden']);
    const hidden = spreadsheet.getSheetByName('Hidden')!.hideSheet();
    expect(hidden.isSheetHidden()).toBe(true);
    expect(() => sheet.hideSheet()).toThrow("You can't hide all the sheets in a document.");
  });

  it('knows the last row with content through appends, clears and deletions', () => {
    const { sheet, view } = setup(['Data']);
    for (let row = 1; row <= 1500; row++) sheet.appendRow([`r${row}`]);
    expect(sheet.getLastRow()).toBe(1500);
    sheet.getRange(1400, 1, 101, 1).clearContent();
    expect(sheet.getLastRow()).toBe(1399);
    sheet.getRange(1450, 3).setNumberFormats([['@']]);
    expect(sheet.getLastRow()).toBe(1399);
    sheet.deleteRows(1, 99);
    expect(sheet.getLastRow()).toBe(1300);
    sheet.appendRow(['after']);
    expect(view().sheet('Data').values('A1301')).toEqual([['after']]);
  });

  it('hides columns, which move with column insertions and deletions', () => {
    const { view, sheet } = setup(['Data']);
    sheet.hideColumns(3, 2);
    expect(view().sheet('Data').hiddenColumns).toEqual([3, 4]);
    sheet.insertColumnsBefore(1, 1);
    expect(view().sheet('Data').hiddenColumns).toEqual([4, 5]);
    sheet.deleteColumns(4, 1);
    expect(view().sheet('Data').hiddenColumns).toEqual([4]);
    expect(() => sheet.hideColumns(27, 1)).toThrow('Those columns are out of bounds.');
  });

  it('moves the active sheet off a sheet being hidden', () => {
    const { view, sheet } = setup(['A', 'B']);
    sheet.activate().hideSheet();
    expect(view().activeSheetName).toBe('B');
  });
});

describe('the 10 million cell limit', () => {
  it('refuses rows and sheets beyond it', () => {
    const { sheet, spreadsheet } = setup();
    sheet.insertRowsAfter(1000, 384_000 - 1000); // 384,000 × 26 = 9,984,000 cells
    const message =
      'This action would increase the number of cells in the workbook above the limit of 10000000 cells.';
    expect(() => sheet.insertRowsAfter(1, 1000)).toThrow(message);
    expect(() => spreadsheet.insertSheet('More')).toThrow(message);
    expect(() => sheet.insertColumnsAfter(26, 1)).toThrow(message);
    sheet.insertRowsAfter(1, 615);
    expect(sheet.getMaxRows()).toBe(384_615);
  });
});

describe('rows and columns', () => {
  it('insert and delete rows, moving cells and everything attached to them', () => {
    const { sheet, view, SpreadsheetApp } = setup();
    sheet.getRange('A1:A3').setValues([['h'], ['a'], ['b']]);
    sheet.getRange('A1:A3').createFilter();
    const rule = SpreadsheetApp.newConditionalFormatRule()
      .whenTextEqualTo('b')
      .setBackground('#ff0000')
      .setRanges([sheet.getRange('A2:A3')])
      .build();
    sheet.setConditionalFormatRules([rule]);
    sheet.getRange('A3').protect();
    sheet.insertRowsBefore(2, 2);
    expect(view().sheet('Sheet1').values()).toEqual([['h'], [''], [''], ['a'], ['b']]);
    expect(view().sheet('Sheet1').filter).toBe('A1:A5');
    expect(view().sheet('Sheet1').conditionalRules()[0]!.ranges).toEqual(['A4:A5']);
    expect(view().sheet('Sheet1').protections()[0]!.range).toBe('A5');
    sheet.deleteRows(4, 2);
    expect(view().sheet('Sheet1').values()).toEqual([['h']]);
    expect(view().sheet('Sheet1').conditionalRules()).toEqual([]);
    expect(view().sheet('Sheet1').protections()).toEqual([]);
    expect(sheet.getMaxRows()).toBe(1000);
  });

  it('moves whole rows and columns of cells', () => {
    const { sheet } = setup();
    sheet.getRange('A1:C2').setValues([
      ['a1', 'b1', 'c1'],
      ['a2', 'b2', 'c2'],
    ]);
    sheet.insertRowsAfter(1, 1);
    sheet.insertColumnsBefore(2, 2);
    expect(sheet.getRange('A1:E3').getValues()).toEqual([
      ['a1', '', '', 'b1', 'c1'],
      ['', '', '', '', ''],
      ['a2', '', '', 'b2', 'c2'],
    ]);
    sheet.deleteColumns(1, 3);
    sheet.deleteRows(2, 1);
    expect(sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues()).toEqual([
      ['b1', 'c1'],
      ['b2', 'c2'],
    ]);
  });

  it('refuses positions outside the sheet and deleting every row', () => {
    const { sheet } = setup();
    expect(() => sheet.insertRowsAfter(1001, 1)).toThrow('Those rows are out of bounds.');
    expect(() => sheet.insertRowsAfter(1, 0)).toThrow('Those rows are out of bounds.');
    expect(() => sheet.deleteRows(999, 5)).toThrow('Those rows are out of bounds.');
    expect(() => sheet.deleteColumns(27, 1)).toThrow('Those columns are out of bounds.');
    expect(() => sheet.deleteRows(1, 1000)).toThrow(
      'Sorry, it is not possible to delete all non-frozen rows.',
    );
    sheet.setFrozenRows(2);
    expect(() => sheet.deleteRows(3, 998)).toThrow(
      'Sorry, it is not possible to delete all non-frozen rows.',
    );
  });

  it('reports the last row and column with content, not with formats', () => {
    const { sheet } = setup();
    sheet.getRange('C5').setFontWeight('bold');
    expect([sheet.getLastRow(), sheet.getLastColumn()]).toEqual([0, 0]);
    sheet.getRange('B3').setValues([['x']]);
    expect([sheet.getLastRow(), sheet.getLastColumn()]).toEqual([3, 2]);
  });

  it('appends a row after the last one, growing the sheet when it is full', () => {
    const { sheet } = setup();
    sheet.getRange(1000, 1).setValues([['last']]);
    sheet.appendRow(['01', 'two']);
    expect(sheet.getMaxRows()).toBe(1001);
    expect(sheet.getRange(1001, 1, 1, 2).getValues()).toEqual([[1, 'two']]);
  });

  it('freezes rows, but not all of them', () => {
    const { sheet } = setup();
    sheet.setFrozenRows(1);
    expect(sheet.getFrozenRows()).toBe(1);
    expect(() => sheet.setFrozenRows(1000)).toThrow("You can't freeze all visible rows on the sheet.");
    sheet.insertRowsBefore(1, 1);
    expect(sheet.getFrozenRows()).toBe(2);
  });

  it('sizes columns: 100 px by default; a width moves with its column', () => {
    const { sheet, view } = setup();
    sheet.setColumnWidth(1, 40);
    expect([1, 2].map((column) => view().sheet('Sheet1').columnWidth(column))).toEqual([40, 100]);
    expect(() => sheet.setColumnWidth(27, 40)).toThrow('Those columns are out of bounds.');
    sheet.insertColumnsBefore(1, 1);
    expect(view().sheet('Sheet1').columnWidth(2)).toBe(40);
  });

  it('clears a whole sheet: contents only, or everything', () => {
    const { sheet, view } = setup();
    sheet
      .getRange('A1:B1')
      .setValues([['a', 'b']])
      .setFontWeight('bold');
    sheet.clearContents();
    expect(view().sheet('Sheet1').cells('A1')[0]).toMatchObject([{ value: '', fontWeight: 'bold' }]);
    sheet.clear();
    expect(view().sheet('Sheet1').fontWeights('A1')).toEqual([['normal']]);
    expect(() => sheet.clear({ commentsOnly: true } as never)).toThrow(
      'not emulated: Sheet.clear({commentsOnly})',
    );
  });
});

describe('filters', () => {
  it('one per sheet: a second throws until the first is removed', () => {
    const { sheet } = setup();
    const filter = sheet.getRange('A1:C10').createFilter();
    const filterRange = sheet.getFilter()!.getRange();
    expect([
      filterRange.getRow(),
      filterRange.getColumn(),
      filterRange.getValues().length,
      filterRange.getNumColumns(),
    ]).toEqual([1, 1, 10, 3]);
    expect(() => sheet.getRange('A1:B2').createFilter()).toThrow(
      "You can't create a filter in a sheet that already has a filter.",
    );
    filter.remove();
    expect(sheet.getFilter()).toBeNull();
    expect(() => filter.getRange()).toThrow('This filter has been removed.');
    sheet.getRange('A1:B2').createFilter();
  });
});

describe('conditional format rules', () => {
  it('are replaced as a whole and read back rebuildable', () => {
    const { sheet, SpreadsheetApp, view } = setup();
    const status = sheet.getRange('C2:C100');
    const expired = SpreadsheetApp.newConditionalFormatRule()
      .whenTextEqualTo('Expired')
      .setBackground('#F4CCCC')
      .setFontColor('#990000')
      .setRanges([status])
      .build();
    const soon = SpreadsheetApp.newConditionalFormatRule()
      .whenNumberLessThan(30)
      .setBold(true)
      .setRanges([status])
      .build();
    sheet.setConditionalFormatRules([expired]);
    const rules = sheet.getConditionalFormatRules();
    rules.push(soon);
    sheet.setConditionalFormatRules(rules);
    expect(view().sheet('Sheet1').conditionalRules()).toEqual([
      {
        type: 'TEXT_EQUAL_TO',
        values: ['Expired'],
        format: { background: '#f4cccc', fontColor: '#990000' },
        ranges: ['C2:C100'],
      },
      { type: 'NUMBER_LESS_THAN', values: [30], format: { bold: true }, ranges: ['C2:C100'] },
    ]);
    sheet.setConditionalFormatRules([soon]);
    expect(view().sheet('Sheet1').conditionalRules()).toHaveLength(1);

    const [read] = sheet.getConditionalFormatRules();
    const condition = read!.getBooleanCondition()!;
    expect(condition.getCriteriaType()).toBe(SpreadsheetApp.BooleanCriteria.NUMBER_LESS_THAN);
    expect(condition.getCriteriaValues()).toEqual([30]);
    expect(condition.getBold()).toBe(true);
    const sameRanges = SpreadsheetApp.newConditionalFormatRule()
      .whenCellEmpty()
      .setItalic(true)
      .setRanges(read!.getRanges())
      .build();
    sheet.setConditionalFormatRules([sameRanges]);
    expect(view().sheet('Sheet1').conditionalRules()[0]!.ranges).toEqual(['C2:C100']);
    const copy = read!.copy().whenFormulaSatisfied('=$C2="Expired"').build();
    expect(copy.getBooleanCondition()!.getCriteriaValues()).toEqual(['=$C2="Expired"']);
  });

  it('refuse rules without a condition, a format or a range, and ranges of other sheets', () => {
    const { sheet, spreadsheet, SpreadsheetApp } = setup();
    expect(() => SpreadsheetApp.newConditionalFormatRule().setBold(true).build()).toThrow(
      'needs a condition',
    );
    expect(() => SpreadsheetApp.newConditionalFormatRule().whenCellEmpty().build()).toThrow('needs a format');
    const noRange = SpreadsheetApp.newConditionalFormatRule().whenCellEmpty().setBold(true).build();
    expect(() => sheet.setConditionalFormatRules([noRange])).toThrow('at least one range');
    const other = spreadsheet.insertSheet('Other').getRange('A1');
    const elsewhere = noRange.copy().setRanges([other]).build();
    expect(() => sheet.setConditionalFormatRules([elsewhere])).toThrow('only apply to ranges of the sheet');
    expect(() => sheet.setConditionalFormatRules([{} as never])).toThrow("don't match the method signature");
  });
});

describe('protections', () => {
  it('record description, warning-only and editors, and can be removed', () => {
    const { sheet, spreadsheet, SpreadsheetApp, view } = setup();
    const protection = sheet.getRange('A1:C1').protect().setDescription('Header').setWarningOnly(true);
    protection
      .addEditors(['a@example.com', 'b@example.com'])
      .removeEditors(['a@example.com', 'owner@example.com']);
    expect(protection.getEditors().map((user) => user.getEmail())).toEqual([
      'owner@example.com',
      'b@example.com',
    ]);
    expect(protection.getProtectionType()).toBe(SpreadsheetApp.ProtectionType.RANGE);
    const whole = sheet.protect();
    expect(sheet.protect().getProtectionType()).toBe(SpreadsheetApp.ProtectionType.SHEET);
    expect(spreadsheet.getProtections(SpreadsheetApp.ProtectionType.SHEET)).toHaveLength(1);
    expect(view().sheet('Sheet1').protections()).toEqual([
      {
        type: 'RANGE',
        range: 'A1:C1',
        description: 'Header',
        warningOnly: true,
        domainEdit: true,
        editors: ['owner@example.com', 'b@example.com'],
      },
      {
        type: 'SHEET',
        range: null,
        description: '',
        warningOnly: false,
        domainEdit: true,
        editors: ['owner@example.com'],
      },
    ]);
    whole.remove();
    expect(sheet.getProtections(SpreadsheetApp.ProtectionType.SHEET)).toEqual([]);
    expect(() => whole.getDescription()).toThrow('This protection has been removed.');
    expect(() => sheet.getProtections('RANGE_TYPO' as never)).toThrow("don't match the method signature");
  });
});
