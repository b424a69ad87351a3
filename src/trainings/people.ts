/**
 * The "People" tab, the roster: one row per person the completions name, plus the rows the user adds
 * for people with none yet (new starters). The add-on writes the user id, the name and when the
 * person last completed a training; the user fills in, beside them, the site, the department, the
 * roles (several, separated by commas), the manager's e-mail, whether the person is active (empty
 * means yes), the start date and the person's own work e-mail (which finds a manager's own row, and
 * so their manager, for the digests' escalation: src/refresh/team-digests.ts). Those columns are the user's own, found by their titles and kept
 * beside their person across refreshes (sheets/table-writer.ts). Nobody becomes inactive by being
 * absent from the completions: a person no completion names keeps their row while it holds anything
 * typed, and stays active until the user says otherwise.
 */
import { UnreadableTab } from '../platform/problem-lists';
import { isBlankCell, quoteCell, readInputTab, yesOrNoCell } from '../sheets/input-tab';
import { type CellValue, type ColumnSpec, columnIndexes, type Table } from '../sheets/table';
import { type CalendarDate, parseDateCell, toSheetSerial, type UtcOffsetAt } from '../lib/dates';
import type { CompletionRow } from './completions-tab';

export const PEOPLE_SHEET = 'People';

const PEOPLE_SPEC = [
  { id: 'id', header: 'User ID', kind: 'text', width: 100 },
  { header: 'User name', kind: 'text', width: 180 },
  { header: 'Last completed', kind: 'date', width: 110 },
] as const satisfies readonly ColumnSpec[];
export const PEOPLE_COLUMNS: readonly ColumnSpec[] = PEOPLE_SPEC;
const { id: ID_COLUMN } = columnIndexes(PEOPLE_SPEC);

/** The tab's shape, for reading what it holds (see readTab). */
export const PEOPLE_TAB = { columns: PEOPLE_COLUMNS, keyColumn: ID_COLUMN };

/** The user's columns, by title; written once, when the tab lacks them. */
export const PEOPLE_USER_HEADERS = {
  site: 'Site',
  department: 'Department',
  roles: 'Role',
  managerEmail: 'Manager e-mail',
  active: 'Active',
  startDate: 'Start date',
  email: 'E-mail',
} as const;

export interface RosterEntry {
  userId: string;
  /** The name the tab shows ('' when none is known). */
  name: string;
  site: string;
  department: string;
  /** As typed, each once (compared without regard to case), in the order typed. */
  roles: string[];
  managerEmail: string;
  active: boolean;
  startDate: CalendarDate | null;
  /** The person's own work e-mail, as typed ('' when none). */
  email: string;
}

export interface RosterRead {
  /** The people on the tab, in its order. */
  entries: RosterEntry[];
  /** User ids whose rows hold something the user typed. */
  withUserContent: Set<string>;
  /** User titles the tab does not have, to write after its last column. */
  missingHeaders: string[];
  lastColumn: number;
  /** Where the user's columns are (1-based) once the missing titles are written: styled as inputs. */
  inputColumns: number[];
  /** Where each of the user's columns is (1-based) once the missing titles are written. */
  columns: Record<keyof typeof PEOPLE_USER_HEADERS, number>;
}

function text(value: unknown): string {
  return isBlankCell(value) ? '' : String(value).trim();
}

/** "Forklift driver, First aider" → both; a role named twice (in any case) counts once. */
export function rolesOf(value: unknown): string[] {
  const roles: string[] = [];
  const seen = new Set<string>();
  for (const role of text(value).split(',')) {
    const trimmed = role.trim();
    if (trimmed === '' || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    roles.push(trimmed);
  }
  return roles;
}

/**
 * The roster as the tab holds it (values titles first, as getValues returns them; [] for no tab).
 * Throws UnreadableTab for an Active or a Start date cell that is not what its column asks for.
 */
export function readRoster(values: readonly (readonly unknown[])[], utcOffsetAt: UtcOffsetAt): RosterRead {
  const tab = readInputTab(values, {
    ownColumns: PEOPLE_COLUMNS.length,
    keyColumn: ID_COLUMN,
    userHeaders: PEOPLE_USER_HEADERS,
  });
  const nameColumn = ID_COLUMN + 1;
  const problems: string[] = [];
  const entries = tab.rows.map(({ key: userId, rowNumber, cell }): RosterEntry => {
    const where = `row ${rowNumber} (user ${userId})`;
    const activeCell = cell('active');
    const active = isBlankCell(activeCell) ? true : yesOrNoCell(activeCell);
    if (active === null) {
      problems.push(
        `${where}: "${PEOPLE_USER_HEADERS.active}" is ${quoteCell(activeCell)}; enter yes or no (empty means yes)`,
      );
    }
    const start = parseDateCell(cell('startDate'), utcOffsetAt);
    if (start.kind === 'notADate') {
      problems.push(
        `${where}: "${PEOPLE_USER_HEADERS.startDate}" is ${start.text}; enter a date such as 2026-03-01, or leave it empty`,
      );
    }
    return {
      userId,
      name: text(values[rowNumber - 1]?.[nameColumn]),
      site: text(cell('site')),
      department: text(cell('department')),
      roles: rolesOf(cell('roles')),
      managerEmail: text(cell('managerEmail')),
      active: active ?? true,
      startDate: start.kind === 'date' ? start.date : null,
      email: text(cell('email')),
    };
  });
  if (problems.length > 0) throw new UnreadableTab(PEOPLE_SHEET, problems, 'cell');
  const { withUserContent, missingHeaders, lastColumn, inputColumns, columns } = tab;
  return { entries, withUserContent, missingHeaders, lastColumn, inputColumns, columns };
}

/**
 * The roster after this run: the tab's people in its order, less those no completion names whose rows
 * hold nothing in the user's columns, then the people new to the completions in the order first seen
 * (the completions are newest first), active and with nothing typed. A name the completions know
 * replaces the tab's; a new starter keeps the name typed for them. A person the completions no longer
 * name keeps their row while it holds anything typed: only the user makes anyone inactive.
 */
export function mergeRoster(read: RosterRead, completions: readonly CompletionRow[]): RosterEntry[] {
  const names = new Map<string, string>();
  for (const { userId, userName } of completions) {
    if (!names.get(userId)) names.set(userId, userName);
  }
  const kept = read.entries
    .filter((entry) => names.has(entry.userId) || read.withUserContent.has(entry.userId))
    .map((entry) => ({ ...entry, name: names.get(entry.userId) || entry.name }));
  const known = new Set(kept.map((entry) => entry.userId));
  const added = [...names]
    .filter(([userId]) => !known.has(userId))
    .map(([userId, name]): RosterEntry => ({
      userId,
      name,
      site: '',
      department: '',
      roles: [],
      managerEmail: '',
      active: true,
      startDate: null,
      email: '',
    }));
  return [...kept, ...added];
}

/** What the add-on writes of the roster: each person's id, name and latest completion day. */
export function rosterTable(entries: readonly RosterEntry[], completions: readonly CompletionRow[]): Table {
  const last = new Map<string, CalendarDate>();
  for (const { userId, completed } of completions) {
    const previous = last.get(userId);
    if (previous === undefined || completed > previous) last.set(userId, completed);
  }
  const rows = entries.map((entry): CellValue[] => {
    const lastDay = last.get(entry.userId);
    return [entry.userId, entry.name, lastDay === undefined ? null : toSheetSerial(lastDay)];
  });
  return { columns: PEOPLE_COLUMNS, rows, keyColumn: ID_COLUMN };
}
