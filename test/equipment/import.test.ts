/**
 * Equipment types end to end: the built add-on (dist/Code.js) in the emulator, importing from the
 * sample service over loopback, as a user clicks through the Safety Sync menu. Expected rows come
 * from the service's own data; inspection statuses from the rules module (table-tested on its own),
 * applied to the spreadsheet's today and to what the user typed in "Last inspected".
 */
import { createEmulator, loadDist } from '../../dev/emulator';
import { renderWorkbookHtml } from '../../dev/emulator/snapshot';
import type { SheetView } from '../../dev/emulator/spreadsheet/workbook-store';
import { type CalendarDate, fromIsoDate, toIsoDate } from '../../src/lib/dates';
import { nextInspection, type InspectionResult, scheduleTerms } from '../../src/equipment/inspections';
import { type AddonHarness, createAddonHarness, DIST_DIR, serverOf } from '../support/addon-harness';
import { type EquipmentType, SampleDataset, sampleServiceUrl } from '../support/sample-service';
import { dateTimeIn, isoOfDateNumber } from '../support/displayed-dates';
import { spreadsheetServiceCalls } from '../../dev/emulator/spreadsheet';
import {
  daysLeftShown,
  IMPORT,
  LAST_INSPECTED,
  METAFIELDS_TAB,
  rows,
  SCHEDULES_TAB,
  SHOW_UPCOMING,
  syncLog,
  tab,
  typeLastInspected,
  keepTextFromBeforeValidation,
  TYPES_TAB,
  UPCOMING_TAB,
  workbook,
} from '../support/equipment-tabs';

/** The day in a time zone of the emulator's current instant: the spreadsheet's "today". */
function todayIn(harness: AddonHarness, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(harness.emulator.clock.now()));
}

/** Where an in-sheet link lands: the tab with that gid, the column (letters) and the row. */
function landing(
  harness: AddonHarness,
  link: string | null,
): { sheet: SheetView; column: string; row: number } {
  const match = /^#gid=(\d+)&range=([A-Z]+)(\d+)$/.exec(link ?? '');
  if (!match) throw new Error(`not an in-sheet link to a cell: ${link}`);
  const sheet = workbook(harness)
    .sheets()
    .find((candidate) => candidate.gid === Number(match[1]));
  if (!sheet) throw new Error(`no tab with gid ${match[1]}`);
  return { sheet, column: match[2]!, row: Number(match[3]) };
}

/** The value of column `letter` on the row a link lands on. */
function landedOn(harness: AddonHarness, link: string | null, letter: string): string {
  const { sheet, row } = landing(harness, link);
  return sheet.displayValues(`${letter}${row}`)[0]![0]!;
}

function links(sheet: SheetView, column: string): (string | null)[] {
  return sheet.lastRow < 2
    ? []
    : sheet.cells(`${column}2:${column}${sheet.lastRow}`).map(([cell]) => cell!.link);
}

interface ExpectedSchedule {
  type: EquipmentType;
  schedule: EquipmentType['schedules'][number];
  inspection: InspectionResult;
}

function expectedSchedules(
  types: readonly EquipmentType[],
  today: string,
  lastInspected: Record<string, string> = {},
): ExpectedSchedule[] {
  return types.flatMap((type) =>
    type.schedules.map((schedule) => {
      const typed = lastInspected[schedule.id];
      const date = typed === undefined ? null : fromIsoDate(typed);
      const inspection = nextInspection({
        trigger: schedule.trigger,
        lastInspected:
          typed === undefined
            ? { kind: 'empty' }
            : date === null
              ? { kind: 'notADate', text: JSON.stringify(typed) }
              : { kind: 'date', date },
        today: fromIsoDate(today)!,
      });
      return { type, schedule, inspection };
    }),
  );
}

