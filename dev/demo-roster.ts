/**
 * The demo's staff list and what each role must hold, typed as a training manager would on the People,
 * Requirements and Exemptions tabs: two sites and three departments, each team with its manager;
 * roles from the trainings people hold (whoever holds Forklift operation drives a forklift), so the
 * requirements read as a real site's; two leavers (the people whose last training is the oldest); two
 * new starters typed below the table, one inside their 30 days for the forklift, one past it; one
 * exemption with its reason.
 */
import type { WorkbookView } from './emulator/spreadsheet/workbook-store';
import { cellA1, columnTitled } from './workbook-typing';

const SITES = ['Hamburg', 'Leipzig'] as const;
const DEPARTMENTS = ['Warehouse', 'Maintenance', 'Office'] as const;

/** The role a person has when they hold the training. */
const ROLE_OF_TRAINING: ReadonlyArray<[trainingId: string, role: string]> = [
  ['TR-106', 'Forklift driver'],
  ['TR-107', 'First aider'],
  ['TR-108', 'Fire warden'],
];

/** Applies to, Value, Training ID, Within (days) of start date. */
const REQUIREMENTS: ReadonlyArray<[string, string, string, number | '']> = [
  ['Role', 'Forklift driver', 'TR-106', 30],
  ['Role', 'First aider', 'TR-107', ''],
  ['Role', 'Fire warden', 'TR-108', ''],
  ['Site', 'Leipzig', 'TR-104', 60],
  ['Department', 'Maintenance', 'TR-105', 60],
];

export interface DemoRoster {
  people: number;
  leavers: number;
  starters: number;
  requirements: number;
}

function managerOf(site: string, department: string): string {
  return `${department.toLowerCase()}.${site.toLowerCase()}@example.com`;
}

function daysBefore(isoDate: string, days: number): string {
  return new Date(Date.parse(isoDate) - days * 86_400_000).toISOString().slice(0, 10);
}

/** Fills in People, Requirements and Exemptions; the caller then asks for the training status. */
export function fillDemoRoster(workbook: WorkbookView, today: string): DemoRoster {
  const [completionsHeader = [], ...completions] = workbook.sheet('Completed trainings').displayValues();
  const userOf = columnTitled(completionsHeader, 'User ID', 'Completed trainings');
  const trainingOf = columnTitled(completionsHeader, 'Training ID', 'Completed trainings');
  const holds = new Set(completions.map((row) => `${row[userOf]}\n${row[trainingOf]}`));

  const sheetName = 'People';
  const [header = [], ...rows] = workbook.sheet(sheetName).displayValues();
  const column = (title: string) => columnTitled(header, title, sheetName);
  const lastCompleted = column('Last completed');
  // The two whose last training is the oldest: most likely people who left.
  const leavers = new Set(
    [...rows]
      .sort((a, b) => (a[lastCompleted]! < b[lastCompleted]! ? -1 : 1))
      .slice(0, 2)
      .map((row) => row[0]),
  );
  const type = (title: string, row: number, value: unknown) =>
    workbook.typeValues(cellA1(sheetName, column(title), row), [[value]]);
  rows.forEach((row, index) => {
    const at = index + 2;
    const site = SITES[index % SITES.length]!;
    const department = DEPARTMENTS[index % DEPARTMENTS.length]!;
    const roles = ROLE_OF_TRAINING.filter(([training]) => holds.has(`${row[0]}\n${training}`)).map(
      ([, role]) => role,
    );
    type('Site', at, site);
    type('Department', at, department);
    type('Role', at, roles.join(', '));
    type('Manager e-mail', at, managerOf(site, department));
    if (leavers.has(row[0])) type('Active', at, 'no');
  });
  const starters: Array<[id: string, name: string, startDaysAgo: number]> = [
    ['NEW-001', 'Mila Novak', 12],
    ['NEW-002', 'Jonas Weber', 45],
  ];
  starters.forEach(([id, name, startDaysAgo], index) => {
    const at = rows.length + 2 + index;
    type('User ID', at, id);
    type('User name', at, name);
    type('Site', at, SITES[0]);
    type('Department', at, DEPARTMENTS[0]);
    type('Role', at, 'Forklift driver');
    type('Manager e-mail', at, managerOf(SITES[0], DEPARTMENTS[0]));
    type('Start date', at, daysBefore(today, startDaysAgo));
  });

  workbook.typeValues(
    `Requirements!A2:D${REQUIREMENTS.length + 1}`,
    REQUIREMENTS.map((row) => [...row]),
  );
  // A Maintenance colleague who must work at height and cannot.
  const exempted = rows.find(
    (row, index) =>
      DEPARTMENTS[index % DEPARTMENTS.length] === 'Maintenance' &&
      !leavers.has(row[0]) &&
      !holds.has(`${row[0]}\nTR-105`),
  );
  if (exempted) {
    workbook.typeValues('Exemptions!A2:C2', [
      [exempted[0], 'TR-105', 'Medical restriction: no work at height; reassigned to ground-level tasks'],
    ]);
  }
  return {
    people: rows.length + starters.length,
    leavers: leavers.size,
    starters: starters.length,
    requirements: REQUIREMENTS.length,
  };
}
