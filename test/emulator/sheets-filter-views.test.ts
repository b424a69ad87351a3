/**
 * Saved filter views through the Sheets advanced service (Sheets.Spreadsheets.batchUpdate's
 * addFilterView, updateFilterView and deleteFilterView, and Sheets.Spreadsheets.get), and what a user
 * opening one sees: ids answered, field masks, a bad request leaving the batch unapplied, views gone
 * with their tab, reads refused while writes are buffered, the read quota, and the rows a view shows.
 */
import {
  READ_REQUESTS_PER_MINUTE_PER_PROJECT,
  READ_REQUESTS_PER_MINUTE_PER_USER,
} from '../../dev/emulator/spreadsheet';
import { emulate } from './fixtures/script-emulator';

const MANIFEST = JSON.stringify({
  timeZone: 'Etc/UTC',
  dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
});

const SCRIPT = `
  function ss() { return SpreadsheetApp.getActiveSpreadsheet(); }
  function gid(name) { return ss().getSheetByName(name).getSheetId(); }
  function batch(requests) {
    try { return Sheets.Spreadsheets.batchUpdate({ requests: requests }, ss().getId()).replies; }
    catch (e) { return { error: e.message, code: e.details && e.details.code }; }
  }
  function get(optionalArgs) {
    try { return Sheets.Spreadsheets.get(ss().getId(), optionalArgs); }
    catch (e) { return { error: e.message, code: e.details && e.details.code }; }
  }
  function gets(count) {
    var refused = null;
    for (var i = 0; i < count && refused === null; i++) { var answer = get(); if (answer.error) refused = answer; }
    return refused;
  }
  function bufferedThenGet() {
    var id = ss().getId();
    ss().getSheets()[0].getRange('A1').setValue('x');
    try { return Sheets.Spreadsheets.get(id); } catch (e) { return { error: e.message }; }
  }
  function fill(name, rows) { ss().getSheetByName(name).getRange(1, 1, rows.length, rows[0].length).setValues(rows); }
  function deleteTab(name) { ss().deleteSheet(ss().getSheetByName(name)); }
`;

function open() {
  const emulator = emulate(SCRIPT, { files: { 'appsscript.json': MANIFEST } });
  const spreadsheetId = emulator.createSpreadsheet();
  const run = (fn: string, ...args: unknown[]) => emulator.run(fn, args, { kind: 'menu', spreadsheetId });
  const workbook = () => emulator.workbooks.get(spreadsheetId)!;
  workbook().addSheet('Training matrix', { rows: 20, columns: 5 });
  const matrix = run('gid', 'Training matrix') as number;
  return { emulator, run, workbook, matrix, spreadsheetId };
}

const BATCH_ERROR = 'API call to sheets.spreadsheets.batchUpdate failed with error: ';

function siteView(sheetId: number, title: string, site: string) {
  return {
    addFilterView: {
      filter: {
        title,
        range: { sheetId, startRowIndex: 0, startColumnIndex: 0, endColumnIndex: 5 },
        filterSpecs: [
          {
            columnIndex: 1,
            filterCriteria: { condition: { type: 'TEXT_EQ', values: [{ userEnteredValue: site }] } },
          },
        ],
      },
    },
  };
}

interface SheetResource {
  properties: { sheetId: number; title: string; index: number; gridProperties: { rowCount: number } };
  filterViews?: { filterViewId: number; title: string; range: object; filterSpecs?: unknown[] }[];
}

