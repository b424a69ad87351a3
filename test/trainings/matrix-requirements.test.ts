/**
 * The matrix once People and Requirements say who works here and what each must hold: people with no
 * completion, leavers, new starters inside their window, overlapping roles, "Not required", and the
 * site columns; compliance counted by hand beside each case.
 */
import { addDays, type CalendarDate, fromIsoDate, toSheetSerial } from '../../src/lib/dates';
import type { CatalogueEntry } from '../../src/trainings/catalogue';
import { type CompletionRow, pairKey } from '../../src/trainings/completions-tab';
import { expiringEntries, expiringTable } from '../../src/trainings/expiring';
import { trainingMatrix } from '../../src/trainings/matrix';
import {
  completedPairs,
  exemptedPairs,
  overallCompliance,
  personCompliance,
  requiredCompliance,
  requiredNotDone,
  trainingCompliance,
} from '../../src/trainings/matrix-compliance';
import { matrixGrid } from '../../src/trainings/matrix-grid';
import type { RosterEntry } from '../../src/trainings/people';
import type { Requirement } from '../../src/trainings/requirements';
import { person } from './roster-fixtures';

function day(iso: string): CalendarDate {
  return fromIsoDate(iso)!;
}

const TODAY = day('2026-03-01');

function done(userId: string, trainingId: string, completed: string): CompletionRow {
  return {
    userId,
    userName: userId.toUpperCase(),
    trainingId,
    completed: day(completed),
    specialExpiration: null,
    created: 0,
    row: 2,
  };
}

function training(trainingId: string, required = false): CatalogueEntry {
  return { trainingId, name: '', validityMonths: 12, required, expiringDays: 30 };
}

const role = (value: string, trainingId: string, withinDays: number | null = null): Requirement => ({
  appliesTo: { kind: 'role', value },
  trainingId,
  withinDays,
});

const TRAININGS = [training('FORK'), training('FIRST-AID'), training('FIRE')];

function statusesOf(
  roster: RosterEntry[],
  requirements: Requirement[],
  completions: CompletionRow[] = [],
  exemptions: ReadonlyMap<string, string> = new Map(),
) {
  const matrix = trainingMatrix({
    completions,
    trainings: TRAININGS,
    roster,
    requirements,
    exemptions,
    showInactive: false,
    today: TODAY,
  });
  return { matrix, statuses: matrix.statuses.map((row) => row.map((cell) => cell.status)) };
}

test("a person with no completion is Not done on their role's trainings, Not required on the others", () => {
  const { matrix, statuses } = statusesOf(
    [person({ userId: 'new', name: 'Nia', roles: ['Forklift driver'] })],
    [role('forklift driver', 'FORK')],
  );
  expect(statuses).toEqual([['Not done', 'Not required', 'Not required']]);
  expect(matrixGrid(matrix).values[3]!.slice(3, 6)).toEqual(['Not done', 'Not required', 'Not required']);
  // Only the required pair counts: 0 of 1.
  expect(personCompliance(matrix, 0)).toEqual({ compliant: 0, counted: 1 });
  expect(requiredNotDone(matrix)).toBe(1);
});

test('two roles asking overlapping trainings: each training required once, the union of both', () => {
  const { matrix, statuses } = statusesOf(
    [person({ userId: 'u1', roles: ['Driver', 'Warden'] })],
    [role('Driver', 'FORK'), role('Driver', 'FIRE'), role('Warden', 'FIRE'), role('Warden', 'FIRST-AID')],
    [done('u1', 'FIRE', '2025-12-01')],
  );
  expect(statuses).toEqual([['Not done', 'Not done', 'Valid']]);
  expect(personCompliance(matrix, 0)).toEqual({ compliant: 1, counted: 3 });
});

test('a leaver leaves the matrix and every count; an active colleague stays', () => {
  const completions = [done('gone', 'FORK', '2020-01-01'), done('here', 'FORK', '2026-01-10')];
  const roster = [
    person({ userId: 'gone', name: 'Gus', active: false }),
    person({ userId: 'here', name: 'Hana' }),
  ];
  const { matrix } = statusesOf(
    roster,
    [{ appliesTo: { kind: 'everyone' }, trainingId: 'FORK', withinDays: null }],
    completions,
  );
  expect(matrix.people.map((p) => p.userId)).toEqual(['here']);
  expect(overallCompliance(matrix)).toEqual({ compliant: 1, counted: 1 });
  expect(expiringEntries(matrix)).toEqual([]);
});

