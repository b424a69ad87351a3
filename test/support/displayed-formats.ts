/**
 * The colours a user sees on a tab: a cell's conditional format (the first of the sheet's rules that
 * holds for it, evaluated as the snapshot draws it) over its own background.
 */
import { parseA1, referenceBox } from '../../dev/emulator/spreadsheet/a1-notation';
import { conditionalFormatsOf } from '../../dev/emulator/spreadsheet/conditional-display';
import type { SheetView } from '../../dev/emulator/spreadsheet';

/** Each cell's background as shown ('#rrggbb', null for none), over `a1` or the tab's content. */
export function displayedBackgrounds(sheet: SheetView, a1?: string): (string | null)[][] {
  const reference = a1 === undefined ? null : parseA1(a1);
  if (a1 !== undefined && !reference) throw new Error(`Not an A1 range: ${a1}`);
  const { top, left } = reference
    ? referenceBox(reference, sheet.maxRows, sheet.maxColumns)
    : { top: 1, left: 1 };
  const formatAt = conditionalFormatsOf(sheet);
  return sheet
    .cells(a1)
    .map((cells, row) =>
      cells.map((cell, column) => formatAt(top + row, left + column, cell)?.background ?? cell.background),
    );
}
