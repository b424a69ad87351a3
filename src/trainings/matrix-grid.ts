/**
 * The Training matrix laid out on its tab: the legend row, the titles, compliance by training, then a
 * row per person (their id, name, site and department when anyone has one, their compliance) with a
 * cell per training: the date that decides its colour, the expiry of the person's latest completion
 * on or before the day ("No expiry" for one that never expires); "Not done" where they must hold it,
 * "Due by <day>" while a new starter may still take it, "Not required" where nothing asks it of them
 * once the Requirements tab lists anything (empty before); "Exempt" where the Exemptions tab says so. The completion dates are on Expiring
 * trainings and Completed trainings. The legend is the first of the frozen rows, so it stays in
 * sight however far the list scrolls.
 *
 * The colours are conditional format rules over the cells, with the run's day in their dates: a few
 * rules whatever the number of people (a colour per cell would send 120,000 of them for 2,000
 * people × 60 trainings), a rule per expiring window for the Expiring cells.
 */
import { cellA1, gridA1 } from '../sheets/a1-notation';
import { adjacentRuns } from '../sheets/row-writer';
import { type CellValue, numberFormatOf } from '../sheets/table';
import { COMPLIANCE_BANDS_NOTE } from '../sheets/status-words';
import { type CalendarDate, toIsoDate, toSheetSerial } from '../lib/dates';
import { trainingLabel } from './catalogue';
import {
  complianceShare,
  overallCompliance,
  personCompliance,
  trainingCompliance,
} from './matrix-compliance';
import type { PairStatus, TrainingMatrix } from './matrix';
import { firstHeldExpiry, firstValidExpiry, lastExpiringExpiry, TrainingStatus } from './training-status';

/** What decides the matrix's columns: the site columns, and the legend of requirements. */
export type MatrixShape = Pick<TrainingMatrix, 'bySite' | 'requirementsListed' | 'exemptionsListed'>;

/**
 * The matrix's own choice, in its legend row after the statuses: this title, and beside it yes or
 * no (a dropdown). A run reads it by this title wherever the legend put it, before writing the tab.
 */
export const SHOW_INACTIVE_TITLE = 'Show inactive people';
const SHOW_INACTIVE_NOTE =
  'yes: the people marked Active "no" on People are listed below the others, in grey, counted nowhere; ' +
  'no: they are left out. Takes effect at the next Show training status, import or refresh.';
/** The title and its yes or no. */
const CHOICE_CELLS = 2;
/** Behind the inactive people's own cells (id to compliance), when shown: set apart from the counted. */
export const INACTIVE_BACKGROUND = '#efefef';

/** What a cell of a done training shows when it never expires. */
export const NO_EXPIRY = 'No expiry';
/** How a "Due by" cell starts; the due day follows. */
const DUE_BY_PREFIX = `${TrainingStatus.dueBy} `;

/** What a cell shows: its expiry (or NO_EXPIRY), its status where not done, or nothing. */
function cellValue(status: PairStatus, requirementsListed: boolean): CellValue {
  if (status.status === TrainingStatus.exempt) return TrainingStatus.exempt;
  if (status.latest !== null) return status.expiry === null ? NO_EXPIRY : toSheetSerial(status.expiry);
  switch (status.status) {
    case TrainingStatus.dueBy:
      return DUE_BY_PREFIX + toIsoDate(status.expiry!);
    case TrainingStatus.notRequired:
      return requirementsListed ? TrainingStatus.notRequired : null;
    default:
      return status.status;
  }
}

/** Cell colours by status; Expired and Expiring are those of inspections. */
export const STATUS_BACKGROUNDS: Readonly<Record<TrainingStatus, string>> = {
  [TrainingStatus.valid]: '#d9ead3',
  [TrainingStatus.validNoExpiry]: '#cfe2f3',
  [TrainingStatus.expiring]: '#fce8b2',
  [TrainingStatus.expired]: '#f4cccc',
  [TrainingStatus.notDone]: '#d9d9d9',
  [TrainingStatus.dueBy]: '#d0e0e3',
  [TrainingStatus.notRequired]: '#f3f3f3',
  [TrainingStatus.exempt]: '#ead1dc',
};

