/**
 * People tabs for the training tests: the roster a workbook has when nobody typed anything on People
 * (everyone the completions name, in the order first seen), and a person as the user described them.
 */
import type { CompletionRow } from '../../src/trainings/completions-tab';
import type { RosterEntry } from '../../src/trainings/people';

/** The People tab's titles as a workbook made now has them: the add-on's three, then the user's. */
export const PEOPLE_TITLES = [
  'User ID',
  'User name',
  'Last completed',
  'Site',
  'Department',
  'Role',
  'Manager e-mail',
  'Active',
  'Start date',
  'E-mail',
];

export function person(fields: Partial<RosterEntry> & { userId: string }): RosterEntry {
  return {
    name: '',
    site: '',
    department: '',
    roles: [],
    managerEmail: '',
    email: '',
    active: true,
    startDate: null,
    ...fields,
  };
}

export function rosterOf(completions: readonly CompletionRow[]): RosterEntry[] {
  const names = new Map<string, string>();
  for (const { userId, userName } of completions) if (!names.get(userId)) names.set(userId, userName);
  return [...names].map(([userId, name]) => person({ userId, name }));
}
