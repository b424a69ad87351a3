import { addDays, fromIsoDate, toSheetSerial } from '../../src/lib/dates';
import type { CalendarDate } from '../../src/lib/dates';
import {
  type InspectionInput,
  type InspectionResult,
  InspectionStatus,
} from '../../src/equipment/inspections';
import {
  checkedHorizonDays,
  countInspections,
  describeInspectionCounts,
  type ScheduleEntry,
  UPCOMING_COLUMNS,
  upcomingTable,
} from '../../src/equipment/upcoming';

const TODAY = fromIsoDate('2024-03-10')!;
const SCHEDULES_SHEET_ID = 300;
/** Where the rows link: the schedules tab's "Last inspected" column, P as the add-on lays it out. */
const LAST_INSPECTED_CELLS = { sheetId: SCHEDULES_SHEET_ID, column: 16 };

function dueIn(daysLeft: number, status: InspectionStatus): InspectionResult {
  return { status, dueDate: addDays(TODAY, daysLeft), daysLeft };
}
function undated(status: InspectionStatus): InspectionResult {
  return { status, dueDate: null, daysLeft: null, reason: 'why' };
}

let nextRow = 2;
function entry(
  scheduleId: string,
  inspection: InspectionResult,
  inspectionInput: Partial<InspectionInput> = {},
): ScheduleEntry {
  return {
    typeId: `type-${scheduleId}`,
    typeTitle: `Type "${scheduleId}"`,
    scheduleId,
    scheduleName: `Check ${scheduleId}`,
    key: `["type-${scheduleId}","${scheduleId}"]`,
    row: nextRow++,
    inspection,
    inspectionInput: { trigger: null, today: TODAY, ...inspectionInput },
  };
}

const { expired, expiring, upToDate, noInspectionRecorded, lastInspectedNotADate, unsupportedSchedule } =
  InspectionStatus;

const ENTRIES: ScheduleEntry[] = [
  entry('far', dueIn(31, upToDate)),
  entry('horizon', dueIn(30, upToDate)),
  entry('long-warning', dueIn(45, expiring)),
  entry('overdue', dueIn(-3, expired)),
  entry('today', dueIn(0, expiring)),
  entry('no-record', undated(noInspectionRecorded)),
  entry('typo', undated(lastInspectedNotADate)),
  entry('broken', undated(unsupportedSchedule)),
  entry('soon', dueIn(5, upToDate)),
  entry('long-overdue', dueIn(-40, expired), {
    trigger: { type: 'time', timing: 'rolling', frequencyInDays: 30, expiringPeriodInDays: 7 },
    lastInspected: { kind: 'date', date: addDays(TODAY, -70) },
  }),
  entry('today-too', dueIn(0, expiring)),
];

const serial = (date: CalendarDate) => toSheetSerial(date);
const ids = (table: { rows: unknown[][] }) => table.rows.map((row) => row[2]);

test('the columns: who, what, its terms, when, how long, status, what to do', () => {
  expect(UPCOMING_COLUMNS.map((column) => `${column.header}:${column.kind}`)).toEqual([
    'Equipment type ID:text',
    'Equipment type:text',
    'Schedule ID:text',
    'Schedule:formula',
    'Repeats:text',
    'Last inspected:date',
    'Due date:date',
    'Days left:daysLeft',
    'Expiring period (days):integer',
    'Status:text',
    'What to do:text',
    'Schedule key:text',
  ]);
  expect(UPCOMING_COLUMNS.filter((column) => column.hidden).map((column) => column.header)).toEqual([
    'Schedule key',
  ]);
});

test('no inspection recorded first, then Expired, Expiring, and whatever falls due within the horizon, soonest first; ties keep the tab order', () => {
  const table = upcomingTable(ENTRIES, LAST_INSPECTED_CELLS, 30);
  expect(ids(table)).toEqual([
    'no-record',
    'long-overdue',
    'overdue',
    'today',
    'today-too',
    'soon',
    'horizon',
    'long-warning',
  ]);
  // Rows are matched across refreshes by type and schedule id: ids are unique within a type only.
  expect(table.rows.map((row) => row[table.keyColumn])).toEqual(
    ids(table).map((id) => `["type-${String(id)}","${String(id)}"]`),
  );
});