/** Each status of the legend row, with what it means (the note on its cell). */
const LEGEND: ReadonlyArray<[TrainingStatus, string]> = [
  [TrainingStatus.valid, 'Done, and valid beyond the expiring window'],
  [TrainingStatus.validNoExpiry, 'Done; the training never expires (no validity, no special expiration)'],
  [TrainingStatus.expiring, "Expires within the training's expiring window"],
  [TrainingStatus.expired, 'Its expiry has passed'],
  [TrainingStatus.notDone, 'Required, and never done'],
];
/** The legend's statuses that only the Requirements tab brings. */
const REQUIREMENTS_LEGEND: ReadonlyArray<[TrainingStatus, string]> = [
  [
    TrainingStatus.dueBy,
    "Required, not done yet, and due by the day shown (the start date plus the requirement's days)",
  ],
  [TrainingStatus.notRequired, 'Nothing in Requirements or Trainings asks it of this person: not counted'],
];

const EXEMPT_LEGEND: [TrainingStatus, string] = [
  TrainingStatus.exempt,
  'Marked not applicable on the Exemptions tab, with its reason: not counted',
];

function legendOf({
  requirementsListed,
  exemptionsListed,
}: MatrixShape): ReadonlyArray<[TrainingStatus, string]> {
  return [
    ...LEGEND,
    ...(requirementsListed ? REQUIREMENTS_LEGEND : []),
    ...(exemptionsListed ? [EXEMPT_LEGEND] : []),
  ];
}

const LEGEND_TITLE = 'Legend';
const LEGEND_CELLS = 'Cells show the expiry date';

const PERSON_HEADERS = ['User ID', 'User name'];
const SITE_HEADERS = ['Site', 'Department'];
const COMPLIANCE_HEADER = 'Compliance';

function fixedHeaders({ bySite }: MatrixShape): string[] {
  return [...PERSON_HEADERS, ...(bySite ? SITE_HEADERS : []), COMPLIANCE_HEADER];
}

/** The legend, the header row, then compliance by training. */
const HEADER_ROWS = 3;
const TITLE_ROW = 2;
const FIRST_PERSON_ROW = HEADER_ROWS + 1;
export const MATRIX_FROZEN = { rows: HEADER_ROWS, columns: PERSON_HEADERS.length } as const;
/**
 * What a filter view of the matrix reads: its header row (the titles; the compliance by training
 * below it is a row it may hide), and the Site and Department columns (0-based) when the matrix has them.
 */
export const MATRIX_FILTER = {
  headerRow: TITLE_ROW,
  site: PERSON_HEADERS.length,
  department: PERSON_HEADERS.length + 1,
} as const;

/** The tab row (1-based) of the matrix's person at `index` of its people. */
export function matrixPersonRow(index: number): number {
  return FIRST_PERSON_ROW + index;
}
const WIDTHS: Readonly<Record<string, number>> = {
  'User ID': 100,
  'User name': 180,
  Site: 120,
  Department: 120,
  Compliance: 100,
};

function matrixColumnWidths(shape: MatrixShape): Map<number, number> {
  return new Map(fixedHeaders(shape).map((header, index) => [index + 1, WIDTHS[header]!]));
}

/** Where a person's cell of a training is (0-based indexes into people and trainings). */
export function matrixCellA1(shape: MatrixShape, person: number, training: number): string {
  return cellA1(fixedHeaders(shape).length + training + 1, HEADER_ROWS + person + 1);
}

/** The tab's size for that many people and trainings: header rows and people, wide enough for the legend. */
export function matrixSize(
  shape: MatrixShape,
  people: number,
  trainings: number,
): { rows: number; columns: number } {
  return {
    rows: HEADER_ROWS + people,
    columns: fixedHeaders(shape).length + Math.max(trainings, legendOf(shape).length + CHOICE_CELLS),
  };
}

