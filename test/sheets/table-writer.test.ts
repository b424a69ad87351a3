/**
 * The table writer's cases that seeded sequences of small tables rarely reach, run in Node against
 * the emulator's services (fast enough for every mutant; the model is table-writer-model.test.ts):
 * - Large tables (src/sheets/row-writer.ts): from SHEETS_API_MIN_CELLS cells of the table's own
 *   columns, the table goes through the Sheets API (RAW) and everything else around it through the
 *   Spreadsheet service; without the API, or when it refuses, through the Spreadsheet service, with
 *   one sentence for the Sync log. Either way every cell holds exactly its value, the user's cells
 *   stay beside their records and the add-on's formulas stay formulas.
 * - A list that changed in more places than the writer moves rows for (40) is re-typed instead.
 * - A tab whose spare rows the user deleted, emptied by a run; a record's row the user copied.
 * - A large table whose rows moved, written by a caller that has just committed.
 * - Records arriving on top of a first record the user annotated, bolded and put a rule on.
 * - The user's formulas, written back in as few calls as the module promises.
 */
import { SheetsApiQuotas } from '../../dev/emulator/spreadsheet/api-sheets-advanced';
import type { createSpreadsheetService } from '../../dev/emulator/spreadsheet';
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';
import { readTabLayout } from '../../src/sheets/added-columns';
import { insertRowsOnTop } from '../../src/sheets/rows-on-top';
import { SHEETS_API_MIN_CELLS } from '../../src/sheets/sheets-api';
import type { CellValue, ColumnSpec, Table } from '../../src/sheets/table';
import { readTabContent } from '../../src/sheets/tab-content';
import { writeTable, writeTableOver } from '../../src/sheets/table-writer';
import { writeUserFormulas } from '../../src/sheets/user-cells';

const TAB = 'Large';
/** Four columns the API takes (RAW), the record key last. */
const COLUMNS: ColumnSpec[] = [
  { header: 'Name', kind: 'text', width: 100 },
  { header: 'Count', kind: 'integer', width: 100 },
  { header: 'Note', kind: 'text', width: 100 },
  { header: 'Key', kind: 'text', width: 100, hidden: true },
];
const KEY = 3;
/** Texts Sheets would read as something else if they were typed. */
const TRICKY = ['007', '=1+1', 'TRUE', "'quoted", '2024-05-01', '-3'];

type Api = 'enabled' | 'disabled' | 'absent';

const globals = globalThis as { Sheets?: unknown; SpreadsheetApp?: unknown };

function setup(api: Api) {
  // The test service carries the Sheets advanced service too, as the runtime's does.
  const service = createTestSpreadsheetService() as ReturnType<typeof createTestSpreadsheetService> &
    Pick<ReturnType<typeof createSpreadsheetService>, 'sheetsAdvancedService'>;
  const id = service.workbooks.create({ name: 'Large tables' });
  service.context.activeSpreadsheetId = id;
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  globals.SpreadsheetApp = service.SpreadsheetApp;
  if (api !== 'absent') {
    globals.Sheets = service.sheetsAdvancedService({
      quotas: new SheetsApiQuotas(() => service.nowMs),
      cloudProjectApi: api,
    });
  }
  const sheet = spreadsheet.insertSheet(TAB);
  const view = () => {
    service.SpreadsheetApp.flush();
    return service.workbooks.get(id)!.sheet(TAB);
  };
  return { service, id, spreadsheet, sheet, view };
}

afterEach(() => {
  delete globals.Sheets;
  delete globals.SpreadsheetApp;
});

function rows(count: number, from = 0): CellValue[][] {
  return Array.from({ length: count }, (_, index) => [
    TRICKY[(from + index) % TRICKY.length]!,
    from + index,
    `note ${from + index}`,
    `k${from + index}`,
  ]);
}

function table(tableRows: CellValue[][], columns = COLUMNS, keyColumn = KEY): Table {
  return { columns, rows: tableRows, keyColumn };
}

