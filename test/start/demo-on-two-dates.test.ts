/**
 * The demo as `npm start` runs it (its own steps, on the built add-on and the sample service's demo
 * data over HTTP), on two days a year apart of the emulator's clock: whatever the day, the workbook a
 * newcomer opens shows what a manager would recognise, counted from the tabs the add-on wrote.
 */
import { createDemoDataset, dayIn, runDemo, type DemoRun } from '../../dev/start';
import { renderWorkbookHtml } from '../../dev/emulator/snapshot';
import { sampleServiceUrl } from '../support/sample-service';

const TIME_ZONE = 'Europe/London';

/** The tab's rows as the user sees them, each by its column titles. */
function rowsOf(run: DemoRun, sheetName: string): Array<Record<string, string>> {
  const [header = [], ...rows] = run.emulator.workbooks
    .get(run.spreadsheetId)!
    .sheet(sheetName)
    .displayValues();
  return rows.map((row) => Object.fromEntries(header.map((title, index) => [title, row[index] ?? ''])));
}

describe.each([
  ['a spring day', Date.UTC(2026, 2, 10, 9, 30)],
  ['the same day a year later', Date.UTC(2027, 2, 10, 9, 30)],
])('the demo on %s', (_, startTime) => {
  const today = dayIn(TIME_ZONE, startTime);
  let run: DemoRun;

  beforeAll(async () => {
    const { connection, demo } = await createDemoDataset(sampleServiceUrl(), today);
    run = await runDemo({ connection, demo, startTime, timeZone: TIME_ZONE });
  });

  it('shows at least 5 trainings expiring within 30 days, and a few lapsed: fewer than a third of the pairs', () => {
    const listed = rowsOf(run, 'Expiring trainings');
    const expiring = listed.filter((row) => row['Status'] === 'Expiring');
    const lapsed = listed.filter((row) => row['Status'] === 'Expired');
    const people = new Set(rowsOf(run, 'Completed trainings').map((row) => row['User ID'])).size;
    const trainings = rowsOf(run, 'Trainings').length;
    expect(expiring.length).toBeGreaterThanOrEqual(5);
    expect(lapsed.length).toBeGreaterThanOrEqual(3);
    expect(lapsed.length).toBeLessThan((people * trainings) / 3);
    // No completion is dated after the day the demo is seen on.
    const completed = rowsOf(run, 'Completed trainings').map((row) => row['Completion date']!);
    expect(completed.every((date) => /^\d{4}-\d\d-\d\d$/.test(date))).toBe(true);
    expect(completed.filter((date) => date > today)).toEqual([]);
  });

  it('names people and trainings as a real site would', () => {
    // Every item row: the heading above the older lapses names no one.
    const listed = rowsOf(run, 'Expiring trainings').filter((row) => row['Status'] !== '');
    for (const row of listed) {
      expect(row['User name']).toMatch(/^\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+$/u);
      // The catalogue is filled in: the list shows each training's name, not its id.
      expect(row['Training']).not.toBe(row['Training ID']);
      expect(row['Training']).toMatch(/^\p{Lu}[\p{L} ()]+$/u);
    }
    expect(rowsOf(run, 'Trainings').every((row) => row['Name'] !== '')).toBe(true);
  });

  it('leaves a few schedules with no inspection recorded, and flags some overdue and some due soon', () => {
    const schedules = rowsOf(run, 'Inspection schedules');
    const neverInspected = schedules.filter((row) => row['Last inspected'] === '');
    expect(neverInspected.length).toBeGreaterThanOrEqual(3);
    expect(neverInspected.length).toBeLessThan(schedules.length / 3);
    const upcoming = rowsOf(run, 'Upcoming inspections');
    expect(upcoming.filter((row) => row['Status'] === 'Expired').length).toBeGreaterThanOrEqual(2);
    expect(upcoming.filter((row) => row['Status'] === 'Expiring').length).toBeGreaterThanOrEqual(1);
  });

  it('has completions in each whole month of the 24 the Overview charts', () => {
    const workbook = run.emulator.workbooks.get(run.spreadsheetId)!;
    const chart = workbook
      .sheets()
      .flatMap((sheet) => sheet.charts())
      .find((each) => /^Completed trainings per month/.test(String(each.options['title'])))!;
    const range = chart.ranges[0]!;
    const split = range.lastIndexOf('!');
    const months = workbook
      .sheet(range.slice(0, split))
      .values(range.slice(split + 1))
      .slice(1);
    expect(months).toHaveLength(24);
    // The last is the current month, which may have begun only today.
    expect(months.slice(0, -1).filter((month) => !(Number(month[1]) > 0))).toEqual([]);
  });

  it('renders a snapshot that opens on the active tab, with the widths the add-on set', () => {
    const workbook = run.emulator.workbooks.get(run.spreadsheetId)!;
    const html = renderWorkbookHtml(run.emulator.workbooks, run.spreadsheetId);
    const active = workbook.sheets().find((sheet) => sheet.name === workbook.activeSheetName)!;
    expect(html).toContain(`<section class="sheet" data-active id="sheet-${active.gid}">`);
    const schedules = workbook.sheet('Inspection schedules');
    const lastInspected = schedules.displayValues()[0]!.indexOf('Last inspected') + 1;
    const section = html.slice(html.indexOf(`id="sheet-${schedules.gid}"`));
    const colgroup = /<colgroup>(.*?)<\/colgroup>/.exec(section)![1]!;
    const widths = [...colgroup.matchAll(/width: (\d+)px/g)].map((match) => Number(match[1]));
    const shown = Array.from({ length: schedules.lastColumn }, (__, i) => i + 1).filter(
      (column) => !schedules.hiddenColumns.includes(column),
    );
    // After the column of row numbers, each shown column as wide as the sheet says.
    expect(widths.slice(1)).toEqual(shown.map((column) => schedules.columnWidth(column)));
    expect(widths[1 + shown.indexOf(lastInspected)]).toBe(schedules.columnWidth(lastInspected));
  });
});