/** A schedule's row A…Q of the schedules tab (every visible column) as displayed. */
function displayedScheduleRow(
  expected: ExpectedSchedule,
  lastInspected: Record<string, string> = {},
): string[] {
  const { type, schedule, inspection } = expected;
  return [
    type.id,
    type.title,
    schedule.id,
    schedule.name,
    scheduleTerms(schedule.trigger)?.timing ?? '',
    inspection.dueDate === null ? '' : toIsoDate(inspection.dueDate),
    lastInspected[schedule.id] ?? '',
    inspection.status,
    String(schedule.trigger.expiringPeriodInDays),
    inspection.reason ?? '',
    schedule.instructions,
    schedule.form_id === undefined ? '' : String(schedule.form_id),
    schedule.doRequireAttachments ? 'TRUE' : 'FALSE',
    schedule.trigger.type,
    schedule.trigger.timing,
    isoOfDateNumber(schedule.trigger.timingDateNumber),
    schedule.trigger.frequencyInDays === undefined ? '' : String(schedule.trigger.frequencyInDays),
  ];
}

/** Listed although without a due date: a date typed in "Last inspected" places them. */
const NEEDS_LAST_INSPECTED = ['No inspection recorded', 'Check Last inspected: in the future'];

function expectedUpcoming(schedules: readonly ExpectedSchedule[], horizonDays = 30): ExpectedSchedule[] {
  const dueOf = ({ inspection }: ExpectedSchedule) => inspection.dueDate ?? Number.NEGATIVE_INFINITY;
  return schedules
    .filter(
      ({ inspection }) =>
        ['Expired', 'Expiring', ...NEEDS_LAST_INSPECTED].includes(inspection.status) ||
        (inspection.daysLeft !== null && inspection.daysLeft <= horizonDays),
    )
    .sort((a, b) => dueOf(a) - dueOf(b));
}

const WHAT_TO_DO: Record<string, string> = {
  'No inspection recorded': 'No inspection recorded: enter Last inspected',
  'Check Last inspected: in the future':
    'Last inspected is after today: enter the date of the last inspection done',
  Expired: 'Overdue: inspect now, then enter the date in Last inspected',
  Expiring: 'Inspect by the due date, then enter the date in Last inspected',
  'Up to date': 'Plan the inspection before the due date',
};

/** A row of Upcoming inspections, A…K, as displayed. */
function displayedUpcomingRow(
  { type, schedule, inspection }: ExpectedSchedule,
  lastInspected: Record<string, string> = {},
): string[] {
  const typed = lastInspected[schedule.id] ?? '';
  return [
    type.id,
    type.title,
    schedule.id,
    schedule.name,
    scheduleTerms(schedule.trigger)?.timing ?? '',
    fromIsoDate(typed) === null ? '' : typed,
    inspection.dueDate === null ? '' : toIsoDate(inspection.dueDate),
    daysLeftShown(inspection.daysLeft),
    String(schedule.trigger.expiringPeriodInDays ?? ''),
    inspection.status,
    WHAT_TO_DO[inspection.status]!,
  ];
}

