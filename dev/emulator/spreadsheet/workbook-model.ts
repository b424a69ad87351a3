/**
 * The emulated documents as plain state: workbooks, their sheets, and the structural rules Sheets
 * enforces on them (unique names, the cell limit, at least one visible sheet). How rows, columns and
 * names change, and what follows them: structural-changes.ts.
 * Nothing here knows about scripts, contexts or call counting.
 */
import { AppsScriptException } from '../core';
import { CellGrid } from './cell-grid';
import type { GridBox } from './grid-box';
import { UiRecorder } from './ui-recorder';

export const MAX_CELLS_PER_WORKBOOK = 10_000_000;
export const MAX_SHEET_NAME_LENGTH = 100;
export const NEW_SHEET_ROWS = 1000;
export const NEW_SHEET_COLUMNS = 26;
export const DEFAULT_COLUMN_WIDTH = 100;
/**
 * Developer metadata a spreadsheet (its top level) may carry, keys and values together. The Sheets
 * API's metadata guide gives 30,000 characters per location; the emulator counts keys too (stricter).
 */
export const MAX_SPREADSHEET_METADATA_CHARS = 30_000;

export type ConditionType =
  | 'TEXT_EQUAL_TO'
  | 'TEXT_CONTAINS'
  | 'TEXT_STARTS_WITH'
  | 'TEXT_ENDS_WITH'
  | 'NUMBER_EQUAL_TO'
  | 'NUMBER_LESS_THAN'
  | 'NUMBER_GREATER_THAN'
  | 'NUMBER_BETWEEN'
  | 'DATE_BEFORE'
  | 'DATE_AFTER'
  | 'CELL_EMPTY'
  | 'CELL_NOT_EMPTY'
  | 'CUSTOM_FORMULA';

export interface ConditionalFormat {
  background?: string;
  fontColor?: string;
  bold?: boolean;
  italic?: boolean;
}

export interface ConditionalRuleData {
  type: ConditionType;
  /**
   * The condition's arguments; a date condition's is the instant the script gave (epoch
   * milliseconds), read as a calendar day in the time zone of the spreadsheet whose cells it tests.
   */
  values: (string | number)[];
  format: ConditionalFormat;
  ranges: GridBox[];
}

export interface ProtectionData {
  /** The Sheets API's protectedRangeId: both services see the same protections. */
  readonly id: number;
  type: 'RANGE' | 'SHEET';
  /** Null for a whole-sheet protection, which covers whatever size the sheet has. */
  box: GridBox | null;
  description: string;
  warningOnly: boolean;
  domainEdit: boolean;
  /** Who ran protect(): Sheets never removes them from the editors. */
  creator: string;
  editors: string[];
}

let lastProtectionId = 0;
let lastNamedRangeId = 0;

/** A protection as protect() makes it: its creator is its first editor. */
export function newProtection(
  type: ProtectionData['type'],
  box: GridBox | null,
  creator: string,
): ProtectionData {
  return {
    id: ++lastProtectionId,
    type,
    box,
    description: '',
    warningOnly: false,
    domainEdit: true,
    creator,
    editors: creator ? [creator] : [],
  };
}

/** A named range (Data > Named ranges): it lives on its sheet and follows its cells. */
export interface NamedRangeData {
  /** The Sheets API's namedRangeId. */
  readonly id: string;
  name: string;
  box: GridBox;
}

export function newNamedRange(name: string, box: GridBox): NamedRangeData {
  return { id: `nr${++lastNamedRangeId}`, name, box: { ...box } };
}

/** What a filter hides in one column: values (as displayed), and/or a condition the shown rows meet. */
export interface FilterCriteriaData {
  readonly hiddenValues: readonly string[];
  readonly condition: { readonly type: ConditionType; readonly values: readonly string[] } | null;
}

export interface FilterData {
  box: GridBox;
  /** Keyed by sheet column (1-based); the keys follow their columns when columns move. */
  criteria: Map<number, FilterCriteriaData>;
}

/** The condition types a filter view's criteria may use in the emulator (the Sheets API's names). */
export type FilterViewConditionType =
  'TEXT_EQ' | 'TEXT_CONTAINS' | 'TEXT_NOT_CONTAINS' | 'TEXT_STARTS_WITH' | 'BLANK' | 'NOT_BLANK';

/** A Sheets API GridRange: 0-based, end exclusive; an end left out runs to the sheet's edge. */
export interface GridRangeData {
  sheetId: number;
  startRowIndex?: number;
  endRowIndex?: number;
  startColumnIndex?: number;
  endColumnIndex?: number;
}

