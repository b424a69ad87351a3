/**
 * The custom functions as Sheets runs them: dist/Code.js in the emulator's custom-function context
 * (anonymous, the owner's user properties, read-only, 30 s on the emulated clock), against the
 * sample service over loopback. The spreadsheet sits in Pacific/Kiritimati (UTC+14), where a date
 * built in the wrong zone lands on the wrong day.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DatasetData } from '../support/sample-service';
import { type AddonHarness, createAddonHarness, DIST_DIR } from '../support/addon-harness';
import { sampleServiceUrl } from '../support/sample-service';
import { readCost } from '../../src/api/completion-rounds';

const TIME_ZONE = 'Pacific/Kiritimati';
const KIRITIMATI_OFFSET_MS = 14 * 3_600_000;
const EDITOR = 'editor@example.com';
const SERVICE_FUNCTIONS = ['SAFETY_COMPLETIONS', 'SAFETY_EQUIPMENT_TYPES', 'SAFETY_SCHEDULES', 'SAFETY_USER'];

/** The reading under which formulas reach the token lent to them in the document properties. */
const LENT_TOKEN_READABLE = { documentStoresInCustomFunction: true };

let harness: AddonHarness;
let data: DatasetData;

beforeAll(async () => {
  harness = await createAddonHarness({
    dataset: { completions: 1_500, users: 25, equipmentTypes: 8, seed: 11 },
    timeZone: TIME_ZONE,
    emulator: { readings: LENT_TOKEN_READABLE },
  });
  harness.connect();
  data = await harness.dataset.data();
});

afterAll(() => harness.done());

/** Runs =NAME(args) in a cell; counts the requests it sent. */
function cell(name: string, ...args: unknown[]): { value?: unknown; error?: string; requests: number } {
  const before = harness.emulator.urlFetch.requests.length;
  const result = harness.emulator.customFunction(harness.spreadsheetId, name, args);
  return { ...result, requests: harness.emulator.urlFetch.requests.length - before };
}

function setFormulaAccess(enabled: boolean): { formulaAccess: boolean } {
  return harness.callServer('setFormulaAccess', enabled);
}

/** A date-only value as the function returns it: midnight of that day in the spreadsheet's zone. */
function dateOf(dateNumber: number | string | undefined): Date | '' {
  if (dateNumber === undefined) return '';
  const n = Number(dateNumber);
  return new Date(
    Date.UTC(Math.floor(n / 10_000), (Math.floor(n / 100) % 100) - 1, n % 100) - KIRITIMATI_OFFSET_MS,
  );
}

function instantOf(created: number): Date {
  return new Date(created > 1e11 ? created : created * 1000);
}

const nameOf = (id: string): string => data.users.find((user) => user.id === id)?.name ?? '';

function expectedCompletionRow(record: DatasetData['completions'][number]): unknown[] {
  return [
    record.user_id,
    nameOf(record.user_id),
    record.training_id,
    dateOf(record.dateNumber),
    dateOf(record.specialExpirationDateNumber),
    record.instructor_id,
    nameOf(record.instructor_id),
    record.groupTraining_id,
    instantOf(record.created),
  ];
}

const COMPLETION_HEADER = [
  'User ID',
  'User name',
  'Training ID',
  'Completion date',
  'Special expiration date',
  'Instructor ID',
  'Instructor name',
  'Group training ID',
  'Created',
];

/** Distinct user and instructor ids: the users.info requests a fresh answer costs. */
function namedIds(records: DatasetData['completions']): number {
  return new Set(records.flatMap((record) => [record.user_id, record.instructor_id])).size;
}

/** A user with a few completions, none sharing ids with `other`'s. */
function userWithCompletions(skip = 0): string {
  const counts = new Map<string, number>();
  for (const record of data.completions) counts.set(record.user_id, (counts.get(record.user_id) ?? 0) + 1);
  return [...counts.keys()].filter((id) => nameOf(id) !== '')[skip]!;
}

