/**
 * The custom functions: =SAFETY_COMPLETIONS(), =SAFETY_EQUIPMENT_TYPES(), =SAFETY_SCHEDULES(),
 * =SAFETY_USER(), =SAFETY_NEXT_INSPECTION(), =SAFETY_INSPECTION_STATUS(),
 * =SAFETY_TRAINING_STATUS() and =SAFETY_TRAINING_EXPIRY(); people-functions.ts holds those over the
 * People and Requirements tabs, run by runFormula here.
 *
 * The build copies each function's JSDoc block onto its top-level wrapper, where Sheets reads it
 * for autocomplete: keep a description with an example, every @param, @return and @customfunction.
 *
 * A formula runs anonymously, and any editor can type any of them: the functions that call the
 * service use only the token lent to formulas in Settings (see platform/formula-access.ts), never the
 * user's import token. Whatever goes wrong becomes one plain message on the cell, naming the
 * function and saying what to do; it never carries the token, a URL or a stack.
 */
import { scrub } from '../api/errors';
import type { RejectedRecord } from '../api/schemas';
import { completionsFormulaTable, equipmentFormulaTables, type PlainTable } from './tables';
import { formulaConnection } from '../platform/formula-access';
import {
  commonShape,
  type DateCellZones,
  FormulaArgumentError,
  grid,
  idCell,
  optionalChoice,
  optionalFlag,
  optionalId,
  optionalLimit,
  positionOf,
} from './arguments';
import { FormulaBudget } from './budget';
import { FormulaCache } from './cache';
import { type FormulaReader, readCompletions, readEquipmentTypes, readUsers } from './reads';
import { AS_INSTANTS, type FormulaCell, type FormulaResult, formulaTable } from './values';
import { midnightOf } from '../lib/dates';
import { type InspectionCell, inspectionStatusCells, nextInspectionCells } from './inspection-formulas';
import { type TrainingCell, trainingExpiryCells, trainingStatusCells } from './training-formulas';
import { readTrainingFacts } from './training-reads';
import {
  type Connection,
  DEFAULT_IMPORT_OPTIONS,
  type ImportOptions,
  readImportOptions,
} from '../platform/settings-store';
import { type SpreadsheetClock, spreadsheetClock, utcOffsetIn } from '../platform/time-zone';
import { googleServiceClient } from '../platform/service-client';

/** A retry must not eat the formula's 30 seconds: one, after half a second or so. */
const FORMULA_ATTEMPTS = 2;
const FORMULA_BACKOFF_MS = 500;
const MAX_MESSAGE_LENGTH = 1000;

interface FormulaContext {
  /** The service, through the token lent to formulas; throws when none was lent. */
  reader(): FormulaReader;
  clock(): FormulaClock;
}

/** The spreadsheet's clock, and the script's zone a date cell may also arrive in (arguments.ts). */
type FormulaClock = SpreadsheetClock & DateCellZones;

function formulaClock(): FormulaClock {
  return {
    ...spreadsheetClock(SpreadsheetApp.getActiveSpreadsheet()),
    scriptUtcOffsetAt: utcOffsetIn(Session.getScriptTimeZone()),
  };
}

/**
 * Google documents which Spreadsheet methods a custom function may call only loosely; if reading the
 * options (developer metadata) is refused there, formulas work on with the defaults.
 */
function importOptionsForFormulas(): ImportOptions {
  try {
    return readImportOptions();
  } catch {
    return DEFAULT_IMPORT_OPTIONS;
  }
}

function openReader(connection: Connection, budget: FormulaBudget): FormulaReader {
  const options = importOptionsForFormulas();
  const client = googleServiceClient(connection, {
    maxAttempts: FORMULA_ATTEMPTS,
    backoffBaseMs: FORMULA_BACKOFF_MS,
  });
  return {
    client,
    cache: new FormulaCache(connection, options.formulaCacheSeconds),
    budget,
    batchSize: options.batchSize,
  };
}

