/**
 * A spreadsheet as one self-contained HTML page, to look at what a run produced: every sheet as a tab,
 * each a table of displayed values with bold, conditional colours (where the emulator can
 * evaluate the condition; custom formula rules are listed instead), notes as tooltips, error cells
 * marked with their message, and HYPERLINK cells as links. In-sheet links (#gid=<id>&range=A5) jump to
 * the target sheet's row, whose id is s<gid>-r<row> (rows that links point to are shown even if
 * empty). A link to a filter view (#gid=<id>&fvid=<filter view id>) jumps to its tab; the view is not
 * applied, the link's title names it (or says it is not on that tab). Without JavaScript every sheet
 * is shown one after another; a small script shows one tab at a time.
 */
import { columnLetters, parseA1 } from '../spreadsheet/a1-notation';
import { conditionalFormatsOf } from '../spreadsheet/conditional-display';
import type { CellView, ChartView, SheetView, WorkbookStore } from '../spreadsheet/index';
import { escapeHtml, isSafeExternalUrl } from './html-text';

const STYLE = `
body { font: 13px/1.4 Arial, Helvetica, sans-serif; margin: 0; color: #202124; }
header { padding: 12px 16px; border-bottom: 1px solid #dadce0; }
header h1 { font-size: 18px; margin: 0 0 4px; }
header p, .meta { color: #5f6368; margin: 0; }
nav { display: flex; flex-wrap: wrap; gap: 4px; padding: 8px 16px; background: #f1f3f4; position: sticky; top: 0; }
nav a { padding: 4px 10px; border-radius: 4px 4px 0 0; text-decoration: none; color: #202124; background: #e8eaed; }
nav a.hidden-sheet { font-style: italic; color: #80868b; }
nav a.current { background: #fff; font-weight: bold; }
section { padding: 12px 16px; }
section h2 { font-size: 15px; margin: 0 0 4px; }
.badge { font-size: 11px; font-weight: normal; background: #fce8b2; border-radius: 3px; padding: 1px 5px; }
table { border-collapse: collapse; margin-top: 8px; }
th, td { border: 1px solid #e2e3e3; padding: 2px 6px; white-space: pre; vertical-align: bottom; }
th { background: #f8f9fa; color: #5f6368; font-weight: normal; }
.grid { overflow: auto; max-height: 80vh; margin-top: 8px; }
.grid table { table-layout: fixed; margin-top: 0; }
.grid td { overflow: hidden; text-overflow: ellipsis; background-color: #fff; }
.grid thead { position: sticky; top: 0; z-index: 2; }
.grid tr > th:first-child, .grid .frozen-column { position: sticky; z-index: 1; }
.grid tr > th:first-child { left: 0; }
tr.frozen td { font-weight: bold; background-color: #f1f3f4; border-bottom: 2px solid #bdc1c6; }
td.frozen-column { border-right: 2px solid #bdc1c6; }
tr:target th, tr:target td { outline: 2px solid #1a73e8; }
td.number { text-align: right; }
td.error { color: #c5221f; background-image: linear-gradient(225deg, #c5221f 6px, transparent 6px); }
td[title]:not(.error) { background-image: linear-gradient(225deg, #f9ab00 6px, transparent 6px); }
.unevaluated { color: #5f6368; }
figure.chart { display: inline-block; vertical-align: top; margin: 12px 16px 0 0; padding: 8px 12px; border: 1px solid #dadce0; border-radius: 6px; }
figure.chart figcaption { font-weight: bold; margin-bottom: 6px; }
figure.chart table { margin-top: 4px; }
figure.chart td { border: none; padding: 1px 6px; }
figure.chart .bar { display: inline-block; height: 10px; background: #4285f4; }
`;

const TAB_SCRIPT = `
(function () {
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.sheet'));
  var tabs = Array.prototype.slice.call(document.querySelectorAll('nav a'));
  function show() {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    var section = (target && target.closest('section.sheet')) || document.querySelector('section.sheet[data-active]') || sections[0];
    sections.forEach(function (s) { s.hidden = s !== section; });
    tabs.forEach(function (t) { t.classList.toggle('current', t.getAttribute('href') === '#' + section.id); });
    if (target && target !== section) target.scrollIntoView({ block: 'center' });
  }
  window.addEventListener('hashchange', show);
  show();
})();
`;

