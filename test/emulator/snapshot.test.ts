/** The HTML snapshot of a workbook: tabs, display values, links between sheets, colours, escaping. */
import { renderWorkbookHtml } from '../../dev/emulator/snapshot';
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function renderedWorkbook() {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({
    name: 'Safety <Sync>',
    sheetNames: ['Equipment types', 'Inspection schedules', 'Archive'],
  });
  service.context.activeSpreadsheetId = id;
  const { SpreadsheetApp } = service;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const types = spreadsheet.getSheetByName('Equipment types')!;
  const schedules = spreadsheet.getSheetByName('Inspection schedules')!;
  const archive = spreadsheet.getSheetByName('Archive')!.hideSheet();

  schedules.getRange('A1:C1').setValues([['Type', 'Due', 'Status']]);
  schedules.setFrozenRows(1);
  schedules.getRange('A2:C5').setNumberFormats(Array.from({ length: 4 }, () => ['@', 'yyyy-mm-dd', '@']));
  schedules.getRange('A2:C5').setValues([
    ['Ladder', 45000, 'Expired'],
    ['Harness', 45100, 'Up to date'],
    ['<script>alert(1)</script>', 45200, 'Expiring'],
    ['=1+2', 45300, 'Up to date'],
  ]);
  schedules.getRange('A2').setNote('Checked "weekly" & logged');
  const status = schedules.getRange('C2:C5');
  schedules.setConditionalFormatRules([
    SpreadsheetApp.newConditionalFormatRule()
      .whenTextEqualTo('Expired')
      .setBackground('#f4cccc')
      .setRanges([status])
      .build(),
    SpreadsheetApp.newConditionalFormatRule()
      .whenFormulaSatisfied('=$B2<TODAY()')
      .setBold(true)
      .setRanges([status])
      .build(),
  ]);

  const link = `=HYPERLINK("#gid=${schedules.getSheetId()}&range=A5", "Schedules of row 5")`;
  types
    .getRange('A1:A5')
    .setValues([
      [link],
      [`=HYPERLINK("#gid=${archive.getSheetId()}&range=B10", "Archive row 10")`],
      ['=HYPERLINK("https://example.com/types?a=1&b=2", "Docs")'],
      ['=HYPERLINK("javascript:alert(1)", "Bad link")'],
      ['=NOT_COMPUTED()'],
    ]);
  const workbook = service.workbooks.get(id)!;
  const overdue = workbook.addFilterView({
    title: 'Overdue',
    range: { sheetId: schedules.getSheetId() },
    filterSpecs: [
      {
        columnIndex: 2,
        filterCriteria: { condition: { type: 'TEXT_EQ', values: [{ userEnteredValue: 'Expired' }] } },
      },
    ],
  });
  types.getRange('B1').setValue(`=HYPERLINK("#gid=${schedules.getSheetId()}&fvid=${overdue}", "Overdue")`);
  return {
    html: renderWorkbookHtml(service.workbooks, id),
    schedulesGid: schedules.getSheetId(),
    typesGid: types.getSheetId(),
    archiveGid: archive.getSheetId(),
  };
}

describe('renderWorkbookHtml', () => {
  const { html, schedulesGid, typesGid, archiveGid } = renderedWorkbook();

  it('is one self-contained document with a tab per sheet, hidden sheets marked', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<(link|img|iframe)\b|src=/);
    expect(html).toContain(`<a href="#sheet-${typesGid}">Equipment types</a>`);
    expect(html).toContain('>Archive (hidden)</a>');
    expect(html).toContain('<title>Safety &lt;Sync&gt;</title>');
  });

  it("links a HYPERLINK to another sheet to that sheet's row, which exists", () => {
    expect(html).toContain(`<a href="#s${schedulesGid}-r5">Schedules of row 5</a>`);
    expect(html).toContain(`<tr id="s${schedulesGid}-r5">`);
  });

  it('links a HYPERLINK to a filter view to its tab, naming the view', () => {
    expect(html).toContain(
      `title="Opens the filter view &quot;Overdue&quot;"><a href="#sheet-${schedulesGid}">Overdue</a>`,
    );
  });

  it('renders a linked row even when it is empty', () => {
    expect(html).toContain(`<a href="#s${archiveGid}-r10">Archive row 10</a>`);
    expect(html).toContain(`<tr id="s${archiveGid}-r10">`);
  });

  it('links external web addresses, and shows other schemes without linking them', () => {
    expect(html).toContain(
      '<a href="https://example.com/types?a=1&amp;b=2" rel="noopener noreferrer">Docs</a>',
    );
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('title="Link not followed: javascript:alert(1)"');
  });

  it('escapes values: a <script> in a cell is text', () => {
    expect(html).toContain('<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it('shows display values: a formula-looking text stays text, dates are formatted', () => {
    expect(html).toContain('<td>=1+2</td>');
    expect(html).toContain('>2023-03-15</td>');
  });

  it('colours cells by the conditional rules it can evaluate and lists the others', () => {
    expect(html).toMatch(/<td style="background-color: #f4cccc">Expired<\/td>/);
    expect(html).toContain('=$B2&lt;TODAY() on C2:C5 → bold true');
  });

  it('marks frozen rows, notes, and error cells with their message', () => {
    expect(html).toContain(`<tr id="s${schedulesGid}-r1" class="frozen">`);
    expect(html).toContain('title="Checked &quot;weekly&quot; &amp; logged"');
    expect(html).toContain(
      '<td class="error" title="#NAME? Unknown function: &#39;NOT_COMPUTED&#39;.">#NAME?</td>',
    );
  });
});
