/**
 * The Overview tab end to end: the built add-on in the emulator against the sample service. Its
 * counts are checked against the service's data through the tests' own rules (training-oracle.ts,
 * forecast-oracle.ts); its two charts against what a user does to them: restyle, move, delete, and
 * rename the tab.
 */
import { renderWorkbookHtml } from '../../../dev/emulator/snapshot';
import { spreadsheetServiceCalls } from '../../../dev/emulator/spreadsheet';
import type { SheetView } from '../../../dev/emulator/spreadsheet/workbook-store';
import { type AddonHarness, createAddonHarness } from '../../support/addon-harness';
import {
  IMPORT,
  LAST_INSPECTED,
  SCHEDULES_TAB,
  SHOW_UPCOMING,
  scheduleRow,
  workbook,
} from '../../support/equipment-tabs';
import type { DatasetData } from '../../support/sample-service';
import { expected, isoOf } from '../../support/training-oracle';
import { dateTimeIn } from '../../support/displayed-dates';
import { dayOfIso, oracleDue, oracleForecast, oracleStatus } from '../../equipment/forecast-oracle';

const TIME_ZONE = 'Pacific/Auckland';
/** Inside the dataset's years (2019 – mid 2025), so that trainings expire and completions fall in every month. */
const NOW = Date.UTC(2024, 8, 20, 15, 30);
const DAY_MS = 86_400_000;
const REFRESH_ALL = 'Refresh all';
const SHOW_TRAINING_STATUS = 'Show training status';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const COMPLETIONS_CHART = 'A6:B30';
const FORECAST_CHART = 'D6:E18';
/** The compliance trend's chart (Compliance history's Overall and Required rows per month). */
const TREND_CHART = 'N6:P30';

function importAll(harness: AddonHarness): void {
  let step = harness.callServer('startCompletionsImport', {});
  while (!step.done) step = harness.callServer('continueCompletionsImport');
}

function todayIso(harness: AddonHarness): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(harness.emulator.clock.now());
}

/** "Sep 2024" for a month `offset` months from today's. */
function monthTitle(today: string, offset: number): string {
  const date = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 + offset, 1));
  return `${MONTHS[date.getUTCMonth()]!} ${date.getUTCFullYear()}`;
}

/**
 * Expired and Expiring person × training pairs, with no catalogue filled in (validity from special
 * expirations), and how many pairs have a completion (a record without a usable date is none).
 */
function trainingCounts(data: DatasetData, today: string): [number, number, number] {
  const byPair = new Map<string, DatasetData['completions']>();
  for (const record of data.completions) {
    const key = JSON.stringify([record.user_id, record.training_id]);
    byPair.set(key, [...(byPair.get(key) ?? []), record]);
  }
  const rule = { name: '', validityMonths: null, required: false, expiringDays: 30 };
  const statuses = [...byPair.values()].map((records) => expected(records, rule, today).status);
  return [
    statuses.filter((s) => s === 'Expired').length,
    statuses.filter((s) => s === 'Expiring').length,
    statuses.filter((s) => s !== 'Not done').length,
  ];
}

/** "1,240": how the Overview writes a denominator. */
function grouped(count: number): string {
  return count.toLocaleString('en-US');
}

/** The last 24 months, oldest first, and how many completions each holds. */
function completionMonths(data: DatasetData, today: string): string[][] {
  return Array.from({ length: 24 }, (_, index) => {
    const title = monthTitle(today, index - 23);
    const count = data.completions.filter(
      (record) => monthTitle(isoOf(Number(record.dateNumber)), 0) === title,
    ).length;
    return [title, String(count)];
  });
}

/** "Last inspected" typed by the test, by type id and schedule id. */
const typed = new Map<string, string>();
const typedKey = (typeId: string, scheduleId: string) => JSON.stringify([typeId, scheduleId]);

function schedulesOf(data: DatasetData) {
  return data.equipmenttypes.flatMap((type) =>
    type.schedules.map((schedule) => {
      const lastInspected = typed.get(typedKey(type.id, schedule.id));
      return { trigger: schedule.trigger, lastInspected: lastInspected ? dayOfIso(lastInspected) : null };
    }),
  );
}

