/**
 * What each kind of execution may do: custom functions read but never write or show UI, time-driven
 * triggers have no UI and maybe no active spreadsheet, AuthMode.NONE may only build menus, LIMITED
 * only touches the bound document; deleted documents are gone for every object, and documents in the
 * trash under the stricter reading until restored.
 */
import type { GoogleReadings } from '../../dev/emulator';
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup(readings: Partial<GoogleReadings> = {}) {
  const service = createTestSpreadsheetService({ readings });
  const id = service.workbooks.create({ name: 'Bound', sheetNames: ['Data', 'Other'] });
  const otherId = service.workbooks.create({ name: 'Elsewhere' });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getSheetByName('Data')!;
  sheet.getRange('A1:B2').setValues([
    ['name', 'count'],
    ['a', 1],
  ]);
  /** Moves the emulated clock: the fixture is a copy of the service, so setting its `nowMs` would not. */
  const advanceClock = (ms: number) => {
    service.nowMs += ms;
  };
  return { ...service, id, otherId, spreadsheet, sheet, advanceClock };
}

type Call = [method: string, call: () => unknown];

/** Every emulated method that changes a document, called with valid arguments. */
function writeCalls(fixture: ReturnType<typeof setup>): { target: object; calls: Call[] }[] {
  const { spreadsheet, sheet, SpreadsheetApp, Charts } = fixture;
  const range = sheet.getRange('A1');
  const rangeList = sheet.getRangeList(['A1', 'B2']);
  const filter = sheet.getRange('A1:B2').createFilter();
  const protection = range.protect();
  spreadsheet.setNamedRange('Kept', range);
  const namedRange = spreadsheet.getNamedRanges()[0]!;
  spreadsheet.addDeveloperMetadata('kept', 'value', SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
  const metadata = spreadsheet.getDeveloperMetadata()[0]!;
  const criteria = SpreadsheetApp.newFilterCriteria().setHiddenValues(['a']).build();
  const validation = SpreadsheetApp.newDataValidation().requireDate().build();
  const rule = SpreadsheetApp.newConditionalFormatRule()
    .whenCellEmpty()
    .setBold(true)
    .setRanges([range])
    .build();
  return [
    {
      target: range,
      calls: [
        ['setValues', () => range.setValues([[1]])],
        ['setValue', () => range.setValue(1)],
        ['setFormulasR1C1', () => range.setFormulasR1C1([['=R[0]C[1]']])],
        ['setFormulaR1C1', () => range.setFormulaR1C1('=R[0]C[1]')],
        ['setNumberFormats', () => range.setNumberFormats([['@']])],
        ['setNumberFormat', () => range.setNumberFormat('@')],
        ['setFontWeight', () => range.setFontWeight('bold')],
        ['setBackgrounds', () => range.setBackgrounds([['#f4cccc']])],
        ['setNote', () => range.setNote('n')],
        ['setNotes', () => range.setNotes([['n']])],
        ['setDataValidation', () => range.setDataValidation(validation)],
        ['setDataValidations', () => range.setDataValidations([[validation]])],
        ['clearDataValidations', () => range.clearDataValidations()],
        ['sort', () => range.sort(1)],
        ['clearContent', () => range.clearContent()],
        ['createFilter', () => sheet.getRange('C1:C2').createFilter()],
        ['protect', () => range.protect()],
      ],
    },
    {
      target: rangeList,
      calls: [
        ['setFormulaR1C1', () => rangeList.setFormulaR1C1('=R[0]C[1]')],
        ['setNumberFormat', () => rangeList.setNumberFormat('0.00')],
        ['setFontWeight', () => rangeList.setFontWeight('bold')],
      ],
    },
    {
      target: sheet,
      calls: [
        ['activate', () => sheet.activate()],
        ['appendRow', () => sheet.appendRow(['x'])],
        ['insertRowsAfter', () => sheet.insertRowsAfter(1, 1)],
        ['insertRowsBefore', () => sheet.insertRowsBefore(1, 1)],
        ['insertColumnsAfter', () => sheet.insertColumnsAfter(1, 1)],
        ['insertColumnsBefore', () => sheet.insertColumnsBefore(1, 1)],
        ['deleteRows', () => sheet.deleteRows(5, 1)],
        ['deleteColumns', () => sheet.deleteColumns(5, 1)],
        ['moveRows', () => sheet.moveRows(sheet.getRange('3:3'), 1)],
        ['moveColumns', () => sheet.moveColumns(sheet.getRange('C:C'), 1)],
        ['setName', () => sheet.setName('Renamed')],
        ['clear', () => sheet.clear()],
        ['clearContents', () => sheet.clearContents()],
        ['setFrozenRows', () => sheet.setFrozenRows(1)],
        ['setFrozenColumns', () => sheet.setFrozenColumns(1)],
        ['setColumnWidth', () => sheet.setColumnWidth(1, 50)],
        ['hideColumns', () => sheet.hideColumns(1, 1)],
        ['hideSheet', () => sheet.hideSheet()],
        [
          'insertChart',
          () =>
            sheet.insertChart(
              sheet
                .newChart()
                .addRange(range)
                .setChartType(Charts.ChartType.COLUMN)
                .setPosition(1, 1, 0, 0)
                .build(),
            ),
        ],
        ['setConditionalFormatRules', () => sheet.setConditionalFormatRules([rule])],
        ['clearConditionalFormatRules', () => sheet.clearConditionalFormatRules()],
        ['protect', () => sheet.protect()],
      ],
    },
    {
      target: spreadsheet,
      calls: [
        ['insertSheet', () => spreadsheet.insertSheet('New')],
        ['deleteSheet', () => spreadsheet.deleteSheet(sheet)],
        ['deleteActiveSheet', () => spreadsheet.deleteActiveSheet()],
        ['toast', () => spreadsheet.toast('hello')],
        ['setNamedRange', () => spreadsheet.setNamedRange('Another', range)],
        ['setSpreadsheetLocale', () => spreadsheet.setSpreadsheetLocale('de_DE')],
        [
          'addDeveloperMetadata',
          () =>
            spreadsheet.addDeveloperMetadata('k', 'v', SpreadsheetApp.DeveloperMetadataVisibility.PROJECT),
        ],
      ],
    },
    {
      target: metadata,
      calls: [
        ['setKey', () => metadata.setKey('renamed')],
        ['setValue', () => metadata.setValue('w')],
        ['setVisibility', () => metadata.setVisibility(SpreadsheetApp.DeveloperMetadataVisibility.DOCUMENT)],
        ['remove', () => metadata.remove()],
      ],
    },
    {
      target: filter,
      calls: [
        ['setColumnFilterCriteria', () => filter.setColumnFilterCriteria(1, criteria)],
        ['removeColumnFilterCriteria', () => filter.removeColumnFilterCriteria(1)],
        ['sort', () => filter.sort(1, true)],
        ['remove', () => filter.remove()],
      ],
    },
    {
      target: namedRange,
      calls: [
        ['setName', () => namedRange.setName('Renamed')],
        ['setRange', () => namedRange.setRange(sheet.getRange('B1'))],
        ['remove', () => namedRange.remove()],
      ],
    },
    {
      target: protection,
      calls: [
        ['setDescription', () => protection.setDescription('d')],
        ['setWarningOnly', () => protection.setWarningOnly(true)],
        ['setRange', () => protection.setRange(sheet.getRange('B1'))],
        ['setDomainEdit', () => protection.setDomainEdit(false)],
        ['addEditor', () => protection.addEditor('a@example.com')],
        ['addEditors', () => protection.addEditors(['a@example.com'])],
        ['removeEditor', () => protection.removeEditor('a@example.com')],
        ['removeEditors', () => protection.removeEditors(['a@example.com'])],
        ['remove', () => protection.remove()],
      ],
    },
  ];
}

const WRITE_LIKE =
  /^(set|insert|delete|clear|create|protect|hide|show|append|auto|activate|toast|remove|add|move|sort)/;

describe('a custom function', () => {
  it('may read the active spreadsheet', () => {
    const fixture = setup();
    Object.assign(fixture.context, { kind: 'custom-function', authMode: 'CUSTOM_FUNCTION', userEmail: '' });
    const values = fixture.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName('Data')!
      .getRange('A1:B2')
      .getValues();
    expect(values).toEqual([
      ['name', 'count'],
      ['a', 1],
    ]);
  });

  it('is refused every write, with the method named, and nothing changes', () => {
    const fixture = setup();
    const groups = writeCalls(fixture);
    Object.assign(fixture.context, { kind: 'custom-function', authMode: 'CUSTOM_FUNCTION', userEmail: '' });
    for (const { calls } of groups) {
      for (const [method, call] of calls) {
        expect(call).toThrow(`You do not have permission to call ${method}`);
      }
    }
    const data = fixture.workbooks.get(fixture.id)!.sheet('Data');
    expect(data.values()).toEqual([
      ['name', 'count'],
      ['a', 1],
    ]);
  });

  it('leaves no write-like method out of that list', () => {
    for (const { target, calls } of writeCalls(setup())) {
      const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(target)).filter((name) =>
        WRITE_LIKE.test(name),
      );
      expect(methods.sort()).toEqual(calls.map(([method]) => method).sort());
    }
  });

  it('cannot reach the UI or other documents', () => {
    const fixture = setup();
    Object.assign(fixture.context, { kind: 'custom-function', authMode: 'CUSTOM_FUNCTION', userEmail: '' });
    expect(() => fixture.SpreadsheetApp.getUi()).toThrow(
      'Cannot call SpreadsheetApp.getUi() from this context.',
    );
    expect(() => fixture.SpreadsheetApp.openById(fixture.otherId)).toThrow(
      'You do not have permission to call SpreadsheetApp.openById',
    );
  });
});