/** The cells the tab shows in columns A to D from row 2, as Sheets holds them. */
function shown(view: ReturnType<ReturnType<typeof setup>['view']>, count: number, left = 'A', right = 'D') {
  return view.values(`${left}2:${right}${count + 1}`);
}

const LARGE = SHEETS_API_MIN_CELLS / COLUMNS.length;
/** The fewest records a write sends through the API: the titles' cells count too. */
const AT_THRESHOLD = LARGE - 1;

describe('a large table', () => {
  test.each<[Api, string | null]>([
    ['enabled', null],
    [
      'absent',
      "A large table was written through the Spreadsheet service, slower, because the Sheets advanced service is not in the add-on's manifest; nothing is missing.",
    ],
  ])('with the API %s: every cell holds exactly its value (Sync log: %s)', (api, sentence) => {
    const { service, sheet, view } = setup(api);
    const result = writeTable(sheet, table(rows(AT_THRESHOLD)));
    expect(result.slowerWrite).toBe(sentence);
    // One request for the whole table, or one setValues: a cost that does not grow with the rows.
    const calls = service.counter.snapshot();
    expect([calls['Sheets.Spreadsheets.Values.batchUpdate'], calls['Range.setValues']]).toEqual(
      api === 'enabled' ? [1, undefined] : [undefined, 1],
    );
    expect(shown(view(), AT_THRESHOLD)).toEqual(rows(AT_THRESHOLD));
    expect(view().numberFormats('A2:D2')).toEqual([['@', '0', '@', '@']]);
    expect(view().numberFormats(`A${AT_THRESHOLD + 1}:D${AT_THRESHOLD + 1}`)).toEqual([['@', '0', '@', '@']]);
    expect(view().values('A1:D1')).toEqual([COLUMNS.map((column) => column.header)]);
  });

  test('one row short of the threshold says nothing of a slower write', () => {
    const { sheet, view } = setup('absent');
    expect(writeTable(sheet, table(rows(AT_THRESHOLD - 1))).slowerWrite).toBeNull();
    expect(shown(view(), AT_THRESHOLD - 1)).toEqual(rows(AT_THRESHOLD - 1));
  });

  test('that the API refuses is written through the Spreadsheet service, and the Sync log says why', () => {
    const { sheet, view } = setup('disabled');
    const result = writeTable(sheet, table(rows(LARGE)));
    expect(result.slowerWrite).toMatch(
      /^A large table was written through the Spreadsheet service, slower, because the Sheets API answered: .+; nothing is missing\.$/,
    );
    expect(shown(view(), LARGE)).toEqual(rows(LARGE));
  });

  test("written again keeps the user's columns beside their records, whatever moved", () => {
    const { sheet, view } = setup('enabled');
    writeTable(sheet, table(rows(LARGE)));
    view().insertColumnsBefore(2);
    // The user's column B (between the table's columns) and F (after them): a value on each record.
    const typed = Array.from({ length: LARGE }, (_, index) => [`mine ${index}`]);
    sheet.getRange(1, 2).setValues([['Mine']]);
    sheet.getRange(2, 2, LARGE, 1).setValues(typed);
    sheet.getRange(1, 6).setValues([['Signed off']]);
    sheet.getRange(2, 6, LARGE, 1).setValues(typed.map(([value]) => [`${value!} ok`]));
    // Every other record leaves and the rest come back in reverse order: re-typed, not moved.
    const next = rows(LARGE)
      .filter((_, index) => index % 2 === 0)
      .reverse()
      .concat(rows(LARGE / 2, LARGE));
    const result = writeTable(sheet, table(next));
    expect(result.slowerWrite).toBeNull();
    expect(result.userRowsDropped).toBe(LARGE / 2);
    const after = view().values(`A2:F${next.length + 1}`);
    after.forEach((row, index) => {
      const record = next[index]!;
      const number = Number(record[1]);
      expect([row[0], row[2], row[3], row[4]]).toEqual(record);
      expect([row[1], row[5]]).toEqual(number < LARGE ? [`mine ${number}`, `mine ${number} ok`] : ['', '']);
    });
    expect(view().lastRow).toBe(next.length + 1);
  });

  test('written again into a tab whose columns the user reordered puts every value under its title', () => {
    const { sheet, view } = setup('enabled');
    writeTable(sheet, table(rows(LARGE)));
    // "Count" dragged before "Name": the tab reads Count, Name, Note, Key.
    view().moveColumns(2, 1, 1);
    const next = rows(LARGE).map((row) => [row[0]!, Number(row[1]) + 1, row[2]!, row[3]!]);
    expect(writeTable(sheet, table(next)).slowerWrite).toBeNull();
    expect(view().values('A1:D1')).toEqual([['Count', 'Name', 'Note', 'Key']]);
    expect(view().values(`A2:D${LARGE + 1}`)).toEqual(
      next.map(([name, count, note, key]) => [count, name, note, key]),
    );
  });

  test("keeps the add-on's own formulas as formulas, the rest of the table RAW", () => {
    const { sheet, view } = setup('enabled');
    const columns: ColumnSpec[] = [{ header: 'Link', kind: 'formula', width: 100 }, ...COLUMNS];
    const withLinks = rows(LARGE).map((row, index) => [`=HYPERLINK("#gid=0", "row ${index}")`, ...row]);
    expect(writeTable(sheet, table(withLinks, columns, KEY + 1)).slowerWrite).toBeNull();
    expect(view().formulas('A2:B3')).toEqual([
      ['=HYPERLINK("#gid=0", "row 0")', ''],
      ['=HYPERLINK("#gid=0", "row 1")', ''],
    ]);
    expect(view().values(`B2:E${LARGE + 1}`)).toEqual(rows(LARGE));
  });
});