describe('the formula opt-in', () => {
  afterAll(() => setFormulaAccess(true));

  test('without it no function calls the service, and the cell says how to allow it', () => {
    expect(setFormulaAccess(false).formulaAccess).toBe(false);
    for (const name of SERVICE_FUNCTIONS) {
      const result = cell(name, name === 'SAFETY_USER' ? data.users[0]!.id : undefined);
      expect(result.requests).toBe(0);
      expect(result.error).toBe(
        `${name}: Formulas in this spreadsheet may not call the safety service yet, so nothing was requested. ` +
          'Someone with an API token can allow it: Safety Sync → Settings… → tick "Formulas in this spreadsheet may use my token".',
      );
    }
  });

  test('turned on, formulas read the service; turned off again, they stop, cached answers included', () => {
    expect(setFormulaAccess(true).formulaAccess).toBe(true);
    expect(cell('SAFETY_USER', data.users[0]!.id)).toEqual({ value: data.users[0]!.name, requests: 1 });
    setFormulaAccess(false);
    const after = cell('SAFETY_USER', data.users[0]!.id);
    expect(after.requests).toBe(0);
    expect(after.error).toMatch(
      /^SAFETY_USER: Formulas in this spreadsheet may not call the safety service yet/,
    );
  });

  test("the import token in the owner's user properties is never used by a formula", () => {
    // The owner is connected (user properties), which a custom function can read: still refused.
    setFormulaAccess(false);
    expect(cell('SAFETY_EQUIPMENT_TYPES').requests).toBe(0);
  });

  test('removing your token takes it back from formulas; without a token it cannot be turned on', () => {
    setFormulaAccess(true);
    harness.callServer('removeToken');
    try {
      expect(harness.callServer('getSettings').formulaAccess).toBe(false);
      expect(() => setFormulaAccess(true)).toThrow(
        'Safety Sync needs your API token. Open Safety Sync → Settings… to add it.',
      );
    } finally {
      harness.connect();
    }
  });

  test('it can only be changed from Settings, never from a cell', () => {
    const fromCell = cell('setFormulaAccess', true);
    expect(fromCell.error).toMatch(/can only be used from the Safety Sync menu, not from a cell/);
    expect(harness.callServer('getSettings').formulaAccess).toBe(false);
  });
});

