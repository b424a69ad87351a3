/**
 * SAFETY_TRAINING_STATUS and SAFETY_TRAINING_EXPIRY over cells: the rules of
 * src/trainings/training-status.ts (the ones behind the Training matrix) applied to the completions
 * on the "Completed trainings" tab and the validity the "Trainings" tab gives each training. No
 * request is made. Arguments are single values or ranges of one size; the answer has that size, and
 * a row without both ids gives an empty cell.
 */
import type { CalendarDate } from '../lib/dates';
import type { CatalogueRead } from '../trainings/catalogue';
import { completionsByPair, type CompletionRow, pairKey } from '../trainings/completions-tab';
import { type TrainingRule, trainingStatus, type TrainingStatusResult } from '../trainings/training-status';
import { cellOf, commonShape, dateCell, FormulaArgumentError, idCell, positionOf } from './arguments';
import type { InspectionClock } from './inspection-formulas';

/** A status in words, an expiry date, or '' for an empty row. */
export type TrainingCell = CalendarDate | string;

/** What the functions read from the spreadsheet: each pair's completions, each training's rule. */
export interface TrainingFacts {
  byPair: Map<string, CompletionRow[]>;
  rules: Map<string, TrainingRule>;
  /** For a training the Trainings tab does not list: it never expires. */
  defaultRule: TrainingRule;
}

export function trainingFacts(
  completions: readonly CompletionRow[],
  catalogue: CatalogueRead,
  defaultExpiringDays: number,
): TrainingFacts {
  return {
    byPair: completionsByPair(completions),
    rules: new Map(catalogue.entries.map((entry) => [entry.trainingId, entry])),
    defaultRule: { validityMonths: null, expiringDays: defaultExpiringDays },
  };
}

export interface TrainingArguments {
  user_id: unknown;
  training_id: unknown;
  as_of?: unknown;
}

function eachPair(
  args: TrainingArguments,
  facts: TrainingFacts,
  clock: InspectionClock,
  answer: (result: TrainingStatusResult) => TrainingCell,
): TrainingCell[][] {
  if (args.user_id === undefined)
    throw new FormulaArgumentError('user_id', 'is required: a user id, or a range of them');
  if (args.training_id === undefined) {
    throw new FormulaArgumentError('training_id', 'is required: a training id, or a range of them');
  }
  const shape = commonShape({ ...args });
  return Array.from({ length: shape.rows }, (_, row) =>
    Array.from({ length: shape.columns }, (_, column) => {
      const where = positionOf(shape, row, column);
      const userId = idCell(cellOf(args.user_id, row, column), `user_id${where}`);
      const trainingId = idCell(cellOf(args.training_id, row, column), `training_id${where}`);
      if (userId === '' || trainingId === '') return '';
      const day = dateCell(cellOf(args.as_of, row, column), `as_of${where}`, clock) ?? clock.today();
      const rule = facts.rules.get(trainingId) ?? facts.defaultRule;
      return answer(trainingStatus(facts.byPair.get(pairKey(userId, trainingId)) ?? [], rule, day));
    }),
  );
}

/** Valid, Valid (no expiry), Expiring, Expired or Not done, on as_of (today when left out). */
export function trainingStatusCells(
  args: TrainingArguments,
  facts: TrainingFacts,
  clock: InspectionClock,
): TrainingCell[][] {
  return eachPair(args, facts, clock, (result) => result.status);
}

/** The expiry of the latest completion today; where there is none, why: "Valid (no expiry)" or "Not done". */
export function trainingExpiryCells(
  args: TrainingArguments,
  facts: TrainingFacts,
  clock: InspectionClock,
): TrainingCell[][] {
  return eachPair(
    { user_id: args.user_id, training_id: args.training_id },
    facts,
    clock,
    (result) => result.expiry ?? result.status,
  );
}