describe('batchUpdate', () => {
  it('adds filter views and answers each with its id, a new one or the free one given', () => {
    const { run, workbook, matrix } = open();
    const replies = run('batch', [
      siteView(matrix, 'Leeds', 'Leeds'),
      { addFilterView: { filter: { filterViewId: 4242, title: 'All', range: { sheetId: matrix } } } },
    ]) as { addFilterView: { filter: { filterViewId: number; title: string; range: object } } }[];
    const leeds = replies[0]!.addFilterView.filter;
    expect(leeds).toMatchObject({ title: 'Leeds', range: { sheetId: matrix, startRowIndex: 0 } });
    expect(Number.isInteger(leeds.filterViewId)).toBe(true);
    expect(replies[1]!.addFilterView.filter).toEqual({
      filterViewId: 4242,
      title: 'All',
      range: { sheetId: matrix },
    });
    expect(
      workbook()
        .sheet('Training matrix')
        .filterViews()
        .map((view) => view.filterViewId),
    ).toEqual([leeds.filterViewId, 4242]);
    // An id taken is a 400, and the batch's other requests are not applied.
    const taken = run('batch', [
      siteView(matrix, 'York', 'York'),
      { addFilterView: { filter: { filterViewId: 4242, title: 'Again', range: { sheetId: matrix } } } },
    ]) as { error: string; code: number };
    expect(taken).toMatchObject({ code: 400, error: expect.stringContaining('4242 already exists') });
    expect(workbook().sheet('Training matrix').filterViews()).toHaveLength(2);
  });

  it('updates only the fields the mask names, and needs a mask', () => {
    const { run, workbook, matrix } = open();
    const [reply] = run('batch', [siteView(matrix, 'Leeds', 'Leeds')]) as {
      addFilterView: { filter: { filterViewId: number } };
    }[];
    const id = reply!.addFilterView.filter.filterViewId;
    expect(
      run('batch', [
        {
          updateFilterView: {
            filter: { filterViewId: id, title: 'Leeds site', filterSpecs: [] },
            fields: 'title',
          },
        },
      ]),
    ).toEqual([{}]);
    const [view] = workbook().sheet('Training matrix').filterViews();
    expect(view!.title).toBe('Leeds site');
    expect(view!.filterSpecs).toHaveLength(1);
    run('batch', [
      {
        updateFilterView: {
          filter: {
            filterViewId: id,
            filterSpecs: [{ columnIndex: 2, filterCriteria: { hiddenValues: [''] } }],
          },
          fields: 'filterSpecs',
        },
      },
    ]);
    expect(workbook().sheet('Training matrix').filterViews()[0]!.filterSpecs).toEqual([
      { columnIndex: 2, filterCriteria: { hiddenValues: [''] } },
    ]);
    expect(run('batch', [{ updateFilterView: { filter: { filterViewId: id, title: 'x' } } }])).toMatchObject({
      code: 400,
      error: expect.stringContaining("'fields' is required"),
    });
    expect(
      run('batch', [{ updateFilterView: { filter: { filterViewId: id, title: 'x' }, fields: 'sortSpecs' } }]),
    ).toMatchObject({ error: expect.stringMatching(/^not emulated: .*sortSpecs/) });
  });

  it('deletes a view; an unknown id is a 400 and nothing in the batch is applied', () => {
    const { run, workbook, matrix } = open();
    const [reply] = run('batch', [siteView(matrix, 'Leeds', 'Leeds')]) as {
      addFilterView: { filter: { filterViewId: number } };
    }[];
    const id = reply!.addFilterView.filter.filterViewId;
    const sheetsBefore = workbook().sheetNames;
    expect(
      run('batch', [
        { addSheet: { properties: { title: 'Later' } } },
        { deleteFilterView: { filterId: id } },
        { deleteFilterView: { filterId: 123 } },
      ]),
    ).toEqual({ code: 400, error: `${BATCH_ERROR}No filter view with id: 123` });
    expect(workbook().sheetNames).toEqual(sheetsBefore);
    expect(workbook().sheet('Training matrix').filterViews()).toHaveLength(1);
    // Nor may a batch delete a view twice.
    expect(
      run('batch', [{ deleteFilterView: { filterId: id } }, { deleteFilterView: { filterId: id } }]),
    ).toEqual({
      code: 400,
      error: `${BATCH_ERROR}No filter view with id: ${id}`,
    });
    expect(run('batch', [{ deleteFilterView: { filterId: id } }])).toEqual([{}]);
    expect(workbook().sheet('Training matrix').filterViews()).toEqual([]);
    expect(
      run('batch', [{ updateFilterView: { filter: { filterViewId: id, title: 'x' }, fields: 'title' } }]),
    ).toEqual({ code: 400, error: `${BATCH_ERROR}No filter view with id: ${id}` });
  });

  it('refuses a range outside the grid, a spec outside the range, a title that is not a string', () => {
    const { run, workbook, matrix } = open();
    const add = (filter: object) =>
      run('batch', [{ addFilterView: { filter } }]) as { error: string; code: number };
    expect(add({ title: 'Tall', range: { sheetId: matrix, endRowIndex: 21 } })).toMatchObject({
      code: 400,
      error: expect.stringContaining('exceeds grid limits. Max rows: 20, max columns: 5'),
    });
    expect(add({ title: 'Nowhere', range: { sheetId: 999 } })).toMatchObject({
      code: 400,
      error: expect.stringContaining('No grid with id: 999'),
    });
    expect(
      add({
        title: 'Narrow',
        range: { sheetId: matrix, startColumnIndex: 0, endColumnIndex: 2 },
        filterSpecs: [{ columnIndex: 3, filterCriteria: { hiddenValues: ['x'] } }],
      }),
    ).toMatchObject({ code: 400, error: expect.stringContaining('outside the filter view') });
    expect(add({ title: 7, range: { sheetId: matrix } })).toMatchObject({ code: 400 });
    expect(
      add({
        title: 'Numbers',
        range: { sheetId: matrix },
        filterSpecs: [
          { columnIndex: 0, filterCriteria: { condition: { type: 'NUMBER_GREATER', values: [] } } },
        ],
      }),
    ).toMatchObject({ error: expect.stringMatching(/^not emulated: .*NUMBER_GREATER/) });
    expect(workbook().sheet('Training matrix').filterViews()).toEqual([]);
  });

  it('refuses a view over cells a protection keeps from the user (the stricter reading)', () => {
    const { emulator, workbook, matrix, spreadsheetId } = open();
    workbook().sheet('Training matrix').protectRange('A1:E1', 'Header');
    const editor = emulator.asUser('editor@example.com');
    const asEditor = (requests: unknown[]) => editor.run('batch', [requests], { spreadsheetId });
    expect(asEditor([siteView(matrix, 'Leeds', 'Leeds')])).toEqual({
      code: 400,
      error: `${BATCH_ERROR}You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you need to edit.`,
    });
    const below = {
      addFilterView: { filter: { title: 'Body', range: { sheetId: matrix, startRowIndex: 1 } } },
    };
    expect(asEditor([below])).toEqual([expect.objectContaining({ addFilterView: expect.anything() })]);
  });

  it('get is refused while SpreadsheetApp writes are buffered, as batchUpdate is', () => {
    const { run } = open();
    expect(run('bufferedThenGet')).toEqual({
      error: expect.stringMatching(/get while .* buffered \(flush first\)/),
    });
  });
});

