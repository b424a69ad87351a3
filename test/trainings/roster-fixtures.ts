/**
 * People tabs for the training tests: the roster a workbook has when nobody typed anything on People
 * (everyone the completions name, in the order first seen), and a person as the user described them.
 */
import type { CompletionRow } from '../../src/trainings/completions-tab';
import type { RosterEntry } from '../../src/trainings/people';

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
