/**
 * Reading the People tab (the roster) and merging it with the completions: the user's columns found
 * by their titles wherever they were moved, the cells a refusal names, and who stays on the tab.
 */
import { UnreadableTab } from '../../src/platform/problem-lists';
import type { CompletionRow } from '../../src/trainings/completions-tab';
import {
  mergeRoster,
  PEOPLE_USER_HEADERS,
  readRoster,
  rolesOf,
  type RosterEntry,
  rosterTable,
} from '../../src/trainings/people';
import { type CalendarDate, fromIsoDate, toSheetSerial } from '../../src/lib/dates';

const UTC = () => 0;
const OWN = ['User ID', 'User name', 'Last completed'];
const USER = Object.values(PEOPLE_USER_HEADERS);

function day(iso: string): CalendarDate {
  return fromIsoDate(iso)!;
}

function completion(userId: string, userName: string, completed: string): CompletionRow {
  return { userId, userName, completed: day(completed) } as CompletionRow;
}

/** A person whose row holds nothing the user typed: active, and nothing else known. */
function nothingTyped(userId: string, name: string): RosterEntry {
  return {
    userId,
    name,
    site: '',
    department: '',
    roles: [],
    managerEmail: '',
    active: true,
    startDate: null,
    email: '',
  };
}

function refusal(values: unknown[][]): string {
  try {
    readRoster(values, UTC);
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableTab);
    return (error as Error).message;
  }
  throw new Error('the roster was not refused');
}

test('each person with what the user typed beside them, by title, wherever the columns are', () => {
  const header = [...OWN, 'Notes', 'Start date', 'Role', 'Active', 'Site', 'Manager e-mail', 'Department'];
  const read = readRoster(
    [
      header,
      [
        'U-1',
        'Anna Müller',
        '',
        'keys',
        new Date(Date.UTC(2026, 2, 1)),
        'Forklift driver, First aider',
        'no',
        ' Hamburg ',
        'boss@example.com',
        'Logistics',
      ],
      ['U-2', '', '', '', '', '', '', '', '', ''],
      ['', 'no id', '', '', '', '', '', '', '', ''],
    ],
    UTC,
  );
  expect(read.entries).toEqual([
    {
      userId: 'U-1',
      name: 'Anna Müller',
      site: 'Hamburg',
      department: 'Logistics',
      roles: ['Forklift driver', 'First aider'],
      managerEmail: 'boss@example.com',
      active: false,
      startDate: day('2026-03-01'),
      email: '',
    },
    nothingTyped('U-2', ''),
  ]);
  expect([...read.withUserContent]).toEqual(['U-1']);
  expect(read.missingHeaders).toEqual(['E-mail']);
  expect(read.inputColumns).toEqual([8, 10, 6, 9, 7, 5, 11]);
});

test('a title of the user’s among the add-on’s columns is not theirs; missing titles go after the last column', () => {
  const read = readRoster(
    [
      ['User ID', 'Site', 'Last completed', 'Role'],
      ['U-1', 'Berlin', '', 'Welder'],
    ],
    UTC,
  );
  expect(read.entries[0]).toMatchObject({ site: '', roles: ['Welder'] });
  expect(read.missingHeaders).toEqual([
    'Site',
    'Department',
    'Manager e-mail',
    'Active',
    'Start date',
    'E-mail',
  ]);
  expect(read.inputColumns).toEqual([4, 5, 6, 7, 8, 9, 10]);
});

test('a person’s own E-mail is read trimmed, beside their Manager e-mail, wherever the column is', () => {
  const read = readRoster(
    [
      [...OWN, 'E-mail', 'Manager e-mail'],
      ['U-1', 'Anna Müller', '', ' Anna.Mueller@example.com ', 'lead@example.com'],
      ['U-2', 'Ben Neu', '', '', 'anna.mueller@example.com'],
    ],
    UTC,
  );
  expect(read.entries.map(({ userId, email, managerEmail }) => ({ userId, email, managerEmail }))).toEqual([
    { userId: 'U-1', email: 'Anna.Mueller@example.com', managerEmail: 'lead@example.com' },
    { userId: 'U-2', email: '', managerEmail: 'anna.mueller@example.com' },
  ]);
  expect([...read.withUserContent].sort()).toEqual(['U-1', 'U-2']);
  expect(read.columns.email).toBe(4);
});

