/**
 * The Training matrix's content: a row per active person on the People tab (those with no completion
 * included), a column per training (the catalogue's order), and each pair's status on the run's day
 * by the rules of training-status.ts and what the person must hold (requirements.ts). Its counting is
 * in matrix-compliance.ts, its layout on the tab in matrix-grid.ts.
 *
 * A workbook whose People and Requirements tabs hold nothing typed is counted and laid out exactly
 * as before those tabs existed: everyone the completions name, "Required" meaning everyone's. People
 * marked inactive are left out, or, when the matrix's "Show inactive people" says yes, listed below
 * the others, greyed and counted nowhere.
 */
import { addDays, type CalendarDate } from '../lib/dates';
import type { CatalogueEntry } from './catalogue';
import { type CompletionRow, completionsByPair, pairKey } from './completions-tab';
import type { RosterEntry } from './people';
import { type Requirement, requiredTrainings } from './requirements';
import {
  latestCompletion,
  NOT_REQUIRED,
  type Obligation,
  statusOf,
  TrainingStatus,
  type TrainingStatusResult,
} from './training-status';

export const MATRIX_SHEET = 'Training matrix';

export interface Person {
  userId: string;
  userName: string;
  site: string;
  department: string;
  managerEmail: string;
  /** False for someone marked inactive on People, listed only when the matrix shows them: counted nowhere. */
  active: boolean;
}

export interface PairStatus extends TrainingStatusResult {
  /** The completion the status comes from; null when not done. */
  latest: CompletionRow | null;
  /** Whether the person must hold the training: Required on Trainings, or a requirement of theirs. */
  required: boolean;
}

export interface TrainingMatrix {
  /** The day the statuses are of. */
  today: CalendarDate;
  people: Person[];
  trainings: CatalogueEntry[];
  /** statuses[person][training], in the order of `people` and `trainings`. */
  statuses: PairStatus[][];
  /**
   * Whether the Requirements tab lists anything: then only the pairs a person must hold count, and
   * the others say "Not required"; before, a training taken counts too (the first versions' rule).
   */
  requirementsListed: boolean;
  /** Whether anyone has a site or a department: the matrix then shows both and groups its rows by them. */
  bySite: boolean;
  /** Whether the Exemptions tab lists anything: the legend then explains "Exempt". */
  exemptionsListed: boolean;
  /** Whether the people marked inactive are listed, below the others (the matrix's own choice). */
  showInactive: boolean;
}

/** What the matrix is computed from. */
export interface MatrixSources {
  completions: readonly CompletionRow[];
  trainings: readonly CatalogueEntry[];
  /** The People tab after this run (people.ts mergeRoster): its active people are the rows. */
  roster: readonly RosterEntry[];
  requirements: readonly Requirement[];
  /** The Exemptions tab: the exempted pairs (pairKey) and their reasons. */
  exemptions: ReadonlyMap<string, string>;
  /** The matrix's "Show inactive people" choice, as the tab holds it. */
  showInactive: boolean;
  today: CalendarDate;
}

/** Plain code-unit order: the same in every runtime, whatever its locale data. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Empty last: the people nobody placed come after every site (or department). */
export function compareGroup(a: string, b: string): number {
  return a === b ? 0 : a === '' ? 1 : b === '' ? -1 : compareText(a, b);
}

/**
 * The people the matrix lists: the active ones, then (when it shows them) the inactive ones; each
 * part by site and department when anyone listed has one, then by name (then id).
 */
export function matrixPeople(roster: readonly RosterEntry[], showInactive: boolean): Person[] {
  const people = roster
    .filter((entry) => entry.active || showInactive)
    .map(({ userId, name, site, department, managerEmail, active }): Person => ({
      userId,
      userName: name,
      site,
      department,
      managerEmail,
      active,
    }));
  const bySite = groupsBySite(people);
  const sortKey = (person: Person) => person.userName || person.userId;
  return people.sort(
    (a, b) =>
      Number(b.active) - Number(a.active) ||
      (bySite ? compareGroup(a.site, b.site) || compareGroup(a.department, b.department) : 0) ||
      compareText(sortKey(a), sortKey(b)) ||
      compareText(a.userId, b.userId),
  );
}

export function groupsBySite(people: readonly Person[]): boolean {
  return people.some((person) => person.site !== '' || person.department !== '');
}

/** What each listed person must hold, by training id. */
function obligationsOf(
  person: RosterEntry,
  requirements: readonly Requirement[],
  trainings: readonly CatalogueEntry[],
): Map<string, Obligation> {
  const requiredOfEveryone = trainings.filter((training) => training.required).map((t) => t.trainingId);
  const obligations = new Map<string, Obligation>();
  for (const [trainingId, withinDays] of requiredTrainings(person, requirements, requiredOfEveryone)) {
    const dueBy =
      withinDays === null || person.startDate === null ? null : addDays(person.startDate, withinDays);
    obligations.set(trainingId, { required: true, dueBy });
  }
  return obligations;
}

export function trainingMatrix({
  completions,
  trainings,
  roster,
  requirements,
  exemptions,
  showInactive,
  today,
}: MatrixSources): TrainingMatrix {
  const byPair = completionsByPair(completions);
  const people = matrixPeople(roster, showInactive);
  const entries = new Map(roster.map((entry) => [entry.userId, entry]));
  const statuses = people.map((person) => {
    const obligations = obligationsOf(entries.get(person.userId)!, requirements, trainings);
    return trainings.map((training): PairStatus => {
      const key = pairKey(person.userId, training.trainingId);
      const latest = latestCompletion(byPair.get(key) ?? [], today);
      const obligation = obligations.get(training.trainingId) ?? NOT_REQUIRED;
      const { required } = obligation;
      if (exemptions.has(key))
        return { status: TrainingStatus.exempt, expiry: null, daysLeft: null, latest, required };
      return { ...statusOf(latest, training, today, obligation), latest, required };
    });
  });
  return {
    today,
    people,
    trainings: [...trainings],
    statuses,
    requirementsListed: requirements.length > 0,
    bySite: groupsBySite(people),
    exemptionsListed: exemptions.size > 0,
    showInactive,
  };
}
