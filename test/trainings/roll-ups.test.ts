/**
 * The Overview's roll-ups by site and department, from a matrix built in Node: each case's figures
 * worked out by hand beside it (who is counted, what compliance pools, which lapses count where).
 */
import { type CalendarDate, fromIsoDate } from '../../src/lib/dates';
import type { CatalogueEntry } from '../../src/trainings/catalogue';
import { type CompletionRow, pairKey } from '../../src/trainings/completions-tab';
import { trainingMatrix } from '../../src/trainings/matrix';
import type { RosterEntry } from '../../src/trainings/people';
import type { Requirement } from '../../src/trainings/requirements';
import { rollUps } from '../../src/trainings/roll-ups';
import { person } from './roster-fixtures';

const TODAY = fromIsoDate('2026-03-01')!;

function done(userId: string, trainingId: string, completed: string): CompletionRow {
  return {
    userId,
    userName: userId,
    trainingId,
    completed: fromIsoDate(completed) as CalendarDate,
    specialExpiration: null,
    created: 0,
    row: 2,
  };
}

/** Valid for 12 months, expiring within 30 days of its expiry; required of everyone when asked. */
function training(trainingId: string, required = false): CatalogueEntry {
  return { trainingId, name: '', validityMonths: 12, required, expiringDays: 30 };
}

const everyone = (trainingId: string): Requirement => ({
  appliesTo: { kind: 'everyone' },
  trainingId,
  withinDays: null,
});

function rolledUp(
  roster: RosterEntry[],
  completions: CompletionRow[],
  {
    requirements = [],
    exemptions = new Map(),
    showInactive = false,
  }: { requirements?: Requirement[]; exemptions?: Map<string, string>; showInactive?: boolean } = {},
) {
  return rollUps(
    trainingMatrix({
      completions,
      trainings: [training('FORK'), training('FIRE')],
      roster,
      requirements,
      exemptions,
      showInactive,
      today: TODAY,
    }),
  );
}

test('nobody with a site or a department: nothing to roll up', () => {
  expect(
    rolledUp([person({ userId: 'a' }), person({ userId: 'b' })], [done('a', 'FORK', '2026-01-10')]),
  ).toBeNull();
});

test('each site and department: its active people, their pooled compliance, their Expired and Expiring pairs; the unplaced last', () => {
  const roster = [
    person({ userId: 'a', site: 'York', department: 'Yard' }),
    person({ userId: 'b', site: 'Leeds', department: 'Yard' }),
    person({ userId: 'c', site: 'Leeds', department: '' }),
    person({ userId: 'd', site: '', department: 'Stores' }),
    // A leaver at York: counted nowhere, not even as a person.
    person({ userId: 'e', site: 'York', department: 'Stores', active: false }),
  ];
  const completions = [
    done('a', 'FORK', '2026-01-10'), // valid
    done('a', 'FIRE', '2025-03-20'), // expires 2026-03-20: expiring
    done('b', 'FORK', '2024-12-01'), // expired
    done('c', 'FIRE', '2025-12-01'), // valid
    done('d', 'FORK', '2025-02-01'), // expired
    done('e', 'FORK', '2020-01-01'), // expired, but a leaver's
  ];
  // Everyone must hold both: a pair not done counts, and is not compliant.
  const result = rolledUp(roster, completions, { requirements: [everyone('FORK'), everyone('FIRE')] })!;
  const figures = (
    name: string,
    people: number,
    compliant: number,
    counted: number,
    expired: number,
    expiring: number,
  ) => ({
    name,
    people,
    compliance: { compliant, counted },
    expired,
    expiring,
  });
  expect(result.site).toEqual([
    // b: FORK expired, FIRE not done; c: FORK not done, FIRE valid.
    figures('Leeds', 2, 1, 4, 1, 0),
    // a: both held, one expiring (compliant).
    figures('York', 1, 2, 2, 0, 1),
    // d: FORK expired, FIRE not done.
    figures('', 1, 0, 2, 1, 0),
  ]);
  expect(result.department).toEqual([
    figures('Stores', 1, 0, 2, 1, 0),
    figures('Yard', 2, 2, 4, 1, 1),
    figures('', 1, 1, 2, 0, 0),
  ]);
});

test('shown or not, an inactive person is in no roll-up; a site of leavers only is not listed', () => {
  const roster = [
    person({ userId: 'a', site: 'York' }),
    person({ userId: 'b', site: 'Hull', active: false }),
  ];
  const completions = [done('a', 'FORK', '2026-01-10'), done('b', 'FORK', '2024-01-10')];
  for (const showInactive of [false, true]) {
    const result = rolledUp(roster, completions, { showInactive })!;
    expect(result.site.map((group) => group.name)).toEqual(['York']);
    expect(result.site[0]).toMatchObject({ people: 1, expired: 0, compliance: { compliant: 1, counted: 1 } });
    expect(result.department.map((group) => [group.name, group.people])).toEqual([['', 1]]);
  }
});

test('an exempted pair is neither counted in its site’s compliance nor listed among its lapses', () => {
  const roster = [person({ userId: 'a', site: 'York' }), person({ userId: 'b', site: 'York' })];
  const completions = [done('a', 'FORK', '2024-06-01'), done('b', 'FORK', '2026-02-01')];
  const requirements = [everyone('FORK')];
  const before = rolledUp(roster, completions, { requirements })!.site[0]!;
  expect(before).toMatchObject({ expired: 1, compliance: { compliant: 1, counted: 2 } });
  const exemptions = new Map([[pairKey('a', 'FORK'), 'Moved to the office']]);
  const after = rolledUp(roster, completions, { requirements, exemptions })!.site[0]!;
  expect(after).toMatchObject({ people: 2, expired: 0, compliance: { compliant: 1, counted: 1 } });
});

test('before Requirements lists anything, a site counts what its people took, as the matrix does', () => {
  const roster = [person({ userId: 'a', site: 'York' }), person({ userId: 'b', site: 'York' })];
  // a took FORK long ago (expired); b took nothing: nothing of b's counts.
  const result = rolledUp(roster, [done('a', 'FORK', '2024-06-01')])!;
  expect(result.site[0]).toMatchObject({ people: 2, expired: 1, compliance: { compliant: 0, counted: 1 } });
});
