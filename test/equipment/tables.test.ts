import { generateData } from '../../dev/sample-service/dataset';
import { validateEquipmentTypes } from '../../src/api/equipment';
import type { EquipmentType, InspectionSchedule } from '../../src/api/schemas';
import { fromIsoDate, toSheetSerial } from '../../src/lib/dates';
import type { CalendarDate, UtcOffsetAt } from '../../src/lib/dates';
import {
  EQUIPMENT_TYPE_COLUMN,
  EQUIPMENT_TYPE_COLUMNS,
  type EquipmentTables,
  equipmentTables,
  INSPECTION_COLUMN_INDEXES,
  METAFIELD_COLUMN,
  METAFIELD_COLUMNS,
  metafieldsTable,
  partKey,
  SCHEDULE_COLUMN,
  SCHEDULE_COLUMNS,
} from '../../src/equipment/tables';
import { InspectionStatus } from '../../src/equipment/inspections';
import { recomputeSchedules, recomputeTypeCells } from '../../src/equipment/inspection-recompute';
import type { CellValue, Table } from '../../src/sheets/table';
import { SCHEDULE_TITLES } from '../support/table-guards';

function date(iso: string): CalendarDate {
  const parsed = fromIsoDate(iso);
  if (parsed === null) throw new Error(`test data: ${iso} is not a date`);
  return parsed;
}
const serial = (iso: string): number => toSheetSerial(date(iso));

const TODAY = date('2024-03-10');
const utc: UtcOffsetAt = () => 0;
const SHEET_IDS = { types: 100, metafields: 200, schedules: 300 };

function schedule(
  id: string,
  trigger: Record<string, unknown>,
  extra: Partial<InspectionSchedule> = {},
): InspectionSchedule {
  return {
    id,
    name: `Schedule ${id}`,
    instructions: '',
    doRequireAttachments: false,
    trigger: {
      type: 'time',
      timing: 'rolling',
      expiringPeriodInDays: 7,
      frequencyInDays: 30,
      ...trigger,
    } as InspectionSchedule['trigger'],
    ...extra,
  };
}

/** Four types covering the link cases: both kinds of rows, neither, metafields only, schedules only. */
const TYPES: EquipmentType[] = [
  {
    id: '000123',
    title: 'Forklift "Big"',
    created: 1_700_000_000,
    metafields: [
      { id: 'mf1', name: 'Serial number', type: 'text' },
      { id: 'mf2', name: 'Colour', type: 'list', list_id: 7 },
    ],
    schedules: [
      schedule(
        's1',
        { timing: 'dow', timingDateNumber: 20240101, frequencyInDays: 7, expiringPeriodInDays: 3 },
        {
          form_id: 42,
          instructions: '=SUM(A1)',
          doRequireAttachments: true,
        },
      ),
      schedule('s2', { timing: 'rolling', frequencyInDays: 30 }),
    ],
  },
  { id: 'et-empty', title: '=Ladder', created: 1_700_000_000_000, metafields: [], schedules: [] },
  {
    id: 'et-mf',
    title: 'Hoist',
    created: 1_600_000_000,
    metafields: [{ id: 'mf3', name: 'Größe', type: 'number' }],
    schedules: [],
  },
  {
    id: 'et-sch',
    title: 'Crane',
    created: 1_600_000_000,
    metafields: [],
    schedules: [schedule('s3', { timing: 'dom', timingDateNumber: 20240131, frequencyInDays: 30 })],
  },
];

