import {
  CATALOGUE_USER_HEADERS,
  catalogueTable,
  mergeCatalogue,
  readCatalogue,
  trainingLabel,
} from '../../src/trainings/catalogue';
import { COMPLETION_COLUMNS } from '../../src/trainings/completions/table';
import { COMPLETION_HEADERS, type CompletionRow } from '../../src/trainings/completions-tab';
import { type CalendarDate, fromIsoDate, toSheetSerial } from '../../src/lib/dates';

const HEADER = [
  'Training ID',
  'People',
  'Last completed',
  'Name',
  'Validity (months)',
  'Required',
  'Expiring window (days)',
];

function day(iso: string): CalendarDate {
  return fromIsoDate(iso)!;
}

function completion(userId: string, trainingId: string, completed: string): CompletionRow {
  return {
    userId,
    userName: `Name of ${userId}`,
    trainingId,
    completed: day(completed),
    specialExpiration: null,
    created: 0,
    row: 2,
  };
}

test('the columns read from "Completed trainings" are headers the import writes', () => {
  const headers = COMPLETION_COLUMNS.map((column) => column.header);
  for (const header of Object.values(COMPLETION_HEADERS)) expect(headers).toContain(header);
});

test('the user columns are read by header, wherever the user moved them', () => {
  const values = [
    [
      'Training ID',
      'People',
      'Last completed',
      'Notes',
      'Required',
      'Name',
      'Expiring window (days)',
      'Validity (months)',
    ],
    ['0007', 3, 45000, 'x', 'Yes', 'Forklift', 14, 24],
    ['TR-2', 1, 45000, '', false, '', '', ''],
    ['TR-3', 1, 45000, '', ' no ', 'Ladder', '7', '12'],
    ['TR-4', 1, 45000, '', true, '', 0, ''],
  ];
  const read = readCatalogue(values, 30);
  expect(read.entries).toEqual([
    { trainingId: '0007', name: 'Forklift', validityMonths: 24, required: true, expiringDays: 14 },
    { trainingId: 'TR-2', name: '', validityMonths: null, required: false, expiringDays: 30 },
    { trainingId: 'TR-3', name: 'Ladder', validityMonths: 12, required: false, expiringDays: 7 },
    { trainingId: 'TR-4', name: '', validityMonths: null, required: true, expiringDays: 0 },
  ]);
  expect(read.missingHeaders).toEqual([]);
  expect([...read.withUserContent]).toEqual(['0007', 'TR-2', 'TR-3', 'TR-4']);
});

test('a tab without the user columns gets them written; a new tab too', () => {
  expect(readCatalogue([], 30).missingHeaders).toEqual(Object.values(CATALOGUE_USER_HEADERS));
  const read = readCatalogue(
    [
      ['Training ID', 'People', 'Last completed', 'Name'],
      ['0007', 1, 45000, ''],
    ],
    30,
  );
  expect(read.missingHeaders).toEqual(['Validity (months)', 'Required', 'Expiring window (days)']);
  expect(read.lastColumn).toBe(4);
  expect(read.withUserContent.size).toBe(0);
});

test('cells that are not what their column asks for are refused together, each saying what to enter', () => {
  const values = [
    HEADER,
    ['0007', 1, 45000, '', 'twelve', 'maybe', -3],
    ['TR-2', 1, 45000, '', 0, '', 1.5],
    ['TR-3', 1, 45000, 'Fine', 12, 'y', 30],
  ];
  expect(() => readCatalogue(values, 30)).toThrow(
    '5 cells of the "Trainings" tab Safety Sync cannot read: ' +
      'row 2 (training 0007): "Validity (months)" is "twelve"; enter a whole number of months such as 12, or leave it empty if the training never expires; ' +
      'row 2 (training 0007): "Required" is "maybe"; enter yes or no; ' +
      'row 2 (training 0007): "Expiring window (days)" is -3; enter a whole number of days such as 30, or leave it empty for the setting (30); ' +
      'row 3 (training TR-2): "Validity (months)" is 0; enter a whole number of months such as 12, or leave it empty if the training never expires; ' +
      'row 3 (training TR-2): "Expiring window (days)" is 1.5; enter a whole number of days such as 30, or leave it empty for the setting (30). ' +
      'Correct them and choose Safety Sync → Show training status.',
  );
});

test('the order is the tab’s; gone trainings stay only with the user’s cells; new ones follow in the order first seen', () => {
  const values = [
    HEADER,
    ['TR-9', 1, 45000, 'Gone but named', '', '', ''],
    ['TR-8', 1, 45000, '', '', '', ''],
    ['0007', 1, 45000, '', '', '', ''],
  ];
  const completions = [
    completion('u1', 'TR-5', '2024-05-01'),
    completion('u1', '0007', '2024-04-01'),
    completion('u2', 'TR-1', '2024-03-01'),
    completion('u2', 'TR-5', '2024-02-01'),
  ];
  const merged = mergeCatalogue(readCatalogue(values, 30), completions, 30, []);
  expect(merged.map((entry) => entry.trainingId)).toEqual(['TR-9', '0007', 'TR-5', 'TR-1']);
  expect(catalogueTable(merged, completions).rows).toEqual([
    ['TR-9', 0, null],
    ['0007', 1, toSheetSerial(day('2024-04-01'))],
    ['TR-5', 2, toSheetSerial(day('2024-05-01'))],
    ['TR-1', 1, toSheetSerial(day('2024-03-01'))],
  ]);
});

