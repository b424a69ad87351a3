import { addDays, fromIsoDate, toSheetSerial } from '../../src/lib/dates';
import type { CalendarDate } from '../../src/lib/dates';
import { type InspectionResult, InspectionStatus } from '../../src/equipment/inspections';
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

function dueIn(daysLeft: number, status: InspectionStatus): InspectionResult {
  return { status, dueDate: addDays(TODAY, daysLeft), daysLeft };
}
function undated(status: InspectionStatus): InspectionResult {
  return { status, dueDate: null, daysLeft: null, reason: 'why' };
}

let nextRow = 2;
function entry(scheduleId: string, inspection: InspectionResult): ScheduleEntry {
  return {
    typeId: `type-${scheduleId}`,
    typeTitle: `Type "${scheduleId}"`,
    scheduleId,
    scheduleName: `Check ${scheduleId}`,
    key: `["type-${scheduleId}","${scheduleId}"]`,
    row: nextRow++,
    inspection,
    inspectionInput: { trigger: null, today: TODAY },
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
  entry('long-overdue', dueIn(-40, expired)),
  entry('today-too', dueIn(0, expiring)),
];

const serial = (date: CalendarDate) => toSheetSerial(date);
const ids = (table: { rows: unknown[][] }) => table.rows.map((row) => row[2]);

test('the columns: who, what, when, how long, status', () => {
  expect(UPCOMING_COLUMNS.map((column) => `${column.header}:${column.kind}`)).toEqual([
    'Equipment type ID:text',
    'Equipment type:text',
    'Schedule ID:text',
    'Schedule:formula',
    'Due date:date',
    'Days left:integer',
    'Status:text',
    'Schedule key:text',
  ]);
  expect(UPCOMING_COLUMNS.filter((column) => column.hidden).map((column) => column.header)).toEqual([
    'Schedule key',
  ]);
});

test('Expired, Expiring, and whatever falls due within the horizon, soonest first; ties keep the tab order', () => {
  const table = upcomingTable(ENTRIES, SCHEDULES_SHEET_ID, 30);
  expect(ids(table)).toEqual([
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

test('each row links to its schedule row and gives days left, negative when overdue', () => {
  const [first] = upcomingTable(ENTRIES, SCHEDULES_SHEET_ID, 30).rows;
  const overdue = ENTRIES.find((candidate) => candidate.scheduleId === 'long-overdue')!;
  expect(first).toEqual([
    'type-long-overdue',
    'Type "long-overdue"',
    'long-overdue',
    `=HYPERLINK("#gid=300&range=A${overdue.row}", "Check long-overdue")`,
    serial(addDays(TODAY, -40)),
    -40,
    'Expired',
    '["type-long-overdue","long-overdue"]',
  ]);
});

test.each<[number, string[]]>([
  [0, ['long-overdue', 'overdue', 'today', 'today-too', 'long-warning']],
  [5, ['long-overdue', 'overdue', 'today', 'today-too', 'soon', 'long-warning']],
  [31, ['long-overdue', 'overdue', 'today', 'today-too', 'soon', 'horizon', 'far', 'long-warning']],
])('a horizon of %i days', (horizonDays, expected) => {
  expect(ids(upcomingTable(ENTRIES, SCHEDULES_SHEET_ID, horizonDays))).toEqual(expected);
});

test('schedules without a due date are counted, never listed', () => {
  const table = upcomingTable(ENTRIES, SCHEDULES_SHEET_ID, 10_000);
  expect(ids(table)).not.toContain('no-record');
  expect(ids(table)).not.toContain('typo');
  expect(ids(table)).not.toContain('broken');
  expect(countInspections(ENTRIES, 30)).toEqual({
    expired: 2,
    expiring: 3,
    upcoming: 7,
    unsupported: 1,
    lastInspectedNotADate: 1,
    lastInspectedInFuture: 0,
    noInspectionRecorded: 1,
  });
});

test('the counts as the summary and the Sync log line say them', () => {
  expect(describeInspectionCounts(countInspections(ENTRIES, 30), 30)).toBe(
    'Inspections: 2 expired, 3 expiring, 7 listed as upcoming (horizon 30 days), 1 unsupported, ' +
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

test('a "Last inspected" in the future is listed first, without a due date, and counted', () => {
  const flagged = entry('typed-ahead', undated(InspectionStatus.lastInspectedInFuture));
  const entries = [...ENTRIES, flagged];
  const table = upcomingTable(entries, SCHEDULES_SHEET_ID, 30);
  expect(table.rows[0]).toEqual([
    'type-typed-ahead',
    'Type "typed-ahead"',
    'typed-ahead',
    `=HYPERLINK("#gid=300&range=A${flagged.row}", "Check typed-ahead")`,
    null,
    null,
    'Check Last inspected: in the future',
    '["type-typed-ahead","typed-ahead"]',
  ]);
  expect(ids(table).slice(1)).toEqual(ids(upcomingTable(ENTRIES, SCHEDULES_SHEET_ID, 30)));
  expect(countInspections(entries, 30)).toMatchObject({ upcoming: 8, lastInspectedInFuture: 1 });
  expect(describeInspectionCounts(countInspections(entries, 30), 30)).toContain(
    '1 with a "Last inspected" in the future to check',
  );
});
