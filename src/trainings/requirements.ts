/**
 * The "Requirements" tab, the user's own: each row says which training whom must hold — everyone, or
 * the people of a role, a site or a department (the kind is named, so that a role and a site of the
 * same name are never confused) — and, optionally, within how many days of their start date a new
 * starter must have it. The Trainings tab's "Required" still means required of everyone, at once: a
 * workbook whose Requirements tab is empty behaves as before it existed.
 *
 * The tab's columns are found by their titles; blank rows are skipped. Values are compared without
 * regard to case or the spaces around them ("forklift driver" is the role "Forklift Driver").
 */
import { UnreadableTab } from '../platform/problem-lists';
import { isBlankCell, quoteCell, wholeNumberCell } from '../sheets/input-tab';
import type { RosterEntry } from './people';

export const REQUIREMENTS_SHEET = 'Requirements';

export const REQUIREMENT_HEADERS = {
  appliesTo: 'Applies to',
  value: 'Value',
  trainingId: 'Training ID',
  withinDays: 'Within (days) of start date',
} as const;
type RequirementField = keyof typeof REQUIREMENT_HEADERS;

/** What a row may apply to, as typed in "Applies to". */
export const APPLIES_TO = {
  everyone: 'Everyone',
  role: 'Role',
  site: 'Site',
  department: 'Department',
} as const;
type AppliesToKind = keyof typeof APPLIES_TO;

export type AppliesTo = { kind: 'everyone' } | { kind: Exclude<AppliesToKind, 'everyone'>; value: string };

export interface Requirement {
  appliesTo: AppliesTo;
  trainingId: string;
  /** Days after the start date by which a new starter must hold it; null: from the start. */
  withinDays: number | null;
}

/** How two values of a kind are compared: without regard to case or surrounding spaces. */
export function sameValue(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function text(value: unknown): string {
  return isBlankCell(value) ? '' : String(value).trim();
}

const KINDS = Object.keys(APPLIES_TO) as AppliesToKind[];
const KINDS_IN_WORDS = `${KINDS.slice(0, -1)
  .map((kind) => APPLIES_TO[kind])
  .join(', ')} or ${APPLIES_TO[KINDS[KINDS.length - 1]!]}`;

/**
 * The requirements as the tab holds them (values titles first, as getValues returns them; [] for no
 * tab). Throws UnreadableTab for a row that does not say what it applies to, to which training,
 * or within how many days.
 */
export function readRequirements(values: readonly (readonly unknown[])[]): Requirement[] {
  const header = (values[0] ?? []).map(text);
  const columnOf = (field: RequirementField) => header.indexOf(REQUIREMENT_HEADERS[field]);
  const requirements: Requirement[] = [];
  const problems: string[] = [];
  values.slice(1).forEach((row, index) => {
    const cell = (field: RequirementField) => {
      const column = columnOf(field);
      return column < 0 ? '' : row[column];
    };
    if ((Object.keys(REQUIREMENT_HEADERS) as RequirementField[]).every((field) => isBlankCell(cell(field))))
      return;
    const where = `row ${index + 2}`;
    const kindCell = cell('appliesTo');
    const kind = KINDS.find((candidate) => sameValue(APPLIES_TO[candidate], text(kindCell)));
    const value = text(cell('value'));
    const trainingId = text(cell('trainingId'));
    const withinCell = cell('withinDays');
    const withinDays = isBlankCell(withinCell) ? null : wholeNumberCell(withinCell, 0);
    const rowProblems = [
      kind === undefined &&
        `"${REQUIREMENT_HEADERS.appliesTo}" is ${quoteCell(kindCell)}; enter ${KINDS_IN_WORDS}`,
      kind !== undefined &&
        kind !== 'everyone' &&
        value === '' &&
        `"${REQUIREMENT_HEADERS.value}" is empty; enter the ${APPLIES_TO[kind].toLowerCase()} it applies to`,
      trainingId === '' &&
        `"${REQUIREMENT_HEADERS.trainingId}" is empty; enter the id of a training (see the Trainings tab)`,
      withinDays === null &&
        !isBlankCell(withinCell) &&
        `"${REQUIREMENT_HEADERS.withinDays}" is ${quoteCell(withinCell)}; enter a whole number of days such as 30, or leave it empty if it is required from the start`,
    ].filter((problem): problem is string => typeof problem === 'string');
    problems.push(...rowProblems.map((problem) => `${where}: ${problem}`));
    if (rowProblems.length > 0 || kind === undefined) return;
    requirements.push({
      appliesTo: kind === 'everyone' ? { kind } : { kind, value },
      trainingId,
      withinDays,
    });
  });
  if (problems.length > 0) throw new UnreadableTab(REQUIREMENTS_SHEET, problems, 'row');
  return requirements;
}

/** Whether a requirement is a person's: everyone's, or that of one of their roles, their site or department. */
export function appliesTo(requirement: Requirement, person: RosterEntry): boolean {
  const { appliesTo: target } = requirement;
  switch (target.kind) {
    case 'everyone':
      return true;
    case 'role':
      return person.roles.some((role) => sameValue(role, target.value));
    case 'site':
      return sameValue(person.site, target.value);
    case 'department':
      return sameValue(person.department, target.value);
  }
}

/**
 * The trainings a person must hold, each with the days after their start date by which they must
 * (null: from the start). Where several requirements ask for one training, the strictest decides: one
 * from the start outweighs any "within", and of two "within"s the shorter holds. `requiredOfEveryone`
 * are the trainings the Trainings tab marks Required.
 */
export function requiredTrainings(
  person: RosterEntry,
  requirements: readonly Requirement[],
  requiredOfEveryone: Iterable<string>,
): Map<string, number | null> {
  const required = new Map<string, number | null>();
  const add = (trainingId: string, withinDays: number | null) => {
    const earlier = required.get(trainingId);
    if (earlier === undefined) required.set(trainingId, withinDays);
    else if (earlier !== null)
      required.set(trainingId, withinDays === null ? null : Math.min(earlier, withinDays));
  };
  for (const trainingId of requiredOfEveryone) add(trainingId, null);
  for (const requirement of requirements) {
    if (appliesTo(requirement, person)) add(requirement.trainingId, requirement.withinDays);
  }
  return required;
}