describe('300 equipment types with every anomaly the service can send', () => {
  let harness: AddonHarness;
  let types: EquipmentType[];
  let today: string;

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 300, seed: 5, anomalies: true } });
    harness.connect();
    harness.clickMenu(IMPORT);
    types = (await harness.dataset.data()).equipmenttypes;
    today = todayIn(harness, 'Europe/London');
  });
  afterAll(() => harness.done());

  test('the run succeeds and says what it found', () => {
    const schedules = expectedSchedules(types, today);
    const count = (status: string) =>
      schedules.filter(({ inspection }) => inspection.status === status).length;
    const [alert] = workbook(harness).ui.alerts;
    expect(alert!.message).toContain('Imported 300 equipment types (300 new, 0 removed)');
    expect(alert!.message).toContain(`${count('Expired')} expired, ${count('Expiring')} expiring`);
    expect(alert!.message).toContain('5 unsupported');
    const [line] = syncLog(harness);
    expect(line![0]).toBe(IMPORT);
    expect(line![5]).toBe('Success');
    expect(line![8]).toContain(`${count('Expired')} expired, ${count('Expiring')} expiring`);
    expect(line![8]).toContain(
      '5 schedules imported with status "Unsupported schedule": schedule sch-anomaly-1',
    );
    expect(line![8]).toContain('2 metafields imported with a note');
  });

  test('"Equipment types": one row per type with id, title, created, counts, next inspection and status', () => {
    const schedules = expectedSchedules(types, today);
    const urgency = [
      'Expired',
      'Expiring',
      'Last inspected is not a date',
      'No inspection recorded',
      'Unsupported schedule',
      'Up to date',
    ];
    expect(rows(tab(harness, TYPES_TAB), 'A', 'G')).toEqual(
      types.map((type) => {
        const own = schedules
          .filter((expected) => expected.type === type)
          .map(({ inspection }) => inspection);
        const dueDates = own.flatMap(({ dueDate }) => (dueDate === null ? [] : [dueDate]));
        return [
          type.id,
          type.title,
          dateTimeIn(type.created * 1000, 'Europe/London'),
          String(type.metafields.length),
          String(type.schedules.length),
          dueDates.length ? toIsoDate(Math.min(...dueDates) as CalendarDate) : '',
          urgency.find((status) => own.some((inspection) => inspection.status === status)) ?? '',
        ];
      }),
    );
  });

  test('"Equipment metafields": one row per metafield, in type order, notes on the anomalies', () => {
    expect(rows(tab(harness, METAFIELDS_TAB), 'A', 'G')).toEqual(
      types.flatMap((type) =>
        type.metafields.map((metafield) => [
          type.id,
          type.title,
          metafield.id,
          metafield.name,
          metafield.type,
          metafield.list_id === undefined ? '' : String(metafield.list_id),
          metafield.id === 'mf-anomaly-1'
            ? 'Type "date" is not one of text, number, list.'
            : metafield.id === 'mf-anomaly-2'
              ? 'A list metafield without list_id: which list it uses is unknown.'
              : '',
        ]),
      ),
    );
  });

  test('"Inspection schedules": one row per schedule, its trigger, next due, status and why', () => {
    const expected = expectedSchedules(types, today).map((schedule) => displayedScheduleRow(schedule));
    expect(rows(tab(harness, SCHEDULES_TAB), 'A', 'Q')).toEqual(expected);
    const unsupported = expected.filter((row) => row[7] === 'Unsupported schedule').map((row) => row[2]);
    expect(unsupported).toEqual([
      'sch-anomaly-1',
      'sch-anomaly-2',
      'sch-anomaly-3',
      'sch-anomaly-4',
      'sch-anomaly-5',
    ]);
  });

  test('every title and count on the types tab lands on a row of that type: its first metafield or schedule', () => {
    const sheet = tab(harness, TYPES_TAB);
    const [titles, metafieldCounts, scheduleCounts] = ['B', 'D', 'E'].map((column) => links(sheet, column));
    types.forEach((type, index) => {
      expect(landedOn(harness, titles![index]!, 'A')).toBe(type.id);
      if (type.metafields.length === 0) expect(metafieldCounts![index]).toBeNull();
      else expect(landedOn(harness, metafieldCounts![index]!, 'C')).toBe(type.metafields[0]!.id);
      if (type.schedules.length === 0) expect(scheduleCounts![index]).toBeNull();
      else expect(landedOn(harness, scheduleCounts![index]!, 'C')).toBe(type.schedules[0]!.id);
    });
    // The sample guarantees both empty cases: type 0 has no metafields, type 1 no schedules.
    expect(types[0]!.metafields).toHaveLength(0);
    expect(types[1]!.schedules).toHaveLength(0);
  });

  test('every metafield and schedule links back to the row of its type', () => {
    for (const name of [METAFIELDS_TAB, SCHEDULES_TAB]) {
      const sheet = tab(harness, name);
      const typeIds = rows(sheet, 'A', 'A').map(([id]) => id);
      links(sheet, 'B').forEach((link, index) => {
        const target = landing(harness, link);
        expect(target.sheet.name).toBe(TYPES_TAB);
        expect(landedOn(harness, link, 'A')).toBe(typeIds[index]);
      });
    }
  });

  test('"Upcoming inspections": never inspected first, then expired, expiring and due within 30 days, soonest first, each linked to its Last inspected cell', () => {
    const sheet = tab(harness, UPCOMING_TAB);
    const upcoming = expectedUpcoming(expectedSchedules(types, today));
    expect(upcoming.map(({ inspection }) => inspection.status)).toContain('No inspection recorded');
    expect(rows(sheet, 'A', 'K')).toEqual(upcoming.map((schedule) => displayedUpcomingRow(schedule)));
    links(sheet, 'D').forEach((link, index) => {
      expect(landing(harness, link)).toMatchObject({
        sheet: { name: SCHEDULES_TAB },
        column: LAST_INSPECTED,
      });
      expect(landedOn(harness, link, 'C')).toBe(upcoming[index]!.schedule.id);
    });
  });

  test('service text stays literal: ids are text, nothing the service sent became a formula', () => {
    const schedules = tab(harness, SCHEDULES_TAB);
    const formulas = schedules.formulas(`A2:Q${schedules.lastRow}`);
    expect(
      formulas.flatMap((row) => row.filter((formula, column) => formula !== '' && column !== 1)),
    ).toEqual([]);
    expect(rows(schedules, 'D', 'D').flat()).toContain('=Safety check');
    expect(rows(tab(harness, METAFIELDS_TAB), 'D', 'D').flat()).toContain('=Location');
    expect(rows(tab(harness, TYPES_TAB), 'B', 'B').flat()).toContain('=Ladder');
    for (const [name, column] of [
      [TYPES_TAB, 'A'],
      [METAFIELDS_TAB, 'C'],
      [SCHEDULES_TAB, 'C'],
      [UPCOMING_TAB, 'C'],
    ] as const) {
      const sheet = tab(harness, name);
      expect(new Set(sheet.numberFormats(`${column}2:${column}${sheet.lastRow}`).flat())).toEqual(
        new Set(['@']),
      );
    }
    expect(rows(tab(harness, TYPES_TAB), 'A', 'A').flat()).toContain('001000');
  });

  test('dates are date-only cells; headers bold and frozen; a filter over each table', () => {
    const schedules = tab(harness, SCHEDULES_TAB);
    const timingDates = schedules
      .cells(`P2:P${schedules.lastRow}`)
      .flat()
      .filter((cell) => cell.value !== '');
    expect(timingDates.length).toBeGreaterThan(0);
    for (const cell of timingDates) {
      expect(cell.numberFormat).toBe('yyyy-mm-dd');
      expect(cell.display).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const [name, width] of [
      [TYPES_TAB, 'G'],
      [METAFIELDS_TAB, 'H'],
      [SCHEDULES_TAB, 'S'],
      [UPCOMING_TAB, 'L'],
    ] as const) {
      const sheet = tab(harness, name);
      expect(sheet.frozenRows).toBe(1);
      expect(new Set(sheet.fontWeights(`A1:${width}1`).flat())).toEqual(new Set(['bold']));
      expect(sheet.filter).toBe(`A1:${width}${sheet.lastRow}`);
    }
  });

  test('Expired is red and Expiring amber on the status columns', () => {
    for (const [name, column] of [
      [TYPES_TAB, 'G'],
      [SCHEDULES_TAB, 'H'],
      [UPCOMING_TAB, 'J'],
    ] as const) {
      const sheet = tab(harness, name);
      // The schedules tab's "Last inspected" (G) flags a date after today, before the status colours.
      const futureDateFlag =
        name === SCHEDULES_TAB
          ? [
              {
                type: 'CUSTOM_FORMULA',
                values: ['=AND(ISNUMBER(G2),G2>TODAY())'],
                format: { background: '#fce8b2', fontColor: '#7f6000' },
                ranges: [`G2:G${sheet.maxRows}`],
              },
            ]
          : [];
      expect(sheet.conditionalRules()).toEqual([
        ...futureDateFlag,
        {
          type: 'TEXT_EQUAL_TO',
          values: ['Expired'],
          format: { background: '#f4cccc', fontColor: '#990000' },
          ranges: [`${column}2:${column}${sheet.maxRows}`],
        },
        {
          type: 'TEXT_EQUAL_TO',
          values: ['Expiring'],
          format: { background: '#fce8b2', fontColor: '#7f6000' },
          ranges: [`${column}2:${column}${sheet.maxRows}`],
        },
      ]);
    }
  });
});