/** Expired, Expiring and never inspected schedules, and how many there are. */
function inspectionCounts(data: DatasetData, today: string): [number, number, number, number] {
  const schedules = schedulesOf(data);
  const statuses = schedules.map((schedule) => oracleStatus(schedule, dayOfIso(today)));
  return [
    statuses.filter((s) => s === 'Expired').length,
    statuses.filter((s) => s === 'Expiring').length,
    // Never inspected: a rolling schedule with no Last inspected has no due date until one is typed
    // (a calendar schedule is due by the calendar, recorded or not); one it could be due by, valid.
    schedules.filter(
      (schedule) =>
        schedule.lastInspected === null &&
        schedule.trigger.timing === 'rolling' &&
        oracleDue({ ...schedule, lastInspected: dayOfIso(today) }, dayOfIso(today)) !== null,
    ).length,
    statuses.length,
  ];
}

function forecastMonths(data: DatasetData, today: string): string[][] {
  const totals = new Array<number>(12).fill(0);
  for (const schedule of schedulesOf(data)) {
    const forecast = oracleForecast(schedule, dayOfIso(today));
    if (forecast.forecast) forecast.counts.forEach((count, month) => (totals[month]! += count));
  }
  return totals.map((total, month) => [monthTitle(today, month), String(total)]);
}

/** The charts' ranges, one entry per chart, in the order they were made. */
function chartRangesOf(sheet: SheetView): string[][] {
  return sheet.charts().map((chart) => chart.ranges);
}