/** A message fit for a cell: the function's name first, no token, no URL beyond its host, no "Exception:". */
export function cellMessage(functionName: string, error: unknown, token: string): string {
  const text = error instanceof Error ? error.message : String(error);
  const clean = scrub(text, token);
  const named = clean.startsWith(`${functionName}:`) ? clean : `${functionName}: ${clean}`;
  return named.slice(0, MAX_MESSAGE_LENGTH);
}

/** Runs a function's body; anything it throws reaches Sheets as a plain Error with a safe message. */
export function runFormula(
  functionName: string,
  body: (context: FormulaContext) => FormulaResult,
): FormulaResult {
  const budget = new FormulaBudget(() => Date.now());
  let clock: FormulaClock | undefined;
  // The token the body used, for scrubbing its messages ('' while it used none).
  let token = '';
  try {
    return body({
      reader: () => {
        const connection = formulaConnection();
        token = connection.token;
        return openReader(connection, budget);
      },
      clock: () => (clock ??= formulaClock()),
    });
  } catch (error) {
    throw new Error(cellMessage(functionName, error, token));
  }
}

function asTable(
  table: PlainTable,
  rejected: readonly RejectedRecord[],
  withHeader: boolean,
  clock: SpreadsheetClock,
): FormulaResult {
  return formulaTable({ ...table, rejected }, withHeader, clock.utcOffsetAt);
}

/**
 * Completed trainings from the safety service, newest first, in the columns of the "Completed
 * trainings" tab (dates as date cells). Reads every page unless a limit is given. Needs
 * "Formulas in this spreadsheet may use my token" in Safety Sync → Settings.
 * Example: =SAFETY_COMPLETIONS("00001", , 50)
 *
 * @param {string} user_id Only this user's completions; leave empty for every user.
 * @param {string} training_id Only completions of this training; leave empty for every training.
 * @param {number} limit Only the newest records, 1 to 1000; leave empty for all of them.
 * @param {boolean} with_header TRUE (the default) for a header row, FALSE for none.
 * @return {Array<Array<string|Date>>} One row per completion.
 * @customfunction
 */
export function SAFETY_COMPLETIONS(
  user_id?: unknown,
  training_id?: unknown,
  limit?: unknown,
  with_header?: unknown,
): FormulaResult {
  return runFormula('SAFETY_COMPLETIONS', (formula) => {
    const filter = {
      user_id: optionalId(user_id, 'user_id'),
      training_id: optionalId(training_id, 'training_id'),
    };
    const newest = optionalLimit(limit);
    const withHeader = optionalFlag(with_header, 'with_header', true);
    const answer = readCompletions(formula.reader(), filter, newest);
    const table = completionsFormulaTable(answer.records, new Map(Object.entries(answer.names)), AS_INSTANTS);
    return asTable(table, answer.rejected, withHeader, formula.clock());
  });
}

/**
 * Equipment types from the safety service, in the columns of the "Equipment types" tab: id, title,
 * created, how many metafields and schedules, the next inspection due and the most urgent status.
 * Needs "Formulas in this spreadsheet may use my token" in Safety Sync → Settings.
 * Example: =SAFETY_EQUIPMENT_TYPES(FALSE)
 *
 * @param {boolean} with_header TRUE (the default) for a header row, FALSE for none.
 * @return {Array<Array<string|number|Date>>} One row per equipment type.
 * @customfunction
 */
export function SAFETY_EQUIPMENT_TYPES(with_header?: unknown): FormulaResult {
  return runFormula('SAFETY_EQUIPMENT_TYPES', (formula) => {
    const withHeader = optionalFlag(with_header, 'with_header', true);
    const { types, rejected } = readEquipmentTypes(formula.reader());
    const clock = formula.clock();
    const tables = equipmentFormulaTables(types, clock.today(), AS_INSTANTS);
    return asTable(tables.types, rejected, withHeader, clock);
  });
}