describe('a second refresh after the service renamed and removed types', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 40, seed: 8 } });
    harness.connect();
  });
  afterAll(() => harness.done());

  test('updates every tab in place and keeps "Last inspected" and the user\'s own columns', async () => {
    harness.clickMenu(IMPORT);
    const before = (await harness.dataset.data()).equipmenttypes;
    const gids = [TYPES_TAB, METAFIELDS_TAB, SCHEDULES_TAB, UPCOMING_TAB].map(
      (name) => tab(harness, name).gid,
    );
    const withSchedules = before.filter((type) => type.schedules.length > 1);
    const removed = [withSchedules[0]!, before[5]!];
    const kept = withSchedules.filter((type) => !removed.includes(type));
    const lastInspected: Record<string, string> = {
      [removed[0]!.schedules[0]!.id]: '2024-02-01',
      [kept[0]!.schedules[0]!.id]: '2024-02-20',
      [kept[1]!.schedules[1]!.id]: '2023-12-31',
    };
    typeLastInspected(harness, lastInspected);
    // Text the cell held before Sheets refused anything but a date there (an older version's tab).
    keepTextFromBeforeValidation(harness, { [kept[2]!.schedules[0]!.id]: 'after the audit' });
    lastInspected[kept[2]!.schedules[0]!.id] = 'after the audit';
    // The user's own column on the types tab, next to the table.
    const types = tab(harness, TYPES_TAB);
    const ownerRow = before.indexOf(kept[3]!) + 2;
    workbook(harness).typeValues(`'${TYPES_TAB}'!H1`, [['Owner']]);
    workbook(harness).typeValues(`'${TYPES_TAB}'!H${ownerRow}`, [['Alice']]);

    await harness.dataset.mutate({
      renameEquipmentTypes: [
        { id: kept[0]!.id, title: 'Renamed "forklift"' },
        { id: kept[3]!.id, title: '=Not a formula' },
      ],
      removeEquipmentTypes: removed.map((type) => type.id),
    });
    harness.clickMenu(IMPORT);

    const after = (await harness.dataset.data()).equipmenttypes;
    expect(after).toHaveLength(38);
    expect(
      [TYPES_TAB, METAFIELDS_TAB, SCHEDULES_TAB, UPCOMING_TAB].map((name) => tab(harness, name).gid),
    ).toEqual(gids);
    expect(rows(types, 'A', 'B')).toEqual(after.map((type) => [type.id, type.title]));
    expect(types.lastRow).toBe(39);
    expect(rows(tab(harness, METAFIELDS_TAB), 'A', 'C')).toEqual(
      after.flatMap((type) => type.metafields.map((metafield) => [type.id, type.title, metafield.id])),
    );

    const today = todayIn(harness, 'Europe/London');
    const { [removed[0]!.schedules[0]!.id]: _gone, ...stillThere } = lastInspected;
    const expected = expectedSchedules(after, today, stillThere);
    expect(rows(tab(harness, SCHEDULES_TAB), 'A', 'Q')).toEqual(
      expected.map((schedule) => displayedScheduleRow(schedule, stillThere)),
    );
    const statusOf = (scheduleId: string) =>
      expected.find((e) => e.schedule.id === scheduleId)!.inspection.status;
    expect(statusOf(kept[2]!.schedules[0]!.id)).toBe('Last inspected is not a date');
    expect(tab(harness, SCHEDULES_TAB).lastRow).toBe(expected.length + 1);

    // The user's column moved with its type.
    const ownerNow = after.findIndex((type) => type.id === kept[3]!.id) + 2;
    expect(types.displayValues(`H1:H${types.lastRow}`).flat()).toEqual([
      'Owner',
      ...after.map((_, index) => (index + 2 === ownerNow ? 'Alice' : '')),
    ]);

    // Links are rebuilt for the rows as they are now.
    links(types, 'E').forEach((link, index) => {
      if (link !== null) expect(landedOn(harness, link, 'C')).toBe(after[index]!.schedules[0]!.id);
    });
    links(tab(harness, SCHEDULES_TAB), 'B').forEach((link, index) => {
      expect(landedOn(harness, link, 'A')).toBe(expected[index]!.type.id);
    });

    const [line] = syncLog(harness);
    expect(line![0]).toBe(IMPORT);
    expect(line![1]).toBe('0');
    expect(line![2]).toBe('2');
    expect(line![8]).toContain('1 "Last inspected" dates belonged to schedules the service no longer lists');
  });
});

