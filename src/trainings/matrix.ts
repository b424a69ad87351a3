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
 */
import { cellA1, gridA1 } from '../sheets/a1-notation';
import { type CellValue, numberFormatOf } from '../sheets/table';
import { complianceBackground, COMPLIANCE_BANDS_NOTE } from '../sheets/status-words';
import { type CalendarDate, toSheetSerial } from '../lib/dates';
import { type CatalogueEntry, trainingLabel } from './catalogue';
import { type CompletionRow, completionsByPair, pairKey } from './completions-tab';
import {
  isCompliant,
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
  return { people, trainings: [...trainings], statuses };
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

export interface MatrixGrid {
  values: CellValue[][];
  /**
   * Each number format with the blocks of cells (A1) it covers: a few blocks, set a call each, where
   * a format per cell would cost Google a write per cell. A person's training cells are all dates:
   * "Not done" in one stays text.
   */
  formats: { format: string; a1: string[] }[];
  backgrounds: (string | null)[][];
  /** Rows (1-based) whose cells are bold: the legend and the header. */
  boldRows: number[];
  /** The legend row's notes (what each status means) and the Compliance header's: row 1 and 2's. */
  notes: string[][];
}

const TEXT = numberFormatOf('text');
const DATE = numberFormatOf('date');
const PERCENT = '0%';

export function matrixGrid(matrix: TrainingMatrix): MatrixGrid {
  const { people, trainings, statuses } = matrix;
  const { columns } = matrixSize(people.length, trainings.length);
  const padded = <T>(cells: T[], fill: T): T[] => [
    ...cells,
    ...new Array<T>(columns - cells.length).fill(fill),
  ];
  const values: CellValue[][] = [];
  const backgrounds: (string | null)[][] = [];
  const addRow = (cells: CellValue[], colours: (string | null)[] = []) => {
    values.push(padded(cells, null));
    backgrounds.push(padded(colours, null));
  };

  addRow(
    [LEGEND_TITLE, LEGEND_CELLS, null, ...LEGEND.map(([status]) => status)],
    [null, null, null, ...LEGEND.map(([status]) => STATUS_BACKGROUNDS[status])],
  );
  addRow([...FIXED_HEADERS, ...trainings.map(trainingLabel)]);
  const byTraining = [
    overallCompliance(matrix),
    ...trainings.map((_, t) => trainingCompliance(matrix, t)),
  ].map(share);
  addRow(
    ['', 'Compliance by training', ...byTraining],
    [null, null, ...byTraining.map(complianceBackground)],
  );
  people.forEach((person, p) => {
    const row = statuses[p]!;
    const personShare = share(personCompliance(matrix, p));
    addRow(
      [
        person.userId,
        person.userName,
        personShare,
        ...row.map((status, t) => cellValue(status, trainings[t]!)),
      ],
      [
        null,
        null,
        complianceBackground(personShare),
        ...row.map((status, t) =>
          status.latest !== null || trainings[t]!.required ? STATUS_BACKGROUNDS[status.status] : null,
        ),
      ],
    );
  });
  const notes = [padded(['', '', '', ...LEGEND.map(([, meaning]) => meaning)], ''), padded([], '')];
  notes[TITLE_ROW - 1]![FIXED_HEADERS.length - 1] = COMPLIANCE_BANDS_NOTE;
  return {
    values,
    formats: formatBlocks(people.length, trainings.length, columns),
    backgrounds,
    boldRows: [1, TITLE_ROW],
    notes,
  };
}

/** Titles and names are text, compliance figures percentages, a person's training cells dates. */
function formatBlocks(people: number, trainings: number, columns: number): MatrixGrid['formats'] {
  const firstPerson = HEADER_ROWS + 1;
  const text = [gridA1(1, 1, TITLE_ROW, columns), gridA1(HEADER_ROWS, 1, people + 1, 2)];
  const percent = [gridA1(HEADER_ROWS, 3, 1, columns - 2)];
  const date: string[] = [];
  if (people > 0) {
    percent.push(gridA1(firstPerson, 3, people, 1));
    if (trainings > 0) date.push(gridA1(firstPerson, 4, people, trainings));
  }
  return [
    { format: TEXT, a1: text },
    { format: PERCENT, a1: percent },
    { format: DATE, a1: date },
  ].filter((block) => block.a1.length > 0);
}
