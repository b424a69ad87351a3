/**
 * The "Training matrix" tab: a row per person, a column per training (the catalogue's order), each
 * cell the date that decides its colour, the expiry of the person's latest completion of that
 * training on or before today ("No expiry" for one that never expires), coloured by its status;
 * "Not done" where a required training has none. The completion dates are on Expiring trainings and
 * Completed trainings. Compliance: per training (row 3) and per person (column C), the share of the
 * cells that count which are compliant (Valid, Valid (no expiry) or Expiring), coloured by the
 * shared thresholds. A cell counts when the training is required or the person has done it: a
 * required training is measured over everyone, another one over the people who took it. The legend
 * is the first of the frozen rows, so it stays in sight however far the list scrolls.
 *
 * The colours are conditional format rules over the cells, with the run's day in their dates: a few
 * rules whatever the number of people (a colour per cell would send 120,000 of them for 2,000
 * people × 60 trainings), a rule per expiring window for the Expiring cells.
 */
import { cellA1, gridA1 } from '../sheets/a1-notation';
import { adjacentRuns } from '../sheets/row-writer';
import { type CellValue, numberFormatOf } from '../sheets/table';
import { COMPLIANCE_BANDS_NOTE } from '../sheets/status-words';
import { type CalendarDate, toSheetSerial } from '../lib/dates';
import { type CatalogueEntry, trainingLabel } from './catalogue';
import { type CompletionRow, completionsByPair, pairKey } from './completions-tab';
import {
  firstHeldExpiry,
  firstValidExpiry,
  isCompliant,
  lastExpiringExpiry,
  latestCompletion,
  statusOf,
  TrainingStatus,
  type TrainingStatusResult,
} from './training-status';

export const MATRIX_SHEET = 'Training matrix';

export interface Person {
  userId: string;
  userName: string;
}

export interface PairStatus extends TrainingStatusResult {
  /** The completion the status comes from; null when not done. */
  latest: CompletionRow | null;
}

export interface TrainingMatrix {
  /** The day the statuses are of. */
  today: CalendarDate;
  people: Person[];
  trainings: CatalogueEntry[];
  /** statuses[person][training], in the order of `people` and `trainings`. */
  statuses: PairStatus[][];
}

/** Everyone with a completion on the tab, by name (then id); the name is the newest one the tab shows. */
export function peopleOf(completions: readonly CompletionRow[]): Person[] {
  const names = new Map<string, string>();
  for (const { userId, userName } of completions) {
    if (!names.get(userId)) names.set(userId, userName);
  }
  const sortKey = (person: Person) => person.userName || person.userId;
  return [...names]
    .map(([userId, userName]) => ({ userId, userName }))
    .sort((a, b) => compareText(sortKey(a), sortKey(b)) || compareText(a.userId, b.userId));
}

/** Plain code-unit order: the same in every runtime, whatever its locale data. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function trainingMatrix(
  completions: readonly CompletionRow[],
  trainings: readonly CatalogueEntry[],
  today: CalendarDate,
): TrainingMatrix {
  const byPair = completionsByPair(completions);
  const people = peopleOf(completions);
  const statuses = people.map((person) =>
    trainings.map((training): PairStatus => {
      const latest = latestCompletion(byPair.get(pairKey(person.userId, training.trainingId)) ?? [], today);
      return { ...statusOf(latest, training, today), latest };
    }),
  );
  return { today, people, trainings: [...trainings], statuses };
}

/** Whether a cell enters the compliance figures: a required training, or one the person took. */
function counts(status: PairStatus, training: CatalogueEntry): boolean {
  return training.required || status.latest !== null;
}

export interface Compliance {
  compliant: number;
  counted: number;
}

function share({ compliant, counted }: Compliance): number | null {
  return counted === 0 ? null : compliant / counted;
}

function tally(cells: Iterable<[PairStatus, CatalogueEntry]>): Compliance {
  const result = { compliant: 0, counted: 0 };
  for (const [status, training] of cells) {
    if (!counts(status, training)) continue;
    result.counted++;
    if (isCompliant(status.status)) result.compliant++;
  }
  return result;
}

export function personCompliance(matrix: TrainingMatrix, person: number): Compliance {
  return tally(
    matrix.statuses[person]!.map((status, training): [PairStatus, CatalogueEntry] => [
      status,
      matrix.trainings[training]!,
    ]),
  );
}

export function trainingCompliance(matrix: TrainingMatrix, training: number): Compliance {
  return tally(
    matrix.statuses.map((row): [PairStatus, CatalogueEntry] => [row[training]!, matrix.trainings[training]!]),
  );
}

function everyPair(matrix: TrainingMatrix): [PairStatus, CatalogueEntry][] {
  return matrix.statuses.flatMap((row) =>
    row.map((status, training): [PairStatus, CatalogueEntry] => [status, matrix.trainings[training]!]),
  );
}

