/**
 * SAFETY_PEOPLE and SAFETY_COMPLIANCE over cells. The People and Requirements tables come in as range
 * arguments, so that Sheets recalculates the functions when either changes (a custom function is
 * recalculated when its arguments change); they are read by the tabs' own readers
 * (trainings/people.ts, trainings/requirements.ts). A compliance share is the Training matrix's
 * own count (trainings/matrix.ts, matrix-compliance.ts) over the people chosen: one rule, in one place.
 */
import { type CalendarDate, toSheetSerial } from '../lib/dates';
import { type CellValue, type ColumnKind, type ColumnSpec, DEFAULT_COLUMN_WIDTH } from '../sheets/table';
import { type CatalogueRead, mergeCatalogue } from '../trainings/catalogue';
import type { CompletionRow } from '../trainings/completions-tab';
import { trainingMatrix } from '../trainings/matrix';
import { complianceShare, overallCompliance, trainingCompliance } from '../trainings/matrix-compliance';
import {
  mergeRoster,
  PEOPLE_COLUMNS,
  PEOPLE_USER_HEADERS,
  readRoster,
  type RosterEntry,
  type RosterRead,
} from '../trainings/people';
import {
  readRequirements,
  REQUIREMENT_HEADERS,
  type Requirement,
  sameValue,
} from '../trainings/requirements';
import {
  dateCell,
  FormulaArgumentError,
  grid,
  isBlank,
  isDate,
  optionalFlag,
  optionalId,
  optionalText,
  single,
  wholeDayOf,
} from './arguments';
import type { InspectionClock } from './inspection-formulas';
import { type FormulaResult, formulaTable } from './values';

const PEOPLE_TABLE = "the People tab's table, titles first: People!A1:J or the named range SafetySync_People";
const REQUIREMENTS_TABLE = "the Requirements tab's table, titles first: Requirements!A1:D";

function column(header: string, kind: ColumnKind): ColumnSpec {
  return { header, kind, width: DEFAULT_COLUMN_WIDTH };
}

const TYPED_TEXT_COLUMNS = ['site', 'department', 'roles', 'managerEmail', 'active'] as const;

/** The columns SAFETY_PEOPLE returns: who each person is (the add-on's User ID and User name), then what the user typed. */
const PEOPLE_FORMULA_COLUMNS: readonly ColumnSpec[] = [
  ...PEOPLE_COLUMNS.slice(0, 2),
  ...TYPED_TEXT_COLUMNS.map((field) => column(PEOPLE_USER_HEADERS[field], 'text')),
  column(PEOPLE_USER_HEADERS.startDate, 'date'),
];

/**
 * The cells of a table argument, a date cell's Date as the serial of its day (whichever zone Google
 * made it in: see dateCell); a Date with a time of day is left for the tab's reader to judge.
 */
function tableCells(value: unknown, argument: string, table: string, clock: InspectionClock): unknown[][] {
  if (!Array.isArray(value)) throw new FormulaArgumentError(argument, `must be a range: give ${table}`);
  return grid(value).map((row) =>
    row.map((cell) => {
      const day = isDate(cell) ? wholeDayOf(cell, clock) : null;
      return day === null ? cell : toSheetSerial(day);
    }),
  );
}

function title(cell: unknown): string {
  return isBlank(cell) ? '' : String(cell).trim();
}

/** The People table an argument holds; refused, saying what to give, when it is not one. */
function rosterArgument(value: unknown, clock: InspectionClock): RosterRead {
  const cells = tableCells(value, 'people', PEOPLE_TABLE, clock);
  const idTitle = PEOPLE_COLUMNS[0]!.header;
  if (title(cells[0]?.[0]) !== idTitle) {
    throw new FormulaArgumentError(
      'people',
      `is not the People table: its first cell is not the title "${idTitle}". Give ${PEOPLE_TABLE}`,
    );
  }
  return readRoster(cells, clock.utcOffsetAt);
}

/** The Requirements table an argument holds; refused, saying what to give, when it is not one. */
function requirementsArgument(value: unknown, clock: InspectionClock): Requirement[] {
  const cells = tableCells(value, 'requirements', REQUIREMENTS_TABLE, clock);
  const titles = (cells[0] ?? []).map(title);
  const missing = [REQUIREMENT_HEADERS.appliesTo, REQUIREMENT_HEADERS.trainingId].filter(
    (wanted) => !titles.includes(wanted),
  );
  if (missing.length > 0) {
    throw new FormulaArgumentError(
      'requirements',
      `is not the Requirements table: its first row has no "${missing[0]}" title. Give ${REQUIREMENTS_TABLE}`,
    );
  }
  return readRequirements(cells);
}

/** Whom a function counts or lists: a site, a department, a role, each left out for all. */
interface Group {
  site?: string;
  department?: string;
  role?: string;
}

const GROUP_FIELDS = { site: 'site', department: 'department', role: 'roles' } as const;