describe('get', () => {
  it('lists every tab, with filterViews only on the tabs that have some', () => {
    const { run, matrix } = open();
    const [reply] = run('batch', [siteView(matrix, 'Leeds', 'Leeds')]) as {
      addFilterView: { filter: { filterViewId: number } };
    }[];
    const answer = run('get', { fields: 'sheets(properties,filterViews)' }) as { sheets: SheetResource[] };
    expect(answer.sheets.map((sheet) => sheet.properties.title)).toEqual(['Sheet1', 'Training matrix']);
    expect(answer.sheets[0]).not.toHaveProperty('filterViews');
    expect(answer.sheets[1]!.properties).toEqual({
      sheetId: matrix,
      title: 'Training matrix',
      index: 1,
      sheetType: 'GRID',
      gridProperties: { rowCount: 20, columnCount: 5 },
    });
    expect(answer.sheets[1]!.filterViews).toEqual([
      expect.objectContaining({ filterViewId: reply!.addFilterView.filter.filterViewId, title: 'Leeds' }),
    ]);
    expect(run('get', { ranges: ['A1'] })).toMatchObject({
      error: expect.stringMatching(/^not emulated: .*ranges/),
    });
  });

  it('no longer lists the views of a deleted tab', () => {
    const { run, workbook, matrix } = open();
    run('batch', [siteView(matrix, 'Leeds', 'Leeds')]);
    run('deleteTab', 'Training matrix');
    const answer = run('get') as { sheets: SheetResource[] };
    expect(answer.sheets.some((sheet) => sheet.filterViews)).toBe(false);
    expect(
      workbook()
        .sheets()
        .flatMap((sheet) => sheet.filterViews()),
    ).toEqual([]);
  });

  it('answers 429 past 60 read requests a minute per user, and reads again a minute later', () => {
    const { emulator, run } = open();
    expect(run('gets', READ_REQUESTS_PER_MINUTE_PER_USER)).toBeNull();
    expect(run('gets', 1)).toEqual({
      code: 429,
      error:
        "API call to sheets.spreadsheets.get failed with error: Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:123456789012'.",
    });
    // Reads and writes are counted apart: a write is still taken.
    expect(run('batch', [{ appendDimension: { sheetId: 0, dimension: 'ROWS', length: 1 } }])).toEqual([{}]);
    emulator.clock.advance(60_000);
    expect(run('gets', 1)).toBeNull();
  });

  it('answers 429 past 300 read requests a minute for the whole project', () => {
    const { emulator, run } = open();
    const others = READ_REQUESTS_PER_MINUTE_PER_PROJECT / READ_REQUESTS_PER_MINUTE_PER_USER;
    for (let user = 0; user < others; user++)
      emulator.sheetsApiQuotas.spend(`user${user}@example.com`, READ_REQUESTS_PER_MINUTE_PER_USER, 'read');
    expect(run('gets', 1)).toMatchObject({
      code: 429,
      error: expect.stringContaining("limit 'Read requests per minute' of"),
    });
  });

  it('is priced as one Sheets API request', () => {
    const { emulator, run } = open();
    emulator.costs.reset();
    run('get');
    expect(emulator.costs.quantities()).toMatchObject({ sheetsApiRequests: 1, sheetsApiCells: 0 });
  });
});

