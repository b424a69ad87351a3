/**
 * SAFETY_PEOPLE and SAFETY_COMPLIANCE over cells, as Sheets hands them the People and Requirements
 * ranges. Each expected share is worked out here by hand from the rows given: which pairs count on
 * the Training matrix (an active person, a training they must hold, due, not exempted) and which
 * of those are Valid, Valid (no expiry) or Expiring.
 */
import { FormulaArgumentError } from '../../src/formulas/arguments';
import { complianceCell, type MatrixTabs, peopleTable } from '../../src/formulas/people-formulas';
import { type CalendarDate, fromIsoDate, type UtcOffsetAt } from '../../src/lib/dates';
import type { CatalogueEntry } from '../../src/trainings/catalogue';
import { type CompletionRow, pairKey } from '../../src/trainings/completions-tab';
import { PEOPLE_TITLES } from '../trainings/roster-fixtures';

const utc: UtcOffsetAt = () => 0;
const day = (iso: string): CalendarDate => fromIsoDate(iso)!;
const TODAY = '2026-06-01';
const clock = { utcOffsetAt: utc, scriptUtcOffsetAt: utc, today: () => day(TODAY) };
/** A date cell as Sheets passes it to a function in a UTC spreadsheet: that day's midnight. */
const dateCell = (iso: string): Date => new Date(`${iso}T00:00:00Z`);

// prettier-ignore
const PEOPLE: unknown[][] = [
  PEOPLE_TITLES,
  ['u1', 'Anna Berg', dateCell('2026-01-01'), 'Leeds', 'Warehouse', 'Forklift driver, First aider', 'kim@example.com', '', dateCell('2019-04-01'), 'anna@example.com'],
  ['u2', 'Ben Cole', '', ' leeds ', 'Office', 'First Aider', '', 'yes', '', ''],
  ['u3', 'Cleo Dunn', dateCell('2024-01-01'), 'Leeds', 'Warehouse', 'forklift driver', '', 'no', '', ''],
  ['u4', 'Dan Ford', dateCell('2025-01-01'), 'York', 'Warehouse', 'Forklift driver', '', '', '', ''],
  ['u5', 'Eve Gray', '', 'York', 'Office', '', '', '', dateCell('2026-05-20'), ''],
];
const HEADER = [
  'User ID',
  'User name',
  'Site',
  'Department',
  'Role',
  'Manager e-mail',
  'Active',
  'Start date',
];
const ROWS = {
  u1: [
    'u1',
    'Anna Berg',
    'Leeds',
    'Warehouse',
    'Forklift driver, First aider',
    'kim@example.com',
    'yes',
    dateCell('2019-04-01'),
  ],
  u2: ['u2', 'Ben Cole', 'leeds', 'Office', 'First Aider', '', 'yes', ''],
  u3: ['u3', 'Cleo Dunn', 'Leeds', 'Warehouse', 'forklift driver', '', 'no', ''],
  u4: ['u4', 'Dan Ford', 'York', 'Warehouse', 'Forklift driver', '', 'yes', ''],
  u5: ['u5', 'Eve Gray', 'York', 'Office', '', '', 'yes', dateCell('2026-05-20')],
};

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FormulaArgumentError);
    return (error as Error).message;
  }
  throw new Error('expected a FormulaArgumentError');
}

