/**
 * The roster model's oracle: who the Training matrix lists and in which order, what each of their
 * cells says, what counts toward compliance, and which pairs Expiring trainings lists, worked out
 * from the People and Requirements tabs as the model typed them and the completions the add-on
 * holds, by the rules issue #30 states (a pair's status from its records: training-oracle.ts). It
 * shares nothing with src/.
 */
import type { Completion } from '../support/sample-service';
import { expected, type Rule } from '../support/training-oracle';

/** The People columns the user fills in, by title. */
export const ROSTER_COLUMNS = [
  'Site',
  'Department',
  'Role',
  'Manager e-mail',
  'Active',
  'Start date',
] as const;
export type RosterColumn = (typeof ROSTER_COLUMNS)[number];

/** A person on the People tab: the name it shows and what the user typed in each of their columns. */
export interface ModelPerson {
  id: string;
  name: string;
  typed: Record<RosterColumn, string>;
}

export const APPLIES_TO = ['Everyone', 'Role', 'Site', 'Department'] as const;

/** A row of the Requirements tab as typed; `within` null: required from the start. */
export interface RequirementRow {
  appliesTo: (typeof APPLIES_TO)[number];
  value: string;
  trainingId: string;
  within: number | null;
}

/** A training as the Trainings tab describes it: its column title and its rule (Required: everyone's). */
export interface Training {
  id: string;
  label: string;
  rule: Rule;
}

export interface ExpectedCell {
  status: string;
  /** What the matrix cell shows. */
  text: string;
  required: boolean;
  /** Whether the pair counts toward compliance. */
  counts: boolean;
}

export interface ExpectedRow {
  person: ModelPerson;
  site: string;
  department: string;
  manager: string;
  cells: ExpectedCell[];
  /** The person's compliance figure as shown. */
  compliance: string;
}

export interface ExpectedMatrix {
  bySite: boolean;
  /** The fixed titles, then one per training. */
  titles: string[];
  /** The overall figure, then one per training, as shown on the "Compliance by training" row. */
  byTraining: string[];
  rows: ExpectedRow[];
}

