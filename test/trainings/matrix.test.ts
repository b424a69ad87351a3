import { type CalendarDate, fromIsoDate, toSheetSerial } from '../../src/lib/dates';
import type { CatalogueEntry } from '../../src/trainings/catalogue';
import type { CompletionRow } from '../../src/trainings/completions-tab';
import { expiringEntries, expiringTable } from '../../src/trainings/expiring';
import { type TrainingMatrix, trainingMatrix } from '../../src/trainings/matrix';
import { personCompliance, trainingCompliance } from '../../src/trainings/matrix-compliance';
import { matrixCellA1, matrixGrid, matrixSize, STATUS_BACKGROUNDS } from '../../src/trainings/matrix-grid';
import { rosterOf } from './roster-fixtures';

function day(iso: string): CalendarDate {
  return fromIsoDate(iso)!;
}

let row = 1;
function done(userId: string, userName: string, trainingId: string, completed: string): CompletionRow {
  return {
    userId,
    userName,
    trainingId,
    completed: day(completed),
    specialExpiration: null,
    created: 0,
    row: ++row,
  };
}

function training(trainingId: string, validityMonths: number | null, required: boolean): CatalogueEntry {
  return {
    trainingId,
    name: trainingId === 'F' ? 'Forklift' : '',
    validityMonths,
    required,
    expiringDays: 30,
  };
}

const TODAY = day('2024-03-01');
const COMPLETIONS = [
  done('u2', 'Bea', 'F', '2023-12-01'), // valid
  done('u1', 'Al', 'F', '2023-03-15'), // expiring (2024-03-15)
  done('u1', 'Al', 'L', '2020-01-01'), // never expires
  done('u3', 'Cy', 'L', '2024-05-01'), // after today: not done yet
  done('u3', 'Cy', 'F', '2022-01-01'), // expired (2023-01-01)
];
const TRAININGS = [training('F', 12, true), training('L', null, false)];

/** The matrix of a workbook whose People and Requirements tabs hold nothing typed. */
function matrixOf(
  completions: readonly CompletionRow[],
  trainings: readonly CatalogueEntry[],
  today: CalendarDate,
): TrainingMatrix {
  return trainingMatrix({
    completions,
    trainings,
    roster: rosterOf(completions),
    requirements: [],
    exemptions: new Map(),
    showInactive: false,
    today,
  });
}
const SHAPE = { bySite: false, requirementsListed: false, exemptionsListed: false };

test('people by name, trainings in the catalogue order, statuses by the rules', () => {
  const matrix = matrixOf(COMPLETIONS, TRAININGS, TODAY);
  expect(matrix.people.map((person) => person.userName)).toEqual(['Al', 'Bea', 'Cy']);
  expect(matrix.statuses.map((statuses) => statuses.map((status) => status.status))).toEqual([
    ['Expiring', 'Valid (no expiry)'],
    ['Valid', 'Not required'],
    ['Expired', 'Not required'],
  ]);
});

test('compliance counts a required training over everyone, another over the people who did it', () => {
  const matrix = matrixOf(COMPLETIONS, TRAININGS, TODAY);
  expect([0, 1].map((t) => trainingCompliance(matrix, t))).toEqual([
    { compliant: 2, counted: 3 },
    { compliant: 1, counted: 1 },
  ]);
  expect([0, 1, 2].map((p) => personCompliance(matrix, p))).toEqual([
    { compliant: 2, counted: 2 },
    { compliant: 1, counted: 1 },
    { compliant: 0, counted: 1 },
  ]);
});