describe('SAFETY_PEOPLE', () => {
  test('the active people in the tab’s order, with a header; the inactive only when asked for', () => {
    expect(peopleTable({ people: PEOPLE }, clock)).toEqual([HEADER, ROWS.u1, ROWS.u2, ROWS.u4, ROWS.u5]);
    expect(peopleTable({ people: PEOPLE, include_inactive: true, with_header: false }, clock)).toEqual([
      ROWS.u1,
      ROWS.u2,
      ROWS.u3,
      ROWS.u4,
      ROWS.u5,
    ]);
  });

  test('site, department and role compared without regard to case or spaces; a role is any of a person’s', () => {
    expect(peopleTable({ people: PEOPLE, site: 'LEEDS ', with_header: false }, clock)).toEqual([
      ROWS.u1,
      ROWS.u2,
    ]);
    expect(peopleTable({ people: PEOPLE, role: ' first aider', with_header: false }, clock)).toEqual([
      ROWS.u1,
      ROWS.u2,
    ]);
    expect(
      peopleTable(
        { people: PEOPLE, role: 'Forklift Driver', include_inactive: 'TRUE', with_header: false },
        clock,
      ),
    ).toEqual([ROWS.u1, ROWS.u3, ROWS.u4]);
    expect(
      peopleTable({ people: PEOPLE, site: 'york', department: 'office', with_header: false }, clock),
    ).toEqual([ROWS.u5]);
  });

  test('a start date is its day whichever zone Google made the Date in, the spreadsheet’s or the script’s', () => {
    // A spreadsheet in New York (UTC−4 in April), the script in UTC: the script's midnight of 1
    // April is 20:00 on 31 March in New York, still 1 April's date cell.
    const newYork: UtcOffsetAt = () => -240;
    const zones = { utcOffsetAt: newYork, scriptUtcOffsetAt: utc, today: () => day(TODAY) };
    const people = [PEOPLE_TITLES, ['u1', 'Anna Berg', '', '', '', '', '', '', dateCell('2019-04-01'), '']];
    const newYorkMidnight = new Date('2019-04-01T04:00:00Z');
    expect(peopleTable({ people, with_header: false }, zones)).toEqual([
      ['u1', 'Anna Berg', '', '', '', '', 'yes', newYorkMidnight],
    ]);
    people[1]![8] = newYorkMidnight;
    expect(peopleTable({ people, with_header: false }, zones)).toEqual([
      ['u1', 'Anna Berg', '', '', '', '', 'yes', newYorkMidnight],
    ]);
  });

  test('nobody matching: the header alone, or an empty cell without it', () => {
    expect(peopleTable({ people: PEOPLE, site: 'Hull' }, clock)).toEqual([HEADER]);
    expect(peopleTable({ people: PEOPLE, site: 'Hull', with_header: false }, clock)).toBe('');
  });

  test('a range that is not the People table is refused, saying what to pass', () => {
    const pass =
      "Give the People tab's table, titles first: People!A1:J or the named range SafetySync_People";
    expect(messageOf(() => peopleTable({ people: PEOPLE.map((row) => row.slice(1)) }, clock))).toBe(
      `people is not the People table: its first cell is not the title "User ID". ${pass}`,
    );
    expect(messageOf(() => peopleTable({ people: PEOPLE.slice(1) }, clock))).toBe(
      `people is not the People table: its first cell is not the title "User ID". ${pass}`,
    );
    expect(messageOf(() => peopleTable({ people: 'u1' }, clock))).toBe(
      "people must be a range: give the People tab's table, titles first: People!A1:J or the named range SafetySync_People",
    );
    expect(messageOf(() => peopleTable({ people: undefined }, clock))).toMatch(/^people must be a range/);
    // A filter on a column the range does not reach would match nobody.
    expect(
      messageOf(() => peopleTable({ people: PEOPLE.map((row) => row.slice(0, 4)), role: 'x' }, clock)),
    ).toBe(`people has no "Role" column to find the role "x" in. ${pass}`);
    expect(messageOf(() => peopleTable({ people: PEOPLE, site: [['a'], ['b']] }, clock))).toBe(
      'site must be one value, not a range (2×1 cells)',
    );
    expect(messageOf(() => peopleTable({ people: PEOPLE, include_inactive: 'maybe' }, clock))).toBe(
      'include_inactive must be TRUE or FALSE, not "maybe"',
    );
  });
});

const REQUIREMENT_TITLES = ['Applies to', 'Value', 'Training ID', 'Within (days) of start date'];
const FIRST_AID_IN_LEEDS = ['Site', 'Leeds', 'FIRST', ''];
const FORKLIFT_FOR_DRIVERS = ['Role', 'forklift driver', 'FORK', ''];
const REQUIREMENTS = [REQUIREMENT_TITLES, FIRST_AID_IN_LEEDS, FORKLIFT_FOR_DRIVERS];

function entry(trainingId: string, validityMonths: number | null): CatalogueEntry {
  return { trainingId, name: '', validityMonths, required: false, expiringDays: 30 };
}

let row = 1;
function completion(userId: string, trainingId: string, completed: string): CompletionRow {
  row++;
  return {
    userId,
    userName: '',
    trainingId,
    completed: day(completed),
    specialExpiration: null,
    created: row,
    row,
  };
}

/**
 * Today (1 June 2026): u1's forklift (done 1 Sep 2025, 12 months) is Valid, their first aid (never
 * expires) Valid (no expiry); u2 never did first aid: Not done; u3 (inactive) and u4's forklifts
 * have expired; u1's ladder is required of nobody.
 */
const COMPLETIONS = [
  completion('u1', 'FORK', '2025-09-01'),
  completion('u1', 'FIRST', '2020-01-01'),
  completion('u1', 'LADDER', '2026-01-01'),
  completion('u3', 'FORK', '2024-01-01'),
  completion('u4', 'FORK', '2025-01-01'),
];