describe('the Overview tab', () => {
  let harness: AddonHarness;
  let data: DatasetData;

  function overview(name = 'Overview'): SheetView {
    return workbook(harness).sheet(name);
  }

  function expectTrainings(sheet: SheetView): void {
    const today = todayIso(harness);
    const [expired, expiring, pairs] = trainingCounts(data, today);
    const of = `(of ${grouped(pairs)} completed person × training pairs)`;
    // No training is required (the Trainings tab is as the import made it): every completed pair
    // counts, and the required-only figure has nothing to count.
    const overall = Math.round((100 * (pairs - expired)) / pairs);
    expect(sheet.displayValues('A1:B6')).toEqual([
      ['Trainings (people × trainings)', asOfNow()],
      ['Last refreshed', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)],
      [`Expired ${of}`, String(expired)],
      [`Expiring ${of}`, String(expiring)],
      [`Compliance, required trainings (overall: ${overall}%)`, 'none required'],
      ['Month', 'Completions'],
    ]);
    expect(expired + expiring).toBeGreaterThan(0);
    expectLinksTo(sheet, ['A3', 'A4'], 'Expiring trainings');
    const months = completionMonths(data, today);
    months[23]![0] += ' (to date)';
    expect(sheet.displayValues('A7:B30')).toEqual(months);
  }

  function expectInspections(sheet: SheetView): void {
    const today = todayIso(harness);
    const [expired, expiring, neverInspected, schedules] = inspectionCounts(data, today);
    const of = `(of ${grouped(schedules)} schedules)`;
    expect(sheet.displayValues('D1:E6')).toEqual([
      ['Inspections (schedules)', asOfNow()],
      ['Last refreshed', expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)],
      [`Expired ${of}`, String(expired)],
      [`Expiring ${of}`, String(expiring)],
      [`Never inspected: enter Last inspected ${of}`, String(neverInspected)],
      ['Month', 'Inspections due'],
    ]);
    expect(expiring).toBeGreaterThan(0);
    expect(neverInspected).toBeGreaterThan(0);
    if (typed.size > 0) expect(expired).toBeGreaterThan(0);
    expectLinksTo(sheet, ['D3', 'D4', 'D5'], 'Upcoming inspections');
    const months = forecastMonths(data, today);
    months[0]![0] += ' (rest of month)';
    expect(sheet.displayValues('D7:E18')).toEqual(months);
  }

  /**
   * "as of" and the time a section's run computed its figures: the runs of a test take a few
   * minutes of the emulator's modelled time, so at most ten minutes before now.
   */
  function asOfNow(): unknown {
    return {
      asymmetricMatch(shown: unknown): boolean {
        const match = /^as of (\d{4}-\d\d-\d\d \d\d:\d\d)$/.exec(String(shown));
        if (!match) return false;
        const now = harness.emulator.clock.now();
        return minuteText(now - 10 * 60_000) <= match[1]! && match[1]! <= minuteText(now);
      },
      toString: () => 'as of <a minute of the last ten>',
    };
  }

  /** A moment as the spreadsheet shows it, to the minute. */
  function minuteText(ms: number): string {
    return dateTimeIn(ms, TIME_ZONE).slice(0, 16);
  }

  /** The labels at `cells` are links to the top of the tab named `tab`, wherever it is. */
  function expectLinksTo(sheet: SheetView, cells: readonly string[], tab: string): void {
    const { gid } = workbook(harness).sheet(tab);
    for (const cell of cells) {
      expect(sheet.formulas(cell)[0]![0]).toMatch(new RegExp(`^=HYPERLINK\\("#gid=${gid}&range=A1", "`));
    }
  }

  beforeAll(async () => {
    harness = await createAddonHarness({
      dataset: { seed: 23, completions: 1_200, users: 25, trainings: 6, equipmentTypes: 20 },
      timeZone: TIME_ZONE,
      emulator: { startTime: NOW },
    });
    harness.connect();
    data = await harness.dataset.data();
  });
  afterAll(() => harness.done());

  test('the full import of completions writes no Overview of its own: Refresh all makes it, with its charts', () => {
    importAll(harness);
    expect(workbook(harness).sheetNames).not.toContain('Overview');
    harness.clickMenu(REFRESH_ALL);
    const sheet = overview();
    expectTrainings(sheet);
    expect(
      sheet
        .displayValues('D1:E18')
        .flat()
        .every((cell) => cell === '' || /^[A-Z]/.test(cell)),
    ).toBe(true);
    expect(chartRangesOf(sheet)).toEqual([[`Overview!${COMPLETIONS_CHART}`], [`Overview!${TREND_CHART}`]]);
    expect(sheet.charts()[0]).toMatchObject({
      type: 'COLUMN',
      options: { title: 'Completed trainings per month, last 24 months' },
    });
    expect(sheet.charts()[1]).toMatchObject({
      type: 'LINE',
      options: { title: 'Compliance per month, last 24 months' },
    });
  });

  test('importing equipment types adds the inspection counts and the forecast per month, with its chart', () => {
    harness.clickMenu(IMPORT);
    const sheet = overview();
    expectInspections(sheet);
    expectTrainings(sheet);
    expect(chartRangesOf(sheet)).toEqual([
      [`Overview!${COMPLETIONS_CHART}`],
      [`Overview!${TREND_CHART}`],
      [`Overview!${FORECAST_CHART}`],
    ]);
  });

  test('the Expired, Expiring and Never inspected figures are coloured like the Status columns when not zero, compliance by its bands', () => {
    expect(overview().conditionalRules()).toEqual([
      {
        type: 'NUMBER_GREATER_THAN',
        values: [0],
        format: { background: '#f4cccc', fontColor: '#990000' },
        ranges: ['B3', 'E3'],
      },
      {
        type: 'NUMBER_GREATER_THAN',
        values: [0],
        format: { background: '#fce8b2', fontColor: '#7f6000' },
        ranges: ['B4', 'E4'],
      },
      {
        type: 'NUMBER_GREATER_THAN',
        values: [0],
        format: { background: '#f4cccc', fontColor: '#990000' },
        ranges: ['E5'],
      },
      // Compliance in the bands of the Training matrix's figures: the first rule that matches wins.
      { type: 'NUMBER_BETWEEN', values: [0.95, 1], format: { background: '#d9ead3' }, ranges: ['B5'] },
      { type: 'NUMBER_BETWEEN', values: [0.8, 0.95], format: { background: '#fce8b2' }, ranges: ['B5'] },
      { type: 'NUMBER_BETWEEN', values: [0, 0.8], format: { background: '#f4cccc' }, ranges: ['B5'] },
      // The roll-ups by site and department below: their Expired and Expiring counts, their compliance.
      {
        type: 'NUMBER_GREATER_THAN',
        values: [0],
        format: { background: '#f4cccc', fontColor: '#990000' },
        ranges: ['D32:D1000'],
      },
      {
        type: 'NUMBER_GREATER_THAN',
        values: [0],
        format: { background: '#fce8b2', fontColor: '#7f6000' },
        ranges: ['E32:E1000'],
      },
      { type: 'NUMBER_BETWEEN', values: [0.95, 1], format: { background: '#d9ead3' }, ranges: ['B32:B1000'] },
      {
        type: 'NUMBER_BETWEEN',
        values: [0.8, 0.95],
        format: { background: '#fce8b2' },
        ranges: ['B32:B1000'],
      },
      { type: 'NUMBER_BETWEEN', values: [0, 0.8], format: { background: '#f4cccc' }, ranges: ['B32:B1000'] },
    ]);
  });

  test('the HTML snapshot draws each chart as a box saying what it charts, with its data', () => {
    const html = renderWorkbookHtml(harness.emulator.workbooks, harness.spreadsheetId);
    const today = todayIso(harness);
    expect(html).toContain('<figcaption>Completed trainings per month, last 24 months</figcaption>');
    expect(html).toContain(`COLUMN chart at G21, reading Overview!${FORECAST_CHART}`);
    const [title, count] = forecastMonths(data, today)[1]!;
    expect(html).toContain(`<tr><td>${title}</td><td class="number">${count}</td>`);
  });

  test('"Last inspected" dates typed, then Show upcoming inspections: the counts follow', () => {
    for (const type of data.equipmenttypes.slice(0, 4)) {
      for (const schedule of type.schedules) {
        typed.set(typedKey(type.id, schedule.id), '2024-03-04');
        const row = scheduleRow(harness, schedule.id, type.id);
        workbook(harness).typeValues(`'${SCHEDULES_TAB}'!${LAST_INSPECTED}${row}`, [['2024-03-04']]);
      }
    }
    harness.clickMenu(SHOW_UPCOMING);
    expectInspections(overview());
    expect(chartRangesOf(overview())).toHaveLength(3);
  });

  test('a user’s title, colours and position of a chart, and the tab’s new name, survive every run; no chart is doubled', () => {
    const sheet = overview();
    const [completionsChart, trendChart, forecastChart] = sheet.charts();
    sheet.setChartOption(completionsChart!.id, 'title', 'Training activity');
    sheet.setChartOption(forecastChart!.id, 'colors', ['#674ea7']);
    sheet.moveChart(forecastChart!.id, 40, 2);
    sheet.rename('Dashboard');
    harness.emulator.clock.advance(40 * DAY_MS);
    for (const menu of [REFRESH_ALL, SHOW_TRAINING_STATUS, SHOW_UPCOMING, REFRESH_ALL, IMPORT]) {
      harness.clickMenu(menu);
    }
    importAll(harness);
    expect(workbook(harness).sheetNames).not.toContain('Overview');
    const renamed = overview('Dashboard');
    expect(renamed.charts()).toEqual([
      {
        ...completionsChart!,
        ranges: [`Dashboard!${COMPLETIONS_CHART}`],
        options: { ...completionsChart!.options, title: 'Training activity' },
      },
      { ...trendChart!, ranges: [`Dashboard!${TREND_CHART}`] },
      {
        ...forecastChart!,
        ranges: [`Dashboard!${FORECAST_CHART}`],
        options: { ...forecastChart!.options, colors: ['#674ea7'] },
        anchor: { row: 40, column: 2, offsetX: 0, offsetY: 0 },
      },
    ]);
    // Forty days on, the counts and months follow today.
    expectTrainings(renamed);
    expectInspections(renamed);
  });

  test('"Last refreshed" moves with imports and refreshes, not with Show training status or Show upcoming inspections', () => {
    const sheet = overview('Dashboard');
    const before = sheet.displayValues('B2:E2')[0];
    harness.emulator.clock.advance(2 * 3_600_000);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    harness.clickMenu(SHOW_UPCOMING);
    expect(sheet.displayValues('B2:E2')[0]).toEqual(before);
    harness.clickMenu(REFRESH_ALL);
    const after = sheet.displayValues('B2:E2')[0]!;
    expect(after[0]).not.toBe(before![0]);
    expect(after[3]).not.toBe(before![3]);
  });

  test('a training marked Required: its pairs give the required-only compliance, beside the overall one', () => {
    const sheet = overview('Dashboard');
    const required = workbook(harness).sheet('Trainings').displayValues('A2')[0]![0]!;
    workbook(harness).typeValues('Trainings!F2', [['yes']]);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    const today = todayIso(harness);
    const people = [...new Set(data.completions.map((record) => record.user_id))];
    const trainingIds = [...new Set(data.completions.map((record) => record.training_id))];
    const tally = { required: [0, 0], overall: [0, 0] };
    for (const person of people) {
      for (const training of trainingIds) {
        const records = data.completions.filter((r) => r.user_id === person && r.training_id === training);
        const isRequired = training === required;
        const rule = { name: '', validityMonths: null, required: isRequired, expiringDays: 30 };
        const { status } = expected(records, rule, today);
        const compliant = ['Valid', 'Valid (no expiry)', 'Expiring'].includes(status) ? 1 : 0;
        if (isRequired) {
          tally.required[0]! += compliant;
          tally.required[1]!++;
        }
        if (isRequired || status !== 'Not done') {
          tally.overall[0]! += compliant;
          tally.overall[1]!++;
        }
      }
    }
    const percent = ([compliant, counted]: number[]) => `${Math.round((100 * compliant!) / counted!)}%`;
    expect(tally.required[1]).toBe(people.length);
    expect(sheet.displayValues('A5:B5')).toEqual([
      [`Compliance, required trainings (overall: ${percent(tally.overall)})`, percent(tally.required)],
    ]);
    // The tests below count with no training required.
    workbook(harness).typeValues('Trainings!F2', [['']]);
  });

  test('a chart the user deleted is made again by the next refresh; the others are left as they are', () => {
    const sheet = overview('Dashboard');
    const [completionsChart, trendChart, forecastChart] = sheet.charts();
    sheet.removeChart(completionsChart!.id);
    const refreshed = sheet.displayValues('B2')[0]![0];
    harness.emulator.clock.advance(3_600_000);
    importAll(harness);
    // The full import writes the numbers of the tab there is, and makes no chart.
    expect(sheet.displayValues('B2')[0]![0]).not.toBe(refreshed);
    expectTrainings(sheet);
    expect(sheet.charts()).toEqual([trendChart, forecastChart]);
    harness.clickMenu(REFRESH_ALL);
    const charts = sheet.charts();
    expect(charts).toHaveLength(3);
    expect(charts.slice(0, 2)).toEqual([trendChart, forecastChart]);
    expect(charts[2]).toMatchObject({
      ranges: [`Dashboard!${COMPLETIONS_CHART}`],
      options: { title: 'Completed trainings per month, last 24 months' },
      anchor: { row: 1, column: 7 },
    });
    expect(charts[2]!.id).not.toBe(completionsChart!.id);
  });

  test('a deleted Overview is made again, with its three charts, by the next Refresh all', () => {
    workbook(harness).deleteSheet('Dashboard');
    harness.clickMenu(REFRESH_ALL);
    const sheet = overview();
    expect(chartRangesOf(sheet)).toEqual([
      [`Overview!${COMPLETIONS_CHART}`],
      [`Overview!${TREND_CHART}`],
      [`Overview!${FORECAST_CHART}`],
    ]);
    expectTrainings(sheet);
    expectInspections(sheet);
  });
});

