/**
 * The script-visible RangeList: ranges of one sheet changed together. A change is one call however many
 * ranges it covers, and every range is checked before any is written, so a failed call writes nothing.
 */
import { strict } from '../core';
import { checkFontWeight, checkFormula, writeFormula } from './api-range';
import { requireString } from './arguments';
import type { Cell } from './cells';
import { normalizeNumberFormat } from './number-formats';
import { type GridBox, boxHeight, boxWidth, forEachCell } from './grid-box';
import { formulaFromR1C1 } from './r1c1';
import {
  type ServiceEnv,
  checkInsideSheet,
  formulaSupport,
  requireUnprotected,
  writableSheet,
} from './service-env';
import { boxWrites, checkScriptWrites } from './validation-check';
import type { SheetModel } from './workbook-model';

type RangeList = GoogleAppsScript.Spreadsheet.RangeList;

export function exposeRangeList(env: ServiceEnv, sheet: SheetModel, boxes: readonly GridBox[]): RangeList {
  return new RangeListApi(env, sheet, boxes) as unknown as RangeList;
}

class RangeListApi implements Pick<RangeList, 'setFormulaR1C1' | 'setNumberFormat' | 'setFontWeight'> {
  readonly #env: ServiceEnv;
  readonly #sheet: SheetModel;
  readonly #boxes: readonly GridBox[];
  readonly #self: RangeListApi;

  constructor(env: ServiceEnv, sheet: SheetModel, boxes: readonly GridBox[]) {
    this.#env = env;
    this.#sheet = sheet;
    this.#boxes = boxes;
    this.#self = strict('RangeList', this, env.counter);
    return this.#self;
  }

  get #public(): RangeList {
    return this.#self as unknown as RangeList;
  }

  #write(method: string): SheetModel {
    const sheet = writableSheet(this.#env, this.#sheet, method);
    for (const box of this.#boxes) {
      checkInsideSheet(sheet, box);
      requireUnprotected(this.#env, sheet, box);
    }
    return sheet;
  }

  /** Cells in all the boxes: what a range-wide setting over the list is priced by. */
  #cells(): number {
    return this.#boxes.reduce((sum, box) => sum + boxHeight(box) * boxWidth(box), 0);
  }

  #editFormat(method: string, edit: (cell: Cell) => void): RangeList {
    const sheet = this.#write(method);
    this.#env.counter.recordCellsRangeWide(this.#cells());
    for (const box of this.#boxes) {
      forEachCell(box, (row, column) => {
        edit(sheet.cells.edit(row, column));
        sheet.cells.prune(row, column);
      });
    }
    return this.#public;
  }

  setNumberFormat(numberFormat: string): RangeList {
    requireString('RangeList.setNumberFormat', [numberFormat], numberFormat);
    const format = normalizeNumberFormat(numberFormat);
    return this.#editFormat('setNumberFormat', (cell) => (cell.numberFormat = format));
  }

  setFontWeight(fontWeight: GoogleAppsScript.Spreadsheet.FontWeight | null): RangeList {
    checkFontWeight('RangeList.setFontWeight', [fontWeight], fontWeight);
    return this.#editFormat(
      'setFontWeight',
      (cell) => (cell.fontWeight = fontWeight === 'bold' ? 'bold' : undefined),
    );
  }

  /** Each cell gets the formula with its references relative to that cell, as Range.setFormulaR1C1. */
  setFormulaR1C1(formula: string): RangeList {
    checkFormula('RangeList.setFormulaR1C1', [formula], formula);
    const sheet = this.#write('setFormulaR1C1');
    const atEach = (row: number, column: number) => formulaFromR1C1(formula, row, column);
    const formulas = formulaSupport(this.#env);
    for (const box of this.#boxes) checkScriptWrites(sheet, boxWrites(box, atEach), 'formula', formulas);
    this.#env.counter.recordCellsWritten(this.#cells());
    for (const box of this.#boxes) {
      forEachCell(box, (row, column) => writeFormula(this.#env, sheet, row, column, atEach(row, column)));
    }
    return this.#public;
  }
}
