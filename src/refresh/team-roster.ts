/**
 * Who manages whom, from the People tab (src/trainings/people.ts): a person's manager is their row's
 * "Manager e-mail", and a manager's own manager is the "Manager e-mail" of the row whose "E-mail" is
 * the manager's address. Addresses are compared trimmed and without regard to case. Only active
 * people count: an inactive person is nobody's team, and an inactive manager's row names no one to
 * escalate to. A cell that is not one plain address names nobody.
 */
import type { UtcOffsetAt } from '../lib/dates';
import type { DocumentState } from '../platform/document-state';
import { wholeTabValues } from '../sheets/input-tab';
import { readRoster, type RosterEntry } from '../trainings/people';
import { findTrainingTabs } from '../trainings/training-tab-set';
import { isPlainAddress } from './notification-settings';

export interface Teams {
  /** Each manager's address (lower case) → the user ids of their active people. */
  members: Map<string, Set<string>>;
  /** Each manager's address → their own manager's, where the manager's own active row gives one. */
  managerOf: Map<string, string>;
}

/** The address typed, trimmed and in lower case; null when the cell is not one plain address. */
function addressIn(text: string): string | null {
  const address = text.trim().toLowerCase();
  return isPlainAddress(address) ? address : null;
}

export function teamsOf(entries: readonly RosterEntry[]): Teams {
  const members = new Map<string, Set<string>>();
  const ownManager = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.active) continue;
    const manager = addressIn(entry.managerEmail);
    if (manager !== null) {
      const team = members.get(manager) ?? new Set<string>();
      team.add(entry.userId);
      members.set(manager, team);
    }
    const own = addressIn(entry.email);
    // A person given as their own manager escalates to no one.
    if (own !== null && manager !== null && manager !== own && !ownManager.has(own)) {
      ownManager.set(own, manager);
    }
  }
  const managerOf = new Map([...ownManager].filter(([address]) => members.has(address)));
  return { members, managerOf };
}

/** Every address the team digests may send to (managers and their managers), sorted. */
export function teamAddresses(teams: Teams): string[] {
  return [...new Set([...teams.members.keys(), ...teams.managerOf.values()])].sort();
}

/**
 * The teams as the People tab holds them now, found by its sheet id; none without the tab. Throws
 * UnreadableTab for an Active or a Start date cell the roster cannot read.
 */
export function readTeams(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  utcOffsetAt: UtcOffsetAt,
): Teams {
  const sheet = findTrainingTabs(spreadsheet, state).found.people.sheet;
  return teamsOf(readRoster(wholeTabValues(sheet), utcOffsetAt).entries);
}