test('the grid: the legend in the first row, each cell the expiry that decides its colour, "Not done" only where required', () => {
  const grid = matrixGrid(matrixOf(COMPLETIONS, TRAININGS, TODAY));
  const { columns } = matrixSize(SHAPE, 3, 2);
  // Two trainings, and the legend's five statuses from column D, then the Show inactive choice: the
  // tab is as wide as the legend row.
  expect(columns).toBe(10);
  expect(grid.values.slice(0, 6)).toEqual([
    [
      'Legend',
      'Cells show the expiry date',
      null,
      'Valid',
      'Valid (no expiry)',
      'Expiring',
      'Expired',
      'Not done',
      'Show inactive people',
      'no',
    ],
    ['User ID', 'User name', 'Compliance', 'Forklift', 'L', null, null, null, null, null],
    ['', 'Compliance by training', 3 / 4, 2 / 3, 1, null, null, null, null, null],
    ['u1', 'Al', 1, toSheetSerial(day('2024-03-15')), 'No expiry', null, null, null, null, null],
    ['u2', 'Bea', 1, toSheetSerial(day('2024-12-01')), null, null, null, null, null, null],
    ['u3', 'Cy', 0, toSheetSerial(day('2023-01-01')), null, null, null, null, null, null],
  ]);
  expect(grid.showInactiveA1).toBe('J1');
  expect(grid.inactive).toBeNull();
  expect(grid.legend).toEqual({
    a1: 'D1:H1',
    backgrounds: ['Valid', 'Valid (no expiry)', 'Expiring', 'Expired', 'Not done'].map(
      (status) => STATUS_BACKGROUNDS[status as keyof typeof STATUS_BACKGROUNDS],
    ),
  });
  expect(grid.values.length).toBe(matrixSize(SHAPE, 3, 2).rows);
  expect(grid.values.every((cells) => cells.length === columns)).toBe(true);
  expect(grid.boldRows).toEqual([1, 2]);
  expect(grid.notes[0]!.slice(3)).toEqual([
    'Done, and valid beyond the expiring window',
    'Done; the training never expires (no validity, no special expiration)',
    "Expires within the training's expiring window",
    'Its expiry has passed',
    'Required, and never done',
    expect.stringMatching(/^yes: the people marked Active "no" on People are listed below the others/),
    '',
  ]);
  expect(grid.notes[1]![2]).toBe('Compliance: green at 95% or more, amber from 80%, red below 80%.');
});

test('the colours: a rule per status over the whole block, Expiring a rule per expiring window, compliance figures by the shared bands', () => {
  const windows = [
    training('F', 12, true),
    training('L', null, false),
    { ...training('W', 12, false), expiringDays: 90 },
  ];
  const grid = matrixGrid(matrixOf(COMPLETIONS, windows, TODAY));
  // Three people from row 4, three trainings from column D; the run's day is 2024-03-01.
  expect(grid.statusRules).toEqual([
    { status: 'Not done', condition: { textIs: 'Not done' }, a1: ['D4:F6'] },
    { status: 'Valid (no expiry)', condition: { textIs: 'No expiry' }, a1: ['D4:F6'] },
    { status: 'Expired', condition: { dateBefore: day('2024-03-01') }, a1: ['D4:F6'] },
    { status: 'Expiring', condition: { dateBefore: day('2024-04-01') }, a1: ['D4:E6'] },
    { status: 'Expiring', condition: { dateBefore: day('2024-05-31') }, a1: ['F4:F6'] },
    { status: 'Valid', condition: { dateAfter: day('2024-03-31') }, a1: ['D4:F6'] },
  ]);
  // The overall figure and each training's in row 3, each person's in column C.
  expect(grid.complianceA1).toEqual(['C3:F3', 'C4:C6']);
});

test('a required training nobody did: "Not done" in every row, and no compliance figure divides by zero', () => {
  const grid = matrixGrid(matrixOf(COMPLETIONS, [training('X', 12, true), training('Y', 12, false)], TODAY));
  expect(grid.values.slice(2, 6).map((cells) => cells.slice(2, 5))).toEqual([
    [0, 0, null],
    [0, 'Not done', null],
    [0, 'Not done', null],
    [0, 'Not done', null],
  ]);
});

test('the expiring list: what can be booked first, older lapses below their heading, linked to the matrix cell and the completion row', () => {
  const matrix = matrixOf(COMPLETIONS, TRAININGS, TODAY);
  const entries = expiringEntries(matrix);
  const table = expiringTable(matrix, entries, { matrix: 11, completions: 22 });
  expect(table.rows).toEqual([
    [
      'u1',
      'Al',
      '',
      '',
      '',
      'F',
      `=HYPERLINK("#gid=11&range=${matrixCellA1(SHAPE, 0, 0)}", "Forklift")`,
      'Yes',
      toSheetSerial(day('2023-03-15')),
      toSheetSerial(day('2024-03-15')),
      14,
      'Expiring',
      '=HYPERLINK("#gid=22&range=A3", "Row 3")',
      '["u1","F"]',
    ],
    ['Lapsed more than 90 days ago: still employed?', ...new Array<string>(12).fill(''), 'older lapses'],
    [
      'u3',
      'Cy',
      '',
      '',
      '',
      'F',
      `=HYPERLINK("#gid=11&range=${matrixCellA1(SHAPE, 2, 0)}", "Forklift")`,
      'Yes',
      toSheetSerial(day('2022-01-01')),
      toSheetSerial(day('2023-01-01')),
      -425,
      'Expired',
      '=HYPERLINK("#gid=22&range=A6", "Row 6")',
      '["u3","F"]',
    ],
  ]);
  expect([matrixCellA1(SHAPE, 0, 0), matrixCellA1(SHAPE, 2, 1)]).toEqual(['D4', 'E6']);
});
