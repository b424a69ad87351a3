/**
 * Filter views the add-on keeps on one of its tabs, through the Sheets advanced service (SpreadsheetApp
 * has no filter views): a link `#gid=<tab>&fvid=<view>` opens the tab filtered, for whoever follows
 * it, without changing what the other editors see (a tab's one basic filter would).
 *
 * Each view hides, in one column, every displayed value but the ones it shows: the values are those
 * the run writes, so the views are kept with each write of the tab. Its range starts at the tab's
 * header row and is unbounded below and to the right, so that it holds however many rows the tab
 * has. The views are the add-on's: found by the ids the caller kept (never by their titles: a view of
 * the user's may bear the same), updated in place so that their ids, and the links to them, stay; a
 * view the user deleted is made again. One read of the views, and one request only when a view
 * differs from what it should be: a refresh that changes no site costs no write request.
 */
import { sheetsAdvancedService } from './sheets-api';

/** What a view shows: the rows whose `column` displays none of `hiddenValues` ('' is a blank cell). */
export interface WantedFilterView {
  /** The caller's name for it, under which its id is kept. */
  key: string;
  /** Seen in Data › Filter views. */
  title: string;
  /** The filtered column, 0-based. */
  column: number;
  hiddenValues: string[];
}

/** Where the views are: the tab's sheet id, and its header row (1-based), the views' first row. */
export interface FilterViewTarget {
  spreadsheetId: string;
  sheetId: number;
  headerRow: number;
}

/** The views' ids by key, or why they could not be kept (the caller links without them). */
export type KeptFilterViews = { ids: Record<string, number> } | { ids: null; problem: string };

type FilterView = GoogleAppsScript.Sheets.Schema.FilterView & { filterSpecs?: FilterSpec[] };
interface FilterSpec {
  columnIndex: number;
  filterCriteria: { hiddenValues: string[] };
}

/**
 * Makes the tab's views those wanted: the kept ones updated where they differ, the missing ones
 * added, the kept ones no longer wanted deleted. `kept`: the ids the last run returned.
 */
export function keepFilterViews(
  target: FilterViewTarget,
  wanted: readonly WantedFilterView[],
  kept: Readonly<Record<string, number>>,
): KeptFilterViews {
  // Nothing kept and nothing wanted: no request at all.
  if (wanted.length === 0 && Object.keys(kept).length === 0) return { ids: {} };
  const spreadsheets = sheetsAdvancedService();
  if (!spreadsheets)
    return { ids: null, problem: "the Sheets advanced service is not in the add-on's manifest" };
  try {
    const existing = viewsOnTab(spreadsheets, target);
    const ids: Record<string, number> = {};
    const requests: GoogleAppsScript.Sheets.Schema.Request[] = [];
    const added: string[] = [];
    for (const view of wanted) {
      const filter = filterViewOf(target, view);
      const id = kept[view.key];
      const current = id === undefined ? undefined : existing.get(id);
      if (current === undefined) {
        requests.push({ addFilterView: { filter } });
        added.push(view.key);
        continue;
      }
      ids[view.key] = id!;
      if (!sameView(current, filter))
        requests.push({
          updateFilterView: { filter: { ...filter, filterViewId: id }, fields: 'title,range,filterSpecs' },
        });
    }
    const wantedKeys = new Set(wanted.map((view) => view.key));
    for (const [key, id] of Object.entries(kept)) {
      if (!wantedKeys.has(key) && existing.has(id)) requests.push({ deleteFilterView: { filterId: id } });
    }
    if (requests.length === 0) return { ids };
    const replies = spreadsheets.batchUpdate({ requests }, target.spreadsheetId).replies ?? [];
    const newIds = replies.flatMap((reply) => {
      const id = reply.addFilterView?.filter?.filterViewId;
      return id === undefined ? [] : [id];
    });
    added.forEach((key, index) => (ids[key] = newIds[index]!));
    return { ids };
  } catch (error) {
    return {
      ids: null,
      problem: `the Sheets API answered: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The views on the target tab, by id (one read request). */
function viewsOnTab(
  spreadsheets: GoogleAppsScript.Sheets.Collection.SpreadsheetsCollection,
  target: FilterViewTarget,
): Map<number, FilterView> {
  const spreadsheet = spreadsheets.get(target.spreadsheetId, {
    fields: 'sheets(properties.sheetId,filterViews)',
  });
  const sheet = (spreadsheet.sheets ?? []).find((each) => each.properties?.sheetId === target.sheetId);
  const views = (sheet?.filterViews ?? []) as FilterView[];
  return new Map(views.map((view) => [view.filterViewId!, view]));
}

function filterViewOf(target: FilterViewTarget, view: WantedFilterView): FilterView {
  return {
    title: view.title,
    // No end: the view holds every row and column the tab has now or later.
    range: { sheetId: target.sheetId, startRowIndex: target.headerRow - 1, startColumnIndex: 0 },
    filterSpecs: [{ columnIndex: view.column, filterCriteria: { hiddenValues: view.hiddenValues } }],
  };
}

/**
 * Whether a view on the tab already is what `wanted` says (the API omits what is empty or zero). A
 * sort the user gave it is theirs: it does not make the view differ.
 */
function sameView(current: FilterView, wanted: FilterView): boolean {
  const range = (view: FilterView) => ({
    sheetId: view.range?.sheetId ?? 0,
    startRowIndex: view.range?.startRowIndex ?? 0,
    startColumnIndex: view.range?.startColumnIndex ?? 0,
    endRowIndex: view.range?.endRowIndex ?? null,
    endColumnIndex: view.range?.endColumnIndex ?? null,
  });
  const specs = (view: FilterView) =>
    (view.filterSpecs ?? []).map((spec) => ({
      columnIndex: spec.columnIndex ?? 0,
      hiddenValues: [...(spec.filterCriteria?.hiddenValues ?? [])].sort(),
      other: Object.keys(spec.filterCriteria ?? {}).filter((key) => key !== 'hiddenValues'),
    }));
  const shape = (view: FilterView) =>
    JSON.stringify({ title: view.title ?? '', range: range(view), specs: specs(view) });
  return shape(current) === shape(wanted);
}