describe('a time-driven trigger', () => {
  it('has no active spreadsheet and no UI, but opens documents by id and writes', () => {
    const fixture = setup();
    Object.assign(fixture.context, { kind: 'time-trigger', activeSpreadsheetId: null });
    expect(fixture.SpreadsheetApp.getActiveSpreadsheet()).toBeNull();
    expect(() => fixture.SpreadsheetApp.getUi()).toThrow(
      'Cannot call SpreadsheetApp.getUi() from this context.',
    );
    const opened = fixture.SpreadsheetApp.openById(fixture.id);
    opened
      .getSheetByName('Data')!
      .getRange('C1')
      .setValues([['refreshed']]);
    expect(fixture.workbooks.get(fixture.id)!.sheet('Data').values('C1')).toEqual([['refreshed']]);
  });

  it('has no UI even with an active spreadsheet', () => {
    const fixture = setup();
    Object.assign(fixture.context, { kind: 'time-trigger' });
    expect(() => fixture.SpreadsheetApp.getUi()).toThrow(
      'Cannot call SpreadsheetApp.getUi() from this context.',
    );
  });
});

describe('AuthMode.NONE (installed, not enabled in this document)', () => {
  const none = (fixture: ReturnType<typeof setup>) => {
    Object.assign(fixture.context, { kind: 'simple-trigger', authMode: 'NONE', userEmail: '' });
  };

  it('builds the menu', () => {
    const fixture = setup();
    none(fixture);
    fixture.SpreadsheetApp.getUi().createAddonMenu().addItem('Start', 'start').addToUi();
    expect(fixture.workbooks.get(fixture.id)!.ui.menus).toEqual([
      { caption: null, entries: [{ kind: 'item', caption: 'Start', functionName: 'start' }] },
    ]);
  });

  it('touches no document, not even through objects made earlier', () => {
    const fixture = setup();
    const range = fixture.sheet.getRange('A1');
    none(fixture);
    const refused = 'You do not have permission to access the document in this context';
    expect(() => fixture.SpreadsheetApp.getActiveSpreadsheet()).toThrow(refused);
    expect(() => fixture.SpreadsheetApp.openById(fixture.id)).toThrow(refused);
    expect(() => fixture.SpreadsheetApp.flush()).toThrow(refused);
    expect(() => range.getValues()).toThrow(refused);
    expect(() => fixture.spreadsheet.getId()).toThrow(refused);
  });

  it('shows no alert or dialog', () => {
    const fixture = setup();
    none(fixture);
    expect(() => fixture.SpreadsheetApp.getUi().alert('hi')).toThrow(
      'Authorization is required to perform that action.',
    );
  });
});

