/**
 * The "Trainings" tab, the catalogue: one row per training id seen in completions. The add-on writes
 * the id and two counts; the user fills in, beside them, the name, the validity in months (empty: it
 * never expires), whether it is required, and the expiring window in days (empty: the setting). Those
 * columns are the user's own, found by their headers and kept across refreshes beside their training
 * (sheets/table-writer.ts). The user may reorder the rows: the order is kept, and is the matrix's.
 * New training ids are appended; a training no completion mentions any more stays while its row holds
 * something the user typed.
 */
import { UnreadableTab } from '../platform/problem-lists';
import { isBlankCell, quoteCell, readInputTab, wholeNumberCell, yesOrNoCell } from '../sheets/input-tab';
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

/**
 * The catalogue as the tab holds it (values header first, as getValues returns them; [] for no tab).
 * Throws UnreadableTab for cells that are not what their column asks for.
 */
export function readCatalogue(
  values: readonly (readonly unknown[])[],
  defaultExpiringDays: number,
): CatalogueRead {
  const tab = readInputTab(values, {
    ownColumns: CATALOGUE_COLUMNS.length,
    keyColumn: ID_COLUMN,
    userHeaders: CATALOGUE_USER_HEADERS,
  });
  const problems: string[] = [];
  const entries = tab.rows.map(({ key: trainingId, rowNumber, cell }): CatalogueEntry => {
    const where = `row ${rowNumber} (training ${trainingId})`;
    const validity = cell('validityMonths');
    const validityMonths = isBlankCell(validity) ? null : wholeNumberCell(validity, 1);
    if (!isBlankCell(validity) && validityMonths === null) {
      problems.push(
        `${where}: "${CATALOGUE_USER_HEADERS.validityMonths}" is ${quoteCell(validity)}; enter a whole number of months such as 12, or leave it empty if the training never expires`,
      );
    }
    const requiredCell = cell('required');
    const required = isBlankCell(requiredCell) ? false : yesOrNoCell(requiredCell);
    if (required === null) {
      problems.push(
        `${where}: "${CATALOGUE_USER_HEADERS.required}" is ${quoteCell(requiredCell)}; enter yes or no`,
      );
    }
    const windowCell = cell('expiringDays');
    const expiringDays = isBlankCell(windowCell) ? defaultExpiringDays : wholeNumberCell(windowCell, 0);
    if (expiringDays === null) {
      problems.push(
        `${where}: "${CATALOGUE_USER_HEADERS.expiringDays}" is ${quoteCell(windowCell)}; enter a whole number of days such as 30, or leave it empty for the setting (${defaultExpiringDays})`,
      );
    }
    const name = cell('name');
    return {
      trainingId,
      name: isBlankCell(name) ? '' : String(name),
      validityMonths,
      required: required ?? false,
      expiringDays: expiringDays ?? defaultExpiringDays,
    };
  });
  if (problems.length > 0) throw new UnreadableTab(CATALOGUE_SHEET, problems, 'cell');
  const { withUserContent, missingHeaders, lastColumn, inputColumns } = tab;
  return { entries, withUserContent, missingHeaders, lastColumn, inputColumns };
}

/**
 * The catalogue after this run: the tab's trainings in its order, less those neither a completion nor
 * a requirement mentions and whose rows hold nothing the user typed, then new training ids in the
 * order first seen (the tab lists completions newest first), then those only a requirement names.
 * New ones take the defaults: never expires, not required.
 */
export function mergeCatalogue(
  read: CatalogueRead,
  completions: readonly CompletionRow[],
  defaultExpiringDays: number,
  /** Training ids the Requirements tab names: listed even when nobody has taken them yet. */
  required: readonly string[],
): CatalogueEntry[] {
  const seen = new Set([...completions.map((completion) => completion.trainingId), ...required]);
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
