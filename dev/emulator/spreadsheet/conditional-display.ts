/**
 * What a sheet's conditional format rules make its cells show, as Sheets paints them: for each cell,
 * the format of the first rule (in the sheet's order) whose ranges hold it and whose condition holds
 * (conditional-evaluation.ts). The snapshot draws cells with it, and the tests read colours with it.
 */
import { parseA1, referenceBox } from './a1-notation';
import { evaluateCondition } from './conditional-evaluation';
import { boxContains, type GridBox } from './grid-box';
import type { CellView, ConditionalRuleView, SheetView } from './workbook-store';

export type ShownFormat = ConditionalRuleView['format'];

/** The sheet's rules as they are now, to look cells up in: undefined where no rule's format applies. */
export function conditionalFormatsOf(
  sheet: SheetView,
): (row: number, column: number, cell: CellView) => ShownFormat | undefined {
  const timeZone = sheet.timeZone;
  const rules = sheet.conditionalRules().map((rule) => ({
    rule,
    boxes: rule.ranges
      .map((a1) => {
        const reference = parseA1(a1);
        return reference && referenceBox(reference, sheet.maxRows, sheet.maxColumns);
      })
      .filter((box): box is GridBox => box !== null),
  }));
  return (row, column, cell) => {
    for (const { rule, boxes } of rules) {
      if (!boxes.some((box) => boxContains(box, row, column))) continue;
      const outcome = evaluateCondition(rule.type, rule.values, {
        value: cell.value,
        display: cell.display,
        isError: cell.error !== null,
        timeZone,
      });
      if (outcome === 'match') return rule.format;
    }
    return undefined;
  };
}