describe('AuthMode.LIMITED (a simple trigger)', () => {
  it('reads and writes the bound document only', () => {
    const fixture = setup();
    const elsewhere = fixture.SpreadsheetApp.openById(fixture.otherId);
    Object.assign(fixture.context, { kind: 'simple-trigger', authMode: 'LIMITED' });
    fixture.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName('Data')!
      .getRange('C1')
      .setValues([['ok']]);
    expect(() => fixture.SpreadsheetApp.openById(fixture.otherId)).toThrow(
      'You do not have permission to call SpreadsheetApp.openById',
    );
    expect(() => elsewhere.getId()).toThrow(
      'You do not have permission to access the document in this context',
    );
  });
});

describe('documents that do not exist', () => {
  it('refuses an unknown id like Apps Script', () => {
    const { SpreadsheetApp } = setup();
    expect(() => SpreadsheetApp.openById('nope')).toThrow(
      'Unexpected error while getting the method or property openById on object SpreadsheetApp.',
    );
  });

  it('treats a deleted document as missing, for openById and for objects made before', () => {
    const fixture = setup();
    const range = fixture.sheet.getRange('A1');
    fixture.workbooks.delete(fixture.id);
    const missing = `Document ${fixture.id} is missing (perhaps it was deleted, or you don't have read access?)`;
    expect(() => fixture.SpreadsheetApp.openById(fixture.id)).toThrow(missing);
    expect(() => fixture.SpreadsheetApp.getActiveSpreadsheet()).toThrow(missing);
    expect(() => range.getValues()).toThrow(missing);
    expect(fixture.workbooks.get(fixture.id)).toBeUndefined();
  });

  it('under the stricter reading, treats a document in the trash as missing until it is restored', () => {
    const fixture = setup({ trashedSpreadsheetOpens: false });
    const range = fixture.sheet.getRange('A1:B2');
    fixture.workbooks.trash(fixture.id);
    const missing = `Document ${fixture.id} is missing (perhaps it was deleted, or you don't have read access?)`;
    expect(() => fixture.SpreadsheetApp.openById(fixture.id)).toThrow(missing);
    expect(() => fixture.SpreadsheetApp.getActiveSpreadsheet()).toThrow(missing);
    expect(() => range.getValues()).toThrow(missing);
    expect(() => range.setValue('x')).toThrow(missing);
    // Drive still shows it to its owner, in the trash.
    expect(fixture.workbooks.get(fixture.id)!.sheet('Data').values('A2:B2')).toEqual([['a', 1]]);
    fixture.workbooks.restore(fixture.id);
    expect(range.getValues()).toEqual([
      ['name', 'count'],
      ['a', 1],
    ]);
    expect(fixture.SpreadsheetApp.openById(fixture.id).getName()).toBe('Bound');
  });

  it('under the looser reading, opens a document in the trash until Drive empties it 30 days later', () => {
    const fixture = setup({ trashedSpreadsheetOpens: true });
    const range = fixture.sheet.getRange('A2');
    fixture.workbooks.trash(fixture.id);
    range.setValue('b');
    expect(
      fixture.SpreadsheetApp.openById(fixture.id).getSheetByName('Data')!.getRange('A2').getValues(),
    ).toEqual([['b']]);
    fixture.advanceClock(30 * 24 * 3_600_000);
    const missing = `Document ${fixture.id} is missing (perhaps it was deleted, or you don't have read access?)`;
    expect(() => fixture.SpreadsheetApp.openById(fixture.id)).toThrow(missing);
    expect(() => range.getValues()).toThrow(missing);
    expect(fixture.workbooks.get(fixture.id)).toBeUndefined();
    expect(() => fixture.workbooks.restore(fixture.id)).toThrow(
      `No spreadsheet ${fixture.id} in the emulator.`,
    );
  });
});