/**
 * The full import's Spreadsheet calls are a benchmark target. Into a spreadsheet without an
 * Overview it makes no call for it; with one, it finds it by its kept id, writes its numbers and,
 * run from the dialog, ends on it: five calls, against a spreadsheet whose Overview was deleted (the
 * kept id looked up in vain) and another tab put in its place (every tab costs the import's room
 * checks the same calls).
 */
test('the full import of completions makes no call for a missing Overview, and ten for one that exists (its figures, roll-ups and compliance trend)', async () => {
  type Calls = Record<string, number>;
  async function callsOfImports(withOverview: boolean): Promise<[Calls, Calls]> {
    const harness = await createAddonHarness({
      dataset: { seed: 5, completions: 400, users: 10, trainings: 4 },
      timeZone: TIME_ZONE,
      emulator: { startTime: NOW },
    });
    const callsOf = (run: () => void) => {
      harness.emulator.counter.reset();
      run();
      return spreadsheetServiceCalls(harness.emulator.counter.snapshot());
    };
    try {
      harness.connect();
      const first = callsOf(() => importAll(harness));
      harness.clickMenu(SHOW_TRAINING_STATUS);
      if (!withOverview) {
        workbook(harness).deleteSheet('Overview');
        workbook(harness).addSheet('Notes', { rows: 1000, columns: 26 });
      }
      return [first, callsOf(() => importAll(harness))];
    } finally {
      await harness.done();
    }
  }
  const [, withOverview] = await callsOfImports(true);
  const [, afterDeletion] = await callsOfImports(false);
  // Every tab the import writes is found by its id; a deleted Overview is looked for, not made.
  expect(withOverview['Spreadsheet.getSheetById']).toBe(afterDeletion['Spreadsheet.getSheetById']);
  const added = Object.fromEntries(
    Object.entries(withOverview).flatMap(([call, count]) =>
      count === (afterDeletion[call] ?? 0) ? [] : [[call, count - (afterDeletion[call] ?? 0)]],
    ),
  );
  // The section's values; the roll-ups' rows (the rows the last write used, the room, their values,
  // formats and weights); the compliance trend's values; the tab shown at the end.
  expect(added).toEqual({
    'Sheet.getRange': 3,
    'Range.setValues': 3,
    'Sheet.getLastRow': 1,
    'Sheet.getMaxRows': 1,
    'Range.setNumberFormats': 1,
    'Range.setFontWeight': 1,
    'Sheet.activate': 1,
  });
});

