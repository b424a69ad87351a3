/**
 * Embedded charts: built with the chart builder, inserted once, read back as new objects that hold
 * the chart as it is, counted as Spreadsheet calls; and refused where a chart could not exist.
 */
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function sheet() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
  function builder(a1) {
    return sheet().newChart().addRange(sheet().getRange(a1))
      .setChartType(Charts.ChartType.COLUMN).setPosition(2, 4, 0, 0).setOption('title', 'Counts');
  }
  function insert(a1) { sheet().insertChart(builder(a1).build()); }
  function describe() {
    return sheet().getCharts().map(function (chart) {
      return [chart.getChartId(), chart.getRanges().map(function (range) { return range.getA1Notation(); })];
    });
  }
  function insertTwice() { var chart = builder('A1:B3').build(); sheet().insertChart(chart); sheet().insertChart(chart); }
  function idOfBuilt() { return builder('A1:B3').build().getChartId(); }
  function sameObjects() { return sheet().getCharts()[0] === sheet().getCharts()[0]; }
  function withoutType() { sheet().insertChart(sheet().newChart().addRange(sheet().getRange('A1:B3')).setPosition(1, 1, 0, 0).build()); }
  function withoutRange() { sheet().insertChart(sheet().newChart().setChartType(Charts.ChartType.LINE).setPosition(1, 1, 0, 0).build()); }
  function badType() { sheet().newChart().setChartType('DONUT'); }
  function otherSheet() {
    var other = SpreadsheetApp.getActiveSpreadsheet().insertSheet('Other');
    other.insertChart(builder('A1:B3').build());
  }
  function rangeGone() {
    var chart = builder('A1:B30').build();
    sheet().deleteRows(20, 981);
    sheet().insertChart(chart);
  }
  function insertReading(name, a1) {
    var range = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).getRange(a1);
    sheet().insertChart(builder('A1:B3').addRange(range).build());
  }
  function unknownMethod() { sheet().getCharts()[0].getBlob(); }
`;

function setup() {
  const emulator = emulate(SCRIPT);
  const id = emulator.createSpreadsheet({ name: 'Charts' });
  return { emulator, id, at: { spreadsheetId: id } };
}

it('inserts a built chart with a new id each time and reads it back with its ranges', () => {
  const { emulator, id, at } = setup();
  emulator.run('insert', ['A1:B3'], at);
  emulator.run('insert', ['D1:E12'], at);
  const charts = emulator.run('describe', [], at) as [number, string[]][];
  expect(charts.map(([, ranges]) => ranges)).toEqual([['A1:B3'], ['D1:E12']]);
  expect(new Set(charts.map(([chartId]) => chartId)).size).toBe(2);
  const [first] = emulator.workbooks.get(id)!.sheet('Sheet1').charts();
  expect(first).toMatchObject({
    type: 'COLUMN',
    ranges: ['Sheet1!A1:B3'],
    options: { title: 'Counts' },
    anchor: { row: 2, column: 4 },
  });
  expect(emulator.run('sameObjects', [], at)).toBe(false);
});

it('counts the builder and the chart as Spreadsheet calls', () => {
  const { emulator, at } = setup();
  emulator.counter.reset();
  emulator.run('insert', ['A1:B3'], at);
  const counts = emulator.counter.snapshot();
  expect(counts['EmbeddedChartBuilder.build']).toBe(1);
  expect(counts['EmbeddedChartBuilder.addRange']).toBe(1);
  expect(counts['Sheet.insertChart']).toBe(1);
});

it('gives a built chart no id until a sheet holds it, and inserts it only once', () => {
  const { emulator, at } = setup();
  expect(emulator.run('idOfBuilt', [], at)).toBeNull();
  expect(() => emulator.run('insertTwice', [], at)).toThrow('already in the spreadsheet');
});

it('refuses a chart without a type or a range, an unknown type, and another sheet', () => {
  const { emulator, at } = setup();
  expect(() => emulator.run('withoutType', [], at)).toThrow('needs a type');
  expect(() => emulator.run('withoutRange', [], at)).toThrow('at least one range');
  expect(() => emulator.run('badType', [], at)).toThrow("don't match the method signature");
  expect(() => emulator.run('otherSheet', [], at)).toThrow('whose newChart() built it');
});

it('refuses a range no longer in the grid, and methods it does not emulate', () => {
  const { emulator, at } = setup();
  expect(() => emulator.run('rangeGone', [], at)).toThrow('outside the dimensions');
  emulator.run('insert', ['A1:B3'], at);
  expect(() => emulator.run('unknownMethod', [], at)).toThrow('not emulated: EmbeddedChart.getBlob');
});

it('moves a chart range with inserted rows, and lets a user restyle, move and delete a chart', () => {
  const { emulator, id, at } = setup();
  emulator.run('insert', ['A2:B3'], at);
  const sheet = emulator.workbooks.get(id)!.sheet('Sheet1');
  sheet.insertRowsBefore(1, 2);
  expect(sheet.charts()[0]!.ranges).toEqual(['Sheet1!A4:B5']);
  const chartId = sheet.charts()[0]!.id;
  sheet.setChartOption(chartId, 'title', 'Mine');
  sheet.moveChart(chartId, 30, 1);
  expect(sheet.charts()[0]).toMatchObject({ options: { title: 'Mine' }, anchor: { row: 30, column: 1 } });
  sheet.removeChart(chartId);
  expect(emulator.run('describe', [], at)).toEqual([]);
});

it('lets a user delete a tab: charts elsewhere stop reading it; a formula naming it shows #REF!', () => {
  const { emulator, id, at } = setup();
  const workbook = emulator.workbooks.get(id)!;
  workbook.addSheet('Data', { rows: 10, columns: 5 });
  workbook.addSheet('Named', { rows: 10, columns: 5 });
  workbook.typeValues('Sheet1!A1', [['=Named!A1']]);
  emulator.run('insertReading', ['Data', 'C1:D4'], at);
  const sheet = workbook.sheet('Sheet1');
  expect(sheet.charts()[0]!.ranges).toEqual(['Sheet1!A1:B3', 'Data!C1:D4']);
  workbook.deleteSheet('Data');
  expect(workbook.sheetNames).toEqual(['Sheet1', 'Named']);
  expect(sheet.charts()[0]!.ranges).toEqual(['Sheet1!A1:B3']);
  workbook.deleteSheet('Named');
  expect(sheet.formulas('A1')).toEqual([['=#REF!']]);
});
