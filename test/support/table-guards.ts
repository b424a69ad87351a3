/**
 * An oracle of where the equipment tables are, for the named range and the protections that must
 * follow them: each table's columns are found by their titles in row 1 of its tab as the user sees
 * it, its height by the service's records, independently of how the add-on placed them.
 */
import { columnLetters, columnNumber } from '../../dev/emulator/spreadsheet/a1-notation';
import type { DatasetData } from '../../dev/sample-service/admin';
import type { SheetView } from '../../dev/emulator/spreadsheet/workbook-store';
import type { AddonHarness } from './addon-harness';
import { METAFIELDS_TAB, SCHEDULES_TAB, tab, TYPES_TAB, workbook } from './equipment-tabs';

/** A tab of the user's own, for their named ranges and protections. */
export const NOTES_TAB = 'Audit notes';

/** How Data → Protect sheets and ranges shows Safety Sync's warning-only protections. */
export const IMPORTED_COLUMNS_PROTECTION =
  'Safety Sync: imported columns. The next refresh rewrites them; edit them in the service.';

/** The imported columns' titles in row 1 of each tab, hidden ones included. */
const EQUIPMENT_TYPE_TITLES = [
  'Equipment type ID',
  'Title',
  'Created',
  'Metafields',
  'Schedules',
  'Next inspection due',
  'Status',
] as const;
const METAFIELD_TITLES = [
  'Equipment type ID',
  'Equipment type',
  'Metafield ID',
  'Name',
  'Type',
  'List ID',
  'Note',
  'Metafield key',
] as const;
export const SCHEDULE_TITLES = [
  'Equipment type ID',
  'Equipment type',
  'Schedule ID',
  'Name',
  'Repeats',
  'Next due',
  'Last inspected',
  'Status',
  'Expiring period (days)',
  'Status note',
  'Instructions',
  'Form ID',
  'Attachments required',
  'Trigger type',
  'Timing',
  'Timing date',
  'Frequency (days)',
  'Trigger as sent',
  'Schedule key',
] as const;

export function ourProtections(sheet: SheetView) {
  return sheet
    .protections()
    .filter((protection) => protection.description === IMPORTED_COLUMNS_PROTECTION)
    .sort((a, b) => leftColumn(a.range!) - leftColumn(b.range!));
}

function leftColumn(a1: string): number {
  return columnNumber(/^[A-Z]+/.exec(a1)![0]);
}

const TABLES = [
  {
    tab: TYPES_TAB,
    name: 'SafetySync_EquipmentTypes',
    titles: EQUIPMENT_TYPE_TITLES,
    typed: [],
  },
  {
    tab: METAFIELDS_TAB,
    name: 'SafetySync_Metafields',
    titles: METAFIELD_TITLES,
    typed: [],
  },
  {
    tab: SCHEDULES_TAB,
    name: 'SafetySync_Schedules',
    titles: SCHEDULE_TITLES,
    typed: ['Last inspected'],
  },
] as const;

function recordCount(tabName: string, data: DatasetData): number {
  const types = data.equipmenttypes;
  if (tabName === TYPES_TAB) return types.length;
  if (tabName === METAFIELDS_TAB) return types.reduce((sum, type) => sum + type.metafields.length, 0);
  return types.reduce((sum, type) => sum + type.schedules.length, 0);
}

/** The named ranges (sorted by name) and our protections' ranges by tab that the tables call for. */
export function expectedGuards(harness: AddonHarness, data: DatasetData) {
  const namedRanges: { name: string; sheet: string; range: string }[] = [];
  const protections: Record<string, string[]> = {};
  for (const table of TABLES) {
    const sheet = tab(harness, table.tab);
    const header = sheet.displayValues(`A1:${columnLetters(sheet.maxColumns)}1`)[0]!;
    const positions = table.titles.map((title) => header.indexOf(title) + 1);
    if (positions.includes(0)) throw new Error(`a title of ${table.tab} is missing from row 1`);
    const lastTitled = header.reduce((last, title, index) => (title === '' ? last : index + 1), 0);
    const width = Math.max(lastTitled, ...positions);
    const height = recordCount(table.tab, data) + 1;
    namedRanges.push({ name: table.name, sheet: table.tab, range: `A1:${columnLetters(width)}${height}` });
    const imported = positions
      .filter((_, index) => !(table.typed as readonly string[]).includes(table.titles[index]!))
      .sort((a, b) => a - b);
    const runs: string[] = [];
    let start = imported[0]!;
    imported.forEach((column, index) => {
      const next = imported[index + 1];
      if (next === column + 1) return;
      runs.push(`${columnLetters(start)}1:${columnLetters(column)}${height}`);
      start = next!;
    });
    protections[table.tab] = runs;
  }
  namedRanges.sort((a, b) => a.name.localeCompare(b.name));
  return { namedRanges, protections };
}

/** The equipment tables' named ranges and our protections as the spreadsheet has them; ours are never hard. */
export function actualGuards(harness: AddonHarness) {
  return {
    namedRanges: workbook(harness)
      .namedRanges()
      .filter((named) => named.name.startsWith('SafetySync_'))
      .sort((a, b) => a.name.localeCompare(b.name)),
    protections: Object.fromEntries(
      [TYPES_TAB, METAFIELDS_TAB, SCHEDULES_TAB].map((name) => {
        const ours = ourProtections(tab(harness, name));
        if (ours.some((protection) => !protection.warningOnly)) throw new Error(`hard protection on ${name}`);
        return [name, ours.map((protection) => protection.range)];
      }),
    ),
  };
}

/** The user's own named range on their tab and their one (hard) protection there, as they made them. */
export function expectUserGuardsKept(
  harness: AddonHarness,
  named: { name: string; range: string },
  protection: { range: string; description: string },
): void {
  expect(workbook(harness).namedRanges()).toContainEqual({ ...named, sheet: NOTES_TAB });
  expect(tab(harness, NOTES_TAB).protections()).toEqual([
    expect.objectContaining({ ...protection, warningOnly: false }),
  ]);
}
