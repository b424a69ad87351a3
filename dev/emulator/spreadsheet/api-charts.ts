/**
 * Embedded charts: the builder (Sheet.newChart), the built or inserted chart, and the Charts
 * service's ChartType enum. What the emulator checks, at least as strictly as Sheets: a chart needs
 * a type, a position and at least one range, all its ranges in the grid of sheets of the same
 * spreadsheet; a built chart is inserted once, into the sheet whose builder made it. Charts read
 * back (Sheet.getCharts) are new objects each time, holding the chart as it was then. A chart's
 * ranges follow inserted and deleted rows and columns (structural-changes.ts); its anchor, which
 * Sheets moves with them too, does not move here: nothing the add-on does depends on where a chart
 * sits, and a user moves it with WorkbookView's moveChart.
 */
import { AppsScriptException, type ServiceCallCounter, strict } from '../core';
import { isInteger, requireString, signatureMismatch } from './arguments';
import { rangeRefOf } from './api-range';
import { isMemberOf } from './script-enums';
import { type ServiceEnv, checkInsideSheet, toScriptArray } from './service-env';
import {
  type ChartAnchor,
  type ChartData,
  type ChartRange,
  type SheetModel,
  copyChart,
} from './workbook-model';

type Builder = GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder;
type Chart = GoogleAppsScript.Spreadsheet.EmbeddedChart;

/** Charts.ChartType as the emulator offers it (Google's other types are not emulated). */
export const CHART_TYPES = ['AREA', 'BAR', 'COLUMN', 'LINE', 'PIE', 'SCATTER', 'TABLE'] as const;

/** The Charts service: only its ChartType enum. Each value is its name, like the other enums. */
export function createChartsService(counter: ServiceCallCounter): GoogleAppsScript.Charts.Charts {
  const chartType = strict(
    'ChartType',
    Object.freeze(Object.fromEntries(CHART_TYPES.map((t) => [t, t]))),
    counter,
  );
  return strict('Charts', { ChartType: chartType }, counter) as unknown as GoogleAppsScript.Charts.Charts;
}

/** A chart built by a builder: which sheet's builder, and whether a sheet holds it yet. */
interface BuiltChart {
  /** The sheet whose newChart() began it: the only one it may be inserted into. */
  container: SheetModel;
  data: ChartData | Omit<ChartData, 'id'>;
  inserted: boolean;
}

const builtCharts = new WeakMap<object, BuiltChart>();

/** The chart behind an EmbeddedChart the script passed in, or undefined if it is not one. */
export function builtChartOf(value: unknown): BuiltChart | undefined {
  return typeof value === 'object' && value !== null ? builtCharts.get(value) : undefined;
}

interface Draft {
  type: string | null;
  ranges: ChartRange[];
  options: Record<string, unknown>;
  anchor: ChartAnchor | null;
}

export function exposeChartBuilder(env: ServiceEnv, container: SheetModel): Builder {
  return new ChartBuilderApi(env, container, {
    type: null,
    ranges: [],
    options: {},
    anchor: null,
  }) as unknown as Builder;
}

/** A chart as a sheet holds it: a snapshot, with its id. */
export function exposeInsertedChart(env: ServiceEnv, sheet: SheetModel, data: ChartData): Chart {
  return exposeChart(env, { container: sheet, data: copyChart(data), inserted: true });
}

function exposeChart(env: ServiceEnv, built: BuiltChart): Chart {
  const chart = {
    getChartId: (): number | null => ('id' in built.data && built.inserted ? built.data.id : null),
    getRanges: (): GoogleAppsScript.Spreadsheet.Range[] => {
      const workbook = built.container.workbook;
      const ranges = built.data.ranges.flatMap((range) => {
        const sheet = workbook.sheetByGid(range.gid);
        return sheet ? [env.classes.range(sheet, range.box)] : [];
      });
      return toScriptArray(env.realm, ranges);
    },
  } satisfies Partial<Record<keyof Chart, unknown>>;
  const self = strict('EmbeddedChart', chart, env.counter);
  builtCharts.set(self, built);
  return self as unknown as Chart;
}

type BuilderMethod = 'addRange' | 'setChartType' | 'setOption' | 'setPosition' | 'build';