describe('Spreadsheet service calls do not grow with the number of types', () => {
  // Tables go one way at both sizes: 300 types make tables large enough for the Sheets API, which
  // writes them with calls of its own, as constant (test/trainings/completions/import.test.ts).
  async function importCalls(equipmentTypes: number) {
    const harness = await createAddonHarness({
      dataset: { equipmentTypes, seed: 2, anomalies: true },
      withoutSheetsAdvancedService: true,
    });
    try {
      harness.connect();
      harness.emulator.counter.reset();
      harness.clickMenu(IMPORT);
      const first = spreadsheetServiceCalls(harness.emulator.counter.snapshot());
      harness.emulator.counter.reset();
      harness.clickMenu(IMPORT);
      const refresh = spreadsheetServiceCalls(harness.emulator.counter.snapshot());
      return { first, refresh, metafieldRows: tab(harness, METAFIELDS_TAB).lastRow - 1 };
    } finally {
      await harness.done();
    }
  }

  test('the same calls for 10 and for 300 types', async () => {
    const small = await importCalls(10);
    const large = await importCalls(300);
    expect(large.refresh).toEqual(small.refresh);
    // A first import of 300 types grows the metafields tab past its 1,000 rows: once, whatever the count.
    expect(small.metafieldRows).toBeLessThan(999);
    expect(large.metafieldRows).toBeGreaterThan(999);
    const extra = Object.fromEntries(
      Object.entries(large.first)
        .map(([key, count]) => [key, count - (small.first[key] ?? 0)] as const)
        .filter(([, difference]) => difference !== 0),
    );
    expect(extra).toEqual({ 'Sheet.insertRowsAfter': 1 });
  });
});