/**
 * A colour of the person × training cells, as one conditional format rule: the cells whose text is
 * exactly `textIs` or starts with `textStartsWith`, or whose date is before `dateBefore` or after
 * `dateAfter` (calendar days).
 */
export interface StatusColourRule {
  status: TrainingStatus;
  condition:
    | { textIs: string }
    | { textStartsWith: string }
    | { dateBefore: CalendarDate }
    | { dateAfter: CalendarDate };
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
  /** The legend's status cells, each in the colour of the status it names: fixed colours. */
  legend: { a1: string; backgrounds: string[] };
  /** The person × training cells' colours, in the order Sheets must apply them (the first that holds). */
  statusRules: StatusColourRule[];
  /** The compliance figures (A1), coloured by the shared bands. */
  complianceA1: string[];
  /** Rows (1-based) whose cells are bold: the legend and the header. */
  boldRows: number[];
  /** The legend row's notes (what each status means) and the Compliance header's: row 1 and 2's. */
  notes: string[][];
  /** The fixed columns' widths, by column (1-based), for a tab the run makes (a width the user set is theirs). */
  columnWidths: Map<number, number>;
  /** The cell (A1) holding the "Show inactive people" yes or no. */
  showInactiveA1: string;
  /** The inactive people's own cells when listed, in grey; null when none is. */
  inactive: { a1: string; backgrounds: string[][] } | null;
}

const TEXT = numberFormatOf('text');
const DATE = numberFormatOf('date');
const PERCENT = '0%';

export function matrixGrid(matrix: TrainingMatrix): MatrixGrid {
  const { people, trainings, statuses } = matrix;
  const fixed = fixedHeaders(matrix);
  const legend = legendOf(matrix);
  const { columns } = matrixSize(matrix, people.length, trainings.length);
  const padded = <T>(cells: T[], fill: T): T[] => [
    ...cells,
    ...new Array<T>(columns - cells.length).fill(fill),
  ];
  const values: CellValue[][] = [];
  const addRow = (cells: CellValue[]) => values.push(padded(cells, null));
  const beforeCompliance = (cells: CellValue[]) => padded(cells, null).slice(0, fixed.length - 1);

  addRow([
    ...beforeCompliance([LEGEND_TITLE, LEGEND_CELLS]),
    null,
    ...legend.map(([status]) => status),
    SHOW_INACTIVE_TITLE,
    matrix.showInactive ? 'yes' : 'no',
  ]);
  addRow([...fixed, ...trainings.map(trainingLabel)]);
  const byTraining = [
    overallCompliance(matrix),
    ...trainings.map((_, t) => trainingCompliance(matrix, t)),
  ].map(complianceShare);
  addRow([...beforeCompliance(['', 'Compliance by training']), ...byTraining]);
  people.forEach((person, p) => {
    const sites = matrix.bySite ? [person.site, person.department] : [];
    addRow([
      person.userId,
      person.userName,
      ...sites,
      complianceShare(personCompliance(matrix, p)),
      ...statuses[p]!.map((status) => cellValue(status, matrix.requirementsListed)),
    ]);
  });
  const notes = [
    padded(
      [
        ...beforeCompliance([]).map(() => ''),
        '',
        ...legend.map(([, meaning]) => meaning),
        SHOW_INACTIVE_NOTE,
      ],
      '',
    ),
    padded([], ''),
  ];
  const complianceColumn = fixed.length;
  notes[TITLE_ROW - 1]![complianceColumn - 1] = COMPLIANCE_BANDS_NOTE;
  const complianceA1 = [gridA1(HEADER_ROWS, complianceColumn, 1, trainings.length + 1)];
  if (people.length > 0) complianceA1.push(gridA1(FIRST_PERSON_ROW, complianceColumn, people.length, 1));
  return {
    values,
    formats: formatBlocks(fixed.length, people.length, trainings.length, columns),
    legend: {
      a1: gridA1(1, fixed.length + 1, 1, legend.length),
      backgrounds: legend.map(([status]) => STATUS_BACKGROUNDS[status]),
    },
    statusRules: statusRules(matrix, fixed.length + 1),
    complianceA1,
    boldRows: [1, TITLE_ROW],
    notes,
    columnWidths: matrixColumnWidths(matrix),
    showInactiveA1: cellA1(fixed.length + legend.length + CHOICE_CELLS, 1),
    inactive: inactiveCells(matrix, fixed.length),
  };
}