test('a new starter inside their window is "Due by" the day, not counted; after it, Not done and counted', () => {
  const starter = person({ userId: 's', roles: ['Driver'], startDate: day('2026-02-20') });
  const requirements = [role('Driver', 'FORK', 14)];
  const inside = statusesOf([starter], requirements);
  expect(inside.statuses[0]![0]).toBe('Due by');
  expect(inside.matrix.statuses[0]![0]!.expiry).toBe(day('2026-03-06'));
  expect(matrixGrid(inside.matrix).values[3]![3]).toBe('Due by 2026-03-06');
  expect(personCompliance(inside.matrix, 0)).toEqual({ compliant: 0, counted: 0 });
  // On the due day itself it is still due; the day after, it is Not done.
  const onDay = trainingMatrix({
    completions: [],
    trainings: TRAININGS,
    roster: [starter],
    requirements,
    exemptions: new Map(),
    showInactive: false,
    today: day('2026-03-06'),
  });
  expect(onDay.statuses[0]![0]!.status).toBe('Due by');
  const after = trainingMatrix({
    completions: [],
    trainings: TRAININGS,
    roster: [starter],
    requirements,
    exemptions: new Map(),
    showInactive: false,
    today: addDays(day('2026-03-06'), 1),
  });
  expect(after.statuses[0]![0]!.status).toBe('Not done');
  expect(personCompliance(after, 0)).toEqual({ compliant: 0, counted: 1 });
});

test('of a requirement from the start and one within days, the start wins; without a start date, none is due later', () => {
  const requirements = [
    role('Driver', 'FORK', 30),
    { appliesTo: { kind: 'site' as const, value: 'Kiel' }, trainingId: 'FORK', withinDays: null },
  ];
  const both = statusesOf(
    [person({ userId: 'a', roles: ['Driver'], site: 'Kiel', startDate: TODAY })],
    requirements,
  );
  expect(both.statuses[0]![0]).toBe('Not done');
  const noStart = statusesOf([person({ userId: 'b', roles: ['Driver'] })], [role('Driver', 'FORK', 30)]);
  expect(noStart.statuses[0]![0]).toBe('Not done');
});

test('once Requirements lists anything, a training taken but not required is shown, not counted', () => {
  const roster = [person({ userId: 'u1', roles: ['Driver'] })];
  const completions = [done('u1', 'FIRE', '2024-01-01')];
  const listed = statusesOf(roster, [role('Driver', 'FORK')], completions);
  expect(listed.statuses[0]).toEqual(['Not done', 'Not required', 'Expired']);
  expect(trainingCompliance(listed.matrix, 2)).toEqual({ compliant: 0, counted: 0 });
  expect(overallCompliance(listed.matrix)).toEqual({ compliant: 0, counted: 1 });
  expect(requiredCompliance(listed.matrix)).toEqual({ compliant: 0, counted: 1 });
  expect(completedPairs(listed.matrix)).toBe(1);
  // The same workbook before Requirements lists anything: the training taken counts.
  const before = statusesOf(roster, [], completions);
  expect(overallCompliance(before.matrix)).toEqual({ compliant: 0, counted: 1 });
  // Nothing is required of anyone: the audit of the requirements counts nothing.
  expect(requiredCompliance(before.matrix)).toEqual({ compliant: 0, counted: 0 });
  expect(before.statuses[0]).toEqual(['Not required', 'Not required', 'Expired']);
  expect(matrixGrid(before.matrix).values[3]!.slice(3, 6)).toEqual([
    null,
    null,
    toSheetSerial(day('2025-01-01')),
  ]);
});

test('sites and departments: the matrix shows both, grouped by site then department, the unplaced last; the expiring list says them', () => {
  const roster = [
    person({ userId: 'z', name: 'Zoe' }),
    person({ userId: 'b', name: 'Bo', site: 'Kiel', department: 'Stores', managerEmail: 'm@example.com' }),
    person({ userId: 'a', name: 'Al', site: 'Kiel', department: 'Yard' }),
    person({ userId: 'c', name: 'Cy', site: 'Bonn' }),
  ];
  const completions = [done('b', 'FORK', '2025-03-20')];
  const { matrix } = statusesOf(roster, [], completions);
  expect(matrix.people.map((p) => p.userName)).toEqual(['Cy', 'Bo', 'Al', 'Zoe']);
  const grid = matrixGrid(matrix);
  expect(grid.values[1]!.slice(0, 6)).toEqual([
    'User ID',
    'User name',
    'Site',
    'Department',
    'Compliance',
    'FORK',
  ]);
  expect(grid.values[4]!.slice(0, 6)).toEqual([
    'b',
    'Bo',
    'Kiel',
    'Stores',
    1,
    toSheetSerial(day('2026-03-20')),
  ]);
  const [row] = expiringTable(matrix, expiringEntries(matrix), { matrix: 1, completions: 2 }).rows;
  expect(row!.slice(0, 6)).toEqual(['b', 'Bo', 'Kiel', 'Stores', 'm@example.com', 'FORK']);
  // The link goes to Bo's cell: row 5 (legend, titles, compliance, Cy), column F (after five fixed columns).
  expect(row![6]).toContain('range=F5');
});