test('a tab of the user’s already called "Overview" is left alone: Safety Sync’s gets another name', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 7, completions: 200, users: 8, trainings: 3 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
  });
  try {
    harness.connect();
    const mine = workbook(harness).addSheet('Overview', { rows: 50, columns: 10 });
    workbook(harness).typeValues('Overview!A1:B2', [
      ['My notes', 'kept'],
      ['Budget', 1200],
    ]);
    importAll(harness);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    expect(mine.displayValues('A1:B3')).toEqual([
      ['My notes', 'kept'],
      ['Budget', '1200'],
      ['', ''],
    ]);
    expect(mine.charts()).toEqual([]);
    const ours = workbook(harness).sheet('Safety Sync overview');
    expect(ours.displayValues('A1:A4').flat()).toEqual([
      'Trainings (people × trainings)',
      'Last refreshed',
      expect.stringMatching(/^Expired \(of [\d,]+ completed person × training pairs\)$/),
      expect.stringMatching(/^Expiring \(of [\d,]+ completed person × training pairs\)$/),
    ]);
    expect(chartRangesOf(ours)).toEqual([
      [`Safety Sync overview!${COMPLETIONS_CHART}`],
      [`Safety Sync overview!${TREND_CHART}`],
    ]);
  } finally {
    await harness.done();
  }
});