class ChartBuilderApi implements Pick<Builder, BuilderMethod> {
  readonly #env: ServiceEnv;
  readonly #container: SheetModel;
  readonly #draft: Draft;
  readonly #self: ChartBuilderApi;

  constructor(env: ServiceEnv, container: SheetModel, draft: Draft) {
    this.#env = env;
    this.#container = container;
    this.#draft = draft;
    this.#self = strict('EmbeddedChartBuilder', this, env.counter);
    return this.#self;
  }

  get #public(): Builder {
    return this.#self as unknown as Builder;
  }

  addRange(range: GoogleAppsScript.Spreadsheet.Range): Builder {
    const ref = rangeRefOf(range);
    if (!ref) throw signatureMismatch('EmbeddedChartBuilder.addRange', [range]);
    if (ref.sheet.workbook !== this.#container.workbook) {
      throw new AppsScriptException("A chart's ranges must be in the spreadsheet that holds the chart.");
    }
    this.#draft.ranges.push({ gid: ref.sheet.gid, box: { ...ref.box } });
    return this.#public;
  }

  setChartType(type: GoogleAppsScript.Charts.ChartType): Builder {
    if (!isMemberOf(CHART_TYPES, type)) throw signatureMismatch('EmbeddedChartBuilder.setChartType', [type]);
    this.#draft.type = type;
    return this.#public;
  }

  /** Plain data only (strings, numbers, booleans, arrays and objects of them), copied. */
  setOption(option: string, value: unknown): Builder {
    requireString('EmbeddedChartBuilder.setOption', [option, value], option);
    let copied: unknown;
    try {
      copied = structuredClone(value);
    } catch {
      throw signatureMismatch('EmbeddedChartBuilder.setOption', [option, value]);
    }
    this.#draft.options[option] = copied;
    return this.#public;
  }

  setPosition(anchorRowPos: number, anchorColPos: number, offsetX: number, offsetY: number): Builder {
    const args = [anchorRowPos, anchorColPos, offsetX, offsetY];
    if (!args.every(isInteger) || anchorRowPos < 1 || anchorColPos < 1 || offsetX < 0 || offsetY < 0) {
      throw signatureMismatch('EmbeddedChartBuilder.setPosition', args);
    }
    this.#draft.anchor = { row: anchorRowPos, column: anchorColPos, offsetX, offsetY };
    return this.#public;
  }

  /** Stricter than Google, whose defaults are not documented: the type, position and a range are required. */
  build(): Chart {
    const { type, anchor, ranges, options } = this.#draft;
    if (type === null) throw new AppsScriptException('A chart needs a type: call setChartType first.');
    if (anchor === null) throw new AppsScriptException('A chart needs a position: call setPosition first.');
    if (ranges.length === 0)
      throw new AppsScriptException('A chart needs at least one range: call addRange.');
    const data = {
      type,
      anchor: { ...anchor },
      ranges: ranges.map((range) => ({ gid: range.gid, box: { ...range.box } })),
      options: structuredClone(options),
    };
    return exposeChart(this.#env, { container: this.#container, data, inserted: false });
  }
}

/** Sheet.insertChart: checks the built chart against the sheet as it is now, then keeps a copy. */
export function insertChart(sheet: SheetModel, chart: unknown): void {
  const built = builtChartOf(chart);
  if (!built) throw signatureMismatch('Sheet.insertChart', [chart]);
  if (built.inserted) throw new AppsScriptException('This chart is already in the spreadsheet.');
  if (built.container !== sheet) {
    throw new AppsScriptException('A chart can only be inserted into the sheet whose newChart() built it.');
  }
  for (const range of built.data.ranges) {
    const rangeSheet = sheet.workbook.sheetByGid(range.gid);
    if (!rangeSheet) throw new AppsScriptException("A chart's range is on a sheet that no longer exists.");
    checkInsideSheet(rangeSheet, range.box);
  }
  const { anchor } = built.data;
  if (anchor.row > sheet.maxRows || anchor.column > sheet.maxColumns) {
    throw new AppsScriptException("The chart's position is outside the dimensions of the sheet.");
  }
  sheet.charts.push({ ...copyChart({ ...built.data, id: 0 }), id: sheet.workbook.newChartId() });
  built.inserted = true;
}
