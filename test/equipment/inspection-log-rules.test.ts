/**
 * The Inspection log's rules in Node: which dates a run adds (each schedule's date once, never one
 * the log holds, in the schedules' order), how the rows it holds are recognised (by type, schedule
 * and date, whatever else a manager wrote), and what a run says of it.
 */
import {
  type CalendarDate,
  fromIsoDate,
  parseDateCell,
  toSheetSerial,
  type UtcOffsetAt,
} from '../../src/lib/dates';
import { InspectionStatus } from '../../src/equipment/inspections';
import { describeLogged, loggedKeys, logKey, newLogRows } from '../../src/equipment/inspection-log';
import type { ScheduleEntry } from '../../src/equipment/upcoming';

const utc: UtcOffsetAt = () => 0;
/** Kiritimati, UTC+14: a date cell read there is midnight of that day, the day before in UTC. */
const kiritimati: UtcOffsetAt = () => 14 * 60;
const date = (iso: string): CalendarDate => fromIsoDate(iso)!;

function entry(typeId: string, scheduleId: string, lastInspected: unknown): ScheduleEntry {
  return {
    typeId,
    typeTitle: `Type ${typeId}`,
    scheduleId,
    scheduleName: `Schedule ${scheduleId}`,
    key: `${typeId}/${scheduleId}`,
    row: 2,
    inspection: { status: InspectionStatus.upToDate, dueDate: null, daysLeft: null },
    inspectionInput: {
      trigger: {},
      lastInspected: parseDateCell(lastInspected, utc),
      today: date('2024-03-10'),
    },
  };
}

/** 2024-03-10 12:00 UTC. */
const sighting = {
  atMs: Date.UTC(2024, 2, 10, 12),
  by: 'ann@example.com',
  runName: 'Refresh all',
  utcOffsetAt: utc,
};

describe('the rows a run adds', () => {
  test('each schedule with a date, in order, with its type, names, the date, when, by whom and in which run', () => {
    const rows = newLogRows(
      [entry('T1', 'S1', '2024-03-01'), entry('T1', 'S2', ''), entry('T2', 'S1', '2023-12-31')],
      new Set(),
      sighting,
    );
    const noon = toSheetSerial(date('2024-03-10')) + 0.5;
    expect(rows).toEqual([
      [
        'Type T1',
        'T1',
        'Schedule S1',
        'S1',
        toSheetSerial(date('2024-03-01')),
        noon,
        'ann@example.com',
        'Refresh all',
      ],
      [
        'Type T2',
        'T2',
        'Schedule S1',
        'S1',
        toSheetSerial(date('2023-12-31')),
        noon,
        'ann@example.com',
        'Refresh all',
      ],
    ]);
  });

  test('a date the log holds for that schedule is not added again; the same date of another schedule is', () => {
    const logged = new Set([logKey('T1', 'S1', date('2024-03-01'))]);
    const rows = newLogRows(
      [entry('T1', 'S1', '2024-03-01'), entry('T1', 'S2', '2024-03-01'), entry('T2', 'S1', '2024-03-01')],
      logged,
      sighting,
    );
    expect(rows.map((row) => [row[1], row[3]])).toEqual([
      ['T1', 'S2'],
      ['T2', 'S1'],
    ]);
  });

  test('a schedule listed twice in one run is added once', () => {
    const rows = newLogRows(
      [entry('T1', 'S1', '2024-03-01'), entry('T1', 'S1', '2024-03-01')],
      new Set(),
      sighting,
    );
    expect(rows).toHaveLength(1);
  });

  test('a cell that is not a date, and an empty one, add nothing', () => {
    expect(newLogRows([entry('T1', 'S1', 'soon'), entry('T1', 'S2', null)], new Set(), sighting)).toEqual([]);
  });

  test('"Seen at" is the run’s time in the spreadsheet’s zone', () => {
    const [row] = newLogRows([entry('T1', 'S1', '2024-03-01')], new Set(), {
      ...sighting,
      utcOffsetAt: kiritimati,
    });
    // 12:00 UTC is 02:00 the next day at UTC+14.
    expect(row![5]).toBeCloseTo(toSheetSerial(date('2024-03-11')) + 2 / 24, 9);
  });
});

describe('the rows a log holds', () => {
  test('recognised by type id, schedule id and date, the date as Sheets reads a date cell in the zone', () => {
    // Midnight of 1 March at UTC+14 is 10:00 on 29 February in UTC.
    const cell = new Date(Date.UTC(2024, 1, 29, 10));
    const keys = loggedKeys(
      [
        ['T1', 'S1', cell],
        ['007', ' padded ', '2024-01-31'],
      ],
      kiritimati,
    );
    expect(keys).toEqual(
      new Set([logKey('T1', 'S1', date('2024-03-01')), logKey('007', ' padded ', date('2024-01-31'))]),
    );
  });

  test('a row without a date (a manager’s own line, a date deleted) is no logged inspection', () => {
    expect(
      loggedKeys(
        [
          ['T1', 'S1', ''],
          ['T1', 'S1', 'checked by J.'],
          ['', '', null],
        ],
        utc,
      ).size,
    ).toBe(0);
  });

  test('a key tells ids apart that joined text would not', () => {
    expect(logKey('a b', 'c', date('2024-01-01'))).not.toBe(logKey('a', 'b c', date('2024-01-01')));
  });
});

describe('what a run says of the log', () => {
  test('nothing when it added nothing', () => {
    expect(describeLogged(0, { deleted: true, name: 'Inspection log' })).toBeNull();
  });

  test('one date, several, and a log made again after it was deleted', () => {
    expect(describeLogged(1, { deleted: false, name: 'Evidence' })).toBe(
      '1 inspection date added to "Evidence".',
    );
    expect(describeLogged(1_234, { deleted: false, name: 'Inspection log' })).toBe(
      '1,234 inspection dates added to "Inspection log".',
    );
    expect(describeLogged(2, { deleted: true, name: 'Inspection log' })).toBe(
      '2 inspection dates added to "Inspection log" (the "Inspection log" tab was deleted: a new log was started).',
    );
  });
});