describe('many records arriving on top of a tab', () => {
  test("go in above the first record, which keeps its cells and the user's beside it", () => {
    const { sheet, view } = setup('enabled');
    writeTable(sheet, table(rows(2, 0)));
    sheet.getRange(1, 5, 3, 1).setValues([['Signed off'], ['first ok'], ['second ok']]);
    const arriving = rows(LARGE, 10);
    expect(insertRowsOnTop(sheet, COLUMNS, readTabLayout(sheet, COLUMNS), arriving)).toBeNull();
    const after = view().values(`A2:E${LARGE + 3}`);
    expect(after.slice(0, LARGE)).toEqual(arriving.map((row) => [...row, '']));
    expect(after.slice(LARGE)).toEqual([
      [...rows(1, 0)[0]!, 'first ok'],
      [...rows(1, 1)[0]!, 'second ok'],
    ]);
    expect(view().numberFormats(`A${LARGE + 2}:D${LARGE + 2}`)).toEqual([['@', '0', '@', '@']]);
  });
});

/** A tab of `count` records with the user's column E ("Signed off") and a note on each record's E cell. */
function tabWithUserColumn(count: number) {
  const context = setup('enabled');
  writeTable(context.sheet, table(rows(count)));
  const cells = Array.from({ length: count }, (_, index) => [`ok ${index}`]);
  context.sheet.getRange(1, 5).setValues([['Signed off']]);
  context.sheet.getRange(2, 5, count, 1).setValues(cells);
  context.sheet.getRange(2, 5, count, 1).setNotes(cells.map(([value]) => [`note of ${value!}`]));
  return context;
}

/** Records 0 to `count − 1` without those at `removed`. */
function without(count: number, removed: readonly number[]): CellValue[][] {
  return rows(count).filter((_, index) => !removed.includes(index));
}

