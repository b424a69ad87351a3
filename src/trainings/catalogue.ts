/**
 * The "Trainings" tab, the catalogue: one row per training id seen in completions. The add-on writes
 * the id and two counts; the user fills in, beside them, the name, the validity in months (empty: it
 * never expires), whether it is required, and the expiring window in days (empty: the setting). Those
 * columns are the user's own, found by their headers and kept across refreshes beside their training
 * (sheets/table-writer.ts). The user may reorder the rows: the order is kept, and is the matrix's.
 * New training ids are appended; a training no completion mentions any more stays while its row holds
 * something the user typed.
 */
import { LISTED_PROBLEMS, listProblems } from '../platform/problem-lists';
import { type CellValue, type ColumnSpec, columnIndexes, type Table } from '../sheets/table';
import { type CalendarDate, toSheetSerial } from '../lib/dates';
import type { CompletionRow } from './completions-tab';
import type { TrainingRule } from './training-status';

export const CATALOGUE_SHEET = 'Trainings';

const CATALOGUE_SPEC = [
  { id: 'id', header: 'Training ID', kind: 'text', width: 100 },
  { header: 'People', kind: 'integer', width: 100 },
  { header: 'Last completed', kind: 'date', width: 100 },
] as const satisfies readonly ColumnSpec[];
export const CATALOGUE_COLUMNS: readonly ColumnSpec[] = CATALOGUE_SPEC;
const { id: ID_COLUMN } = columnIndexes(CATALOGUE_SPEC);

/** The tab's shape, for reading what it holds (see readTab). */
export const CATALOGUE_TAB = { columns: CATALOGUE_COLUMNS, keyColumn: ID_COLUMN };

/** The user's columns, by header; written once, when the tab lacks them. */
export const CATALOGUE_USER_HEADERS = {
  name: 'Name',
  validityMonths: 'Validity (months)',
  required: 'Required',
  expiringDays: 'Expiring window (days)',
} as const;
type UserField = keyof typeof CATALOGUE_USER_HEADERS;

export interface CatalogueEntry extends TrainingRule {
  trainingId: string;
  /** What the user named it; '' when not named. */
  name: string;
  required: boolean;
}

export interface CatalogueRead {
  /** The trainings on the tab, in its order. */
  entries: CatalogueEntry[];
  /** Training ids whose rows hold something the user typed. */
  withUserContent: Set<string>;
  /** User headers the tab does not have, to write beside its last column. */
  missingHeaders: string[];
  lastColumn: number;
  /** Where the user's columns are (1-based) once the missing headers are written: styled as inputs. */
  inputColumns: number[];
}

/** A cell the user typed the wrong thing into, in words; the whole catalogue is refused with it. */
export class CatalogueProblems extends Error {
  constructor(problems: readonly string[]) {
    super(
      listProblems(
        problems.length,
        problems.slice(0, LISTED_PROBLEMS),
        `cell${problems.length === 1 ? '' : 's'} of the "${CATALOGUE_SHEET}" tab Safety Sync cannot read`,
      )! + ' Correct them and choose Safety Sync → Show training status.',
    );
    this.name = 'CatalogueProblems';
  }
}

function isEmpty(value: unknown): boolean {
  return value === '' || value === null || value === undefined;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value);
}

function wholeNumber(value: unknown, min: number): number | null {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= min ? number : null;
}

const YES = ['yes', 'y', 'true'];
const NO = ['no', 'n', 'false'];

function yesOrNo(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : null;
  if (word === null) return null;
  if (YES.includes(word)) return true;
  return NO.includes(word) ? false : null;
}

/**
 * The catalogue as the tab holds it (values header first, as getValues returns them; [] for no tab).
 * Throws CatalogueProblems for cells that are not what their column asks for.
 */