describe('with formulas allowed', () => {
  beforeAll(() => setFormulaAccess(true));

  test('SAFETY_COMPLETIONS gives every record of the filter, in the columns and date types of the import tab', () => {
    const userId = userWithCompletions();
    const records = data.completions.filter((record) => record.user_id === userId);
    const result = cell('SAFETY_COMPLETIONS', userId);
    expect(result.value).toEqual([COMPLETION_HEADER, ...records.map(expectedCompletionRow)]);
    expect(result.requests).toBe(1 + namedIds(records));
  });

  test('without a filter it reads every page; a limit reads only the newest records; the header is optional', () => {
    const all = cell('SAFETY_COMPLETIONS');
    expect(all.value).toEqual([COMPLETION_HEADER, ...data.completions.map(expectedCompletionRow)]);
    // Two pages, read and confirmed.
    expect(all.requests).toBe(readCost(2, 10).requests + namedIds(data.completions));
    // An answer of several cache chunks comes back whole.
    expect(cell('SAFETY_COMPLETIONS')).toEqual({ value: all.value, requests: 0 });

    const newest = cell('SAFETY_COMPLETIONS', '', '', 10, false);
    expect(newest.value).toEqual(data.completions.slice(0, 10).map(expectedCompletionRow));
    expect(newest.requests).toBe(1 + namedIds(data.completions.slice(0, 10)));
  });

  test('recalculating with the same arguments sends nothing; new arguments send what they need', () => {
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
    const first = userWithCompletions(1);
    const second = userWithCompletions(2);
    workbook.typeValues('Sheet1!A1', [[`=SAFETY_COMPLETIONS("${first}")`]]);
    const count = () => harness.emulator.urlFetch.requests.length;

    let before = count();
    workbook.recalculate();
    const firstRecords = data.completions.filter((record) => record.user_id === first);
    expect(count() - before).toBe(1 + namedIds(firstRecords));

    before = count();
    workbook.recalculate();
    workbook.recalculate();
    expect(count() - before).toBe(0);

    workbook.typeValues('Sheet1!A1', [[`=SAFETY_COMPLETIONS("${second}")`]]);
    before = count();
    workbook.recalculate();
    const secondRecords = data.completions.filter((record) => record.user_id === second);
    expect(count() - before).toBe(1 + namedIds(secondRecords));

    // Answers are kept for the cache time set in Settings (10 minutes by default), or until the
    // cache drops them.
    harness.emulator.clock.advance(9 * 60_000);
    before = count();
    workbook.recalculate();
    expect(count() - before).toBe(0);
    harness.emulator.clock.advance(2 * 60_000);
    workbook.recalculate();
    expect(count() - before).toBe(1 + namedIds(secondRecords));
    harness.emulator.caches.evictAll();
    before = count();
    workbook.recalculate();
    expect(count() - before).toBe(1 + namedIds(secondRecords));

    // What the user sees: dates as dates in the spreadsheet's zone, the same day the service sent.
    const shown = workbook.sheet('Sheet1').displayValues();
    const [record] = secondRecords;
    const dateNumber = String(record!.dateNumber);
    expect(shown[1]!.slice(0, 4)).toEqual([
      record!.user_id,
      nameOf(record!.user_id),
      record!.training_id,
      `${dateNumber.slice(0, 4)}-${dateNumber.slice(4, 6)}-${dateNumber.slice(6)}`,
    ]);
    expect(workbook.sheet('Sheet1').cells('D2')[0]![0]!.value).toEqual(dateOf(record!.dateNumber));
    workbook.typeValues('Sheet1!A1', [['']]);
  });

  test('SAFETY_EQUIPMENT_TYPES and SAFETY_SCHEDULES match the equipment tabs an import writes', () => {
    harness.clickMenu('Import equipment types');
    const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;

    const types = cell('SAFETY_EQUIPMENT_TYPES');
    expect(types.requests).toBe(1);
    const typeRows = types.value as unknown[][];
    expect(typeRows.slice(1).map((row) => row.slice(0, 5))).toEqual(
      data.equipmenttypes.map((type) => [
        type.id,
        type.title,
        instantOf(type.created),
        type.metafields.length,
        type.schedules.length,
      ]),
    );

    // The schedules answer shares the cached equipmenttypes.list answer.
    const schedules = cell('SAFETY_SCHEDULES');
    expect(schedules.requests).toBe(0);

    // Shown in a sheet, each formula reads exactly like its tab (links become their labels). The
    // import removed the empty "Sheet1": the formulas go on a tab of the user's.
    workbook.addSheet('Formulas', { rows: 1000, columns: 26 });
    for (const [formula, tab] of [
      ['=SAFETY_EQUIPMENT_TYPES()', 'Equipment types'],
      ['=SAFETY_SCHEDULES()', 'Inspection schedules'],
    ] as const) {
      workbook.typeValues('Formulas!A1', [[formula]]);
      workbook.recalculate();
      const tabRows = workbook.sheet(tab).displayValues();
      const kept = tabRows[0]!
        .map((header, index) => ({ header, index }))
        .filter(({ header }) => !['Last inspected', 'Trigger as sent', 'Schedule key'].includes(header));
      const expected = tabRows.map((row) => kept.map(({ index }) => row[index]));
      const shown = workbook
        .sheet('Formulas')
        .displayValues()
        .slice(0, expected.length)
        .map((row) => row.slice(0, kept.length));
      expect(shown).toEqual(expected);
      workbook.typeValues('Formulas!A1', [['']]);
    }
  });

  test('SAFETY_SCHEDULES of one equipment type; an unknown type is named', () => {
    const type = data.equipmenttypes.find((candidate) => candidate.schedules.length > 1)!;
    const result = cell('SAFETY_SCHEDULES', type.id, false);
    expect((result.value as unknown[][]).map((row) => [row[0], row[2], row[13]])).toEqual(
      type.schedules.map((schedule) => [type.id, schedule.id, schedule.trigger.timing]),
    );
    expect(cell('SAFETY_SCHEDULES', 'no-such-type').error).toBe(
      'SAFETY_SCHEDULES: equipment_type_id matches no equipment type: "no-such-type". =SAFETY_EQUIPMENT_TYPES() lists their ids',
    );
  });

  test('SAFETY_USER gives a name, another field, or a column of names for a range in one call', () => {
    const [a, b, c] = data.users;
    expect(cell('SAFETY_USER', a!.id, 'id').value).toBe(a!.id);
    const column = cell('SAFETY_USER', [[b!.id], [''], [c!.id], ['99999'], [b!.id]]);
    expect(column.value).toEqual([[b!.name], [''], [c!.name], [''], [b!.name]]);
    expect(column.requests).toBe(3);
    expect(cell('SAFETY_USER', [[b!.id], [''], [c!.id], ['99999'], [b!.id]], 'name').requests).toBe(0);
  });

  test('SAFETY_NEXT_INSPECTION and SAFETY_INSPECTION_STATUS answer from the cells alone', () => {
    const midnight = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) - KIRITIMATI_OFFSET_MS);
    const next = cell(
      'SAFETY_NEXT_INSPECTION',
      [['dom'], ['dow'], ['rolling']],
      [[midnight('2024-01-31')], [midnight('2024-01-01')], ['']],
      [[30], [14], [30]],
      '',
      midnight('2024-03-10'),
    );
    expect(next).toEqual({
      value: [[midnight('2024-03-31')], [midnight('2024-03-11')], ['No inspection recorded']],
      requests: 0,
    });
    // Due in 21 and in 1 days, with 14 expiring days.
    const status = cell('SAFETY_INSPECTION_STATUS', next.value, 14, midnight('2024-03-10'));
    expect(status).toEqual({
      value: [['Up to date'], ['Expiring'], ['No inspection recorded']],
      requests: 0,
    });
    expect(cell('SAFETY_INSPECTION_STATUS', midnight('2024-03-09'), 0, midnight('2024-03-10')).value).toBe(
      'Expired',
    );
  });
});