/**
 * Inspection schedules of the equipment types, in the columns of the "Inspection schedules" tab:
 * the trigger fields, the next due date and the status (a rolling schedule shows "No inspection
 * recorded": its last inspection is entered on the tab). Needs "Formulas in this spreadsheet may
 * use my token" in Safety Sync → Settings.
 * Example: =SAFETY_SCHEDULES("001000")
 *
 * @param {string} equipment_type_id Only the schedules of this equipment type; leave empty for all.
 * @param {boolean} with_header TRUE (the default) for a header row, FALSE for none.
 * @return {Array<Array<string|number|boolean|Date>>} One row per schedule.
 * @customfunction
 */
export function SAFETY_SCHEDULES(equipment_type_id?: unknown, with_header?: unknown): FormulaResult {
  return runFormula('SAFETY_SCHEDULES', (formula) => {
    const typeId = optionalId(equipment_type_id, 'equipment_type_id');
    const withHeader = optionalFlag(with_header, 'with_header', true);
    const { types, rejected } = readEquipmentTypes(formula.reader());
    const clock = formula.clock();
    const shown = typeId === undefined ? types : types.filter((type) => type.id === typeId);
    if (shown.length === 0 && typeId !== undefined) {
      throw new FormulaArgumentError(
        'equipment_type_id',
        `matches no equipment type: "${typeId}". =SAFETY_EQUIPMENT_TYPES() lists their ids`,
      );
    }
    const { schedules } = equipmentFormulaTables(shown, clock.today(), AS_INSTANTS);
    const ofShown =
      typeId === undefined
        ? rejected
        : rejected.filter((record) => record.source.startsWith(`equipment type ${typeId},`));
    return asTable(schedules, ofShown, withHeader, clock);
  });
}

/**
 * The name (or another field) of the service's user with this id; a range of ids gives a range of
 * names, read in one go. An id the service does not know gives an empty cell. Needs "Formulas in
 * this spreadsheet may use my token" in Safety Sync → Settings.
 * Example: =SAFETY_USER(A2:A20)
 *
 * @param {string} user_id A user id, or a range of them.
 * @param {string} field "name" (the default) or "id".
 * @return {string} The user's name, or a range of names.
 * @customfunction
 */
export function SAFETY_USER(user_id?: unknown, field?: unknown): FormulaResult {
  return runFormula('SAFETY_USER', (formula) => {
    const cells = grid(user_id);
    const shape = commonShape({ user_id });
    const ids = cells.map((row, r) =>
      row.map((cell, c) => idCell(cell, `user_id${positionOf(shape, r, c)}`)),
    );
    if (ids.every((row) => row.every((id) => id === ''))) {
      throw new FormulaArgumentError('user_id', 'is empty: give a user id, or a range of them');
    }
    const wanted = optionalChoice(field, 'field', ['name', 'id'] as const, 'name');
    const users = readUsers(formula.reader(), ids.flat());
    const values: FormulaCell[][] = ids.map((row) =>
      row.map((id) => (id === '' ? '' : (users[id]?.[wanted] ?? ''))),
    );
    return Array.isArray(user_id) ? values : values[0]![0]!;
  });
}

/** Cells of dates (as the midnight Sheets shows as that day) and words; one cell for single arguments. */
function datesOrWords(
  cells: (InspectionCell | TrainingCell)[][],
  args: readonly unknown[],
  clock: SpreadsheetClock,
): FormulaResult {
  const values = cells.map((row) =>
    row.map((cell) => (typeof cell === 'number' ? midnightOf(cell, clock.utcOffsetAt) : cell)),
  );
  return args.some(Array.isArray) ? values : values[0]![0]!;
}

/**
 * The next inspection due date of a schedule, by the rules of the "Inspection schedules" tab;
 * works on ranges (one row per schedule) and sends no request. Where there is no due date it
 * gives the reason: "No inspection recorded" or "Unsupported schedule".
 * Example: =SAFETY_NEXT_INSPECTION("dom", DATE(2024, 1, 31), 30, DATE(2024, 3, 2))
 *
 * @param {string} timing How occurrences repeat: "rolling", "dom" (day of month) or "dow" (day of week).
 * @param {Date} timing_date The first occurrence, for dom and dow; empty for rolling.
 * @param {number} frequency_days Days between inspections (dom: rounded to whole months).
 * @param {Date} last_inspected The last inspection; leave empty if none is recorded.
 * @param {Date} today The day to count from; leave empty for today in the spreadsheet's time zone.
 * @return {Date} The next due date, or why there is none.
 * @customfunction
 */