interface InSheetLink {
  gid: number;
  row: number | null;
  /** A filter view the link opens (#gid=…&fvid=…), or null. */
  filterViewId: number | null;
}

/**
 * "#gid=123&range=A5" → sheet 123, row 5; "#gid=123&fvid=456" → sheet 123, filter view 456;
 * undefined for any other link.
 */
function parseInSheetLink(link: string): InSheetLink | undefined {
  const trimmed = link.trim();
  if (!trimmed.startsWith('#')) return undefined;
  const [first, ...others] = trimmed.slice(1).split('&');
  const gid = /^gid=(\d+)$/.exec(first ?? '');
  if (!gid) return undefined;
  const parameters = new Map<string, string>();
  for (const other of others) {
    const match = /^(range|fvid)=([^&]*)$/.exec(other);
    if (!match || parameters.has(match[1]!)) return undefined;
    parameters.set(match[1]!, match[2]!);
  }
  const range = parameters.get('range');
  const fvid = parameters.get('fvid');
  if (fvid !== undefined && !/^\d+$/.test(fvid)) return undefined;
  const reference = range ? parseA1(decodeURIComponent(range)) : null;
  return {
    gid: Number(gid[1]),
    row: reference?.top ?? null,
    filterViewId: fvid === undefined ? null : Number(fvid),
  };
}

/** Which rows other cells link to, per sheet: those rows are rendered even when empty. */
function linkedRows(sheets: SheetView[]): Map<number, number> {
  const lastLinked = new Map<number, number>();
  for (const sheet of sheets) {
    for (const cell of sheet.cells().flat()) {
      const target = cell.link === null ? undefined : parseInSheetLink(cell.link);
      if (target?.row) lastLinked.set(target.gid, Math.max(lastLinked.get(target.gid) ?? 0, target.row));
    }
  }
  return lastLinked;
}

/** The anchor an in-sheet link jumps to; null when the sheet or row does not exist. */
/** What the title of a link to a filter view says: the view's title, or that it is not there. */
function filterViewTitle(sheets: ReadonlyMap<number, SheetView>, target: InSheetLink): string {
  const view = sheets
    .get(target.gid)!
    .filterViews()
    .find((candidate) => candidate.filterViewId === target.filterViewId);
  return view
    ? `Opens the filter view "${view.title}"`
    : `Filter view ${target.filterViewId} is not on this sheet`;
}

function inSheetAnchor(target: InSheetLink, sheets: ReadonlyMap<number, SheetView>): string | null {
  const sheet = sheets.get(target.gid);
  if (!sheet) return null;
  if (target.row === null) return `sheet-${target.gid}`;
  return target.row <= sheet.maxRows ? `s${target.gid}-r${target.row}` : null;
}

function renderCell(
  cell: CellView,
  row: number,
  column: number,
  conditionalFormatAt: ReturnType<typeof conditionalFormatsOf>,
  sheets: ReadonlyMap<number, SheetView>,
  /** For a cell of a frozen column: its distance from the table's left edge, where it stays. */
  frozenAt: number | undefined,
): string {
  const classes: string[] = [];
  const styles: string[] = [];
  if (frozenAt !== undefined) {
    classes.push('frozen-column');
    styles.push(`left: ${frozenAt}px`);
  }
  const titles: string[] = [];
  const conditional = conditionalFormatAt(row, column, cell);
  const background = conditional?.background ?? cell.background;
  if (background) styles.push(`background-color: ${background}`);
  if (conditional?.fontColor) styles.push(`color: ${conditional.fontColor}`);
  if (conditional?.bold ?? cell.fontWeight === 'bold') styles.push('font-weight: bold');
  if (conditional?.italic) styles.push('font-style: italic');
  if (typeof cell.value === 'number' && !cell.error) classes.push('number');
  if (cell.error) {
    classes.push('error');
    titles.push(`${cell.error.code} ${cell.error.message}`);
  }
  if (cell.note) titles.push(cell.note);
  let content = escapeHtml(cell.display);
  if (cell.link !== null) {
    const target = parseInSheetLink(cell.link);
    const anchor = target && inSheetAnchor(target, sheets);
    if (anchor) {
      content = `<a href="#${escapeHtml(anchor)}">${content}</a>`;
      if (target.filterViewId !== null) titles.push(filterViewTitle(sheets, target));
    } else if (!target && isSafeExternalUrl(cell.link)) {
      content = `<a href="${escapeHtml(cell.link)}" rel="noopener noreferrer">${content}</a>`;
    } else titles.push(`Link not followed: ${cell.link}`);
  }
  const attributes = [
    classes.length > 0 ? ` class="${classes.join(' ')}"` : '',
    styles.length > 0 ? ` style="${escapeHtml(styles.join('; '))}"` : '',
    titles.length > 0 ? ` title="${escapeHtml(titles.join('\n'))}"` : '',
  ].join('');
  return `<td${attributes}>${content}</td>`;
}