/**
 * An Overview made by a version before the linked labels, "as of" and the partial month: its
 * labels' cells are plain text, where a link would stay a formula's text. The next run gives its
 * blocks today's formats, once.
 */
test('an Overview made by an earlier version gets the links, "as of" and the partial month from its next run, once', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 5, completions: 400, users: 10, trainings: 4 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
    userScript: `
      function makeOverviewAsEarlierVersions_() {
        var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
        var item = spreadsheet.getDeveloperMetadata().filter(function (metadata) {
          return metadata.getKey() === 'safetySync.overview';
        })[0];
        var state = JSON.parse(item.getValue());
        item.setValue(JSON.stringify({ sheetId: state.sheetId }));
        var sheet = spreadsheet.getSheetById(state.sheetId);
        sheet.getRangeList(['A1:A5', 'D1:D5', 'B1', 'E1', 'B5']).setNumberFormat('@');
        sheet.getRangeList(['A30', 'D7']).setNumberFormat('mmm yyyy');
      }`,
  });
  try {
    harness.connect();
    importAll(harness);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    harness.emulator.run('makeOverviewAsEarlierVersions_', [], { spreadsheetId: harness.spreadsheetId });
    const sheet = workbook(harness).sheet('Overview');
    expect(sheet.numberFormats('A3')).toEqual([['@']]);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    const { gid } = workbook(harness).sheet('Expiring trainings');
    expect(sheet.formulas('A3')[0]![0]).toMatch(
      new RegExp(`^=HYPERLINK\\("#gid=${gid}&range=A1", "Expired \\(of `),
    );
    expect(sheet.displayValues('A3')[0]![0]).toMatch(
      /^Expired \(of \d+ completed person × training pairs\)$/,
    );
    expect(sheet.displayValues('B1')[0]![0]).toMatch(/^as of \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(sheet.displayValues('A30')[0]![0]).toMatch(/^[A-Z][a-z]{2} \d{4} \(to date\)$/);
    // Once: a format the user sets afterwards is theirs.
    sheet.setNumberFormat('A30', 'mmmm yyyy');
    harness.clickMenu(SHOW_TRAINING_STATUS);
    expect(sheet.numberFormats('A30')).toEqual([['mmmm yyyy']]);
  } finally {
    await harness.done();
  }
});

