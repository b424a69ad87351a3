/**
 * The training tabs as the tests expect them, computed from the service's own records by the tests'
 * rules (training-oracle.ts), and the Expiring trainings tab checked against them: shared by the
 * training tabs' end-to-end tests and their model test.
 */
import type { SheetView, WorkbookView } from '../../dev/emulator/spreadsheet/workbook-store';
import type { AddonHarness } from '../support/addon-harness';
import type { Completion, DatasetData } from '../support/sample-service';
import { type Expected, expected, isoOf, type Rule } from '../support/training-oracle';

export const TIME_ZONE = 'Pacific/Auckland';
/** Inside the dataset's years (2019 – mid 2025), so every status occurs. */
export const NOW = Date.UTC(2024, 8, 20, 15, 30);
export const COMPLETIONS_TAB = 'Completed trainings';
export const CATALOGUE = 'Trainings';
export const MATRIX = 'Training matrix';
export const EXPIRING = 'Expiring trainings';
export const SHOW = 'Show training status';

export function today(at = NOW): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(new Date(at));
}

export interface Oracle {
  people: { id: string; name: string }[];
  trainings: string[];
  cells: Expected[][];
  rules: Map<string, Rule>;
}

export function oracle(
  data: DatasetData,
  trainings: readonly string[],
  rules: Map<string, Rule>,
  day = today(),
): Oracle {
  const names = new Map(data.users.map((user) => [user.id, user.name]));
  const byPair = new Map<string, Completion[]>();
  for (const record of data.completions) {
    const key = `${record.user_id}\n${record.training_id}`;
    byPair.set(key, [...(byPair.get(key) ?? []), record]);
  }
  const label = (person: { id: string; name: string }) => person.name || person.id;
  const people = [...new Set(data.completions.map((record) => record.user_id))]
    .map((id) => ({ id, name: names.get(id) ?? '' }))
    .sort((a, b) =>
      label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );
  const ruleOf = (training: string) =>
    rules.get(training) ?? { name: '', validityMonths: null, required: false, expiringDays: 30 };
  const cells = people.map((person) =>
    trainings.map((training) =>
      expected(byPair.get(`${person.id}\n${training}`) ?? [], ruleOf(training), day),
    ),
  );
  return { people, trainings: [...trainings], cells, rules };
}

export function workbook(harness: AddonHarness): WorkbookView {
  return harness.emulator.workbooks.get(harness.spreadsheetId)!;
}

export function tab(harness: AddonHarness, name: string): SheetView {
  return workbook(harness).sheet(name);
}

/** Where an in-sheet link lands: the tab with that gid, and the cell. */
export function landing(harness: AddonHarness, link: string | null): { sheet: SheetView; a1: string } {
  const match = /^#gid=(\d+)&range=([A-Z]+\d+)$/.exec(link ?? '');
  if (!match) throw new Error(`not an in-sheet link to a cell: ${link}`);
  const sheet = workbook(harness)
    .sheets()
    .find((candidate) => candidate.gid === Number(match[1]))!;
  return { sheet, a1: match[2]! };
}

/** The tests' own reading of the actionable order: 0 expiring, 1 lapsed within 90 days, 2 before. */
export function groupOf(daysLeft: number): number {
  if (daysLeft >= 0) return 0;
  return daysLeft >= -90 ? 1 : 2;
}

export const OLDER_LAPSES_HEADING = 'Lapsed more than 90 days ago: still employed?';

/** "Days left" as the manager reads it. */
export function daysInWords(daysLeft: number): string {
  if (daysLeft === 0) return 'today';
  return daysLeft > 0 ? `${daysLeft} days left` : `${-daysLeft} days overdue`;
}

export interface Listed {
  person: { id: string; name: string };
  training: string;
  cell: Expected;
}

/** What a listed row is, for following it across runs: its person and training, or the heading. */
export function listedKey(entry: Listed | null): string {
  return entry === null ? 'heading' : `${entry.person.id}\n${entry.training}`;
}

/**
 * The pairs Expiring trainings lists, in the order it lists them (expiring soonest first, then lapses
 * of the last 90 days most recent first, then older ones most recent first; ties in the matrix's
 * order), with null where the heading of the older lapses stands.
 */