/** The width of the column of row numbers, in pixels. */
const ROW_HEADER_PX = 46;

/** Longest bar of a chart's rendition, in pixels. */
const BAR_PX = 240;

/**
 * A chart as a box saying what it charts: its title, type, place and data range, and its data as
 * labelled bars (the first column of its first range the labels, the next one the values).
 */
function renderChart(chart: ChartView, sheetsByName: ReadonlyMap<string, SheetView>): string {
  const title = typeof chart.options['title'] === 'string' ? chart.options['title'] : '(untitled chart)';
  const where = `${chart.type} chart at ${columnLetters(chart.anchor.column)}${chart.anchor.row}, reading ${chart.ranges.join(', ')}`;
  const parts = [`<figure class="chart"><figcaption>${escapeHtml(title)}</figcaption>`];
  parts.push(`<p class="meta">${escapeHtml(where)}</p>`);
  const [first] = chart.ranges;
  const split = first ? first.lastIndexOf('!') : -1;
  const sheet = split > 0 ? sheetsByName.get(first!.slice(0, split)) : undefined;
  if (sheet) {
    const a1 = first!.slice(split + 1);
    const [header, ...rows] = sheet.displayValues(a1);
    const values = sheet.values(a1).slice(1);
    const numbers = values.map((row) => (typeof row[1] === 'number' ? row[1] : 0));
    const largest = Math.max(1, ...numbers);
    parts.push(
      `<table><thead><tr><th>${escapeHtml(header?.[0] ?? '')}</th><th>${escapeHtml(header?.[1] ?? '')}</th><th></th></tr></thead><tbody>`,
    );
    rows.forEach((row, index) => {
      const width = Math.round((BAR_PX * Math.max(0, numbers[index]!)) / largest);
      parts.push(
        `<tr><td>${escapeHtml(row[0] ?? '')}</td><td class="number">${escapeHtml(row[1] ?? '')}</td>` +
          `<td><span class="bar" style="width: ${width}px"></span></td></tr>`,
      );
    });
    parts.push('</tbody></table>');
  }
  parts.push('</figure>');
  return parts.join('\n');
}