describe('Show upcoming inspections', () => {
  let harness: AddonHarness;
  let types: EquipmentType[];

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 60, seed: 4 } });
    harness.connect();
    harness.clickMenu(IMPORT);
    types = (await harness.dataset.data()).equipmenttypes;
  });
  afterAll(() => harness.done());

  test('recomputes from the tabs after "Last inspected" is edited: no request, no connection needed', async () => {
    const today = todayIn(harness, 'Europe/London');
    const rolling = types
      .flatMap((type) => type.schedules)
      .filter((schedule) => schedule.trigger.timing === 'rolling');
    const daysAgo = (days: number) => toIsoDate((fromIsoDate(today)! - days) as CalendarDate);
    const dates = {
      [rolling[0]!.id]: daysAgo(rolling[0]!.trigger.frequencyInDays! + 3),
      [rolling[1]!.id]: daysAgo(rolling[1]!.trigger.frequencyInDays! - 2),
    };
    const text = { [rolling[2]!.id]: 'last Tuesday' };
    typeLastInspected(harness, dates);
    keepTextFromBeforeValidation(harness, text);
    const lastInspected = { ...dates, ...text };
    harness.callServer('removeToken');
    const requestsBefore = (await harness.dataset.requestLog()).requests.length;

    harness.clickMenu(SHOW_UPCOMING);

    expect((await harness.dataset.requestLog()).requests).toHaveLength(requestsBefore);
    const expected = expectedSchedules(types, today, lastInspected);
    expect(rows(tab(harness, SCHEDULES_TAB), 'A', 'Q')).toEqual(
      expected.map((schedule) => displayedScheduleRow(schedule, lastInspected)),
    );
    const statusOf = (scheduleId: string) => expected.find((e) => e.schedule.id === scheduleId)!.inspection;
    expect(statusOf(rolling[0]!.id)).toMatchObject({ status: 'Expired', daysLeft: -3 });
    expect(statusOf(rolling[1]!.id).daysLeft).toBe(2);
    expect(statusOf(rolling[2]!.id).status).toBe('Last inspected is not a date');

    const upcoming = expectedUpcoming(expected);
    expect(rows(tab(harness, UPCOMING_TAB), 'A', 'K')).toEqual(
      upcoming.map((schedule) => displayedUpcomingRow(schedule, lastInspected)),
    );
    links(tab(harness, UPCOMING_TAB), 'D').forEach((link, index) => {
      expect(landedOn(harness, link, 'C')).toBe(upcoming[index]!.schedule.id);
    });
    const typeOfExpired = types.findIndex((type) => type.schedules.includes(rolling[0]!));
    expect(tab(harness, TYPES_TAB).displayValues(`G${typeOfExpired + 2}`)).toEqual([['Expired']]);

    // It rewrote the Overview, the landing page, and ends on it.
    expect(workbook(harness).activeSheetName).toBe('Overview');
    const toast = workbook(harness).ui.toasts.at(-1)!;
    const count = (status: string) =>
      expected.filter(({ inspection }) => inspection.status === status).length;
    expect(toast.message).toContain(`${count('Expired')} expired, ${count('Expiring')} expiring`);
  });

  test('the HTML snapshot (npm start) shows Expired red and Expiring amber, and every link in it lands', () => {
    const html = renderWorkbookHtml(harness.emulator.workbooks, harness.spreadsheetId);
    expect(html).toContain('style="background-color: #f4cccc; color: #990000">Expired<');
    expect(html).toContain('style="background-color: #fce8b2; color: #7f6000">Expiring<');
    expect(html).not.toContain('Link not followed');
  });

  test('says what to do when nothing was imported yet', async () => {
    const fresh = await createAddonHarness({ dataset: { equipmentTypes: 1 } });
    try {
      fresh.clickMenu(SHOW_UPCOMING);
      expect(workbook(fresh).ui.alerts.map((alert) => alert.message)).toEqual([
        'There are no inspection schedules in this spreadsheet yet. Use Safety Sync → Import equipment types first.',
      ]);
      expect(workbook(fresh).sheetNames).not.toContain(UPCOMING_TAB);
    } finally {
      await fresh.done();
    }
  });
});