describe('what a user opening a view sees', () => {
  function matrixWithRows() {
    const opened = open();
    opened.run('fill', 'Training matrix', [
      ['Name', 'Site', 'Department'],
      ['Ann', 'Leeds', 'Stores'],
      ['Bob', 'leeds', ''],
      ['Cy', 'York', 'Stores'],
      ['Di', 'Leeds', ''],
    ]);
    return opened;
  }

  it('shows the header and the rows whose text TEXT_EQ matches exactly (case counts)', () => {
    const { run, workbook, matrix } = matrixWithRows();
    const [reply] = run('batch', [siteView(matrix, 'Leeds', 'Leeds')]) as {
      addFilterView: { filter: { filterViewId: number } };
    }[];
    const id = reply!.addFilterView.filter.filterViewId;
    // Rows 6… are blank: their site is not "Leeds".
    expect(workbook().rowsShownByFilterView(id)).toEqual([1, 2, 5]);
  });

  it("hides rows whose displayed text is one of hiddenValues, '' for a blank cell", () => {
    const { workbook, matrix } = matrixWithRows();
    const id = workbook().addFilterView({
      title: 'Staffed departments',
      range: { sheetId: matrix, endRowIndex: 5 },
      filterSpecs: [{ columnIndex: 2, filterCriteria: { hiddenValues: [''] } }],
    });
    expect(workbook().rowsShownByFilterView(id)).toEqual([1, 2, 4]);
    workbook().updateFilterView(id, {
      filterSpecs: [{ columnIndex: 2, filterCriteria: { hiddenValues: ['Stores'] } }],
    });
    expect(workbook().rowsShownByFilterView(id)).toEqual([1, 3, 5]);
  });

  it('follows its rows when rows are inserted above it, and a user may delete it', () => {
    const { run, workbook, matrix } = matrixWithRows();
    run('batch', [siteView(matrix, 'Leeds', 'Leeds')]);
    const [view] = workbook().sheet('Training matrix').filterViews();
    workbook().sheet('Training matrix').insertRowsBefore(1, 2);
    expect(workbook().sheet('Training matrix').filterViews()[0]!.range).toEqual({
      ...view!.range,
      startRowIndex: 2,
    });
    expect(workbook().rowsShownByFilterView(view!.filterViewId)).toEqual([3, 4, 7]);
    workbook().deleteFilterView(view!.filterViewId);
    expect(run('get')).not.toHaveProperty('sheets.1.filterViews');
  });

  it('hands out copies: changing one does not change the view', () => {
    const { run, workbook, matrix } = matrixWithRows();
    run('batch', [siteView(matrix, 'Leeds', 'Leeds')]);
    const [view] = workbook().sheet('Training matrix').filterViews();
    view!.title = 'Changed';
    view!.filterSpecs.length = 0;
    expect(workbook().sheet('Training matrix').filterViews()[0]).toMatchObject({ title: 'Leeds' });
    expect(workbook().rowsShownByFilterView(view!.filterViewId)).toEqual([1, 2, 5]);
  });
});