/** The tables of every tab; `lastInspected` by schedule id (unique within these tests' types). */
function build(
  lastInspected: Record<string, unknown> = {},
  types = TYPES,
): EquipmentTables & { metafields: Table; metafieldsWithNotes: number } {
  const typeOf = (scheduleId: string) =>
    types.find((type) => type.schedules.some((candidate) => candidate.id === scheduleId))?.id ?? '';
  const metafields = metafieldsTable(types, SHEET_IDS);
  return {
    ...equipmentTables({
      types,
      sheetIds: SHEET_IDS,
      lastInspectedByKey: new Map(
        Object.entries(lastInspected).map(([scheduleId, cell]) => [
          partKey(typeOf(scheduleId), scheduleId),
          cell,
        ]),
      ),
      today: TODAY,
      utcOffsetAt: utc,
    }),
    metafields: metafields.table,
    metafieldsWithNotes: metafields.withNotes,
  };
}

describe('the Equipment types tab', () => {
  test('one row per type: id, linked title, created, linked counts, next inspection and status', () => {
    const { types } = build({ s2: '2024-02-01' });
    expect(types.columns.map((column) => column.header)).toEqual([
      'Equipment type ID',
      'Title',
      'Created',
      'Metafields',
      'Schedules',
      'Next inspection due',
      'Status',
    ]);
    expect(types.rows).toEqual([
      [
        '000123',
        '=HYPERLINK("#gid=300&range=A2", "Forklift ""Big""")',
        25_569 + 1_700_000_000 / 86_400,
        '=HYPERLINK("#gid=200&range=A2", 2)',
        '=HYPERLINK("#gid=300&range=A2", 2)',
        // s1 (weekly from Monday 2024-01-01) is due Monday 2024-03-11; s2 (rolling) on 2024-03-02.
        serial('2024-03-02'),
        'Expired',
      ],
      [
        'et-empty',
        '=HYPERLINK("#gid=100&range=A3", "=Ladder")',
        25_569 + 1_700_000_000 / 86_400,
        0,
        0,
        null,
        '',
      ],
      [
        'et-mf',
        '=HYPERLINK("#gid=200&range=A4", "Hoist")',
        25_569 + 1_600_000_000 / 86_400,
        '=HYPERLINK("#gid=200&range=A4", 1)',
        0,
        null,
        '',
      ],
      [
        'et-sch',
        '=HYPERLINK("#gid=300&range=A4", "Crane")',
        25_569 + 1_600_000_000 / 86_400,
        0,
        '=HYPERLINK("#gid=300&range=A4", 1)',
        serial('2024-03-31'),
        'Up to date',
      ],
    ]);
    expect(types.keyColumn).toBe(EQUIPMENT_TYPE_COLUMN.id);
  });

  test('ids are literal text and links are formulas, never the other way round', () => {
    const kinds = (columns: typeof EQUIPMENT_TYPE_COLUMNS) =>
      columns.map((column) => `${column.header}:${column.kind}`);
    expect(kinds(EQUIPMENT_TYPE_COLUMNS)).toEqual([
      'Equipment type ID:text',
      'Title:formula',
      'Created:datetime',
      'Metafields:formula',
      'Schedules:formula',
      'Next inspection due:date',
      'Status:text',
    ]);
    for (const columns of [METAFIELD_COLUMNS, SCHEDULE_COLUMNS]) {
      expect(columns[0]).toMatchObject({ header: 'Equipment type ID', kind: 'text' });
      expect(columns[1]).toMatchObject({ header: 'Equipment type', kind: 'formula' });
      expect(columns[2]!.kind).toBe('text');
    }
  });

  test('created is a date-time in the spreadsheet time zone, whatever its unit', () => {
    const plusTwo: UtcOffsetAt = () => 120;
    const { types } = equipmentTables({
      types: TYPES,
      sheetIds: SHEET_IDS,
      lastInspectedByKey: new Map(),
      today: TODAY,
      utcOffsetAt: plusTwo,
    });
    // 1_700_000_000 s and 1_700_000_000_000 ms are the same instant: 2023-11-14 22:13:20 UTC.
    expect(types.rows[0]![2]).toBeCloseTo(serial('2023-11-15') + (13 * 60 + 20) / 86_400, 9);
    expect(types.rows[1]![2]).toBe(types.rows[0]![2]);
  });

  test.each<[string, string[], string, string | null]>([
    ['the most urgent status wins', ['Up to date', 'Expiring', 'Expired'], 'Expired', '2024-03-02'],
    ['expiring over up to date', ['Up to date', 'Expiring'], 'Expiring', '2024-03-11'],
    [
      'an unreadable "Last inspected" over no inspection',
      ['No inspection recorded', 'Last inspected is not a date'],
      'Last inspected is not a date',
      null,
    ],
    [
      'no inspection recorded over unsupported',
      ['Unsupported schedule', 'No inspection recorded'],
      'No inspection recorded',
      null,
    ],
    [
      'an unsupported schedule over up to date; next due from the other',
      ['Unsupported schedule', 'Up to date'],
      'Unsupported schedule',
      '2024-03-31',
    ],
  ])('a type with several schedules: %s', (_name, statuses, status, nextDue) => {
    const byStatus: Record<string, [InspectionSchedule, unknown]> = {
      Expired: [schedule('x1', { frequencyInDays: 30 }), '2024-02-01'],
      Expiring: [
        schedule('x2', { timing: 'dow', timingDateNumber: 20240101, frequencyInDays: 7 }),
        undefined,
      ],
      'Up to date': [
        schedule('x3', { timing: 'dom', timingDateNumber: 20240131, frequencyInDays: 30 }),
        undefined,
      ],
      'No inspection recorded': [schedule('x4', { frequencyInDays: 30 }), undefined],
      'Last inspected is not a date': [schedule('x5', { frequencyInDays: 30 }), 'yesterday'],
      'Unsupported schedule': [schedule('x6', { timing: 'hourly' }), undefined],
    };
    const chosen = statuses.map((name) => byStatus[name]!);
    const type: EquipmentType = {
      id: 't',
      title: 'T',
      created: 0,
      metafields: [],
      schedules: chosen.map(([s]) => s),
    };
    const lastInspected = Object.fromEntries(
      chosen.filter(([, cell]) => cell !== undefined).map(([s, cell]) => [s.id, cell]),
    );
    const { types, schedules } = build(lastInspected, [type]);
    expect(schedules.rows.map((row) => row[SCHEDULE_COLUMN.status])).toEqual(statuses);
    expect(types.rows[0]!.slice(EQUIPMENT_TYPE_COLUMN.nextDue)).toEqual([
      nextDue === null ? null : serial(nextDue),
      status,
    ]);
  });
});