/** A Sheets API FilterCriteria, as far as the emulator takes it (filter-views.ts). */
export interface FilterViewCriteriaData {
  hiddenValues?: string[];
  condition?: { type: FilterViewConditionType; values?: { userEnteredValue: string }[] };
}

/** A Sheets API FilterSpec: the criteria for one column (0-based sheet column index). */
export interface FilterSpecData {
  columnIndex: number;
  filterCriteria: FilterViewCriteriaData;
}

/**
 * A saved filter view (Data > Filter views), as the Sheets API describes it. It lives on the sheet
 * its range names; its id is unique in the workbook. Filter views hide nothing for other users: a
 * user sees its rows only when opening it (filter-views.ts, rowsShownByFilterView).
 */
export interface FilterViewData {
  filterViewId: number;
  title: string;
  range: GridRangeData;
  filterSpecs: FilterSpecData[];
}

/** A deep copy of a filter view, so that no caller shares the model's objects. */
export function copyFilterView(view: FilterViewData): FilterViewData {
  return structuredClone(view);
}

/** A chart's data range: by sheet id, so that a copy of the workbook resolves it to its own sheets. */
export interface ChartRange {
  gid: number;
  box: GridBox;
}

/** Where a chart's top left corner sits: a cell, and pixels right and down from its corner. */
export interface ChartAnchor {
  row: number;
  column: number;
  offsetX: number;
  offsetY: number;
}

/** An embedded chart as Sheet.insertChart keeps it (the chart builder makes one: api-charts.ts). */
export interface ChartData {
  /** Unique within the spreadsheet, as getChartId promises. */
  readonly id: number;
  /** A Charts.ChartType name (COLUMN, LINE…). */
  type: string;
  ranges: ChartRange[];
  /** setOption's values by option name ("title", "colors"…), as plain data. */
  options: Record<string, unknown>;
  anchor: ChartAnchor;
}

export interface SheetModel {
  readonly gid: number;
  readonly workbook: WorkbookModel;
  name: string;
  maxRows: number;
  maxColumns: number;
  readonly cells: CellGrid;
  frozenRows: number;
  frozenColumns: number;
  hidden: boolean;
  readonly columnWidths: Map<number, number>;
  /** Columns hidden with hideColumns (1-based). */
  readonly hiddenColumns: Set<number>;
  filter: FilterData | null;
  conditionalRules: ConditionalRuleData[];
  protections: ProtectionData[];
  namedRanges: NamedRangeData[];
  charts: ChartData[];
  /** Saved filter views whose range is on this sheet (filter-views.ts). */
  filterViews: FilterViewData[];
  /** Set when the tab is deleted (structural-changes.ts): a script's objects of it throw from then on. */
  deleted: boolean;
}

export type MetadataVisibility = 'DOCUMENT' | 'PROJECT';

/** Key-value developer metadata on the spreadsheet itself (the only location emulated). */
export interface DeveloperMetadataData {
  readonly id: number;
  key: string;
  value: string | null;
  visibility: MetadataVisibility;
}

export interface WorkbookOptions {
  name?: string;
  /** IANA zone; default Europe/London. */
  timeZone?: string;
  /** Default en_GB. */
  locale?: string;
  /** Default ['Sheet1']. */
  sheetNames?: string[];
}

/** Drive deletes a file for good 30 days after it was put in the trash (Drive Help, "Delete and restore files"). */
export const DRIVE_TRASH_KEEPS_MS = 30 * 24 * 3_600_000;

export class WorkbookModel {
  readonly id: string;
  name: string;
  timeZone: string;
  locale: string;
  readonly sheets: SheetModel[] = [];
  activeSheet: SheetModel;
  deleted = false;
  /** When a user put it in the Drive trash (workbooks.trash), or null when it is not there. */
  trashedAtMs: number | null = null;
  readonly ui: UiRecorder;
  readonly developerMetadata: DeveloperMetadataData[] = [];
  /** The emulated time (epoch ms): a date typed without a year is in the current one. */
  readonly now: () => number;
  #gidState: number;
  #nextMetadataId = 1;
  #nextChartId = 1;
  #filterViewIdState: number;