function tabs(exemptions: ReadonlyMap<string, string> = new Map()): () => MatrixTabs {
  return () => ({
    completions: COMPLETIONS,
    catalogue: {
      entries: [entry('FORK', 12), entry('FIRST', null), entry('LADDER', 12)],
      withUserContent: new Set(['FORK', 'FIRST', 'LADDER']),
      missingHeaders: [],
      lastColumn: 7,
      inputColumns: [],
    },
    exemptions,
    defaultExpiringDays: 30,
  });
}

describe('SAFETY_COMPLIANCE', () => {
  test('Leeds: u1 first aid ✓ and forklift ✓, u2 first aid ✗ (u3 is inactive): 2 of 3', () => {
    expect(complianceCell({ people: PEOPLE, requirements: REQUIREMENTS, site: 'Leeds' }, tabs(), clock)).toBe(
      2 / 3,
    );
  });

  test('a requirement for a role raises the count: without the forklift one, Leeds is 1 of 2', () => {
    const siteOnly = [REQUIREMENT_TITLES, FIRST_AID_IN_LEEDS];
    expect(complianceCell({ people: PEOPLE, requirements: siteOnly, site: 'leeds' }, tabs(), clock)).toBe(
      1 / 2,
    );
  });

  test('an exemption leaves the count: u2 excused from first aid, Leeds is 2 of 2', () => {
    const excused = new Map([[pairKey('u2', 'FIRST'), 'Works from home']]);
    expect(
      complianceCell({ people: PEOPLE, requirements: REQUIREMENTS, site: 'Leeds' }, tabs(excused), clock),
    ).toBe(1);
  });

  test('everyone, a department, one training, another day', () => {
    // u1 ✓✓, u2 ✗, u4 forklift ✗ (expired 1 Jan 2026): 2 of 4.
    expect(complianceCell({ people: PEOPLE, requirements: REQUIREMENTS }, tabs(), clock)).toBe(2 / 4);
    // Warehouse: u1 ✓✓, u4 ✗.
    expect(
      complianceCell({ people: PEOPLE, requirements: REQUIREMENTS, department: 'WAREHOUSE' }, tabs(), clock),
    ).toBe(2 / 3);
    // Forklift: u1 ✓, u4 ✗.
    expect(
      complianceCell({ people: PEOPLE, requirements: REQUIREMENTS, training_id: 'FORK' }, tabs(), clock),
    ).toBe(1 / 2);
    // On 1 June 2025 u1 had not yet done the forklift and u4's was valid: Leeds u1 first aid ✓,
    // forklift ✗, u2 ✗; York u4 ✓.
    const asOf = dateCell('2025-06-01');
    expect(
      complianceCell(
        { people: PEOPLE, requirements: REQUIREMENTS, site: 'Leeds', as_of: asOf },
        tabs(),
        clock,
      ),
    ).toBe(1 / 3);
    expect(
      complianceCell(
        { people: PEOPLE, requirements: REQUIREMENTS, site: 'York', as_of: asOf },
        tabs(),
        clock,
      ),
    ).toBe(1);
  });

  test('nothing counted: an empty cell', () => {
    // Eve in York's office must hold nothing; nobody works in Hull.
    expect(
      complianceCell(
        { people: PEOPLE, requirements: REQUIREMENTS, site: 'York', department: 'Office' },
        tabs(),
        clock,
      ),
    ).toBe('');
    expect(complianceCell({ people: PEOPLE, requirements: REQUIREMENTS, site: 'Hull' }, tabs(), clock)).toBe(
      '',
    );
  });

  test('wrong ranges and an unknown training are named, before any tab is read', () => {
    const unread = () => {
      throw new Error('the tabs were read');
    };
    expect(
      messageOf(() => complianceCell({ people: REQUIREMENTS, requirements: REQUIREMENTS }, unread, clock)),
    ).toMatch(/^people is not the People table/);
    expect(messageOf(() => complianceCell({ people: PEOPLE, requirements: PEOPLE }, unread, clock))).toBe(
      'requirements is not the Requirements table: its first row has no "Applies to" title. ' +
        "Give the Requirements tab's table, titles first: Requirements!A1:D",
    );
    expect(messageOf(() => complianceCell({ people: PEOPLE, requirements: 'x' }, unread, clock))).toBe(
      "requirements must be a range: give the Requirements tab's table, titles first: Requirements!A1:D",
    );
    expect(
      messageOf(() =>
        complianceCell({ people: PEOPLE, requirements: REQUIREMENTS, as_of: 'soon' }, unread, clock),
      ),
    ).toMatch(/^as_of is not a date: "soon"/);
    expect(
      messageOf(() =>
        complianceCell({ people: PEOPLE, requirements: REQUIREMENTS, training_id: 'SWIM' }, tabs(), clock),
      ),
    ).toBe('training_id matches no training: "SWIM". The Trainings tab lists their ids');
  });
});
