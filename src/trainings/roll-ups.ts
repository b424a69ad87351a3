/**
 * The Overview's roll-ups: for each site and each department on the People tab, how many active
 * people it has, their compliance (counted as the matrix's Compliance column counts each person's:
 * the figure of the site's rows pooled) and how many of their pairs are Expired and Expiring (as on
 * Expiring trainings). Only active people count, as everywhere; a site whose people are all inactive
 * is not listed. The people with no site (or no department) are a group of their own, named '', last.
 * Nothing is rolled up until someone has a site or a department: the matrix then has those columns,
 * which the roll-ups' links filter.
 */
import { type Compliance, personCompliance } from './matrix-compliance';
import { compareGroup, type Person, type TrainingMatrix } from './matrix';
import { TrainingStatus } from './training-status';

export interface RollUp {
  /** The site or department as People spells it (trimmed); '' for the people with none. */
  name: string;
  people: number;
  compliance: Compliance;
  expired: number;
  expiring: number;
}

/** What people are rolled up by: the People tab's Site, and its Department. */
export type Grouping = 'site' | 'department';
export const GROUPINGS: ReadonlyArray<{ grouping: Grouping; of: (person: Person) => string }> = [
  { grouping: 'site', of: (person) => person.site },
  { grouping: 'department', of: (person) => person.department },
];

export type RollUps = Record<Grouping, RollUp[]>;

/** Each site's and each department's figures, in the matrix's order of sites ('' last); null when nobody is placed. */
export function rollUps(matrix: TrainingMatrix): RollUps | null {
  if (!matrix.bySite) return null;
  return Object.fromEntries(GROUPINGS.map(({ grouping, of }) => [grouping, rollUpBy(matrix, of)])) as RollUps;
}

function rollUpBy(matrix: TrainingMatrix, groupOf: (person: Person) => string): RollUp[] {
  const groups = new Map<string, RollUp>();
  matrix.people.forEach((person, index) => {
    if (!person.active) return;
    const name = groupOf(person);
    let group = groups.get(name);
    if (!group) {
      group = { name, people: 0, compliance: { compliant: 0, counted: 0 }, expired: 0, expiring: 0 };
      groups.set(name, group);
    }
    group.people++;
    const { compliant, counted } = personCompliance(matrix, index);
    group.compliance.compliant += compliant;
    group.compliance.counted += counted;
    for (const { status } of matrix.statuses[index]!) {
      if (status === TrainingStatus.expired) group.expired++;
      else if (status === TrainingStatus.expiring) group.expiring++;
    }
  });
  return [...groups.values()].sort((a, b) => compareGroup(a.name, b.name));
}