function renderSheet(
  sheet: SheetView,
  sheets: ReadonlyMap<number, SheetView>,
  lastLinkedRow: number,
): string {
  const sheetsByName = new Map([...sheets.values()].map((other) => [other.name, other]));
  const rows = Math.min(sheet.maxRows, Math.max(sheet.lastRow, sheet.frozenRows, lastLinkedRow));
  const columns = Math.max(sheet.lastColumn, 1);
  const conditionalFormatAt = conditionalFormatsOf(sheet);
  const hidden = sheet.hidden ? ' <span class="badge">hidden</span>' : '';
  const facts = [
    `${sheet.maxRows} rows × ${sheet.maxColumns} columns`,
    sheet.frozenRows > 0 ? `${sheet.frozenRows} frozen row(s)` : '',
    sheet.frozenColumns > 0 ? `${sheet.frozenColumns} frozen column(s)` : '',
    sheet.filter ? `filter on ${sheet.filter}` : '',
    sheet.hiddenColumns.length > 0
      ? `hidden column(s) ${sheet.hiddenColumns.map(columnLetters).join(', ')}`
      : '',
    `gid ${sheet.gid}`,
  ].filter(Boolean);
  const parts = [
    `<section class="sheet" id="sheet-${sheet.gid}">`,
    `<h2>${escapeHtml(sheet.name)}${hidden}</h2>`,
    `<p class="meta">${escapeHtml(facts.join(' · '))}</p>`,
  ];
  if (rows === 0) {
    parts.push('<p class="meta">(empty)</p>');
  } else {
    const cells = sheet.cells(`A1:${columnLetters(columns)}${rows}`);
    // Hidden columns are left out, as the user does not see them either.
    const shown = Array.from({ length: columns }, (_, i) => i + 1).filter(
      (column) => !sheet.hiddenColumns.includes(column),
    );
    // Each column as wide as the sheet says; frozen columns stay at the left edge when scrolled.
    const widths = shown.map((column) => sheet.columnWidth(column));
    const frozenAt = new Map<number, number>();
    let left = ROW_HEADER_PX;
    shown.forEach((column, index) => {
      if (column <= sheet.frozenColumns) frozenAt.set(column, left);
      left += widths[index]!;
    });
    const colgroup = [ROW_HEADER_PX, ...widths].map((width) => `<col style="width: ${width}px">`).join('');
    const header = shown.map((column) => `<th>${columnLetters(column)}</th>`).join('');
    parts.push(
      `<div class="grid"><table style="width: ${left}px"><colgroup>${colgroup}</colgroup>`,
      `<thead><tr><th></th>${header}</tr>`,
    );
    cells.forEach((cellsOfRow, i) => {
      const row = i + 1;
      // Frozen rows belong to the header, which stays at the top when scrolled.
      if (row === sheet.frozenRows + 1) parts.push('</thead><tbody>');
      const frozen = row <= sheet.frozenRows ? ' class="frozen"' : '';
      const tds = shown
        .map((column) =>
          renderCell(cellsOfRow[column - 1]!, row, column, conditionalFormatAt, sheets, frozenAt.get(column)),
        )
        .join('');
      parts.push(`<tr id="s${sheet.gid}-r${row}"${frozen}><th>${row}</th>${tds}</tr>`);
    });
    if (rows <= sheet.frozenRows) parts.push('</thead><tbody>');
    parts.push('</tbody></table></div>');
  }
  const unevaluated = sheet.conditionalRules().filter((rule) => rule.type === 'CUSTOM_FORMULA');
  if (unevaluated.length > 0) {
    parts.push(
      '<p class="unevaluated">Conditional formats with custom formulas (not evaluated here):</p><ul class="unevaluated">',
    );
    for (const rule of unevaluated) {
      const format = Object.entries(rule.format)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key} ${String(value)}`)
        .join(', ');
      parts.push(
        `<li>${escapeHtml(`${String(rule.values[0])} on ${rule.ranges.join(', ')} → ${format}`)}</li>`,
      );
    }
    parts.push('</ul>');
  }
  for (const chart of sheet.charts()) parts.push(renderChart(chart, sheetsByName));
  parts.push('</section>');
  return parts.join('\n');
}

export function renderWorkbookHtml(workbooks: WorkbookStore, spreadsheetId: string): string {
  const workbook = workbooks.get(spreadsheetId);
  if (!workbook) throw new Error(`No spreadsheet ${spreadsheetId} to render.`);
  const sheets = workbook.sheets();
  const byGid = new Map(sheets.map((sheet) => [sheet.gid, sheet]));
  const lastLinked = linkedRows(sheets);
  const tabs = sheets
    .map((sheet) => {
      const label = sheet.hidden ? `${sheet.name} (hidden)` : sheet.name;
      const hidden = sheet.hidden ? ' class="hidden-sheet"' : '';
      return `<a href="#sheet-${sheet.gid}"${hidden}>${escapeHtml(label)}</a>`;
    })
    .join('');
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(workbook.name)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<header><h1>${escapeHtml(workbook.name)}</h1>`,
    `<p>${escapeHtml(`${workbook.id} · ${workbook.timeZone} · ${workbook.locale}`)}</p></header>`,
    `<nav>${tabs}</nav>`,
    // The snapshot opens on the tab that was active, as the spreadsheet would.
    ...sheets.map((sheet) => {
      const html = renderSheet(sheet, byGid, lastLinked.get(sheet.gid) ?? 0);
      return sheet.name === workbook.activeSheetName
        ? html.replace('<section class="sheet"', '<section class="sheet" data-active')
        : html;
    }),
    `<script>${TAB_SCRIPT}</script>`,
    '</body></html>',
  ].join('\n');
}
