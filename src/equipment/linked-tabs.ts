/**
 * The equipment tabs, found by their sheet ids (platform/addon-tabs.ts): a user may call
 * "Equipment types" whatever they like and it is still refreshed, under their name. They link to
 * each other's rows, so they keep their ids together and are made again together.
 */
import { EQUIPMENT_TYPES_SHEET, METAFIELDS_SHEET, SCHEDULES_SHEET } from './tables';
import { UPCOMING_SHEET } from './upcoming';
import { FORECAST_SHEET } from './forecast';
import {
  type AddonTab,
  addonTab,
  findAddonTab,
  type FoundTab,
  keepAddonTabIds,
} from '../platform/addon-tabs';
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

/** Each tab as the add-on keeps it: its id, with the other equipment tabs', in one state item. */
const ADDON_TABS = Object.fromEntries(
  EQUIPMENT_TABS.map((tab) => [tab, addonTab(STATE_KEY, tab, EQUIPMENT_TAB_NAMES[tab])]),
) as Record<EquipmentTab, AddonTab>;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface LinkedTabs {
  /** Each tab as it is now, under whatever name it has; null when it does not exist. */
  sheets: Record<EquipmentTab, Sheet | null>;
  /** Tabs the add-on wrote that someone deleted since. */
  deleted: EquipmentTab[];
  /** The name each missing tab is made under (see findAddonTab). */
  newNames: Record<EquipmentTab, string | null>;
}

/** `state`: the spreadsheet's state when the caller has read it already (one read fewer). */
export function findLinkedTabs(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState = DocumentState.read(spreadsheet),
): LinkedTabs {
  const found = Object.fromEntries(
    EQUIPMENT_TABS.map((tab) => [tab, findAddonTab(spreadsheet, state, ADDON_TABS[tab])]),
  ) as Record<EquipmentTab, FoundTab>;
  const each = <T>(of: (tab: FoundTab) => T) =>
    Object.fromEntries(EQUIPMENT_TABS.map((tab) => [tab, of(found[tab])])) as Record<EquipmentTab, T>;
  return {
    sheets: each((tab) => tab.sheet),
    deleted: EQUIPMENT_TABS.filter((tab) => found[tab].deleted),
    newNames: each((tab) => tab.newName),
  };
}

/** Whether this spreadsheet has equipment tabs to refresh: any of them, under any name, or deleted. */
export function hasEquipmentTabs(linked: LinkedTabs): boolean {
  return linked.deleted.length > 0 || EQUIPMENT_TABS.some((tab) => linked.sheets[tab] !== null);
}

/**
 * The tabs asked for, the missing ones made (under the names findLinkedTabs chose), and the ids of
 * all there are kept for the next run.
 */
export function ensureLinkedTabs<Tab extends EquipmentTab>(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  state: DocumentState,
  linked: LinkedTabs,
  tabs: readonly Tab[],
): Record<Tab, Sheet> {
  const sheets = { ...linked.sheets };
  for (const tab of tabs) sheets[tab] ??= spreadsheet.insertSheet(linked.newNames[tab]!);
  // The run's state, read before its writes: a read here, after tabs were inserted, would cost a commit.
  keepAddonTabIds(
    state,
    EQUIPMENT_TABS.map((tab) => [ADDON_TABS[tab], sheets[tab]?.getSheetId() ?? null]),
  );
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
