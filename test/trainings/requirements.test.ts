/**
 * Reading the Requirements tab and deciding which trainings a person must hold, and by when: the
 * kinds kept apart, roles overlapping, the strictest "within" of several, and the refusals' words.
 */
import { UnreadableTab } from '../../src/platform/problem-lists';
import type { RosterEntry } from '../../src/trainings/people';
import { person as rosterPerson } from './roster-fixtures';
import { readRequirements, type Requirement, requiredTrainings } from '../../src/trainings/requirements';

const HEADER = ['Applies to', 'Value', 'Training ID', 'Within (days) of start date'];

function person(fields: Partial<RosterEntry>): RosterEntry {
  return rosterPerson({ userId: 'U-1', ...fields });
}

function refusal(values: unknown[][]): string {
  try {
    readRequirements(values);
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableTab);
    return (error as Error).message;
  }
  throw new Error('the requirements were not refused');
}

test('each row: what it applies to, the training and the days after the start date; blank rows skipped', () => {
  expect(
    readRequirements([
      HEADER,
      ['Everyone', '', 'TR-1', ''],
      ['', '', '', ''],
      [' role ', 'Forklift driver', 'TR-2', 30],
      ['Site', 'Hamburg', ' TR-3 ', '14'],
      ['department', 'Logistics', 'TR-4', 0],
    ]),
  ).toEqual([
    { appliesTo: { kind: 'everyone' }, trainingId: 'TR-1', withinDays: null },
    { appliesTo: { kind: 'role', value: 'Forklift driver' }, trainingId: 'TR-2', withinDays: 30 },
    { appliesTo: { kind: 'site', value: 'Hamburg' }, trainingId: 'TR-3', withinDays: 14 },
    { appliesTo: { kind: 'department', value: 'Logistics' }, trainingId: 'TR-4', withinDays: 0 },
  ]);
});

test('the columns are found by their titles, wherever the user put them', () => {
  expect(
    readRequirements([
      ['Notes', 'Training ID', 'Within (days) of start date', 'Value', 'Applies to'],
      ['why', 'TR-9', '', 'Welder', 'Role'],
    ]),
  ).toEqual([{ appliesTo: { kind: 'role', value: 'Welder' }, trainingId: 'TR-9', withinDays: null }]);
});

test('a row it cannot read is named by its number, with what to enter; a good row names nothing', () => {
  const message = refusal([
    HEADER,
    ['Team', 'Blue', 'TR-1', ''],
    ['Role', '', 'TR-1', ''],
    ['Everyone', '', '', ''],
    ['Site', 'Hamburg', 'TR-1', 'a month'],
    ['Everyone', '', 'TR-1', 2.5],
    ['Role', 'Welder', 'TR-1', 7],
    ['Group', '', 'TR-1', ''],
  ]);
  expect(message).toContain('row 2: "Applies to" is "Team"; enter Everyone, Role, Site or Department');
  expect(message).toContain('row 3: "Value" is empty; enter the role it applies to');
  expect(message).toContain(
    'row 4: "Training ID" is empty; enter the id of a training (see the Trainings tab)',
  );
  expect(message).toContain(
    'row 5: "Within (days) of start date" is "a month"; enter a whole number of days',
  );
  expect(message).toContain('row 6: "Within (days) of start date" is 2.5');
  expect(message).not.toContain('row 7');
  expect(message).toContain('rows of the "Requirements" tab Safety Sync cannot read');
  // An unknown kind is the row's one problem: nothing is asked of its Value, empty or not.
  expect(message).not.toContain('row 2: "Value"');
  expect(message).toContain('row 8: "Applies to" is "Group"');
  expect(message).not.toContain('row 8: "Value"');
  expect(message).toMatch(/Correct them and choose Safety Sync → Show training status\.$/);
});

describe('which trainings a person must hold', () => {
  const requirements: Requirement[] = [
    { appliesTo: { kind: 'role', value: 'Forklift driver' }, trainingId: 'FORK', withinDays: 30 },
    { appliesTo: { kind: 'role', value: 'First aider' }, trainingId: 'AID', withinDays: null },
    { appliesTo: { kind: 'role', value: 'Warehouse' }, trainingId: 'FORK', withinDays: 14 },
    { appliesTo: { kind: 'site', value: 'Warehouse' }, trainingId: 'SITE', withinDays: 60 },
    { appliesTo: { kind: 'department', value: 'Logistics' }, trainingId: 'AID', withinDays: 90 },
    { appliesTo: { kind: 'everyone' }, trainingId: 'INDUCTION', withinDays: 7 },
  ];
  const required = (fields: Partial<RosterEntry>, everyone: string[] = []) =>
    Object.fromEntries(requiredTrainings(person(fields), requirements, everyone));

  test('everyone’s, and those of each of their roles, compared without regard to case', () => {
    expect(required({ roles: ['forklift DRIVER ', 'First aider'] })).toEqual({
      FORK: 30,
      AID: null,
      INDUCTION: 7,
    });
  });

  test('a role and a site of the same name are not confused', () => {
    expect(required({ site: 'Warehouse' })).toEqual({ SITE: 60, INDUCTION: 7 });
    expect(required({ roles: ['Warehouse'] })).toEqual({ FORK: 14, INDUCTION: 7 });
  });

  test('several asking for one training: the shorter "within" holds, and "from the start" outweighs any', () => {
    expect(required({ roles: ['Forklift driver', 'Warehouse'] })).toMatchObject({ FORK: 14 });
    expect(required({ roles: ['First aider'], department: 'Logistics' })).toMatchObject({ AID: null });
    expect(required({ department: 'logistics' })).toMatchObject({ AID: 90 });
  });

  test('the Trainings tab’s Required is everyone’s, from the start', () => {
    expect(required({}, ['INDUCTION', 'FIRE'])).toEqual({ INDUCTION: null, FIRE: null });
  });

  test('nobody with no requirement and nothing Required must hold anything', () => {
    expect(requiredTrainings(person({ roles: ['Welder'] }), [], [])).toEqual(new Map());
  });
});