export function readCatalogue(
  values: readonly (readonly unknown[])[],
  defaultExpiringDays: number,
): CatalogueRead {
  const header = (values[0] ?? []).map((cell) => (isEmpty(cell) ? '' : String(cell)));
  const fields = Object.keys(CATALOGUE_USER_HEADERS) as UserField[];
  // Only the user's columns: beyond the add-on's own.
  const at = (field: UserField) => {
    const index = header.indexOf(CATALOGUE_USER_HEADERS[field], CATALOGUE_COLUMNS.length);
    return index < 0 ? null : index;
  };
  const columns = Object.fromEntries(fields.map((field) => [field, at(field)])) as Record<
    UserField,
    number | null
  >;
  const entries: CatalogueEntry[] = [];
  const withUserContent = new Set<string>();
  const problems: string[] = [];
  values.slice(1).forEach((row, index) => {
    const trainingId = isEmpty(row[ID_COLUMN]) ? '' : String(row[ID_COLUMN]);
    if (trainingId === '') return;
    if (row.slice(CATALOGUE_COLUMNS.length).some((cell) => !isEmpty(cell))) withUserContent.add(trainingId);
    const cell = (field: UserField) => {
      const column = columns[field];
      return column === null ? '' : row[column];
    };
    const where = `row ${index + 2} (training ${trainingId})`;
    const validity = cell('validityMonths');
    const validityMonths = isEmpty(validity) ? null : wholeNumber(validity, 1);
    if (!isEmpty(validity) && validityMonths === null) {
      problems.push(
        `${where}: "${CATALOGUE_USER_HEADERS.validityMonths}" is ${quote(validity)}; enter a whole number of months such as 12, or leave it empty if the training never expires`,
      );
    }
    const requiredCell = cell('required');
    const required = isEmpty(requiredCell) ? false : yesOrNo(requiredCell);
    if (required === null) {
      problems.push(
        `${where}: "${CATALOGUE_USER_HEADERS.required}" is ${quote(requiredCell)}; enter yes or no`,
      );
    }
    const windowCell = cell('expiringDays');
    const expiringDays = isEmpty(windowCell) ? defaultExpiringDays : wholeNumber(windowCell, 0);
    if (expiringDays === null) {
      problems.push(
        `${where}: "${CATALOGUE_USER_HEADERS.expiringDays}" is ${quote(windowCell)}; enter a whole number of days such as 30, or leave it empty for the setting (${defaultExpiringDays})`,
      );
    }
    const name = cell('name');
    entries.push({
      trainingId,
      name: isEmpty(name) ? '' : String(name),
      validityMonths,
      required: required ?? false,
      expiringDays: expiringDays ?? defaultExpiringDays,
    });
  });
  if (problems.length > 0) throw new CatalogueProblems(problems);
  const missing = fields.filter((field) => columns[field] === null);
  const firstMissing = Math.max(header.length, CATALOGUE_COLUMNS.length) + 1;
  return {
    entries,
    withUserContent,
    missingHeaders: missing.map((field) => CATALOGUE_USER_HEADERS[field]),
    lastColumn: header.length,
    inputColumns: [
      ...fields.flatMap((field) => (columns[field] === null ? [] : [columns[field] + 1])),
      ...missing.map((_, index) => firstMissing + index),
    ],
  };
}

/**
 * The catalogue after this run: the tab's trainings in its order, less those no completion mentions
 * and whose rows hold nothing the user typed, then new training ids in the order first seen (the
 * tab lists completions newest first). New ones take the defaults: never expires, not required.
 */
export function mergeCatalogue(
  read: CatalogueRead,
  completions: readonly CompletionRow[],
  defaultExpiringDays: number,
): CatalogueEntry[] {
  const seen = new Set(completions.map((completion) => completion.trainingId));
  const kept = read.entries.filter(
    (entry) => seen.has(entry.trainingId) || read.withUserContent.has(entry.trainingId),
  );
  const known = new Set(kept.map((entry) => entry.trainingId));
  const added: CatalogueEntry[] = [];
  for (const trainingId of seen) {
    if (known.has(trainingId)) continue;
    added.push({
      trainingId,
      name: '',
      validityMonths: null,
      required: false,
      expiringDays: defaultExpiringDays,
    });
  }
  return [...kept, ...added];
}

/** What the add-on writes of the catalogue: each training's id, how many people did it, when last. */
export function catalogueTable(
  entries: readonly CatalogueEntry[],
  completions: readonly CompletionRow[],
): Table {
  const people = new Map<string, Set<string>>();
  const last = new Map<string, CalendarDate>();
  for (const { trainingId, userId, completed } of completions) {
    const who = people.get(trainingId) ?? new Set<string>();
    who.add(userId);
    people.set(trainingId, who);
    const previous = last.get(trainingId);
    if (previous === undefined || completed > previous) last.set(trainingId, completed);
  }
  const rows = entries.map((entry): CellValue[] => {
    const lastDay = last.get(entry.trainingId);
    return [
      entry.trainingId,
      people.get(entry.trainingId)?.size ?? 0,
      lastDay === undefined ? null : toSheetSerial(lastDay),
    ];
  });
  return { columns: CATALOGUE_COLUMNS, rows, keyColumn: ID_COLUMN };
}

/** The name a training goes by in the matrix and the lists: the user's, else its id. */
export function trainingLabel(entry: CatalogueEntry): string {
  return entry.name.trim() === '' ? entry.trainingId : entry.name;
}
