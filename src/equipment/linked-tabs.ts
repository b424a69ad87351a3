/**
 * The equipment tabs, found by their sheet ids, which survive renaming: a user may call
 * "Equipment types" whatever they like and it is still refreshed, under their name. The ids are
 * kept in the spreadsheet's developer metadata (document state). A tab whose id is kept but which
 * no longer exists was deleted; a tab with no id kept yet (the first import, or tabs written before
 * ids were kept) is found by its usual name.
 */
import { EQUIPMENT_TYPES_SHEET, METAFIELDS_SHEET, SCHEDULES_SHEET } from './tables';
import { UPCOMING_SHEET } from './upcoming';
import { FORECAST_SHEET } from './forecast';
import { getOrCreateSheet } from '../sheets/table-writer';
import { deleteDocumentState, DocumentState } from '../platform/document-state';

export const EQUIPMENT_TABS = ['types', 'metafields', 'schedules', 'upcoming', 'forecast'] as const;
export type EquipmentTab = (typeof EQUIPMENT_TABS)[number];

/** Each tab's name when the add-on creates it. */
export const EQUIPMENT_TAB_NAMES: Readonly<Record<EquipmentTab, string>> = {
  types: EQUIPMENT_TYPES_SHEET,
  metafields: METAFIELDS_SHEET,
  schedules: SCHEDULES_SHEET,
  upcoming: UPCOMING_SHEET,
  forecast: FORECAST_SHEET,
};

const STATE_KEY = 'safetySync.equipmentTabs';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface LinkedTabs {
  /** Each tab as it is now, under whatever name it has; null when it does not exist. */
  sheets: Record<EquipmentTab, Sheet | null>;
  /** Tabs the add-on wrote that someone deleted since. */
  deleted: EquipmentTab[];
}

/** `state`: the spreadsheet's state when the caller has read it already (one read fewer). */
export function findLinkedTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState = DocumentState.read(spreadsheet),
): LinkedTabs {
  const kept = state.get<Partial<Record<EquipmentTab, number>>>(STATE_KEY) ?? {};
  const byId = new Map(spreadsheet.getSheets().map((sheet) => [sheet.getSheetId(), sheet]));
  const deleted: EquipmentTab[] = [];
  const find = (tab: EquipmentTab): Sheet | null => {
    const id = kept[tab];
    if (id === undefined) return spreadsheet.getSheetByName(EQUIPMENT_TAB_NAMES[tab]);
    const sheet = byId.get(id) ?? null;
    if (!sheet) deleted.push(tab);
    return sheet;
  };
  const sheets = {
    types: find('types'),
    metafields: find('metafields'),
    schedules: find('schedules'),
    upcoming: find('upcoming'),
    forecast: find('forecast'),
  };
  return { sheets, deleted };
}

/** Whether this spreadsheet has equipment tabs to refresh: any of them, under any name, or deleted. */
export function hasEquipmentTabs(linked: LinkedTabs): boolean {
  return linked.deleted.length > 0 || EQUIPMENT_TABS.some((tab) => linked.sheets[tab] !== null);
}

/**
 * The tabs asked for, the missing ones made under their usual names (a tab already there by that
 * name, as the add-on always named it, is taken), and the ids of all there are kept for the next run.
 */
export function ensureLinkedTabs<Tab extends EquipmentTab>(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  linked: LinkedTabs,
  tabs: readonly Tab[],
): Record<Tab, Sheet> {
  const sheets = { ...linked.sheets };
  for (const tab of tabs) sheets[tab] ??= getOrCreateSheet(spreadsheet, EQUIPMENT_TAB_NAMES[tab]);
  const ids = Object.fromEntries(
    EQUIPMENT_TABS.flatMap((tab) => {
      const sheet = sheets[tab];
      return sheet ? [[tab, sheet.getSheetId()]] : [];
    }),
  );
  // The run's state, read before its writes: a read here, after tabs were inserted, would cost a commit.
  if (JSON.stringify(state.get(STATE_KEY)) !== JSON.stringify(ids)) state.set(STATE_KEY, ids);
  return sheets as Record<Tab, Sheet>;
}

export function describeDeletedTabs(deleted: readonly EquipmentTab[]): string {
  const names = deleted.map((tab) => `"${EQUIPMENT_TAB_NAMES[tab]}"`).join(', ');
  return deleted.length === 1 ? `The ${names} tab was deleted` : `The tabs ${names} were deleted`;
}

/** Every tab was deleted: the equipment import is gone from this spreadsheet, and refreshes stop asking for it. */
export function forgetLinkedTabs(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): void {
  deleteDocumentState(spreadsheet, STATE_KEY);
}