describe('a list that changed in many places', () => {
  const COUNT = 100;
  /** Every other record of the first 2 × places leaves: as many separate places where rows go. */
  const everyOther = (places: number) => Array.from({ length: places }, (_, place) => 2 * place);

  test.each([
    [40, 'moves rows: a formula on another tab pointing at a record keeps pointing at it', 100 - 40],
    [41, "is re-typed: the user's cells still follow their records, a reference stays on its row", 100],
  ])('in %i places %s', (places, _what, referencedRow) => {
    const { spreadsheet, sheet, view, service, id } = tabWithUserColumn(COUNT);
    spreadsheet.insertSheet('Summary');
    service.workbooks.get(id)!.typeValues('Summary!A1', [[`='${TAB}'!E100`]]);
    // A rule on the first record's count accepting only its count: the record leaves, and the
    // record written in its row (re-typed) must not be refused by it.
    view().setDataValidation('B2', { valueInList: ['0'], allowInvalid: false });
    const removed = everyOther(places);
    const next = without(COUNT, removed);
    expect(writeTable(sheet, table(next)).userRowsDropped).toBe(places);
    const after = view().values(`A2:E${next.length + 1}`);
    const notes = view().notes(`E2:E${next.length + 1}`);
    next.forEach((record, index) => {
      expect(after[index]).toEqual([...record, `ok ${Number(record[1])}`]);
      expect(notes[index]).toEqual([`note of ok ${Number(record[1])}`]);
    });
    // Nothing of the records that left is below the table.
    expect(view().lastRow).toBe(next.length + 1);
    expect(
      view()
        .notes(`E${next.length + 2}:E${COUNT + 1}`)
        .flat()
        .every((note) => note === ''),
    ).toBe(true);
    service.SpreadsheetApp.flush();
    expect(service.workbooks.get(id)!.sheet('Summary').formulas('A1')).toEqual([
      [`='${TAB}'!E${referencedRow}`],
    ]);
  });
});

describe('a tab whose spare rows the user deleted', () => {
  test('emptied by a run keeps its titles (Sheets keeps a row below the frozen ones)', () => {
    const { sheet, view } = tabWithUserColumn(2);
    const user = view();
    user.deleteRows(4, user.maxRows - 3);
    expect(view().maxRows).toBe(3);
    const result = writeTable(sheet, table([]));
    expect(result.userRowsDropped).toBe(2);
    expect(view().values('A1:E1')).toEqual([['Name', 'Count', 'Note', 'Key', 'Signed off']]);
    expect(view().lastRow).toBe(1);
    expect(view().notes('E2:E3')).toEqual([[''], ['']]);
  });
});

describe("the filter the user set on the tab's last column", () => {
  test('keeps hiding what it hid when the table grows', () => {
    const { sheet, view } = tabWithUserColumn(3);
    writeTable(sheet, table(rows(3)));
    expect(view().filter).toBe('A1:E4');
    view().setFilterCriteria(5, { hiddenValues: ['ok 1'] });
    writeTable(sheet, table(rows(5)));
    expect(view().filter).toBe('A1:E6');
    expect(view().filterCriteria(5)?.hiddenValues).toEqual(['ok 1']);
  });
});

describe('records arriving on top of a first record the user worked on', () => {
  test('leave its note, its rule and its value under the rule with it, and come in plain', () => {
    const { sheet, view } = tabWithUserColumn(2);
    const user = view();
    // A value typed before a rule that would now reject it: Google allows a rule over any value.
    sheet.getRange(2, 5).setValues([['maybe']]);
    user.setDataValidation('E2', { valueInList: ['Yes', 'No'], allowInvalid: false });
    // A rule on the record's own name, which the newest record's name in that row would break.
    user.setDataValidation('A2', { valueInList: [String(rows(1)[0]![0])], allowInvalid: false });
    user.setNote('A2', 'checked by hand');
    sheet.getRange(2, 1, 1, 5).setFontWeight('bold');
    const arriving = rows(2, 10);
    insertRowsOnTop(sheet, COLUMNS, readTabLayout(sheet, COLUMNS), arriving);
    const after = view();
    expect(after.values('A2:E5')).toEqual([
      [...arriving[0]!, ''],
      [...arriving[1]!, ''],
      [...rows(1, 0)[0]!, 'maybe'],
      [...rows(1, 1)[0]!, 'ok 1'],
    ]);
    expect(after.notes('A2:A4')).toEqual([[''], [''], ['checked by hand']]);
    expect(after.notes('E2:E4')).toEqual([[''], [''], ['note of ok 0']]);
    // The new rows take the first record's rule (a rule set on a whole column keeps covering them).
    expect(after.dataValidations('E2:E4').map(([rule]) => rule?.values)).toEqual([
      [['Yes', 'No'], true],
      [['Yes', 'No'], true],
      [['Yes', 'No'], true],
    ]);
    expect(after.dataValidations('A2:A4').map(([rule]) => rule?.values)).toEqual(
      Array.from({ length: 3 }, () => [[String(rows(1)[0]![0])], true]),
    );
    expect(
      after
        .fontWeights('A2:E3')
        .flat()
        .every((weight) => weight === 'normal'),
    ).toBe(true);
  });
});