/** Every counted pair: the required trainings, and the optional ones a person took. */
export function overallCompliance(matrix: TrainingMatrix): Compliance {
  return tally(everyPair(matrix));
}

/** The required trainings' pairs only: what an audit of the requirements counts. */
export function requiredCompliance(matrix: TrainingMatrix): Compliance {
  return tally(everyPair(matrix).filter(([, training]) => training.required));
}

/** What a cell of a done training shows when it never expires. */
export const NO_EXPIRY = 'No expiry';

/** What a cell shows: its expiry (or NO_EXPIRY), "Not done" where required, else nothing. */
function cellValue(status: PairStatus, training: CatalogueEntry): CellValue {
  if (status.latest !== null) return status.expiry === null ? NO_EXPIRY : toSheetSerial(status.expiry);
  return training.required ? TrainingStatus.notDone : null;
}

/** Cell colours by status; Expired and Expiring are those of inspections. */
export const STATUS_BACKGROUNDS: Readonly<Record<TrainingStatus, string>> = {
  [TrainingStatus.valid]: '#d9ead3',
  [TrainingStatus.validNoExpiry]: '#cfe2f3',
  [TrainingStatus.expiring]: '#fce8b2',
  [TrainingStatus.expired]: '#f4cccc',
  [TrainingStatus.notDone]: '#d9d9d9',
};

/** Each status of the legend row, with what it means (the note on its cell). */
const LEGEND: ReadonlyArray<[TrainingStatus, string]> = [
  [TrainingStatus.valid, 'Done, and valid beyond the expiring window'],
  [TrainingStatus.validNoExpiry, 'Done; the training never expires (no validity, no special expiration)'],
  [TrainingStatus.expiring, "Expires within the training's expiring window"],
  [TrainingStatus.expired, 'Its expiry has passed'],
  [TrainingStatus.notDone, 'Required, and never done'],
];
const LEGEND_TITLE = 'Legend';
const LEGEND_CELLS = 'Cells show the expiry date';

const FIXED_HEADERS = ['User ID', 'User name', 'Compliance'];
/** The legend, the header row, then compliance by training. */
const HEADER_ROWS = 3;
const TITLE_ROW = 2;
export const MATRIX_FROZEN = { rows: HEADER_ROWS, columns: 2 } as const;
export const MATRIX_COLUMN_WIDTHS = [100, 180, 100] as const;

/** Where a person's cell of a training is (0-based indexes into people and trainings). */
export function matrixCellA1(person: number, training: number): string {
  return cellA1(FIXED_HEADERS.length + training + 1, HEADER_ROWS + person + 1);
}

/** The tab's size for that many people and trainings: header rows and people, wide enough for the legend. */
export function matrixSize(people: number, trainings: number): { rows: number; columns: number } {
  return {
    rows: HEADER_ROWS + people,
    columns: FIXED_HEADERS.length + Math.max(trainings, LEGEND.length),
  };
}

/**
 * A colour of the person × training cells, as one conditional format rule: the cells whose text is
 * exactly `textIs`, or whose date is before `dateBefore` or after `dateAfter` (calendar days).
 */
export interface StatusColourRule {
  status: TrainingStatus;
  condition: { textIs: string } | { dateBefore: CalendarDate } | { dateAfter: CalendarDate };
  /** The blocks of cells (A1) it covers. */
  a1: string[];
}

export interface MatrixGrid {
  values: CellValue[][];
  /**
   * Each number format with the blocks of cells (A1) it covers: a few blocks, set a call each, where
   * a format per cell would cost Google a write per cell. A person's training cells are all dates:
   * "Not done" in one stays text.
   */
  formats: { format: string; a1: string[] }[];
  /** The legend's status cells, each in the colour of the status it names: five cells, fixed colours. */
  legend: { a1: string; backgrounds: string[] };
  /** The person × training cells' colours, in the order Sheets must apply them (the first that holds). */
  statusRules: StatusColourRule[];
  /** The compliance figures (A1), coloured by the shared bands. */
  complianceA1: string[];
  /** Rows (1-based) whose cells are bold: the legend and the header. */
  boldRows: number[];
  /** The legend row's notes (what each status means) and the Compliance header's: row 1 and 2's. */
  notes: string[][];
}

const TEXT = numberFormatOf('text');
const DATE = numberFormatOf('date');
const PERCENT = '0%';
const FIRST_PERSON_ROW = HEADER_ROWS + 1;
const FIRST_TRAINING_COLUMN = FIXED_HEADERS.length + 1;
const COMPLIANCE_COLUMN = FIXED_HEADERS.length;