test("each row links to its schedule's Last inspected cell and says its terms, days left (negative when overdue) and what to do", () => {
  const [noRecord, overdueRow] = upcomingTable(ENTRIES, LAST_INSPECTED_CELLS, 30).rows;
  const overdue = ENTRIES.find((candidate) => candidate.scheduleId === 'long-overdue')!;
  expect(overdueRow).toEqual([
    'type-long-overdue',
    'Type "long-overdue"',
    'long-overdue',
    `=HYPERLINK("#gid=300&range=P${overdue.row}", "Check long-overdue")`,
    '30 days after the last inspection',
    serial(addDays(TODAY, -70)),
    serial(addDays(TODAY, -40)),
    -40,
    7,
    'Expired',
    'Overdue: inspect now, then enter the date in Last inspected',
    '["type-long-overdue","long-overdue"]',
  ]);
  const never = ENTRIES.find((candidate) => candidate.scheduleId === 'no-record')!;
  expect(noRecord).toEqual([
    'type-no-record',
    'Type "no-record"',
    'no-record',
    `=HYPERLINK("#gid=300&range=P${never.row}", "Check no-record")`,
    '',
    null,
    null,
    null,
    null,
    'No inspection recorded',
    'No inspection recorded: enter Last inspected',
    '["type-no-record","no-record"]',
  ]);
});

test.each<[number, string[]]>([
  [0, ['no-record', 'long-overdue', 'overdue', 'today', 'today-too', 'long-warning']],
  [5, ['no-record', 'long-overdue', 'overdue', 'today', 'today-too', 'soon', 'long-warning']],
  [
    31,
    ['no-record', 'long-overdue', 'overdue', 'today', 'today-too', 'soon', 'horizon', 'far', 'long-warning'],
  ],
])('a horizon of %i days', (horizonDays, expected) => {
  expect(ids(upcomingTable(ENTRIES, LAST_INSPECTED_CELLS, horizonDays))).toEqual(expected);
});

test('schedules without a due date that no typed date fixes are counted, never listed', () => {
  const table = upcomingTable(ENTRIES, LAST_INSPECTED_CELLS, 10_000);
  expect(ids(table)).toContain('no-record');
  expect(ids(table)).not.toContain('typo');
  expect(ids(table)).not.toContain('broken');
  expect(countInspections(ENTRIES, 30)).toEqual({
    expired: 2,
    expiring: 3,
    upcoming: 8,
    unsupported: 1,
    lastInspectedNotADate: 1,
    lastInspectedInFuture: 0,
    noInspectionRecorded: 1,
  });
});

test('the counts as the summary and the Sync log line say them', () => {
  expect(describeInspectionCounts(countInspections(ENTRIES, 30), 30)).toBe(
    'Inspections: 2 expired, 3 expiring, 8 listed as upcoming (horizon 30 days), 1 unsupported, ' +
      '1 with a "Last inspected" that is not a date, 1 with no inspection recorded.',
  );
  expect(describeInspectionCounts(countInspections([], 30), 30)).toBe(
    'Inspections: 0 expired, 0 expiring, 0 listed as upcoming (horizon 30 days).',
  );
});

test.each<[unknown, number]>([
  [30, 30],
  [0, 0],
  [90, 90],
  [-1, 30],
  [7.5, 30],
  ['14', 30],
  [undefined, 30],
])('a stored horizon of %p days means %i', (stored, expected) => {
  expect(checkedHorizonDays(stored, 30)).toBe(expected);
});

test('a "Last inspected" in the future is listed first with the schedules never inspected, in tab order, and counted', () => {
  const typedAhead = addDays(TODAY, 300);
  const flagged = entry('typed-ahead', undated(InspectionStatus.lastInspectedInFuture), {
    trigger: {
      type: 'time',
      timing: 'dow',
      timingDateNumber: 20240101,
      frequencyInDays: 14,
      expiringPeriodInDays: 3,
    },
    lastInspected: { kind: 'date', date: typedAhead },
  });
  const entries = [...ENTRIES, flagged];
  const table = upcomingTable(entries, LAST_INSPECTED_CELLS, 30);
  expect(ids(table).slice(0, 2)).toEqual(['no-record', 'typed-ahead']);
  expect(table.rows[1]).toEqual([
    'type-typed-ahead',
    'Type "typed-ahead"',
    'typed-ahead',
    `=HYPERLINK("#gid=300&range=P${flagged.row}", "Check typed-ahead")`,
    'every 2 weeks on Monday',
    serial(typedAhead),
    null,
    null,
    3,
    'Check Last inspected: in the future',
    'Last inspected is after today: enter the date of the last inspection done',
    '["type-typed-ahead","typed-ahead"]',
  ]);
  expect(ids(table).filter((id) => id !== 'typed-ahead')).toEqual(
    ids(upcomingTable(ENTRIES, LAST_INSPECTED_CELLS, 30)),
  );
  expect(countInspections(entries, 30)).toMatchObject({ upcoming: 9, lastInspectedInFuture: 1 });
  expect(describeInspectionCounts(countInspections(entries, 30), 30)).toContain(
    '1 with a "Last inspected" in the future to check',
  );
});