describe('arguments that cannot be valid are refused before any request, naming the argument', () => {
  beforeAll(() => setFormulaAccess(true));

  test.each([
    [
      'SAFETY_COMPLETIONS',
      [[['u1'], ['u2']]],
      'SAFETY_COMPLETIONS: user_id must be one value, not a range (2×1 cells)',
    ],
    [
      'SAFETY_COMPLETIONS',
      ['', '', 5000],
      'SAFETY_COMPLETIONS: limit must be a whole number from 1 to 1000, not 5000',
    ],
    [
      'SAFETY_COMPLETIONS',
      ['', '', 0],
      'SAFETY_COMPLETIONS: limit must be a whole number from 1 to 1000, not 0',
    ],
    [
      'SAFETY_COMPLETIONS',
      [new Date(), ''],
      'SAFETY_COMPLETIONS: user_id must be an id (text or a number), not a date',
    ],
    [
      'SAFETY_COMPLETIONS',
      ['', '', '', 'maybe'],
      'SAFETY_COMPLETIONS: with_header must be TRUE or FALSE, not "maybe"',
    ],
    [
      'SAFETY_SCHEDULES',
      [[['a', 'b']]],
      'SAFETY_SCHEDULES: equipment_type_id must be one value, not a range (1×2 cells)',
    ],
    ['SAFETY_USER', [''], 'SAFETY_USER: user_id is empty: give a user id, or a range of them'],
    ['SAFETY_USER', ['u1', 'email'], 'SAFETY_USER: field must be one of "name", "id", not "email"'],
  ])('%s(%p)', (name, args, message) => {
    const result = cell(name, ...args);
    expect(result).toEqual({ error: message, requests: 0 });
  });

  test('a NOW()-style date-time where a date belongs', () => {
    const now = new Date(Date.UTC(2024, 2, 1, 9, 41, 17));
    const result = cell('SAFETY_INSPECTION_STATUS', '2024-03-20', 7, now);
    expect(result.error).toMatch(/^SAFETY_INSPECTION_STATUS: today has a time of day, as NOW\(\) gives/);
  });

  test('a date that is not a date, in a range, by row', () => {
    const result = cell('SAFETY_NEXT_INSPECTION', 'dow', [['2024-01-01'], ['someday']], 7);
    expect(result.error).toMatch(
      /^SAFETY_NEXT_INSPECTION: timing_date \(row 2 of the range\) is not a date: "someday"/,
    );
  });
});

describe("the service's errors reach the cell as its identifier and what to do", () => {
  test('a lent token the service does not know; formulas follow when its owner changes it in Settings', () => {
    setFormulaAccess(true);
    harness.connect('not-a-real-token');
    try {
      const result = cell('SAFETY_USER', 'u-any');
      expect(result.error).toMatch(
        /^SAFETY_USER: users\.info: token_invalid\. The service does not recognise the API token\. Paste a new token in Safety Sync → Settings\..*\(request ID \w+\)$/,
      );
      expect(result.requests).toBe(1);
    } finally {
      harness.connect();
    }
    expect(cell('SAFETY_USER', data.users[3]!.id).value).toBe(data.users[3]!.name);
  });
});