/** The group's filters; one whose column the People range lacks is refused (it would match nobody). */
function groupOf(args: Readonly<Record<keyof Group, unknown>>, roster: RosterRead): Group {
  const group: Group = {};
  for (const argument of Object.keys(GROUP_FIELDS) as (keyof Group)[]) {
    const wanted = optionalText(args[argument], argument);
    if (wanted === undefined) continue;
    const header = PEOPLE_USER_HEADERS[GROUP_FIELDS[argument]];
    if (roster.missingHeaders.includes(header)) {
      throw new FormulaArgumentError(
        'people',
        `has no "${header}" column to find the ${argument} "${wanted}" in. Give ${PEOPLE_TABLE}`,
      );
    }
    group[argument] = wanted;
  }
  return group;
}

/** Compared as the Requirements tab compares them: without regard to case or surrounding spaces. */
function inGroup(person: RosterEntry, group: Group): boolean {
  return (
    (group.site === undefined || sameValue(person.site, group.site)) &&
    (group.department === undefined || sameValue(person.department, group.department)) &&
    (group.role === undefined || person.roles.some((role) => sameValue(role, group.role!)))
  );
}

export interface PeopleArguments {
  people: unknown;
  site?: unknown;
  department?: unknown;
  role?: unknown;
  include_inactive?: unknown;
  with_header?: unknown;
}

function personRow(person: RosterEntry): CellValue[] {
  return [
    person.userId,
    person.name,
    person.site,
    person.department,
    person.roles.join(', '),
    person.managerEmail,
    person.active ? 'yes' : 'no',
    person.startDate === null ? null : toSheetSerial(person.startDate),
  ];
}

/** The roster of the group in the People tab's order, the inactive left out unless asked for. */
export function peopleTable(args: PeopleArguments, clock: InspectionClock): FormulaResult {
  const roster = rosterArgument(args.people, clock);
  const group = groupOf({ site: args.site, department: args.department, role: args.role }, roster);
  const includeInactive = optionalFlag(args.include_inactive, 'include_inactive', false);
  const withHeader = optionalFlag(args.with_header, 'with_header', true);
  const rows = roster.entries
    .filter((person) => (includeInactive || person.active) && inGroup(person, group))
    .map(personRow);
  return formulaTable({ columns: PEOPLE_FORMULA_COLUMNS, rows, rejected: [] }, withHeader, clock.utcOffsetAt);
}

/** What the Training matrix is computed from besides People and Requirements: the tabs' contents. */
export interface MatrixTabs {
  completions: readonly CompletionRow[];
  catalogue: CatalogueRead;
  /** The Exemptions tab's pairs (pairKey) and reasons. */
  exemptions: ReadonlyMap<string, string>;
  defaultExpiringDays: number;
}

export interface ComplianceArguments {
  people: unknown;
  requirements: unknown;
  site?: unknown;
  department?: unknown;
  training_id?: unknown;
  as_of?: unknown;
}

/**
 * The share of the counted pairs that are compliant, as the Training matrix counts them, among the
 * active people of the site and department (everyone when left out), of one training or all of
 * them, on as_of (today when left out); '' when nothing counts. The people are those the matrix
 * lists: the People table's, and anyone the completions name who is not on it yet. `readTabs` reads
 * the other tabs the matrix is computed from.
 */
export function complianceCell(
  args: ComplianceArguments,
  readTabs: () => MatrixTabs,
  clock: InspectionClock,
): number | '' {
  const read = rosterArgument(args.people, clock);
  const requirements = requirementsArgument(args.requirements, clock);
  const group = groupOf({ site: args.site, department: args.department, role: undefined }, read);
  const trainingId = optionalId(args.training_id, 'training_id');
  const today: CalendarDate = dateCell(single(args.as_of, 'as_of'), 'as_of', clock) ?? clock.today();
  // Read once the arguments are known good: a wrong one is named before a missing tab.
  const tabs = readTabs();
  const { completions, exemptions } = tabs;
  const trainings = mergeCatalogue(
    tabs.catalogue,
    completions,
    tabs.defaultExpiringDays,
    requirements.map((requirement) => requirement.trainingId),
  );
  const roster = mergeRoster(read, completions).filter((person) => inGroup(person, group));
  // Inactive people are counted nowhere, listed or not.
  const matrix = trainingMatrix({
    completions,
    trainings,
    roster,
    requirements,
    exemptions,
    showInactive: false,
    today,
  });
  if (trainingId === undefined) return complianceShare(overallCompliance(matrix)) ?? '';
  const index = trainings.findIndex((training) => training.trainingId === trainingId);
  if (index < 0) {
    throw new FormulaArgumentError(
      'training_id',
      `matches no training: "${trainingId}". The Trainings tab lists their ids`,
    );
  }
  return complianceShare(trainingCompliance(matrix, index)) ?? '';
}
