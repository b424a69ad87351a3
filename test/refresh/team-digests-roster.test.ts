/**
 * Who manages whom, read from People rows (src/refresh/team-roster.ts): a person's manager is their
 * Manager e-mail, compared trimmed and without regard to case; a manager's manager is the Manager
 * e-mail of the row whose E-mail is the manager's. Only active people count.
 */
import { teamAddresses, teamsOf } from '../../src/refresh/team-roster';
import type { RosterEntry } from '../../src/trainings/people';
import { person as rosterPerson } from '../trainings/roster-fixtures';

function person(userId: string, fields: Partial<RosterEntry> = {}): RosterEntry {
  return rosterPerson({ userId, ...fields });
}

function membersOf(entries: RosterEntry[]): Record<string, string[]> {
  return Object.fromEntries([...teamsOf(entries).members].map(([manager, team]) => [manager, [...team]]));
}

test('a manager’s team: the active people whose Manager e-mail is theirs, in any case and with spaces around', () => {
  expect(
    membersOf([
      person('U-1', { managerEmail: 'Lead@Example.com' }),
      person('U-2', { managerEmail: ' lead@example.com ' }),
      person('U-3', { managerEmail: 'other@example.com' }),
      person('U-4', { managerEmail: 'lead@example.com', active: false }),
      person('U-5'),
    ]),
  ).toEqual({ 'lead@example.com': ['U-1', 'U-2'], 'other@example.com': ['U-3'] });
});

test('a Manager e-mail that is not one plain address names nobody', () => {
  expect(
    membersOf([
      person('U-1', { managerEmail: 'Ann Lead' }),
      person('U-2', { managerEmail: 'a@example.com, b@example.com' }),
      person('U-3', { managerEmail: '<lead@example.com>' }),
    ]),
  ).toEqual({});
});

test('a manager’s manager: from the manager’s own active row, found by its E-mail', () => {
  const teams = teamsOf([
    person('U-1', { managerEmail: 'lead@example.com' }),
    person('U-2', { managerEmail: 'second@example.com' }),
    person('U-3', { managerEmail: 'third@example.com' }),
    person('M-1', { email: 'Lead@example.com', managerEmail: 'director@example.com' }),
    // An inactive manager's row names no one to escalate to.
    person('M-2', { email: 'second@example.com', managerEmail: 'director@example.com', active: false }),
    // Given as their own manager: no one above.
    person('M-3', { email: 'third@example.com', managerEmail: 'third@example.com' }),
    // A row whose E-mail manages nobody gives no escalation.
    person('X-1', { email: 'nobody@example.com', managerEmail: 'director@example.com' }),
  ]);
  expect([...teams.managerOf]).toEqual([['lead@example.com', 'director@example.com']]);
  // Every address the team digests may send to, once each, sorted: the director is one.
  expect(teamAddresses(teams)).toEqual([
    'director@example.com',
    'lead@example.com',
    'second@example.com',
    'third@example.com',
  ]);
});