describe("the user's formulas written back", () => {
  test('a column of formulas under a title goes in with one call, a formula among values with one call each', () => {
    const { service, sheet, view } = setup('absent');
    writeTable(sheet, table(rows(4)));
    const layout = readTabLayout(sheet, COLUMNS);
    const withUserColumns = { ...layout, userColumns: [5, 6], width: 6 };
    const cells = (values: string[], formulas: string[]) => ({ values, formats: ['', ''], formulas });
    const before = service.counter.snapshot();
    writeUserFormulas(sheet, withUserColumns, 1, [
      cells(['Twice', 'Mixed'], ['', '']),
      cells(['', ''], ['=R[0]C2*2', '=1']),
      cells(['', 'typed'], ['=R[0]C2*2', '']),
      cells(['', ''], ['=R[0]C2*3', '=1']),
      cells(['', ''], ['=R[0]C2*2', '=1']),
    ]);
    const after = service.counter.snapshot();
    const calls = (key: string) => (after[key] ?? 0) - (before[key] ?? 0);
    expect(view().formulas('E1:F5')).toEqual([
      ['', ''],
      ['=$B2*2', '=1'],
      ['=$B3*2', ''],
      ['=$B4*3', '=1'],
      ['=$B5*2', '=1'],
    ]);
    // Column E: every record a formula, one call; column F: "=1" in two runs of rows, one call.
    expect([calls('Range.setFormulasR1C1'), calls('RangeList.setFormulaR1C1')]).toEqual([1, 1]);
  });
});

describe('a record whose row the user copied', () => {
  test("keeps the first row's cells when it moves: the copy is dropped", () => {
    const { sheet, view } = tabWithUserColumn(3);
    sheet.getRange(5, 1, 1, 5).setValues([[...rows(1, 1)[0]!, 'the copy']]);
    const [first, second, third] = rows(3);
    writeTable(sheet, table([first!, third!, second!]));
    expect(view().values('A2:E4')).toEqual([
      [...first!, 'ok 0'],
      [...third!, 'ok 2'],
      [...second!, 'ok 1'],
    ]);
    expect(view().lastRow).toBe(4);
  });
});

describe('a large table whose records moved, written just after a commit', () => {
  test('goes through the API after the rows are in place: every cell holds its value', () => {
    const { service, spreadsheet, sheet, view } = setup('enabled');
    writeTable(sheet, table(rows(LARGE)));
    // Ten records leave (ten places where rows are deleted), every note changes.
    const next = without(LARGE, [5, 50, 300, 301, 700, 900, 1200, 1500, 1800, 1999]).map((row) => [
      row[0]!,
      row[1]!,
      `changed ${String(row[2])}`,
      row[3]!,
    ]);
    const content = readTabContent(sheet, table(next), spreadsheet);
    service.SpreadsheetApp.flush();
    expect(writeTableOver(content, table(next), { nothingBuffered: true }).slowerWrite).toBeNull();
    expect(view().values(`A2:D${next.length + 1}`)).toEqual(next);
  });
});