export function SAFETY_NEXT_INSPECTION(
  timing?: unknown,
  timing_date?: unknown,
  frequency_days?: unknown,
  last_inspected?: unknown,
  today?: unknown,
): FormulaResult {
  return runFormula('SAFETY_NEXT_INSPECTION', (formula) => {
    const clock = formula.clock();
    const cells = nextInspectionCells({ timing, timing_date, frequency_days, last_inspected, today }, clock);
    return datesOrWords(cells, [timing, timing_date, frequency_days, last_inspected, today], clock);
  });
}

/**
 * The status of an inspection due date, by the rules of the "Inspection schedules" tab: "Expired"
 * once it has passed, "Expiring" within expiring_days of it, else "Up to date". Works on ranges
 * and sends no request; a reason written by SAFETY_NEXT_INSPECTION in place of a date is kept.
 * Example: =SAFETY_INSPECTION_STATUS(M2:M40, 14)
 *
 * @param {Date} due_date The due date, or a range of them.
 * @param {number} expiring_days How many days before the due date count as "Expiring".
 * @param {Date} today The day to judge on; leave empty for today in the spreadsheet's time zone.
 * @return {string} Expired, Expiring or Up to date.
 * @customfunction
 */
export function SAFETY_INSPECTION_STATUS(
  due_date?: unknown,
  expiring_days?: unknown,
  today?: unknown,
): FormulaResult {
  return runFormula('SAFETY_INSPECTION_STATUS', (formula) => {
    const clock = formula.clock();
    const cells = inspectionStatusCells({ due_date, expiring_days, today }, clock);
    return datesOrWords(cells, [due_date, expiring_days, today], clock);
  });
}

/**
 * A person's training status, by the rules of the "Training matrix" tab: Valid, Valid (no expiry),
 * Expiring, Expired or Not done, from the completions on the "Completed trainings" tab and the
 * validity on the "Trainings" tab. Works on ranges and sends no request. With as_of, the status on
 * that day from the completions made by then ("were we compliant on 1 March?").
 * Example: =SAFETY_TRAINING_STATUS(A2:A40, "0007", DATE(2024, 3, 1))
 *
 * @param {string} user_id A user id, or a range of them.
 * @param {string} training_id A training id, or a range of them.
 * @param {Date} as_of The day to judge on; leave empty for today in the spreadsheet's time zone.
 * @return {string} The status.
 * @customfunction
 */
export function SAFETY_TRAINING_STATUS(
  user_id?: unknown,
  training_id?: unknown,
  as_of?: unknown,
): FormulaResult {
  return runFormula('SAFETY_TRAINING_STATUS', (formula) => {
    const clock = formula.clock();
    const cells = trainingStatusCells({ user_id, training_id, as_of }, readTrainingFacts(clock), clock);
    return datesOrWords(cells, [user_id, training_id, as_of], clock);
  });
}

/**
 * When a person's training expires, by the rules of the "Training matrix" tab: the special
 * expiration of the latest completion, else its date plus the training's validity on the
 * "Trainings" tab. Where there is no expiry it says why: "Valid (no expiry)" or "Not done". Works on
 * ranges and sends no request.
 * Example: =SAFETY_TRAINING_EXPIRY(A2:A40, B2:B40)
 *
 * @param {string} user_id A user id, or a range of them.
 * @param {string} training_id A training id, or a range of them.
 * @return {Date} The expiry date, or why there is none.
 * @customfunction
 */
export function SAFETY_TRAINING_EXPIRY(user_id?: unknown, training_id?: unknown): FormulaResult {
  return runFormula('SAFETY_TRAINING_EXPIRY', (formula) => {
    const clock = formula.clock();
    const cells = trainingExpiryCells({ user_id, training_id }, readTrainingFacts(clock), clock);
    return datesOrWords(cells, [user_id, training_id], clock);
  });
}