describe('no top-level function returns a token, whatever a cell passes it', () => {
  const code = fs.readFileSync(path.join(DIST_DIR, 'Code.js'), 'utf8');
  const names = [...code.matchAll(/^function (\w+)\(/gm)].map((match) => match[1]!);
  const argumentSets: unknown[][] = [
    [],
    [''],
    ['u1'],
    [1],
    [true],
    [[['a'], ['b']]],
    ['x', 'y', 5, true, 'z'],
    [{}],
  ];

  test.each(names)('%s', (name) => {
    const { valid, noPermission } = harness.dataset.tokens;
    const answers = (): string[] =>
      argumentSets.map((args) =>
        JSON.stringify(harness.emulator.customFunction(harness.spreadsheetId, name, args)),
      );
    // The owner's own token lent to formulas: the import token and the formula token are one.
    setFormulaAccess(true);
    for (const answer of answers()) expect(answer).not.toContain(valid);
    // An editor lends another token (one the service refuses, so error paths run too).
    const editor = harness.asUser(EDITOR);
    editor.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: noPermission });
    editor.callServer('setFormulaAccess', true);
    try {
      expect(harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_USER', ['u1'])).toEqual({
        error: expect.stringMatching(/^SAFETY_USER: users\.info: token_permission\./),
      });
      for (const answer of answers()) {
        expect(answer).not.toContain(valid);
        expect(answer).not.toContain(noPermission);
      }
    } finally {
      setFormulaAccess(true);
    }
  });

  test('the names checked include every custom function', () => {
    expect(names).toEqual(
      expect.arrayContaining([...SERVICE_FUNCTIONS, 'SAFETY_NEXT_INSPECTION', 'SAFETY_INSPECTION_STATUS']),
    );
  });
});

describe('a call that needs more pages than fit in 30 seconds', () => {
  let slow: AddonHarness;

  beforeAll(async () => {
    slow = await createAddonHarness({
      dataset: { completions: 12_000, users: 50, seed: 5 },
      emulator: { readings: LENT_TOKEN_READABLE },
    });
    slow.connect();
    // One page at a time, 2.5 s each: page 1 shows that the other 11 cannot follow in time.
    slow.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token: '', batchSize: 1 });
    slow.callServer('setFormulaAccess', true);
    slow.emulator.urlFetch.roundTripMs = 2_500;
  });

  afterAll(() => slow.done());

  test("stops early with the narrowing message, not Sheets' timeout", () => {
    const startedAt = slow.emulator.clock.now();
    const result = slow.emulator.customFunction(slow.spreadsheetId, 'SAFETY_COMPLETIONS', []);
    expect(slow.emulator.clock.now() - startedAt).toBeLessThan(30_000);
    expect(result).toEqual({
      error:
        'SAFETY_COMPLETIONS: 12 pages to read (about 12,000 records): more than fits in the 30 seconds a formula may run. ' +
        'Narrow it with user_id or training_id, give a limit, or use Safety Sync → Import completed trainings…',
    });
    expect(slow.emulator.urlFetch.requests.map((request) => request.payload)).toEqual([
      JSON.stringify({ token: slow.dataset.tokens.valid, limit: 1000, page: 1 }),
    ]);
  });
});

describe("where Google does not let formulas read this spreadsheet's settings (its stricter reading)", () => {
  let closed: AddonHarness;

  beforeAll(async () => {
    closed = await createAddonHarness({
      dataset: { completions: 20, users: 3, seed: 12 },
      emulator: { readings: { documentStoresInCustomFunction: false } },
    });
    closed.connect();
    closed.callServer('setFormulaAccess', true);
  });

  afterAll(() => closed.done());

  test.each(SERVICE_FUNCTIONS)(
    '%s says so in its cell, names the menu actions to use and sends nothing',
    (name) => {
      const before = closed.emulator.urlFetch.requests.length;
      // SAFETY_USER needs an id; the others may be called with none.
      const args = name === 'SAFETY_USER' ? ['1'] : [];
      expect(closed.emulator.customFunction(closed.spreadsheetId, name, args)).toEqual({
        error:
          `${name}: Google does not let formulas read this spreadsheet's settings here, so they cannot reach the token lent to them and nothing was requested. ` +
          'Use the Safety Sync menu instead: Import completed trainings…, Import equipment types or Refresh all write the same data into tabs.',
      });
      expect(closed.emulator.urlFetch.requests.length).toBe(before);
    },
  );

  test('the lend stays on in Settings, and the functions that need no token work', () => {
    expect(closed.callServer('getSettings')).toMatchObject({ formulaAccess: true });
    expect(
      closed.emulator.customFunction(closed.spreadsheetId, 'SAFETY_INSPECTION_STATUS', [
        '2024-03-15',
        5,
        '2024-03-10',
      ]),
    ).toEqual({ value: 'Expiring' });
  });
});