describe('the Equipment metafields tab', () => {
  test('one row per metafield, in type order, linked back to its type', () => {
    expect(build().metafields.rows).toEqual([
      [
        '000123',
        '=HYPERLINK("#gid=100&range=A2", "Forklift ""Big""")',
        'mf1',
        'Serial number',
        'text',
        null,
        '',
        '["000123","mf1"]',
      ],
      [
        '000123',
        '=HYPERLINK("#gid=100&range=A2", "Forklift ""Big""")',
        'mf2',
        'Colour',
        'list',
        7,
        '',
        '["000123","mf2"]',
      ],
      [
        'et-mf',
        '=HYPERLINK("#gid=100&range=A4", "Hoist")',
        'mf3',
        'Größe',
        'number',
        null,
        '',
        '["et-mf","mf3"]',
      ],
    ]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['an unknown type', { type: 'date' }, 'Type "date" is not one of text, number, list.'],
    [
      'a list without list_id',
      { type: 'list' },
      'A list metafield without list_id: which list it uses is unknown.',
    ],
    [
      'a list_id on a text field',
      { type: 'text', list_id: 3 },
      'list_id is only expected for type list, not text.',
    ],
  ])('%s is imported as sent, with a note', (_name, fields, note) => {
    const metafield = { id: 'odd', name: 'Odd', ...fields } as EquipmentType['metafields'][number];
    const tables = build({}, [{ id: 't', title: 'T', created: 0, metafields: [metafield], schedules: [] }]);
    expect(tables.metafields.rows[0]!.slice(METAFIELD_COLUMN.id)).toEqual([
      'odd',
      'Odd',
      fields['type'],
      fields['list_id'] ?? null,
      note,
      '["t","odd"]',
    ]);
    expect(tables.metafieldsWithNotes).toBe(1);
  });
});

describe('the Inspection schedules tab', () => {
  test('one row per schedule: its timing in words, Next due, Last inspected and Status side by side, then the notes and the trigger fields as sent', () => {
    const { schedules } = build({ s2: '2024-02-20' });
    expect(schedules.columns.map((column) => column.header)).toEqual([...SCHEDULE_TITLES]);
    const forklift = '=HYPERLINK("#gid=100&range=A2", "Forklift ""Big""")';
    expect(schedules.rows).toEqual([
      [
        '000123',
        forklift,
        's1',
        'Schedule s1',
        'every week on Monday',
        serial('2024-03-11'),
        null,
        'Expiring',
        3,
        '',
        '=SUM(A1)',
        42,
        true,
        'time',
        'dow',
        serial('2024-01-01'),
        7,
        JSON.stringify(TYPES[0]!.schedules[0]!.trigger),
        '["000123","s1"]',
      ],
      [
        '000123',
        forklift,
        's2',
        'Schedule s2',
        '30 days after the last inspection',
        serial('2024-03-21'),
        serial('2024-02-20'),
        'Up to date',
        7,
        '',
        '',
        null,
        false,
        'time',
        'rolling',
        null,
        30,
        JSON.stringify(TYPES[0]!.schedules[1]!.trigger),
        '["000123","s2"]',
      ],
      [
        'et-sch',
        '=HYPERLINK("#gid=100&range=A5", "Crane")',
        's3',
        'Schedule s3',
        "every month on the 31st (or the month's last day)",
        serial('2024-03-31'),
        null,
        'Up to date',
        7,
        '',
        '',
        null,
        false,
        'time',
        'dom',
        serial('2024-01-31'),
        30,
        JSON.stringify(TYPES[3]!.schedules[0]!.trigger),
        '["et-sch","s3"]',
      ],
    ]);
    expect(schedules.keyColumn).toBe(SCHEDULE_COLUMN.key);
    expect(SCHEDULE_COLUMNS[SCHEDULE_COLUMN.trigger]!.hidden).toBe(true);
    expect(SCHEDULE_COLUMNS[SCHEDULE_COLUMN.key]!.hidden).toBe(true);
  });

  test('"Last inspected" is matched by schedule id and written back as a date-only value', () => {
    // What getValues returns for a date cell: midnight in the spreadsheet's zone, here UTC.
    const { schedules, scheduleEntries } = build({
      s2: new Date(Date.UTC(2024, 1, 20)),
      s3: 45_361,
      gone: '2024-01-01',
    });
    const lastInspected = schedules.rows.map((row) => [
      row[SCHEDULE_COLUMN.id],
      row[SCHEDULE_COLUMN.lastInspected],
    ]);
    expect(lastInspected).toEqual([
      ['s1', null],
      ['s2', serial('2024-02-20')],
      ['s3', 45_361],
    ]);
    expect(scheduleEntries.map((entry) => entry.inspection.status)).toEqual([
      'Expiring',
      'Up to date',
      'Up to date',
    ]);
  });

  test('a "Last inspected" that is not a date stays as typed and the status says so', () => {
    const { schedules } = build({ s2: 'last week' });
    const row = schedules.rows[1]!;
    expect(
      [
        SCHEDULE_COLUMN.nextDue,
        SCHEDULE_COLUMN.lastInspected,
        SCHEDULE_COLUMN.status,
        SCHEDULE_COLUMN.statusNote,
      ].map((column) => row[column]),
    ).toEqual([
      null,
      'last week',
      'Last inspected is not a date',
      'Last inspected is not a date: "last week". Enter a date such as 2024-03-10',
    ]);
    // The other rows are computed as without it.
    expect(schedules.rows[0]![SCHEDULE_COLUMN.status]).toBe('Expiring');
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['an unknown timing', { timing: 'hourly', frequencyInDays: 1 }, 'Timing "hourly" is not supported'],
    ['an unknown trigger type', { type: 'meter' }, 'Trigger type "meter" is not supported'],
    ['a frequency of 0', { frequencyInDays: 0 }, 'frequencyInDays 0 is not a whole number of days ≥ 1'],
    [
      'a negative frequency',
      { timing: 'dow', timingDateNumber: 20240105, frequencyInDays: -7 },
      'frequencyInDays -7',
    ],
    [
      'a missing frequency',
      { timing: 'dom', timingDateNumber: 20230315, frequencyInDays: undefined },
      'frequencyInDays missing',
    ],
  ])(
    '%s: the row is imported as sent, with status "Unsupported schedule" and why',
    (_name, trigger, reason) => {
      const broken = schedule('odd', trigger);
      const { schedules } = build({}, [
        { id: 't', title: 'T', created: 0, metafields: [], schedules: [broken] },
      ]);
      const row = schedules.rows[0]!;
      const column = (title: string) => row[SCHEDULE_COLUMNS.findIndex((spec) => spec.header === title)];
      expect(
        [
          'Trigger type',
          'Timing',
          'Timing date',
          'Frequency (days)',
          'Expiring period (days)',
          'Repeats',
        ].map(column),
      ).toEqual([
        broken.trigger.type,
        broken.trigger.timing,
        broken.trigger.timingDateNumber === undefined ? null : expect.any(Number),
        broken.trigger.frequencyInDays ?? null,
        7,
        '',
      ]);
      expect(row[SCHEDULE_COLUMN.status]).toBe('Unsupported schedule');
      expect(row[SCHEDULE_COLUMN.statusNote]).toContain(reason);
    },
  );
});

/** What getValues returns for a cell as written: a link shows its label, every other cell its value. */
function asRead(cell: CellValue): CellValue {
  const link = /^=HYPERLINK\(".*", (?:"(.*)"|(\d+))\)$/.exec(String(cell));
  if (!link) return cell ?? '';
  return link[1] === undefined ? Number(link[2]) : link[1].replace(/""/g, '"');
}

/** Where a link formula points: the tab's sheet id and the row. */
function linkTarget(cell: CellValue): { sheetId: number; row: number } | null {
  const match = /^=HYPERLINK\("#gid=(\d+)&range=A(\d+)", /.exec(String(cell));
  return match ? { sheetId: Number(match[1]), row: Number(match[2]) } : null;
}

describe('links, for the sample service data with every anomaly', () => {
  const generated = generateData({
    seed: 7,
    users: 0,
    trainings: 1,
    completions: 0,
    equipmentTypes: 120,
    createdUnit: 'milliseconds',
    anomalies: true,
  }).equipmentTypes;
  const { types, rejected } = validateEquipmentTypes(JSON.parse(JSON.stringify(generated)) as unknown[]);
  const tables = build({}, types);
  const rowsBySheet: Record<number, CellValue[][]> = {
    [SHEET_IDS.types]: tables.types.rows,
    [SHEET_IDS.metafields]: tables.metafields.rows,
    [SHEET_IDS.schedules]: tables.schedules.rows,
  };
  /** The equipment type id on a linked row (column A of every tab holds it). */
  const typeIdAt = (target: { sheetId: number; row: number }) =>
    rowsBySheet[target.sheetId]![target.row - 2]![0];

  test('nothing is rejected: anomalies are values the contract allows', () => {
    expect(rejected).toEqual([]);
    expect(tables.types.rows).toHaveLength(120);
    expect(tables.metafields.rows).toHaveLength(types.reduce((sum, type) => sum + type.metafields.length, 0));
    expect(tables.schedules.rows).toHaveLength(types.reduce((sum, type) => sum + type.schedules.length, 0));
  });

  test('every title and count on the types tab lands on a row of that type', () => {
    tables.types.rows.forEach((row, index) => {
      const type = types[index]!;
      const title = linkTarget(row[EQUIPMENT_TYPE_COLUMN.title]!);
      expect(title && typeIdAt(title)).toBe(type.id);
      const metafields = linkTarget(row[EQUIPMENT_TYPE_COLUMN.metafields]!);
      const schedules = linkTarget(row[EQUIPMENT_TYPE_COLUMN.schedules]!);
      if (type.metafields.length === 0) expect(row[EQUIPMENT_TYPE_COLUMN.metafields]).toBe(0);
      else {
        expect(metafields?.sheetId).toBe(SHEET_IDS.metafields);
        expect(rowsBySheet[SHEET_IDS.metafields]![metafields!.row - 2]![METAFIELD_COLUMN.id]).toBe(
          type.metafields[0]!.id,
        );
      }
      if (type.schedules.length === 0) expect(row[EQUIPMENT_TYPE_COLUMN.schedules]).toBe(0);
      else {
        expect(schedules?.sheetId).toBe(SHEET_IDS.schedules);
        expect(rowsBySheet[SHEET_IDS.schedules]![schedules!.row - 2]![SCHEDULE_COLUMN.id]).toBe(
          type.schedules[0]!.id,
        );
      }
    });
  });

  test('every metafield and schedule links back to its type row', () => {
    for (const rows of [tables.metafields.rows, tables.schedules.rows]) {
      for (const row of rows) {
        const back = linkTarget(row[1]!);
        expect(back?.sheetId).toBe(SHEET_IDS.types);
        expect(typeIdAt(back!)).toBe(row[0]);
      }
    }
  });

  test('the anomalies are marked: 5 unsupported schedules, 2 metafields with a note', () => {
    const statuses = tables.schedules.rows.filter(
      (row) => row[SCHEDULE_COLUMN.status] === 'Unsupported schedule',
    );
    expect(statuses.map((row) => row[SCHEDULE_COLUMN.id]).sort()).toEqual([
      'sch-anomaly-1',
      'sch-anomaly-2',
      'sch-anomaly-3',
      'sch-anomaly-4',
      'sch-anomaly-5',
    ]);
    expect(tables.metafieldsWithNotes).toBe(2);
  });

  test('recomputing from the tab as written gives what the import computed', () => {
    const lastInspected = {
      [tables.schedules.rows[0]![SCHEDULE_COLUMN.id] as string]: '2024-03-01',
      [tables.schedules.rows[5]![SCHEDULE_COLUMN.id] as string]: 'soon',
    };
    const imported = build(lastInspected, types);
    const tabAsRead = (table: { columns: readonly { header: string }[]; rows: CellValue[][] }) => [
      table.columns.map((column) => column.header),
      ...table.rows.map((row) => row.map(asRead)),
    ];
    const recomputed = recomputeSchedules(tabAsRead(imported.schedules), TODAY, utc);
    expect(recomputed.inspectionCells).toEqual(
      imported.schedules.rows.map((row) => INSPECTION_COLUMN_INDEXES.map((column) => row[column])),
    );
    expect(recomputed.entries).toEqual(imported.scheduleEntries);
    const typeCells = recomputeTypeCells(tabAsRead(imported.types), recomputed.entries);
    const lastWithSchedules = types.map((type) => type.schedules.length > 0).lastIndexOf(true);
    expect(typeCells).toEqual(
      imported.types.rows.slice(0, lastWithSchedules + 1).map((row, index) => {
        const cells = row.slice(EQUIPMENT_TYPE_COLUMN.nextDue);
        // A type without schedules keeps its cells as read.
        return types[index]!.schedules.length > 0 ? cells : cells.map(asRead);
      }),
    );
  });
});

describe('recomputing after the user edits the schedules tab', () => {
  const header = SCHEDULE_COLUMNS.map((column) => column.header);
  const imported = build();
  const rowsAsRead = imported.schedules.rows.map((row) => row.map(asRead));

  test('a "Last inspected" entered since the import changes that row only', () => {
    const edited: unknown[][] = rowsAsRead.map((row) => [...row]);
    edited[1]![SCHEDULE_COLUMN.lastInspected] = new Date(Date.UTC(2024, 1, 1));
    const { inspectionCells } = recomputeSchedules([header, ...edited], TODAY, utc);
    expect(inspectionCells[1]).toEqual([serial('2024-03-02'), 'Expired', '']);
    expect(inspectionCells[0]).toEqual(
      INSPECTION_COLUMN_INDEXES.map((column) => imported.schedules.rows[0]![column]),
    );
  });

  test("a user's own rows below and between the schedules keep their cells", () => {
    const userRow = header.map((_, index) => (index === SCHEDULE_COLUMN.status ? 'my note' : ''));
    const values = [header, rowsAsRead[0]!, userRow, rowsAsRead[1]!, rowsAsRead[2]!, userRow, userRow];
    const { inspectionCells, entries } = recomputeSchedules(values, TODAY, utc);
    expect(inspectionCells).toHaveLength(4);
    expect(inspectionCells[1]).toEqual(['', 'my note', '']);
    expect(entries.map((entry) => [entry.scheduleId, entry.row])).toEqual([
      ['s1', 2],
      ['s2', 4],
      ['s3', 5],
    ]);
  });
});

test("recomputing the types tab leaves a user's rows below it alone", () => {
  const imported = build({ s2: '2024-02-01' });
  const header = EQUIPMENT_TYPE_COLUMNS.map((column) => column.header);
  const userRow = ['Total', '', '', '', '', 'my date', 'my status'];
  const values = [header, ...imported.types.rows.map((row) => row.map(asRead)), userRow];
  const entries = imported.scheduleEntries.map((entry) =>
    entry.scheduleId === 's2'
      ? { ...entry, inspection: { ...entry.inspection, status: InspectionStatus.upToDate } }
      : entry,
  );
  // Types 1 and 3 have schedules; the type between them has none and keeps its (empty) cells.
  expect(recomputeTypeCells(values, entries)).toEqual([
    [serial('2024-03-02'), 'Expiring'],
    ['', ''],
    ['', ''],
    [serial('2024-03-31'), 'Up to date'],
  ]);
});

describe('validating equipment types part by part', () => {
  test('a malformed schedule or metafield is skipped and reported; its type and siblings stay', () => {
    const { types, rejected } = validateEquipmentTypes([
      {
        id: 'a',
        title: 'A',
        created: 1,
        extra: 'tolerated',
        metafields: [
          { id: 'm1', name: 'N', type: 'text' },
          { id: 7, name: 'N', type: 'text' },
        ],
        schedules: [
          { ...schedule('s1', {}) },
          { ...schedule('s2', {}), trigger: { type: 'time', timing: 'rolling', frequencyInDays: '30' } },
        ],
      },
      { id: 'b', title: 'B', metafields: [], schedules: [] },
    ]);
    expect(
      types.map((type) => [type.id, type.metafields.map((m) => m.id), type.schedules.map((s) => s.id)]),
    ).toEqual([['a', ['m1'], ['s1']]]);
    expect(rejected).toEqual([
      { source: 'equipment type #2', problem: expect.stringContaining('created') },
      { source: 'equipment type a, metafield #2', problem: expect.stringContaining('id') },
      {
        source: 'equipment type a, schedule #2',
        problem: expect.stringContaining('trigger.frequencyInDays'),
      },
    ]);
  });
});
