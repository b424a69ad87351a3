/**
 * The tabs the add-on writes, found by their sheet ids, which survive renaming: a user may call
 * "Sync log" or "Equipment types" whatever they like and it is still the add-on's tab, written under
 * their name, and no second copy is made. The ids are kept in the spreadsheet's document state
 * (developer metadata), read once a run; a tab's id is kept by the run that writes it, after its
 * writes (a write of the state, never a read).
 *
 * - No id kept yet (a tab not made yet, or made before ids were kept): the tab is found by its usual
 *   name, unless that name is now on a tab kept as another of the add-on's (the user renamed that
 *   one into it), which is never written as this one.
 * - An id kept whose tab is gone: the user deleted it. The run that needs it makes it again, under
 *   its usual name or, when a tab that is not this one holds that name, a free one, and says so once.
 *
 * Tabs written together keep their ids in one state item (one write for all of them), by field.
 */
import type { DocumentState } from './document-state';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export interface AddonTab {
  /** The state item that keeps this tab's id, under `field`, with the ids of the tabs written with it. */
  readonly stateKey: string;
  readonly field: string;
  /** Its name when the add-on makes it. */
  readonly name: string;
  /** Kept out of sight (the staging tab): no person works in it. */
  readonly hidden: boolean;
}

/** Every tab the add-on declares: a name found on one of them is not another's. */
const declared: AddonTab[] = [];

/** Declares one of the add-on's tabs (at load, by the module that writes it). */
export function addonTab(stateKey: string, field: string, name: string, hidden = false): AddonTab {
  const tab = { stateKey, field, name, hidden };
  declared.push(tab);
  return tab;
}

/**
 * What the state keeps of a tab: its id, or the name a run made it under when that run could not
 * read its id (see keepAddonTabIds).
 */
type Kept = number | string;
type KeptIds = Partial<Record<string, Kept>>;

function keptOf(state: DocumentState | null, tab: AddonTab): Kept | null {
  const kept = state?.get<KeptIds>(tab.stateKey)?.[tab.field];
  return typeof kept === 'number' || typeof kept === 'string' ? kept : null;
}

export interface FoundTab {
  /** The tab as it is now, under whatever name it has; null when it is not there. */
  sheet: Sheet | null;
  /** Its id, when it is there (read while finding it: after a write, a read costs a commit). */
  sheetId: number | null;
  /** The add-on wrote it, and someone deleted it since. */
  deleted: boolean;
  /** The name a run that makes it gives it (read with the rest, before any write); null when it is there. */
  newName: string | null;
}

/**
 * A read or two for the tab, a few more when its usual name is taken by a tab that is not it; no
 * write. Without the state (a custom function, which may not be able to read developer metadata in
 * every authorisation mode: Google does not document it), the tab is found by its usual name only.
 */
export function findAddonTab(spreadsheet: Spreadsheet, state: DocumentState | null, tab: AddonTab): FoundTab {
  const kept = keptOf(state, tab);
  const gone = { sheet: null, sheetId: null, deleted: true, newName: freeTabName(spreadsheet, tab.name) };
  if (typeof kept === 'number') {
    const sheet = spreadsheet.getSheetById(kept);
    return sheet ? { sheet, sheetId: kept, deleted: false, newName: null } : gone;
  }
  const sheet = spreadsheet.getSheetByName(kept ?? tab.name);
  // Made under a name the last run kept, and no longer there: deleted (or renamed before its id was kept).
  if (!sheet) return kept === null ? { sheet, sheetId: null, deleted: false, newName: tab.name } : gone;
  const sheetId = sheet.getSheetId();
  return state && isAnotherAddonTab(state, tab, sheetId)
    ? { sheet: null, sheetId: null, deleted: false, newName: freeTabName(spreadsheet, tab.name) }
    : { sheet, sheetId, deleted: false, newName: null };
}

/** Whether the state keeps any of the add-on's tabs: none until the run that makes its first one. */
export function keepsAnyAddonTab(state: DocumentState): boolean {
  return declared.some((tab) => keptOf(state, tab) !== null);
}

/** Whether the state keeps a tab of the add-on's that a person sees (known without a read). */
export function keepsVisibleAddonTab(state: DocumentState): boolean {
  return declared.some((tab) => !tab.hidden && keptOf(state, tab) !== null);
}

function isAnotherAddonTab(state: DocumentState, tab: AddonTab, sheetId: number): boolean {
  return declared.some((other) => other !== tab && keptOf(state, other) === sheetId);
}

/**
 * `name`, or when a tab already has it, "Safety Sync <name>", then "Safety Sync <name> 2", 3…: the
 * user's tab of that name is theirs.
 */
export function freeTabName(spreadsheet: Spreadsheet, name: string): string {
  const other = `Safety Sync ${name.toLowerCase()}`;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : n === 2 ? other : `${other} ${n - 1}`;
    if (spreadsheet.getSheetByName(candidate) === null) return candidate;
  }
}

/**
 * Keeps the ids of tabs a run wrote, one write per state item whose ids changed. For a tab the run
 * made whose id it has not read (a read after writes costs a commit), the name it made it under: the
 * next run finds it by that name and keeps its id. Null forgets a tab that is not there.
 */
export function keepAddonTabIds(
  state: DocumentState,
  ids: readonly (readonly [AddonTab, Kept | null])[],
): void {
  const byKey = new Map<string, KeptIds>();
  for (const [tab, id] of ids) {
    const kept = byKey.get(tab.stateKey) ?? { ...state.get<KeptIds>(tab.stateKey) };
    if (id === null) delete kept[tab.field];
    else kept[tab.field] = id;
    byKey.set(tab.stateKey, kept);
  }
  for (const [key, kept] of byKey) {
    if (JSON.stringify(state.get(key) ?? {}) !== JSON.stringify(kept)) state.set(key, kept);
  }
}

/** The sentence a run says once when it made again a tab its user deleted. */
export function describeRemade(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`).join(', ');
  return names.length === 1
    ? `The ${quoted} tab was deleted and made again.`
    : `The tabs ${quoted} were deleted and made again.`;
}