/**
 * A user script function `name` that makes the Overview look as a tab of an older `layout` did: the
 * document state says that layout, and `undo` (statements over `sheet`) takes away what it lacked.
 */
function olderOverviewScript(name: string, layout: number, undo: string): string {
  return `
    function ${name}() {
      var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
      var item = spreadsheet.getDeveloperMetadata().filter(function (metadata) {
        return metadata.getKey() === 'safetySync.overview';
      })[0];
      var state = JSON.parse(item.getValue());
      item.setValue(JSON.stringify({ sheetId: state.sheetId, layout: ${layout} }));
      var sheet = spreadsheet.getSheetById(state.sheetId);
      ${undo}
    }`;
}

/**
 * An Overview made before the roll-ups (layout 2): no colours for them. Its next run adds them, once,
 * over the tab's height, beside the user's own rules.
 */
test('an Overview made before the roll-ups gets their colours from its next run, once', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 5, completions: 200, users: 8, trainings: 3 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
    userScript: olderOverviewScript(
      'makeOverviewWithoutRollUps_',
      2,
      `sheet.setConditionalFormatRules(sheet.getConditionalFormatRules().filter(function (rule) {
        return rule.getRanges()[0].getRow() < 32;
      }));`,
    ),
  });
  try {
    harness.connect();
    importAll(harness);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    const sheet = workbook(harness).sheet('Overview');
    const rollUpRules = () =>
      sheet.conditionalRules().filter((rule) => rule.ranges.some((range) => /^[BDE]32:/.test(range)));
    const made = rollUpRules();
    expect(made).toHaveLength(5);
    harness.emulator.run('makeOverviewWithoutRollUps_', [], { spreadsheetId: harness.spreadsheetId });
    expect(rollUpRules()).toEqual([]);
    const others = sheet.conditionalRules();
    harness.clickMenu(SHOW_TRAINING_STATUS);
    expect(sheet.conditionalRules()).toEqual([...others, ...made]);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    expect(sheet.conditionalRules()).toEqual([...others, ...made]);
  } finally {
    await harness.done();
  }
});

/**
 * An Overview made before the compliance trend (layout 3): no trend formats, no trend chart. Its
 * next run gives it both, once, and adds no rule it already had.
 */
test('an Overview made before the compliance trend gets its formats and chart from its next run, once', async () => {
  const harness = await createAddonHarness({
    dataset: { seed: 5, completions: 200, users: 8, trainings: 3 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
    userScript: olderOverviewScript(
      'makeOverviewWithoutTrend_',
      3,
      `sheet.getRange('N1:P30').setNumberFormat('General');`,
    ),
  });
  try {
    harness.connect();
    importAll(harness);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    const sheet = workbook(harness).sheet('Overview');
    const formats = sheet.numberFormats('N1:P30');
    const rules = sheet.conditionalRules();
    harness.emulator.run('makeOverviewWithoutTrend_', [], { spreadsheetId: harness.spreadsheetId });
    sheet.removeChart(sheet.charts().find((chart) => chart.ranges[0] === `Overview!${TREND_CHART}`)!.id);
    expect(chartRangesOf(sheet)).toEqual([[`Overview!${COMPLETIONS_CHART}`]]);
    expect(sheet.numberFormats('N7:P7')[0]).not.toEqual(formats[6]);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    harness.clickMenu(SHOW_TRAINING_STATUS);
    expect(chartRangesOf(sheet)).toEqual([[`Overview!${COMPLETIONS_CHART}`], [`Overview!${TREND_CHART}`]]);
    expect(sheet.numberFormats('N1:P30')).toEqual(formats);
    expect(sheet.numberFormats('N30:P30')[0]).toEqual(['mmm yyyy" (so far)"', '0%', '0%']);
    expect(sheet.conditionalRules()).toEqual(rules);
  } finally {
    await harness.done();
  }
});