export function expectedList({ people, trainings, cells }: Oracle): (Listed | null)[] {
  const listed = people.flatMap((person, p) =>
    trainings.flatMap((training, t) => {
      const cell = cells[p]![t]!;
      return cell.status === 'Expired' || cell.status === 'Expiring' ? [{ person, training, cell }] : [];
    }),
  );
  listed.sort((a, b) => {
    const [left, right] = [a.cell.daysLeft!, b.cell.daysLeft!];
    const groups = groupOf(left) - groupOf(right);
    if (groups !== 0) return groups;
    return groupOf(left) === 0 ? left - right : right - left;
  });
  const firstOlder = listed.findIndex((entry) => groupOf(entry.cell.daysLeft!) === 2);
  return firstOlder < 0 ? listed : [...listed.slice(0, firstOlder), null, ...listed.slice(firstOlder)];
}

export function expectExpiring(harness: AddonHarness, expectedMatrix: Oracle): (Listed | null)[] {
  const { rules } = expectedMatrix;
  const listed = expectedList(expectedMatrix);
  const sheet = tab(harness, EXPIRING);
  const shown = sheet.displayValues(`A1:L${Math.max(sheet.lastRow, 1)}`);
  expect(shown[0]).toEqual([
    'User ID',
    'User name',
    'Site',
    'Department',
    'Manager',
    'Training ID',
    'Training',
    'Required',
    'Completed',
    'Expires',
    'Days left',
    'Status',
  ]);
  expect(shown.slice(1)).toEqual(
    listed.map((entry) =>
      entry === null
        ? [OLDER_LAPSES_HEADING, ...new Array<string>(11).fill('')]
        : [
            entry.person.id,
            entry.person.name,
            // Nobody filled in People: no site, department or manager.
            '',
            '',
            '',
            entry.training,
            rules.get(entry.training)?.name || entry.training,
            rules.get(entry.training)?.required ? 'Yes' : 'No',
            isoOf(Number(entry.cell.latest!.dateNumber)),
            entry.cell.expiry,
            daysInWords(entry.cell.daysLeft!),
            entry.cell.status,
          ],
    ),
  );
  // The days stay a number: a filter, a formula or the digest reads them as one.
  const days = sheet.values(`K2:K${Math.max(sheet.lastRow, 2)}`);
  listed.forEach((entry, index) => expect(days[index]![0]).toBe(entry === null ? '' : entry.cell.daysLeft));
  if (listed.length === 0) return listed;
  const links = sheet.cells(`G2:G${sheet.lastRow}`).map(([cell]) => cell!.link);
  const records = sheet.cells(`M2:M${sheet.lastRow}`).map(([cell]) => cell!.link);
  listed.forEach((entry, index) => {
    if (entry === null) return;
    const matrixCell = landing(harness, links[index]!);
    expect(matrixCell.sheet.name).toBe(MATRIX);
    // The matrix cell shows the expiry, the date that decides its colour.
    expect(matrixCell.sheet.displayValues(matrixCell.a1)[0]![0]).toBe(entry.cell.expiry);
    const row = landing(harness, records[index]!);
    expect(row.sheet.name).toBe(COMPLETIONS_TAB);
    const [userId, , trainingId, completed] = row.sheet.displayValues(
      `A${row.a1.slice(1)}:D${row.a1.slice(1)}`,
    )[0]!;
    expect([userId, trainingId, completed]).toEqual([
      entry.person.id,
      entry.training,
      isoOf(Number(entry.cell.latest!.dateNumber)),
    ]);
  });
  return listed;
}

/** Training ids in the order the service first lists them (newest first): the catalogue's for new ids. */
export function trainingsInListOrder(data: DatasetData): string[] {
  return [...new Set(data.completions.map((record) => record.training_id))];
}

export function importAll(
  harness: AddonHarness,
  filter: { user_id?: string; training_id?: string } = {},
): void {
  let step = harness.callServer('startCompletionsImport', filter);
  while (!step.done) step = harness.callServer('continueCompletionsImport');
}