describe('a spreadsheet far from UTC (UTC+14)', () => {
  test("today is the spreadsheet's day, and dates stay on their day", async () => {
    const timeZone = 'Pacific/Kiritimati';
    const harness = await createAddonHarness({ timeZone, dataset: { equipmentTypes: 40, seed: 6 } });
    try {
      harness.connect();
      harness.clickMenu(IMPORT);
      const types = (await harness.dataset.data()).equipmenttypes;
      const today = todayIn(harness, timeZone);
      expect(today).not.toBe(todayIn(harness, 'Europe/London'));
      const rolling = types
        .flatMap((type) => type.schedules)
        .find((schedule) => schedule.trigger.timing === 'rolling')!;
      const lastInspected = { [rolling.id]: '2024-02-29' };
      typeLastInspected(harness, lastInspected);
      harness.clickMenu(IMPORT);

      const expected = expectedSchedules(types, today, lastInspected);
      expect(rows(tab(harness, SCHEDULES_TAB), 'A', 'Q')).toEqual(
        expected.map((schedule) => displayedScheduleRow(schedule, lastInspected)),
      );
      expect(rows(tab(harness, UPCOMING_TAB), 'C', 'C').flat()).toEqual(
        expectedUpcoming(expected).map(({ schedule }) => schedule.id),
      );
      expect(rows(tab(harness, TYPES_TAB), 'C', 'C').flat()).toEqual(
        types.map((type) => dateTimeIn(type.created * 1000, timeZone)),
      );
    } finally {
      await harness.done();
    }
  });
});

describe('a failed run', () => {
  test('leaves every tab as it was and logs why', async () => {
    const harness = await createAddonHarness({ dataset: { equipmentTypes: 20, seed: 9 } });
    try {
      harness.connect();
      harness.clickMenu(IMPORT);
      const tabs = [TYPES_TAB, METAFIELDS_TAB, SCHEDULES_TAB, UPCOMING_TAB];
      const contents = () => tabs.map((name) => tab(harness, name).cells());
      const before = contents();
      await harness.dataset.setFaults({ queue: [{ fault: 'non_envelope', method: 'equipmenttypes.list' }] });
      await harness.dataset.mutate({
        removeEquipmentTypes: [(await harness.dataset.data()).equipmenttypes[0]!.id],
      });

      harness.clickMenu(IMPORT);

      expect(contents()).toEqual(before);
      const [alert] = workbook(harness).ui.alerts.slice(-1);
      expect(alert!.title).toBe('Safety Sync: Import equipment types failed');
      expect(alert!.message).toContain('equipmenttypes.list');
      const [line] = syncLog(harness);
      expect([line![0], line![5], line![6]]).toEqual([IMPORT, 'Failed', 'transport: not_envelope']);
    } finally {
      await harness.done();
    }
  });
});

