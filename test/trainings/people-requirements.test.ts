/**
 * People and Requirements end to end: the built add-on in the emulator, importing from the sample
 * service, as a training manager says who works where, in which roles, who left and who just
 * started, and what each role and site must hold. The matrix, its compliance figures and the
 * expiring list are checked against what this test works out from the service's own records
 * (training-oracle.ts) and the rules as the issue states them.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import type { DatasetData } from '../support/sample-service';
import { expected, type Expected, type Rule } from '../support/training-oracle';
import {
  CATALOGUE,
  EXPIRING,
  importAll,
  MATRIX,
  NOW,
  SHOW,
  TIME_ZONE,
  today,
  trainingsInListOrder,
  workbook,
} from './training-tabs-expected';

const PEOPLE = 'People';
const REQUIREMENTS = 'Requirements';
const DAY = today();
const DAY_MS = 86_400_000;

/** A day `days` after the run's day, ISO. */
function dayAfter(days: number): string {
  return new Date(Date.parse(`${DAY}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

interface TypedPerson {
  id: string;
  name: string;
  site: string;
  department: string;
  roles: string[];
  manager: string;
  active: boolean;
  start: string | null;
}

let harness: AddonHarness;
let data: DatasetData;
let trainings: string[];
/** What the first test typed on People and Requirements, for the roll-ups' test after it. */
let typed: { people: TypedPerson[]; requirements: RequirementRow[] };

beforeAll(async () => {
  harness = await createAddonHarness({
    dataset: { seed: 47, completions: 160, users: 7, trainings: 4 },
    timeZone: TIME_ZONE,
    emulator: { startTime: NOW },
  });
  harness.connect();
  importAll(harness);
  data = await harness.dataset.data();
  trainings = trainingsInListOrder(data);
  // Every training valid for a year; none required of everyone on the Trainings tab.
  workbook(harness).typeValues(
    `${CATALOGUE}!E2:E${trainings.length + 1}`,
    trainings.map(() => [12]),
  );
});

afterAll(async () => {
  await harness.done();
});

function titlesOf(sheetName: string): string[] {
  return harness.displayed(sheetName)[0]!;
}

function letter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** Types one person's row on People: their own row, or a new one below the table. */
function typePerson(person: TypedPerson): void {
  const rows = harness.displayed(PEOPLE);
  const titles = rows[0]!;
  let row = rows.findIndex((cells) => cells[0] === person.id) + 1;
  if (row === 0) row = rows.length + 1;
  const cells: Record<string, string> = {
    'User ID': person.id,
    'User name': person.name,
    Site: person.site,
    Department: person.department,
    Role: person.roles.join(', '),
    'Manager e-mail': person.manager,
    Active: person.active ? '' : 'no',
    'Start date': person.start ?? '',
  };
  for (const [title, value] of Object.entries(cells)) {
    if (title === 'User name' && row <= rows.length) continue;
    if (title === 'User ID' && row <= rows.length) continue;
    workbook(harness).typeValues(`${PEOPLE}!${letter(titles.indexOf(title))}${row}`, [[value]]);
  }
}

type RequirementRow = [kind: string, value: string, training: string, within: number | ''];

/** The trainings each person must hold, with the due day for a new starter (null: due now). */
function requiredOf(
  person: TypedPerson,
  requirements: readonly RequirementRow[],
): Map<string, string | null> {
  const required = new Map<string, string | null>();
  for (const [kind, value, training, within] of requirements) {
    const same = (a: string) => a.toLowerCase() === value.toLowerCase();
    const applies =
      kind === 'Everyone' ||
      (kind === 'Role' && person.roles.some(same)) ||
      (kind === 'Site' && same(person.site)) ||
      (kind === 'Department' && same(person.department));
    if (!applies) continue;
    const due =
      within === '' || person.start === null
        ? null
        : new Date(Date.parse(`${person.start}T00:00:00Z`) + within * DAY_MS).toISOString().slice(0, 10);
    const earlier = required.get(training);
    if (earlier === undefined) required.set(training, due);
    else if (earlier !== null) required.set(training, due === null || due < earlier ? due : earlier);
  }
  return required;
}

interface Cell extends Expected {
  required: boolean;
}

/** Each active person's status per training, by the service's records and the requirements. */
function expectedCells(people: readonly TypedPerson[], requirements: readonly RequirementRow[]) {
  const rule: Rule = { name: '', validityMonths: 12, required: false, expiringDays: 30 };
  return people
    .filter((person) => person.active)
    .map((person) => {
      const required = requiredOf(person, requirements);
      const cells = trainings.map((training): Cell => {
        const records = data.completions.filter(
          (record) => record.user_id === person.id && record.training_id === training,
        );
        const cell = expected(records, rule, DAY);
        const isRequired = required.has(training);
        if (cell.status !== 'Not done') return { ...cell, required: isRequired };
        const due = required.get(training);
        const status = !isRequired ? 'Not required' : due !== null && due! >= DAY ? 'Due by' : 'Not done';
        return { ...cell, status, required: isRequired } as Cell;
      });
      return { person, cells };
    });
}

const COMPLIANT = ['Valid', 'Valid (no expiry)', 'Expiring'];

function share(cells: readonly Cell[]): number | '' {
  const counted = cells.filter((cell) => cell.required && cell.status !== 'Due by');
  if (counted.length === 0) return '';
  return counted.filter((cell) => COMPLIANT.includes(cell.status)).length / counted.length;
}

test('roles, sites, a leaver and a new starter: the matrix lists the active people, counts only what each must hold, and says who is due by when', () => {
  const ids = harness
    .displayed(PEOPLE)
    .slice(1)
    .map((row) => ({ id: row[0]!, name: row[1]! }));
  expect(ids.length).toBeGreaterThanOrEqual(5);
  const [first, second, third, fourth, ...rest] = ids;
  const people: TypedPerson[] = [
    {
      ...first!,
      site: 'Kiel',
      department: 'Yard',
      roles: ['Driver'],
      manager: 'kim@example.com',
      active: true,
      start: null,
    },
    {
      ...second!,
      site: 'Kiel',
      department: 'Stores',
      roles: ['Driver', 'Warden'],
      manager: 'kim@example.com',
      active: true,
      start: null,
    },
    {
      ...third!,
      site: 'Kiel',
      department: 'Yard',
      roles: ['Warden'],
      manager: '',
      active: false,
      start: null,
    },
    {
      ...fourth!,
      site: 'Bonn',
      department: '',
      roles: [],
      manager: 'bo@example.com',
      active: true,
      start: null,
    },
    ...rest.map((person) => ({
      ...person,
      site: '',
      department: '',
      roles: [],
      manager: '',
      active: true,
      start: null,
    })),
    // A new starter with no completion, typed below the table; their id has a space and leading zeros.
    {
      id: 'NEW 007',
      name: 'Nia New',
      site: 'Bonn',
      department: 'Yard',
      roles: ['driver'],
      manager: 'bo@example.com',
      active: true,
      start: dayAfter(-3),
    },
  ];
  const requirements: RequirementRow[] = [
    ['Role', 'Driver', trainings[0]!, 14],
    ['Role', 'Warden', trainings[1]!, ''],
    // Overlapping: a warden must also hold what drivers hold, from the start.
    ['Role', 'warden', trainings[0]!, ''],
    ['Site', 'Bonn', trainings[2]!, ''],
  ];
  for (const person of people) typePerson(person);
  workbook(harness).typeValues(`${REQUIREMENTS}!A2:D${requirements.length + 1}`, requirements);
  typed = { people, requirements };
  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts).toEqual([]);

  const rows = expectedCells(people, requirements);
  const [legend, titles, byTraining, ...shown] = harness.displayed(MATRIX);
  expect(legend!.slice(0, 2)).toEqual(['Legend', 'Cells show the expiry date']);
  expect(titles!.slice(0, 5)).toEqual(['User ID', 'User name', 'Site', 'Department', 'Compliance']);
  // By site (Bonn before Kiel), then department (nobody's last), then name; the leaver is gone.
  const order = (p: TypedPerson) => [p.site || '\uffff', p.department || '\uffff', p.name || p.id];
  const sorted = [...rows].sort((a, b) => {
    const [x, y] = [order(a.person), order(b.person)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return a.person.id < b.person.id ? -1 : 1;
  });
  expect(shown.map((row) => row[0])).toEqual(sorted.map(({ person }) => person.id));
  expect(shown.map((row) => row[0])).not.toContain(third!.id);
  const cellText = (cell: Cell) =>
    cell.status === 'Due by'
      ? `Due by ${requiredOf(people.at(-1)!, requirements).get(trainings[0]!)}`
      : cell.status === 'Not done' || cell.status === 'Not required'
        ? cell.status
        : cell.expiry === null
          ? 'No expiry'
          : cell.expiry;
  const percent = (value: number | '') => (value === '' ? '' : `${Math.round(value * 100)}%`);
  sorted.forEach(({ person, cells }, index) => {
    const row = shown[index]!;
    expect(row.slice(0, 5)).toEqual([
      person.id,
      person.name,
      person.site,
      person.department,
      percent(share(cells)),
    ]);
    expect(row.slice(5, 5 + trainings.length)).toEqual(cells.map(cellText));
  });
  // The new starter is due by their start date plus 14 days, and not yet counted.
  const starter = shown.find((row) => row[0] === 'NEW 007')!;
  expect(starter[5]).toBe(`Due by ${dayAfter(11)}`);
  // Compliance by training and overall, over the active people's required pairs only.
  const all = sorted.flatMap(({ cells }) => cells);
  expect(byTraining![4]).toBe(percent(share(all)));
  trainings.forEach((_, t) =>
    expect(byTraining![5 + t]).toBe(percent(share(sorted.map(({ cells }) => cells[t]!)))),
  );

  // The expiring list: active people only, each with their site, department and manager.
  const [listTitles, ...listed] = harness.displayed(EXPIRING);
  const at = (title: string) => listTitles!.indexOf(title);
  const items = listed.filter((row) => row[at('Status')] !== '');
  const expectedItems = sorted.flatMap(({ person, cells }) =>
    cells.flatMap((cell, t) =>
      cell.status === 'Expired' || cell.status === 'Expiring'
        ? [
            [
              person.id,
              person.site,
              person.department,
              person.manager,
              trainings[t],
              cell.required ? 'Yes' : 'No',
            ],
          ]
        : [],
    ),
  );
  const seen = items.map((row) =>
    ['User ID', 'Site', 'Department', 'Manager', 'Training ID', 'Required'].map((title) => row[at(title)]),
  );
  const byKey = (cells: unknown[]) => JSON.stringify(cells);
  expect(seen.map(byKey).sort()).toEqual(expectedItems.map(byKey).sort());
  expect(items.map((row) => row[at('User ID')])).not.toContain(third!.id);
});

test('the Overview rolls compliance, expired and expiring up by site and by department, each name opening the matrix filtered to it', () => {
  const rows = expectedCells(typed.people, typed.requirements);
  /** The roll-ups worked out here: the active people of each group, their pooled compliance and lapses. */
  const rollUpOf = (groupOf: (person: TypedPerson) => string, none: string) => {
    const names = [...new Set(rows.map(({ person }) => groupOf(person)))].sort((a, b) =>
      a === b ? 0 : a === '' ? 1 : b === '' ? -1 : a < b ? -1 : 1,
    );
    return names.map((name) => {
      const members = rows.filter(({ person }) => groupOf(person) === name);
      const cells = members.flatMap(({ cells: each }) => each);
      const compliance = share(cells);
      return {
        name: name === '' ? none : name,
        ids: members.map(({ person }) => person.id),
        figures: [
          compliance === '' ? 'none counted' : `${Math.round(compliance * 100)}%`,
          String(members.length),
          String(cells.filter((cell) => cell.status === 'Expired').length),
          String(cells.filter((cell) => cell.status === 'Expiring').length),
        ],
      };
    });
  };
  const bySite = rollUpOf((person) => person.site, '(no site)');
  const byDepartment = rollUpOf((person) => person.department, '(no department)');
  // Bonn, Kiel and the people with no site; the leaver (Kiel, Yard) counted in neither.
  expect(bySite.map((group) => group.name)).toEqual(['Bonn', 'Kiel', '(no site)']);
  expect(bySite[1]!.ids).not.toContain(typed.people[2]!.id);

  const overview = harness.displayed('Overview');
  const block = overview.slice(31).map((row) => row.slice(0, 5));
  const shown = (groups: typeof bySite) => groups.map((group) => [group.name, ...group.figures]);
  expect(block.slice(0, 2 + bySite.length + byDepartment.length + 1)).toEqual([
    ['By site (a name opens the matrix filtered)', 'Compliance', 'People', 'Expired', 'Expiring'],
    ...shown(bySite),
    ['', '', '', '', ''],
    ['By department', 'Compliance', 'People', 'Expired', 'Expiring'],
    ...shown(byDepartment),
  ]);

  // Each name opens the matrix through a filter view that shows exactly that group's people.
  const matrix = workbook(harness).sheet(MATRIX);
  const formulas = workbook(harness)
    .sheet('Overview')
    .formulas(`A32:A${32 + block.length}`);
  const matrixIds = harness.displayed(MATRIX).map((row) => row[0]);
  const check = (groups: typeof bySite, firstRow: number) =>
    groups.forEach((group, index) => {
      const formula = formulas[firstRow - 32 + index]![0]!;
      const match = new RegExp(`#gid=${matrix.gid}&fvid=(\\d+)`).exec(formula);
      expect(match).not.toBeNull();
      const rowsShown = workbook(harness).rowsShownByFilterView(Number(match![1]));
      // The titles first; then, among the people's rows, the group's, in the matrix's order.
      expect(rowsShown[0]).toBe(2);
      const peopleRows = rowsShown.filter((row) => row > 3 && row <= matrixIds.length);
      expect(peopleRows.map((row) => matrixIds[row - 1])).toEqual(
        matrixIds.filter((id) => group.ids.includes(id!)),
      );
      // A named group's view shows nothing else: not the compliance by training, not the blank rows
      // below (those the people with no site or department share, whose view shows them).
      if (!group.name.startsWith('(no ')) expect(rowsShown).toEqual([2, ...peopleRows]);
    });
  check(bySite, 33);
  check(byDepartment, 33 + bySite.length + 2);
  expect(workbook(harness).ui.alerts).toEqual([]);
});