  constructor(id: string, options: WorkbookOptions, now: () => number, ui = new UiRecorder()) {
    this.id = id;
    this.now = now;
    this.ui = ui;
    this.name = options.name ?? 'Untitled spreadsheet';
    this.timeZone = options.timeZone ?? 'Europe/London';
    this.locale = options.locale ?? 'en_GB';
    this.#gidState = [...id].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) % 2_147_483_647, 7);
    this.#filterViewIdState = (this.#gidState % 2_147_483_646) + 1;
    const [first = 'Sheet1', ...others] = options.sheetNames ?? [];
    this.activeSheet = this.addSheet(first);
    for (const name of others) this.addSheet(name);
    this.activeSheet = this.sheets[0]!;
  }

  /** The first sheet is gid 0, like a new Google spreadsheet; later gids look random but repeat per id. */
  #nextGid(): number {
    if (this.sheets.length === 0) return 0;
    do {
      this.#gidState = (this.#gidState * 48_271) % 2_147_483_647;
    } while (this.#gidUsed(this.#gidState) || this.#gidState === 0);
    return this.#gidState;
  }

  /** An id for a sheet about to be added (the Sheets API answers it before the sheet is there). */
  newGid(): number {
    return this.#nextGid();
  }

  #gidUsed(gid: number): boolean {
    return this.sheets.some((sheet) => sheet.gid === gid);
  }

  /** A copy of everything a script can read or change; dialogs are not buffered, so the UI is shared. */
  copy(): WorkbookModel {
    const copy = new WorkbookModel(
      this.id,
      { name: this.name, timeZone: this.timeZone, locale: this.locale },
      this.now,
      this.ui,
    );
    copy.#gidState = this.#gidState;
    copy.#nextMetadataId = this.#nextMetadataId;
    copy.#nextChartId = this.#nextChartId;
    copy.#filterViewIdState = this.#filterViewIdState;
    copy.deleted = this.deleted;
    copy.trashedAtMs = this.trashedAtMs;
    copy.sheets.splice(0, copy.sheets.length, ...this.sheets.map((sheet) => copySheet(sheet, copy)));
    copy.activeSheet = copy.sheets[this.sheets.indexOf(this.activeSheet)]!;
    copy.developerMetadata.push(...this.developerMetadata.map((metadata) => ({ ...metadata })));
    return copy;
  }

  /** Deleted for good, or in the trash for longer than Drive keeps it: no reading opens it. */
  get gone(): boolean {
    return (
      this.deleted || (this.trashedAtMs !== null && this.now() - this.trashedAtMs >= DRIVE_TRASH_KEEPS_MS)
    );
  }

  sheetByName(name: string): SheetModel | undefined {
    return this.sheets.find((sheet) => sheet.name === name);
  }

  /** Formulas name sheets case-insensitively. */
  sheetByNameIgnoringCase(name: string): SheetModel | undefined {
    return this.sheets.find((sheet) => sheet.name.toLowerCase() === name.toLowerCase());
  }

  defaultSheetName(): string {
    for (let n = this.sheets.length + 1; ; n++) {
      if (!this.sheetByNameIgnoringCase(`Sheet${n}`)) return `Sheet${n}`;
    }
  }

  checkSheetName(name: string, renaming?: SheetModel): void {
    if (name.trim() === '') throw new AppsScriptException('Sheet names cannot be empty.');
    if (name.length > MAX_SHEET_NAME_LENGTH) {
      throw new AppsScriptException(`Sheet names cannot be longer than ${MAX_SHEET_NAME_LENGTH} characters.`);
    }
    const existing = this.sheetByNameIgnoringCase(name);
    if (existing && existing !== renaming) {
      throw new AppsScriptException(
        `A sheet with the name "${name}" already exists. Please enter another name.`,
      );
    }
  }

  cellCount(): number {
    return this.sheets.reduce((sum, sheet) => sum + sheet.maxRows * sheet.maxColumns, 0);
  }

  checkCellBudget(addedCells: number): void {
    if (this.cellCount() + addedCells > MAX_CELLS_PER_WORKBOOK) {
      throw new AppsScriptException(
        `This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS_PER_WORKBOOK} cells.`,
      );
    }
  }

  /** A new sheet; the Sheets API's addSheet may choose its id and size (checked by the caller). */
  addSheet(
    name: string,
    index = this.sheets.length,
    {
      gid,
      rows = NEW_SHEET_ROWS,
      columns = NEW_SHEET_COLUMNS,
    }: { gid?: number; rows?: number; columns?: number } = {},
  ): SheetModel {
    this.checkSheetName(name);
    this.checkCellBudget(rows * columns);
    const sheet: SheetModel = {
      gid: gid ?? this.#nextGid(),
      workbook: this,
      name,
      maxRows: rows,
      maxColumns: columns,
      cells: new CellGrid(),
      frozenRows: 0,
      frozenColumns: 0,
      hidden: false,
      columnWidths: new Map(),
      hiddenColumns: new Set(),
      filter: null,
      conditionalRules: [],
      protections: [],
      namedRanges: [],
      charts: [],
      filterViews: [],
      deleted: false,
    };
    this.sheets.splice(index, 0, sheet);
    return sheet;
  }

  /**
   * A filter view id no filter view of the workbook has, nor any of `taken` (ids a Sheets API batch
   * gives before applying them). Like Google's, ids look random; they repeat per spreadsheet id.
   */
  newFilterViewId(taken: ReadonlySet<number> = new Set()): number {
    const used = new Set(this.sheets.flatMap((sheet) => sheet.filterViews.map((view) => view.filterViewId)));
    do {
      this.#filterViewIdState = (this.#filterViewIdState * 16_807) % 2_147_483_647;
    } while (used.has(this.#filterViewIdState) || taken.has(this.#filterViewIdState));
    return this.#filterViewIdState;
  }

  /** A chart id never given before in this spreadsheet. */
  newChartId(): number {
    return this.#nextChartId++;
  }

  sheetByGid(gid: number): SheetModel | undefined {
    return this.sheets.find((sheet) => sheet.gid === gid);
  }

  addDeveloperMetadata(key: string, value: string | null, visibility: MetadataVisibility): void {
    this.checkMetadataSize(key.length + (value?.length ?? 0));
    this.developerMetadata.push({ id: this.#nextMetadataId++, key, value, visibility });
  }

  /** Throws when `addedChars` more would take the spreadsheet's metadata over its limit. */
  checkMetadataSize(addedChars: number): void {
    const used = this.developerMetadata.reduce(
      (sum, item) => sum + item.key.length + (item.value?.length ?? 0),
      0,
    );
    if (used + addedChars > MAX_SPREADSHEET_METADATA_CHARS) {
      throw new AppsScriptException(
        `Invalid argument: the developer metadata of this spreadsheet would exceed ${MAX_SPREADSHEET_METADATA_CHARS} characters.`,
      );
    }
  }

  visibleSheets(): SheetModel[] {
    return this.sheets.filter((sheet) => !sheet.hidden);
  }

  hideSheet(sheet: SheetModel): void {
    if (sheet.hidden) return;
    if (this.visibleSheets().length === 1)
      throw new AppsScriptException("You can't hide all the sheets in a document.");
    sheet.hidden = true;
    if (this.activeSheet === sheet) this.activeSheet = this.visibleSheets()[0]!;
  }
}

export function sheetColumnWidth(sheet: SheetModel, column: number): number {
  return sheet.columnWidths.get(column) ?? DEFAULT_COLUMN_WIDTH;
}

function copySheet(sheet: SheetModel, workbook: WorkbookModel): SheetModel {
  return {
    ...sheet,
    workbook,
    cells: sheet.cells.copy(),
    columnWidths: new Map(sheet.columnWidths),
    hiddenColumns: new Set(sheet.hiddenColumns),
    filter: sheet.filter && { box: { ...sheet.filter.box }, criteria: new Map(sheet.filter.criteria) },
    conditionalRules: sheet.conditionalRules.map((rule) => ({
      ...rule,
      values: [...rule.values],
      format: { ...rule.format },
      ranges: rule.ranges.map((box) => ({ ...box })),
    })),
    protections: sheet.protections.map((protection) => ({
      ...protection,
      box: protection.box && { ...protection.box },
      editors: [...protection.editors],
    })),
    namedRanges: sheet.namedRanges.map((named) => ({ ...named, box: { ...named.box } })),
    charts: sheet.charts.map(copyChart),
    filterViews: sheet.filterViews.map(copyFilterView),
  };
}

export function copyChart(chart: ChartData): ChartData {
  return {
    ...chart,
    ranges: chart.ranges.map((range) => ({ gid: range.gid, box: { ...range.box } })),
    options: structuredClone(chart.options),
    anchor: { ...chart.anchor },
  };
}

/** A range as a script holds it: a box of one sheet. */
export interface RangeRef {
  sheet: SheetModel;
  box: GridBox;
}

/** A rule as the script holds it: ranges may be on any sheet until the rule is set on one. */
export interface RuleData {
  type: ConditionType;
  values: (string | number)[];
  format: ConditionalFormat;
  ranges: RangeRef[];
}