describe('conditional formats', () => {
  /** A user's own rules on the Upcoming tab, made the way a user's script or the Sheets UI would. */
  const USER_RULES_SCRIPT = `
function addUserRules_() {
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Upcoming inspections');
  var rules = sheet.getConditionalFormatRules();
  rules.push(SpreadsheetApp.newConditionalFormatRule().whenTextEqualTo('Expired').setBold(true)
    .setRanges([sheet.getRange('J2:J50')]).build());
  rules.push(SpreadsheetApp.newConditionalFormatRule().whenCellEmpty().setBackground('#00ff00')
    .setRanges([sheet.getRange('A2:B20')]).build());
  sheet.setConditionalFormatRules(rules);
}`;

  test("are added without wiping the user's rules, and not added twice", async () => {
    const dataset = await SampleDataset.create({ equipmentTypes: 30, seed: 3 });
    const dist = loadDist(DIST_DIR);
    const emulator = createEmulator({ ...dist, code: dist.code + USER_RULES_SCRIPT });
    const id = emulator.createSpreadsheet({ name: 'Safety', timeZone: 'Europe/London' });
    try {
      emulator.onOpen(id);
      serverOf(emulator, id).callServer('saveSettings', {
        baseUrl: sampleServiceUrl(),
        token: dataset.tokens.valid,
      });
      emulator.clickMenu(id, 'Safety Sync', IMPORT);
      emulator.run('addUserRules_', [], { spreadsheetId: id });
      emulator.clickMenu(id, 'Safety Sync', IMPORT);
      emulator.clickMenu(id, 'Safety Sync', SHOW_UPCOMING);

      const sheet = emulator.workbooks.get(id)!.sheet(UPCOMING_TAB);
      expect(
        sheet.conditionalRules().map((rule) => [rule.type, rule.values, rule.format, rule.ranges]),
      ).toEqual([
        ['TEXT_EQUAL_TO', ['Expired'], { bold: true }, ['J2:J50']],
        ['CELL_EMPTY', [], { background: '#00ff00' }, ['A2:B20']],
        [
          'TEXT_EQUAL_TO',
          ['Expired'],
          { background: '#f4cccc', fontColor: '#990000' },
          [`J2:J${sheet.maxRows}`],
        ],
        [
          'TEXT_EQUAL_TO',
          ['Expiring'],
          { background: '#fce8b2', fontColor: '#7f6000' },
          [`J2:J${sheet.maxRows}`],
        ],
      ]);
    } finally {
      await dataset.delete();
    }
  });
});

describe('Refresh all', () => {
  test('refreshes equipment types once they were imported, each import with its own Sync log line', async () => {
    const harness = await createAddonHarness({ dataset: { equipmentTypes: 12, completions: 50, seed: 1 } });
    try {
      harness.connect();
      harness.clickMenu('Refresh all');
      expect(syncLog(harness).map((line) => line[0])).toEqual(['Refresh completed trainings']);

      harness.clickMenu(IMPORT);
      await harness.dataset.mutate({
        renameEquipmentTypes: [
          { id: (await harness.dataset.data()).equipmenttypes[2]!.id, title: 'Renamed' },
        ],
      });
      harness.clickMenu('Refresh all');

      expect(syncLog(harness).map((line) => [line[0], line[5]])).toEqual([
        ['Refresh equipment types', 'Success'],
        ['Refresh completed trainings', 'Success'],
        [IMPORT, 'Success'],
        ['Refresh completed trainings', 'Success'],
      ]);
      expect(tab(harness, TYPES_TAB).displayValues('B4')).toEqual([['Renamed']]);
    } finally {
      await harness.done();
    }
  });
});