export function matrixGrid(matrix: TrainingMatrix): MatrixGrid {
  const { people, trainings, statuses } = matrix;
  const { columns } = matrixSize(people.length, trainings.length);
  const padded = <T>(cells: T[], fill: T): T[] => [
    ...cells,
    ...new Array<T>(columns - cells.length).fill(fill),
  ];
  const values: CellValue[][] = [];
  const addRow = (cells: CellValue[]) => values.push(padded(cells, null));

  addRow([LEGEND_TITLE, LEGEND_CELLS, null, ...LEGEND.map(([status]) => status)]);
  addRow([...FIXED_HEADERS, ...trainings.map(trainingLabel)]);
  const byTraining = [
    overallCompliance(matrix),
    ...trainings.map((_, t) => trainingCompliance(matrix, t)),
  ].map(share);
  addRow(['', 'Compliance by training', ...byTraining]);
  people.forEach((person, p) => {
    addRow([
      person.userId,
      person.userName,
      share(personCompliance(matrix, p)),
      ...statuses[p]!.map((status, t) => cellValue(status, trainings[t]!)),
    ]);
  });
  const notes = [padded(['', '', '', ...LEGEND.map(([, meaning]) => meaning)], ''), padded([], '')];
  notes[TITLE_ROW - 1]![COMPLIANCE_COLUMN - 1] = COMPLIANCE_BANDS_NOTE;
  const complianceA1 = [gridA1(HEADER_ROWS, COMPLIANCE_COLUMN, 1, trainings.length + 1)];
  if (people.length > 0) complianceA1.push(gridA1(FIRST_PERSON_ROW, COMPLIANCE_COLUMN, people.length, 1));
  return {
    values,
    formats: formatBlocks(people.length, trainings.length, columns),
    legend: {
      a1: gridA1(1, FIRST_TRAINING_COLUMN, 1, LEGEND.length),
      backgrounds: LEGEND.map(([status]) => STATUS_BACKGROUNDS[status]),
    },
    statusRules: statusRules(matrix),
    complianceA1,
    boldRows: [1, TITLE_ROW],
    notes,
  };
}

/**
 * The cells' colours on the matrix's day, the boundaries from training-status.ts: "Not done" and
 * "No expiry" by their text, then Expired, then Expiring (a rule per expiring window, over the
 * columns of the trainings that have it), then Valid: each rule takes the dates the ones before it
 * left. An empty cell (an optional training not taken) matches none.
 */
function statusRules({ today, people, trainings }: TrainingMatrix): StatusColourRule[] {
  if (people.length === 0 || trainings.length === 0) return [];
  const blocksOf = (columns: number[]) =>
    adjacentRuns(columns).map(({ left, width }) => gridA1(FIRST_PERSON_ROW, left, people.length, width));
  const columnsWithWindow = (window: number) =>
    trainings.flatMap((training, t) => (training.expiringDays === window ? [FIRST_TRAINING_COLUMN + t] : []));
  const windows = [...new Set(trainings.map((training) => training.expiringDays))].sort((a, b) => a - b);
  const every = [gridA1(FIRST_PERSON_ROW, FIRST_TRAINING_COLUMN, people.length, trainings.length)];
  return [
    { status: TrainingStatus.notDone, condition: { textIs: TrainingStatus.notDone }, a1: every },
    { status: TrainingStatus.validNoExpiry, condition: { textIs: NO_EXPIRY }, a1: every },
    { status: TrainingStatus.expired, condition: { dateBefore: firstHeldExpiry(today) }, a1: every },
    ...windows.map((window): StatusColourRule => ({
      status: TrainingStatus.expiring,
      condition: { dateBefore: firstValidExpiry(today, window) },
      a1: blocksOf(columnsWithWindow(window)),
    })),
    // Every date left is past its own training's window, so past the narrowest one: a single rule.
    {
      status: TrainingStatus.valid,
      condition: { dateAfter: lastExpiringExpiry(today, windows[0]!) },
      a1: every,
    },
  ];
}

/** Titles and names are text, compliance figures percentages, a person's training cells dates. */
function formatBlocks(people: number, trainings: number, columns: number): MatrixGrid['formats'] {
  const text = [gridA1(1, 1, TITLE_ROW, columns), gridA1(HEADER_ROWS, 1, people + 1, 2)];
  const percent = [gridA1(HEADER_ROWS, COMPLIANCE_COLUMN, 1, columns - 2)];
  const date: string[] = [];
  if (people > 0) {
    percent.push(gridA1(FIRST_PERSON_ROW, COMPLIANCE_COLUMN, people, 1));
    if (trainings > 0) date.push(gridA1(FIRST_PERSON_ROW, FIRST_TRAINING_COLUMN, people, trainings));
  }
  return [
    { format: TEXT, a1: text },
    { format: PERCENT, a1: percent },
    { format: DATE, a1: date },
  ].filter((block) => block.a1.length > 0);
}

/** The person × training pairs with a completion: those that can be Expired or Expiring. */
export function completedPairs(matrix: TrainingMatrix): number {
  return matrix.statuses.reduce(
    (count, row) => count + row.filter((cell) => cell.status !== TrainingStatus.notDone).length,
    0,
  );
}