test('Active reads yes and no in words or a checkbox; empty means yes', () => {
  const rows = ['yes', 'Y', 'TRUE', true, '', 'no', ' n ', 'false', false].map((active, index) => [
    `U-${index}`,
    '',
    '',
    active,
  ]);
  const read = readRoster([[...OWN, 'Active'], ...rows], UTC);
  expect(read.entries.map((entry) => entry.active)).toEqual([
    true,
    true,
    true,
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
});

test('an Active or a Start date it cannot read is named by row, user and column, with what to enter', () => {
  const message = refusal([
    [...OWN, 'Active', 'Start date'],
    ['U-1', '', '', 'left in May', ''],
    ['U-2', '', '', '', 'next Monday'],
    ['U-3', '', '', '', '2026-02-30'],
    ['U-4', '', '', 'yes', '2026-02-28'],
  ]);
  expect(message).toContain('row 2 (user U-1): "Active" is "left in May"; enter yes or no (empty means yes)');
  expect(message).toContain(
    'row 3 (user U-2): "Start date" is "next Monday"; enter a date such as 2026-03-01',
  );
  expect(message).toContain('row 4 (user U-3): "Start date" is "2026-02-30"');
  expect(message).not.toContain('U-4');
  expect(message).toMatch(/Correct them and choose Safety Sync → Show training status\.$/);
});

test('roles: split at commas, trimmed, each once whatever its case, in the order typed', () => {
  expect(rolesOf(' Welder ,welder, First aider,, ')).toEqual(['Welder', 'First aider']);
  expect(rolesOf('')).toEqual([]);
  expect(rolesOf(42)).toEqual(['42']);
});

describe('the roster after a run', () => {
  const tab = readRoster(
    [
      [...OWN, 'Site'],
      ['U-gone', 'Old Name', '', ''],
      ['U-typed', '', '', 'Hamburg'],
      ['U-bare', '', '', ''],
      ['U-1', '', '', ''],
      ['U-new-starter', 'Ben Neu', '', 'Berlin'],
      ['U-named-only', 'Named Only', '', ''],
    ],
    UTC,
  );
  const completions = [
    completion('U-2', 'Zoe', '2026-03-02'),
    completion('U-1', 'Anna', '2026-03-01'),
    completion('U-2', 'Zoe Older', '2025-01-01'),
  ];
  const merged = mergeRoster(tab, completions);

  test('the tab’s order first; a person no completion names stays while their row holds anything typed', () => {
    expect(merged.map((entry) => entry.userId)).toEqual(['U-typed', 'U-1', 'U-new-starter', 'U-2']);
  });

  test('names: the completions’ newest one where they name the person, else the tab’s', () => {
    expect(merged.map((entry) => entry.name)).toEqual(['', 'Anna', 'Ben Neu', 'Zoe']);
  });

  test('a person new to the completions is active with nothing typed', () => {
    expect(merged.at(-1)).toEqual(nothingTyped('U-2', 'Zoe'));
  });

  test('the add-on’s columns: id, name and the day of the latest completion', () => {
    expect(rosterTable(merged, completions).rows).toEqual([
      ['U-typed', '', null],
      ['U-1', 'Anna', toSheetSerial(day('2026-03-01'))],
      ['U-new-starter', 'Ben Neu', null],
      ['U-2', 'Zoe', toSheetSerial(day('2026-03-02'))],
    ]);
  });
});

test('ids are opaque: spaces, zeros and an equals sign are kept as typed', () => {
  const read = readRoster(
    [
      [...OWN, 'Site'],
      [' 007 ', '', '', 'x'],
      ['=1+1', '', '', 'y'],
    ],
    UTC,
  );
  expect(read.entries.map((entry) => entry.userId)).toEqual([' 007 ', '=1+1']);
  expect(USER).toContain('Site');
});