test('People rows stay beside their user id when the completions are imported again, and after the manager sorts People', () => {
  const before = new Map(
    harness
      .displayed(PEOPLE)
      .slice(1)
      .map((row) => [row[0], row]),
  );
  const sheet = workbook(harness).sheet(PEOPLE);
  // The manager sorts People by name, descending, and imports again.
  sheet.sortSheet(2, false);
  importAll(harness);
  harness.clickMenu(SHOW);
  const titles = titlesOf(PEOPLE);
  const typedColumns = ['Site', 'Department', 'Role', 'Manager e-mail', 'Active', 'Start date'].map((title) =>
    titles.indexOf(title),
  );
  const after = harness.displayed(PEOPLE).slice(1);
  expect(after.length).toBe(before.size);
  for (const row of after) {
    const earlier = before.get(row[0])!;
    expect(typedColumns.map((column) => row[column])).toEqual(typedColumns.map((column) => earlier[column]));
  }
});

test('an exemption: the pair shows Exempt, leaves the list and its person’s compliance, and the Overview counts it apart', () => {
  const [listTitles, ...listed] = harness.displayed(EXPIRING);
  const at = (title: string) => listTitles!.indexOf(title);
  const item = listed.find((row) => row[at('Status')] === 'Expired' && row[at('Required')] === 'Yes')!;
  expect(item).toBeDefined();
  const [userId, trainingId] = [item[at('User ID')]!, item[at('Training ID')]!];
  const [, titles, , ...before] = harness.displayed(MATRIX);
  const column = titles!.findIndex((title, index) => index >= 5 && title === trainingId);
  const personBefore = before.find((row) => row[0] === userId)!;
  workbook(harness).typeValues('Exemptions!A2:C2', [
    [userId, trainingId, 'Transferred to the office in May'],
  ]);
  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts).toEqual([]);

  const [, , , ...after] = harness.displayed(MATRIX);
  const personAfter = after.find((row) => row[0] === userId)!;
  expect(personAfter[column]).toBe('Exempt');
  expect(personBefore[column]).toBe(item[at('Expires')]);
  // One lapsed required pair fewer among the counted ones: the person's figure cannot drop.
  const percent = (text: string) => (text === '' ? 1 : Number(text.replace('%', '')) / 100);
  expect(percent(personAfter[4]!)).toBeGreaterThan(percent(personBefore[4]!));
  const [, ...listedAfter] = harness.displayed(EXPIRING);
  expect(
    listedAfter.some((row) => row[at('User ID')] === userId && row[at('Training ID')] === trainingId),
  ).toBe(false);
  expect(listedAfter.length).toBe(listed.length - 1);
  const overview = harness.displayed('Overview');
  expect(overview[4]![0]).toMatch(
    /^Compliance, required trainings \(overall: (\d+%|none counted); 1 exempted\)$/,
  );
  expect(harness.displayed(MATRIX)[0]).toContain('Exempt');
});

