/**
 * SAFETY_PEOPLE and SAFETY_COMPLIANCE as Sheets runs them: dist/Code.js in the emulator, typed into
 * a cell over the People and Requirements tabs after an import from the sample service, as a
 * training manager fills those tabs in. A compliance share must be the Training matrix's own figure
 * for the same people and training.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import {
  CATALOGUE,
  importAll,
  MATRIX,
  NOW,
  SHOW,
  TIME_ZONE,
  trainingsInListOrder,
  workbook,
} from '../trainings/training-tabs-expected';

const PEOPLE = 'People';
const FORMULAS = 'Formulas';

let harness: AddonHarness;
let trainings: string[];
/** The imported people's ids, in the People tab's order. */
let ids: string[];

/** What the manager types on a person's row of People, by column title. */
function typeOnPeople(userId: string, cells: Record<string, string>): void {
  const rows = harness.displayed(PEOPLE);
  const row = rows.findIndex((cells) => cells[0] === userId) + 1;
  for (const [title, value] of Object.entries(cells)) {
    const column = String.fromCharCode(65 + rows[0]!.indexOf(title));
    workbook(harness).typeValues(`${PEOPLE}!${column}${row}`, [[value]]);
  }
}

/** What =formula shows in a cell of a tab of its own, once recalculated (its blank cells left out). */
function shown(formula: string): string[][] {
  const book = harness.emulator.workbooks.get(harness.spreadsheetId)!;
  const sheet = book.addSheet(FORMULAS, { rows: 20, columns: 10 });
  try {
    book.typeValues(`${FORMULAS}!A1`, [[formula]]);
    book.recalculate();
    return sheet
      .displayValues('A1:J20')
      .map((row) => {
        const trimmed = [...row];
        while (trimmed.at(-1) === '') trimmed.pop();
        return trimmed;
      })
      .filter((row) => row.length > 0);
  } finally {
    book.deleteSheet(FORMULAS);
  }
}

beforeAll(async () => {
  harness = await createAddonHarness({
    dataset: { seed: 47, completions: 160, users: 7, trainings: 4 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
  });
  harness.connect();
  importAll(harness);
  const data = await harness.dataset.data();
  trainings = trainingsInListOrder(data);
  ids = harness
    .displayed(PEOPLE)
    .slice(1)
    .map((row) => row[0]!);
  // Every training valid for a year.
  workbook(harness).typeValues(
    `${CATALOGUE}!E2:E${trainings.length + 1}`,
    trainings.map(() => [12]),
  );
  typeOnPeople(ids[0]!, {
    Site: 'Kiel',
    Department: 'Yard',
    Role: 'Driver, Warden',
    'Manager e-mail': 'kim@example.com',
  });
  typeOnPeople(ids[1]!, { Site: 'Bonn', Department: 'Yard', Role: 'driver', 'Start date': '2024-01-15' });
  typeOnPeople(ids[2]!, { Site: 'bonn', Department: 'Stores', Role: 'Warden', Active: 'no' });
  workbook(harness).typeValues('Requirements!A2:D4', [
    ['Everyone', '', trainings[0]!, ''],
    ['Role', 'Driver', trainings[1]!, ''],
    ['Site', 'Kiel', trainings[2]!, ''],
  ]);
  // Excused from what everyone must hold: out of the matrix's count, and so of the function's.
  workbook(harness).typeValues('Exemptions!A2:C2', [[ids[3]!, trainings[0]!, 'Works from home']]);
  harness.clickMenu(SHOW);
});

afterAll(async () => {
  await harness.done();
});

test('SAFETY_PEOPLE lists the People tab filtered, from a cell over its range', () => {
  const header = [
    'User ID',
    'User name',
    'Site',
    'Department',
    'Role',
    'Manager e-mail',
    'Active',
    'Start date',
  ];
  const nameOf = (id: string) => harness.displayed(PEOPLE).find((row) => row[0] === id)![1]!;
  expect(shown('=SAFETY_PEOPLE(People!A1:J, "KIEL")')).toEqual([
    header,
    [ids[0]!, nameOf(ids[0]!), 'Kiel', 'Yard', 'Driver, Warden', 'kim@example.com', 'yes'],
  ]);
  expect(shown('=SAFETY_PEOPLE(People!A1:J, "Bonn", , "Driver", TRUE, FALSE)')).toEqual([
    [ids[1]!, nameOf(ids[1]!), 'Bonn', 'Yard', 'driver', '', 'yes', '2024-01-15'],
  ]);
  expect(shown('=SAFETY_PEOPLE(People!A1:J, "bonn", , , TRUE, FALSE)').map((row) => row[6])).toEqual([
    'yes',
    'no',
  ]);
  expect(harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_PEOPLE', [[['Applies to']]])).toEqual(
    {
      error:
        'SAFETY_PEOPLE: people is not the People table: its first cell is not the title "User ID". ' +
        "Give the People tab's table, titles first: People!A1:J or the named range SafetySync_People",
    },
  );
});

test("SAFETY_COMPLIANCE is the Training matrix's figure: everyone, each training, one person's site", () => {
  const [, titles, byTraining, ...rows] = harness.displayed(MATRIX);
  const complianceColumn = titles!.indexOf('Compliance');
  const percent = (cell: string | undefined) => (cell === '' ? '' : `${Math.round(Number(cell) * 100)}%`);
  const share = (formula: string) => percent(shown(formula)[0]?.[0] ?? '');
  const tables = 'People!A1:J, Requirements!A1:D';
  // Something counts: the figures compared are percentages, not empty cells.
  expect(byTraining![complianceColumn]).toMatch(/^\d+%$/);
  expect(share(`=SAFETY_COMPLIANCE(${tables})`)).toBe(byTraining![complianceColumn]);
  trainings.forEach((training) => {
    const column = titles!.indexOf(training);
    expect(share(`=SAFETY_COMPLIANCE(${tables}, , , "${training}")`)).toBe(byTraining![column]);
  });
  const excused = rows.find((row) => row[0] === ids[3])!;
  expect(excused[titles!.indexOf(trainings[0]!)]).toBe('Exempt');
  // Kiel has one person: their row's figure.
  const kiel = rows.find((row) => row[0] === ids[0])!;
  expect(kiel[complianceColumn]).toMatch(/^\d+%$/);
  expect(share(`=SAFETY_COMPLIANCE(${tables}, "kiel")`)).toBe(kiel[complianceColumn]);
  expect(shown(`=SAFETY_COMPLIANCE(${tables}, "Hull")`)).toEqual([]);
  expect(
    harness.emulator.customFunction(harness.spreadsheetId, 'SAFETY_COMPLIANCE', [[['User ID']], 'x']),
  ).toEqual({
    error:
      "SAFETY_COMPLIANCE: requirements must be a range: give the Requirements tab's table, titles first: Requirements!A1:D",
  });
});