const DAY_MS = 86_400_000;
const COMPLIANT = ['Valid', 'Valid (no expiry)', 'Expiring'];

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** How the user's values are compared: regardless of case and surrounding spaces. */
function sameValue(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A comma list of roles, each once whatever its case. */
export function rolesOf(typed: string): string[] {
  const roles: string[] = [];
  for (const part of typed.split(',')) {
    const role = part.trim();
    if (role !== '' && !roles.some((earlier) => sameValue(earlier, role))) roles.push(role);
  }
  return roles;
}

/** Empty Active means yes; the model types only yes, no or nothing. */
export function isActive(person: ModelPerson): boolean {
  return person.typed.Active.trim().toLowerCase() !== 'no';
}

export function hasTypedCell(person: ModelPerson): boolean {
  return ROSTER_COLUMNS.some((column) => person.typed[column] !== '');
}

function appliesTo(requirement: RequirementRow, person: ModelPerson): boolean {
  const { typed } = person;
  switch (requirement.appliesTo) {
    case 'Everyone':
      return true;
    case 'Role':
      return rolesOf(typed.Role).some((role) => sameValue(role, requirement.value));
    case 'Site':
      return sameValue(typed.Site, requirement.value);
    case 'Department':
      return sameValue(typed.Department, requirement.value);
  }
}

/** Every (training, within) that asks something of a person, before the strictest is taken. */
export function askedOf(
  person: ModelPerson,
  requirements: readonly RequirementRow[],
  trainings: readonly Training[],
): (readonly [trainingId: string, within: number | null])[] {
  return [
    ...trainings.filter((training) => training.rule.required).map((training) => [training.id, null] as const),
    ...requirements
      .filter((requirement) => appliesTo(requirement, person))
      .map((requirement) => [requirement.trainingId, requirement.within] as const),
  ];
}

/**
 * The trainings a person must hold, each with the days after their start date they have to take it
 * (null: from the start). Required on Trainings is everyone's from the start; of several rows for
 * one training the strictest holds: from the start beats any within, and the shorter within wins.
 */
export function requiredOf(
  person: ModelPerson,
  requirements: readonly RequirementRow[],
  trainings: readonly Training[],
): Map<string, number | null> {
  const required = new Map<string, number | null>();
  for (const [trainingId, within] of askedOf(person, requirements, trainings)) {
    const earlier = required.get(trainingId);
    const stricter =
      earlier === undefined || (earlier !== null && (within === null || within < earlier)) ? within : earlier;
    required.set(trainingId, stricter);
  }
  return required;
}

function percent(cells: readonly ExpectedCell[]): string {
  const counted = cells.filter((cell) => cell.counts);
  if (counted.length === 0) return '';
  const compliant = counted.filter((cell) => COMPLIANT.includes(cell.status)).length;
  return `${Math.round((compliant / counted.length) * 100)}%`;
}

/** Text in plain code-unit order; an empty site or department after every other. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
function compareGroup(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  return b === '' ? -1 : compareText(a, b);
}

/** One person's cell of one training on `day`, from the completions held. */
function cellOf(
  records: readonly Completion[],
  training: Training,
  due: number | null | undefined,
  start: string,
  requirementsListed: boolean,
  day: string,
): ExpectedCell {
  const held = expected(records, training.rule, day);
  const required = due !== undefined;
  if (held.latest !== null) {
    return {
      status: held.status,
      text: held.expiry ?? 'No expiry',
      required,
      // Before Requirements lists anything, a training taken counts even when nobody requires it.
      counts: required || !requirementsListed,
    };
  }
  if (!required) {
    return {
      status: 'Not required',
      text: requirementsListed ? 'Not required' : '',
      required,
      counts: false,
    };
  }
  const dueBy = due === null || start === '' ? null : addDays(start, due);
  if (dueBy !== null && dueBy >= day) {
    return { status: 'Due by', text: `Due by ${dueBy}`, required, counts: false };
  }
  return { status: 'Not done', text: 'Not done', required, counts: true };
}

export function expectedMatrix(
  people: readonly ModelPerson[],
  requirements: readonly RequirementRow[],
  trainings: readonly Training[],
  held: readonly Completion[],
  day: string,
): ExpectedMatrix {
  const active = people.filter(isActive);
  const placeOf = (person: ModelPerson) => ({
    site: person.typed.Site.trim(),
    department: person.typed.Department.trim(),
  });
  const bySite = active.some((person) => {
    const { site, department } = placeOf(person);
    return site !== '' || department !== '';
  });
  const sortName = (person: ModelPerson) => person.name || person.id;
  const sorted = [...active].sort((a, b) => {
    const [left, right] = [placeOf(a), placeOf(b)];
    const byPlace = bySite
      ? compareGroup(left.site, right.site) || compareGroup(left.department, right.department)
      : 0;
    return byPlace || compareText(sortName(a), sortName(b)) || compareText(a.id, b.id);
  });
  const requirementsListed = requirements.length > 0;
  const rows = sorted.map((person): ExpectedRow => {
    const required = requiredOf(person, requirements, trainings);
    const cells = trainings.map((training) =>
      cellOf(
        held.filter((record) => record.user_id === person.id && record.training_id === training.id),
        training,
        required.get(training.id),
        person.typed['Start date'],
        requirementsListed,
        day,
      ),
    );
    return {
      person,
      ...placeOf(person),
      manager: person.typed['Manager e-mail'].trim(),
      cells,
      compliance: percent(cells),
    };
  });
  const fixed = ['User ID', 'User name', ...(bySite ? ['Site', 'Department'] : []), 'Compliance'];
  return {
    bySite,
    titles: [...fixed, ...trainings.map((training) => training.label)],
    byTraining: [
      percent(rows.flatMap((row) => row.cells)),
      ...trainings.map((_, t) => percent(rows.map((row) => row.cells[t]!))),
    ],
    rows,
  };
}

/**
 * The Overview's roll-ups, as displayed from row 32: by site, a blank row, by department; each
 * group of active people (the unplaced last, named as the Overview names them) with its pooled
 * compliance, people, Expired and Expiring counts. Only the hint while nobody is placed.
 */
export function expectedRollUps(matrix: ExpectedMatrix): string[][] {
  if (!matrix.bySite) {
    return [
      [
        'Compliance by site and department: fill in Site and Department on the People tab, then Show training status.',
        '',
        '',
        '',
        '',
      ],
    ];
  }
  const block = (place: 'site' | 'department', title: string, none: string) => {
    const names = [...new Set(matrix.rows.map((row) => row[place]))].sort(compareGroup);
    return [
      [title, 'Compliance', 'People', 'Expired', 'Expiring'],
      ...names.map((name) => {
        const members = matrix.rows.filter((row) => row[place] === name);
        const cells = members.flatMap((row) => row.cells);
        const count = (status: string) => String(cells.filter((cell) => cell.status === status).length);
        return [
          name === '' ? none : name,
          percent(cells) || 'none counted',
          String(members.length),
          count('Expired'),
          count('Expiring'),
        ];
      }),
    ];
  };
  return [
    ...block('site', 'By site (a name opens the matrix filtered)', '(no site)'),
    ['', '', '', '', ''],
    ...block('department', 'By department', '(no department)'),
  ];
}

export const EXPIRING_FIELDS = [
  'User ID',
  'Training ID',
  'Site',
  'Department',
  'Manager',
  'Required',
  'Status',
] as const;

/** The pairs Expiring trainings lists, each as its EXPIRING_FIELDS in order, JSON, sorted. */
export function expectedExpiring(matrix: ExpectedMatrix, trainings: readonly Training[]): string[] {
  return matrix.rows
    .flatMap((row) =>
      row.cells.flatMap((cell, t) =>
        cell.status === 'Expired' || cell.status === 'Expiring'
          ? [
              JSON.stringify([
                row.person.id,
                trainings[t]!.id,
                row.site,
                row.department,
                row.manager,
                cell.required ? 'Yes' : 'No',
                cell.status,
              ]),
            ]
          : [],
      ),
    )
    .sort();
}

/**
 * The People tab after a run: its people less those no completion names whose rows hold nothing
 * typed, then everyone else the completions name. A name the service knows replaces the tab's; a
 * person it does not know (a new starter) keeps the name on the tab.
 */
export function rosterAfterRun(
  people: readonly ModelPerson[],
  held: readonly Completion[],
  serviceNames: ReadonlyMap<string, string>,
): ModelPerson[] {
  const named = new Set(held.map((record) => record.user_id));
  const kept = people
    .filter((person) => named.has(person.id) || hasTypedCell(person))
    .map((person) =>
      named.has(person.id) ? { ...person, name: serviceNames.get(person.id) || person.name } : person,
    );
  const listed = new Set(kept.map((person) => person.id));
  const added = [...named]
    .filter((id) => !listed.has(id))
    .map((id): ModelPerson => ({
      id,
      name: serviceNames.get(id) ?? '',
      typed: { Site: '', Department: '', Role: '', 'Manager e-mail': '', Active: '', 'Start date': '' },
    }));
  return [...kept, ...added];
}

/** What People's "Last completed" shows of a person: their latest completion held, or nothing. */
export function lastCompleted(held: readonly Completion[], id: string): string {
  const dates = held.filter((record) => record.user_id === id).map((record) => String(record.dateNumber));
  if (dates.length === 0) return '';
  const latest = dates.reduce((a, b) => (b > a ? b : a));
  return `${latest.slice(0, 4)}-${latest.slice(4, 6)}-${latest.slice(6, 8)}`;
}