/** The catalogue read from the tab with the user's columns in their usual place, beside the add-on's. */
function readRows(rows: unknown[][], defaultExpiringDays = 30) {
  return readCatalogue([HEADER, ...rows], defaultExpiringDays);
}

/** What the refusal says of a catalogue holding these rows. */
function refusal(rows: unknown[][]): string {
  try {
    readRows(rows);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('test data: the catalogue was read without a refusal');
}

test('a whole number typed as text, spaces around it included, is read as that number', () => {
  const read = readRows([['0007', 1, 45000, '', ' 24 ', '', '14 ']]);
  expect(read.entries[0]).toMatchObject({ validityMonths: 24, expiringDays: 14 });
});

test.each([['12 months'], ['x12'], ['1 2'], ['-12'], ['1e3'], ['+12'], ['12.0'], ['0x1F']])(
  'a validity of %j is refused, quoted as typed',
  (typed) => {
    expect(refusal([['0007', 1, 45000, '', typed, '', '']])).toBe(
      `1 cell of the "Trainings" tab Safety Sync cannot read: row 2 (training 0007): "Validity (months)" is ${JSON.stringify(typed)}; ` +
        'enter a whole number of months such as 12, or leave it empty if the training never expires. ' +
        'Correct them and choose Safety Sync → Show training status.',
    );
  },
);

test.each<[unknown, boolean]>([
  ['Y', true],
  ['TRUE', true],
  [' yes ', true],
  ['N', false],
  ['FALSE', false],
  ['No', false],
  [false, false],
])('Required %j reads as %s', (typed, required) => {
  expect(readRows([['0007', 1, 45000, '', '', typed, '']]).entries[0]!.required).toBe(required);
});

test.each([[1], ['maybe'], ['yes please']])('Required %j is refused: yes or no', (typed) => {
  expect(refusal([['0007', 1, 45000, '', '', typed, '']])).toContain(
    `row 2 (training 0007): "Required" is ${typeof typed === 'string' ? JSON.stringify(typed) : typed}; enter yes or no.`,
  );
});

test('a long text in a refused cell is quoted by its first 40 characters', () => {
  const typed = 'Twelve months, or eighteen for the night shift crews';
  expect(refusal([['0007', 1, 45000, '', typed, '', '']])).toContain(
    `"Validity (months)" is "${typed.slice(0, 40)}"; enter`,
  );
});

test('of more than 20 cells refused, the first 20 are listed and the rest counted', () => {
  const rows = Array.from({ length: 23 }, (_, index) => [`TR-${index + 1}`, 1, 45000, '', 'soon', '', '']);
  const message = refusal(rows);
  expect(message).toMatch(
    /^23 cells of the "Trainings" tab Safety Sync cannot read: row 2 \(training TR-1\)/,
  );
  expect(message).toContain('row 21 (training TR-20)');
  expect(message).not.toContain('TR-21');
  expect(message).toContain('; and 3 more. Correct them and choose Safety Sync → Show training status.');
});

test('rows without a training id are passed over, and a refusal names the row as the tab numbers it', () => {
  const read = readRows([
    ['', '', '', 'A note of my own', '', '', ''],
    [null, '', '', '', '', '', ''],
    ['0007', 1, 45000, '', '', '', ''],
  ]);
  expect(read.entries.map((entry) => entry.trainingId)).toEqual(['0007']);
  expect(
    refusal([
      ['', '', '', '', '', '', ''],
      ['0007', 1, 45000, '', '', 'perhaps', ''],
    ]),
  ).toContain('row 3 (training 0007)');
});

test('a training id the sheet holds as a number is read as its digits', () => {
  const read = readRows([[7, 1, 45000, 'Forklift', 12, 'yes', 14]]);
  expect(read.entries[0]!.trainingId).toBe('7');
  expect([...read.withUserContent]).toEqual(['7']);
});

test('empty header cells and missing cells count as empty', () => {
  const read = readCatalogue(
    [
      ['Training ID', 'People', 'Last completed', null, 'Name'],
      ['0007', 1, 45000, undefined, 'Forklift'],
      ['TR-2', 1, 45000],
    ],
    30,
  );
  expect(read.entries).toEqual([
    { trainingId: '0007', name: 'Forklift', validityMonths: null, required: false, expiringDays: 30 },
    { trainingId: 'TR-2', name: '', validityMonths: null, required: false, expiringDays: 30 },
  ]);
  expect(read.lastColumn).toBe(5);
  expect([...read.withUserContent]).toEqual(['0007']);
});

test('a training is named in the matrix and the lists by its name, or by its id when the name is blank', () => {
  const [named, blank, unnamed] = readRows([
    ['0007', 1, 45000, 'Forklift', '', '', ''],
    ['TR-2', 1, 45000, '   ', '', '', ''],
    ['TR-3', 1, 45000, '', '', '', ''],
  ]).entries;
  expect([named, blank, unnamed].map((entry) => trainingLabel(entry!))).toEqual(['Forklift', 'TR-2', 'TR-3']);
});

test("the add-on's columns of the tab: the training id as text, the people as a whole number, the last completion as a date", () => {
  const table = catalogueTable([], []);
  expect(table.columns.map(({ header, kind }) => [header, kind])).toEqual([
    ['Training ID', 'text'],
    ['People', 'integer'],
    ['Last completed', 'date'],
  ]);
  expect(table.columns[table.keyColumn]!.header).toBe('Training ID');
});