test('an exempted pair shows "Exempt", leaves the compliance and the expiring list, and is counted on its own', () => {
  const roster = [person({ userId: 'u1', roles: ['Driver'] }), person({ userId: 'u2', roles: ['Driver'] })];
  const completions = [done('u1', 'FORK', '2024-01-01'), done('u2', 'FORK', '2025-12-01')];
  const exemptions = new Map([[pairKey('u1', 'FORK'), 'Office role since 2025: no forklift']]);
  const { matrix, statuses } = statusesOf(roster, [role('Driver', 'FORK')], completions, exemptions);
  expect(statuses.map((row) => row[0])).toEqual(['Exempt', 'Valid']);
  const grid = matrixGrid(matrix);
  expect(grid.values[3]![3]).toBe('Exempt');
  expect(grid.values[0]).toContain('Exempt');
  expect(grid.statusRules.some((rule) => rule.status === 'Exempt')).toBe(true);
  // u1's lapsed forklift would be Expired: excused, it counts nowhere and is not listed.
  expect(overallCompliance(matrix)).toEqual({ compliant: 1, counted: 1 });
  expect(personCompliance(matrix, 0)).toEqual({ compliant: 0, counted: 0 });
  expect(expiringEntries(matrix)).toEqual([]);
  expect(exemptedPairs(matrix)).toBe(1);
  // Without the exemption, the same pair is Expired, listed and counted.
  const without = statusesOf(roster, [role('Driver', 'FORK')], completions);
  expect(without.statuses[0]![0]).toBe('Expired');
  expect(overallCompliance(without.matrix)).toEqual({ compliant: 1, counted: 2 });
  expect(matrixGrid(without.matrix).values[0]).not.toContain('Exempt');
});

test('"Show inactive people": a leaver listed below everyone, greyed, in no figure and not on the list', () => {
  const roster = [
    person({ userId: 'gone', name: 'Aaron', site: 'Kiel', active: false }),
    person({ userId: 'here', name: 'Zed', site: 'Kiel' }),
  ];
  const completions = [done('gone', 'FORK', '2025-01-01'), done('here', 'FORK', '2025-12-01')];
  const everyone = [{ appliesTo: { kind: 'everyone' as const }, trainingId: 'FORK', withinDays: null }];
  const matrix = trainingMatrix({
    completions,
    trainings: TRAININGS,
    roster,
    requirements: everyone,
    exemptions: new Map(),
    showInactive: true,
    today: TODAY,
  });
  // Aaron sorts first by name, but a leaver comes after every active person.
  expect(matrix.people.map((p) => p.userId)).toEqual(['here', 'gone']);
  expect(matrix.statuses[1]![0]!.status).toBe('Expired');
  expect(overallCompliance(matrix)).toEqual({ compliant: 1, counted: 1 });
  expect(personCompliance(matrix, 1)).toEqual({ compliant: 0, counted: 0 });
  expect(trainingCompliance(matrix, 0)).toEqual({ compliant: 1, counted: 1 });
  expect(requiredCompliance(matrix)).toEqual({ compliant: 1, counted: 1 });
  // Only the active colleague's completion: the leaver's lapse is nobody's to act on.
  expect(completedPairs(matrix)).toBe(1);
  // Before Requirements lists anything, a training taken counts: still not the leaver's.
  const unlisted = trainingMatrix({
    completions,
    trainings: TRAININGS,
    roster,
    requirements: [],
    exemptions: new Map(),
    showInactive: true,
    today: TODAY,
  });
  expect(personCompliance(unlisted, 1)).toEqual({ compliant: 0, counted: 0 });
  expect(overallCompliance(unlisted)).toEqual({ compliant: 1, counted: 1 });
  expect(expiringEntries(matrix)).toEqual([]);
  const grid = matrixGrid(matrix);
  expect(grid.values[4]!.slice(0, 5)).toEqual(['gone', 'Aaron', 'Kiel', '', null]);
  expect(grid.inactive).toEqual({ a1: 'A5:E5', backgrounds: [new Array(5).fill('#efefef')] });
  expect(grid.values[0]).toContain('yes');
});