/** The inactive people's id to compliance cells: they come after the active ones, so one block. */
function inactiveCells({ people }: TrainingMatrix, fixedColumns: number): MatrixGrid['inactive'] {
  const first = people.findIndex((person) => !person.active);
  if (first < 0) return null;
  const rows = people.length - first;
  return {
    a1: gridA1(FIRST_PERSON_ROW + first, 1, rows, fixedColumns),
    backgrounds: Array.from({ length: rows }, () =>
      new Array<string>(fixedColumns).fill(INACTIVE_BACKGROUND),
    ),
  };
}

/**
 * The cells' colours on the matrix's day, the boundaries from training-status.ts: the statuses of
 * pairs not done and "No expiry" by their text, then Expired, then Expiring (a rule per expiring
 * window, over the columns of the trainings that have it), then Valid: each rule takes the dates the
 * ones before it left. An empty cell (an optional training not taken) matches none.
 */
function statusRules(
  { today, people, trainings, requirementsListed, exemptionsListed }: TrainingMatrix,
  firstTrainingColumn: number,
): StatusColourRule[] {
  if (people.length === 0 || trainings.length === 0) return [];
  const blocksOf = (columns: number[]) =>
    adjacentRuns(columns).map(({ left, width }) => gridA1(FIRST_PERSON_ROW, left, people.length, width));
  const columnsWithWindow = (window: number) =>
    trainings.flatMap((training, t) => (training.expiringDays === window ? [firstTrainingColumn + t] : []));
  const windows = [...new Set(trainings.map((training) => training.expiringDays))].sort((a, b) => a - b);
  const every = [gridA1(FIRST_PERSON_ROW, firstTrainingColumn, people.length, trainings.length)];
  const requirementRules: StatusColourRule[] = requirementsListed
    ? [
        { status: TrainingStatus.dueBy, condition: { textStartsWith: DUE_BY_PREFIX }, a1: every },
        { status: TrainingStatus.notRequired, condition: { textIs: TrainingStatus.notRequired }, a1: every },
      ]
    : [];
  const exemptRules: StatusColourRule[] = exemptionsListed
    ? [{ status: TrainingStatus.exempt, condition: { textIs: TrainingStatus.exempt }, a1: every }]
    : [];
  return [
    { status: TrainingStatus.notDone, condition: { textIs: TrainingStatus.notDone }, a1: every },
    ...requirementRules,
    ...exemptRules,
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

/** Titles, names and sites are text, compliance figures percentages, a person's training cells dates. */
function formatBlocks(
  fixedColumns: number,
  people: number,
  trainings: number,
  columns: number,
): MatrixGrid['formats'] {
  const complianceColumn = fixedColumns;
  const text = [gridA1(1, 1, TITLE_ROW, columns), gridA1(HEADER_ROWS, 1, people + 1, complianceColumn - 1)];
  const percent = [gridA1(HEADER_ROWS, complianceColumn, 1, columns - complianceColumn + 1)];
  const date: string[] = [];
  if (people > 0) {
    percent.push(gridA1(FIRST_PERSON_ROW, complianceColumn, people, 1));
    if (trainings > 0) date.push(gridA1(FIRST_PERSON_ROW, complianceColumn + 1, people, trainings));
  }
  return [
    { format: TEXT, a1: text },
    { format: PERCENT, a1: percent },
    { format: DATE, a1: date },
  ].filter((block) => block.a1.length > 0);
}
