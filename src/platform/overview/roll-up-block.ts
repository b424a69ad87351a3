/**
 * The Overview's roll-ups, below the Trainings section (columns A–E from ROLL_UP_TOP): compliance and
 * the Expired and Expiring counts of each site, then of each department, each name a link to the
 * Training matrix filtered to it. Their number varies with the People tab, so each write covers the
 * rows the last one wrote too (cleared), and sets its rows' formats and bold; the colours are
 * conditional formats over the columns, set with the tab.
 */
import { type CellValue, cellLinkFormula, filterViewLinkFormula, numberFormatOf } from '../../sheets/table';
import type { ComplianceFigure } from './overview';

/** The block's first row: below the Trainings section's month table (rows 1–30), one row apart. */
export const ROLL_UP_TOP = 32;
/** Name, compliance, people, expired, expiring. */
export const ROLL_UP_WIDTH = 5;
/** The columns (1-based) of the compliance figures and of the Expired and Expiring counts. */
export const ROLL_UP_COLUMN = { compliance: 2, expired: 4, expiring: 5 } as const;

/** Where a roll-up's name links: the matrix filtered to it, or (no filter view) its first row there. */
export interface RollUpLink {
  sheetId: number;
  filterViewId: number | null;
  firstRow: number;
}

export interface RollUpRow {
  /** '' for the people with none. */
  name: string;
  people: number;
  compliance: ComplianceFigure;
  expired: number;
  expiring: number;
  /** Always a link: a name written as a plain value could be read as a number, a date or a formula. */
  link: RollUpLink;
}

/** The roll-ups by site and by department; null while nobody on People has either. */
export type RollUpFigures = { bySite: RollUpRow[]; byDepartment: RollUpRow[] } | null;

const NOT_PLACED_HINT =
  'Compliance by site and department: fill in Site and Department on the People tab, then Show training status.';
const HEADERS = ['Compliance', 'People', 'Expired', 'Expiring'];

/** The block's rows (ROLL_UP_WIDTH cells each) and which of them are bold. */
export function rollUpRows(figures: RollUpFigures): { values: CellValue[][]; bold: boolean[] } {
  if (figures === null) return { values: [[NOT_PLACED_HINT, '', '', '', '']], bold: [false] };
  const values: CellValue[][] = [];
  const bold: boolean[] = [];
  const group = (title: string, none: string, rows: RollUpRow[]) => {
    values.push([title, ...HEADERS]);
    bold.push(true);
    for (const row of rows) {
      values.push([
        linkedName(row, row.name === '' ? none : row.name),
        row.compliance.counted > 0 ? row.compliance.compliant / row.compliance.counted : 'none counted',
        row.people,
        row.expired,
        row.expiring,
      ]);
      bold.push(false);
    }
  };
  // Short enough for the label column: the names' links say where they go.
  group('By site (a name opens the matrix filtered)', '(no site)', figures.bySite);
  values.push(['', '', '', '', '']);
  bold.push(false);
  group('By department', '(no department)', figures.byDepartment);
  return { values, bold };
}

function linkedName({ link }: RollUpRow, label: string): CellValue {
  return link.filterViewId === null
    ? cellLinkFormula(link.sheetId, `A${link.firstRow}`, label)
    : filterViewLinkFormula(link.sheetId, link.filterViewId, label);
}

/** The number formats of `rows` block rows: a label that may be a link, a share, then counts. */
export function rollUpFormats(rows: number): string[][] {
  const count = numberFormatOf('integer');
  return Array.from({ length: rows }, () => ['General', '0%', count, count, count]);
}