test('"Show inactive people" on the matrix: the leaver listed below everyone, greyed, counted nowhere; "no" hides them again', () => {
  const choice = () => {
    const [legend] = harness.displayed(MATRIX);
    return legend!.indexOf('Show inactive people') + 1;
  };
  const leaver = harness.displayed(PEOPLE).find((row) => row[titlesOf(PEOPLE).indexOf('Active')] === 'no')!;
  const before = harness.displayed(MATRIX);
  expect(before.map((row) => row[0])).not.toContain(leaver[0]);
  expect(before[0]![choice()]).toBe('no');
  workbook(harness).typeValues(`${MATRIX}!${letter(choice())}1`, [['yes']]);
  harness.clickMenu(SHOW);
  const after = harness.displayed(MATRIX);
  expect(after.at(-1)![0]).toBe(leaver[0]);
  // Their own figure is empty; every other figure is as before.
  expect(after.at(-1)![4]).toBe('');
  expect(after[2]).toEqual(before[2]);
  expect(after.slice(3, -1)).toEqual(before.slice(3));
  const sheet = workbook(harness).sheet(MATRIX);
  expect(sheet.backgrounds(`A${after.length}:E${after.length}`)).toEqual([new Array(5).fill('#efefef')]);
  expect(harness.displayed(EXPIRING).map((row) => row[0])).not.toContain(leaver[0]);
  workbook(harness).typeValues(`${MATRIX}!${letter(choice())}1`, [['no']]);
  harness.clickMenu(SHOW);
  expect(harness.displayed(MATRIX)).toEqual(before);
});
