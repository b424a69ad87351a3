/**
 * A1 ⇄ R1C1 conversion of formulas, relative to the cell that holds them: offsets always bracketed
 * (R[0]), `$` parts absolute, sheet prefixes kept, strings and names untouched, #REF! off the sheet.
 */
import { formulaFromR1C1, formulaToR1C1 } from '../../dev/emulator/spreadsheet/r1c1';

describe('formulaToR1C1', () => {
  it('writes relative parts as bracketed offsets from the cell, zero included', () => {
    expect(formulaToR1C1('=B3', 5, 4)).toBe('=R[-2]C[-2]');
    expect(formulaToR1C1('=A1', 1, 1)).toBe('=R[0]C[0]');
    expect(formulaToR1C1('=E7*2', 5, 4)).toBe('=R[2]C[1]*2');
  });

  it('writes $ parts as absolute numbers', () => {
    expect(formulaToR1C1('=$B$3', 5, 4)).toBe('=R3C2');
    expect(formulaToR1C1('=$B3', 5, 4)).toBe('=R[-2]C2');
    expect(formulaToR1C1('=B$3', 5, 4)).toBe('=R3C[-2]');
  });

  it('converts each corner of a range, whole columns and rows, and open-ended ranges', () => {
    expect(formulaToR1C1('=SUM(A1:B2)', 5, 4)).toBe('=SUM(R[-4]C[-3]:R[-3]C[-2])');
    expect(formulaToR1C1('=SUM(A:C)', 5, 4)).toBe('=SUM(C[-3]:C[-1])');
    expect(formulaToR1C1('=SUM($A:$C)', 5, 4)).toBe('=SUM(C1:C3)');
    expect(formulaToR1C1('=SUM(2:5)', 5, 4)).toBe('=SUM(R[-3]:R[0])');
    expect(formulaToR1C1('=SUM($2:$5)', 5, 4)).toBe('=SUM(R2:R5)');
    expect(formulaToR1C1('=SUM(A2:A)', 5, 4)).toBe('=SUM(R[-3]C[-3]:C[-3])');
  });

  it('keeps sheet prefixes, quoted or not', () => {
    expect(formulaToR1C1('=Sheet2!A1', 5, 4)).toBe('=Sheet2!R[-4]C[-3]');
    expect(formulaToR1C1("='My sheet'!$A$1:B2", 5, 4)).toBe("='My sheet'!R1C1:R[-3]C[-2]");
    expect(formulaToR1C1("='It''s A1'!A1", 2, 2)).toBe("='It''s A1'!R[-1]C[-1]");
  });

  it('leaves string literals, function names and other names alone', () => {
    expect(formulaToR1C1('="A1 ""B2"" C3:D4"&A1', 5, 4)).toBe('="A1 ""B2"" C3:D4"&R[-4]C[-3]');
    expect(formulaToR1C1('=LOG10(A1)+ATAN2(B1, C1)', 5, 4)).toBe(
      '=LOG10(R[-4]C[-3])+ATAN2(R[-4]C[-2], R[-4]C[-1])',
    );
    expect(formulaToR1C1('=DEC2BIN(A1)', 1, 2)).toBe('=DEC2BIN(R[0]C[-1])');
    expect(formulaToR1C1('=IF(TRUE, Totals, A1)', 1, 1)).toBe('=IF(TRUE, Totals, R[0]C[0])');
    expect(formulaToR1C1('=1.5E3+#REF!', 1, 1)).toBe('=1.5E3+#REF!');
  });

  it('takes as references only columns up to ZZZ and rows up to 10,000,000', () => {
    expect(formulaToR1C1('=ZZZ1+AAAA1', 1, 1)).toBe('=R[0]C[18277]+AAAA1');
    expect(formulaToR1C1('=A10000000+A10000001', 1, 1)).toBe('=R[9999999]C[0]+A10000001');
  });
});

describe('formulaFromR1C1', () => {
  it('reads offsets, absolute numbers, and a bare R or C as the cell’s own row or column', () => {
    expect(formulaFromR1C1('=R[-2]C[-2]', 5, 4)).toBe('=B3');
    expect(formulaFromR1C1('=R3C2', 5, 4)).toBe('=$B$3');
    expect(formulaFromR1C1('=R[0]C2', 5, 4)).toBe('=$B5');
    expect(formulaFromR1C1('=RC', 5, 4)).toBe('=D5');
    expect(formulaFromR1C1('=R[1]C', 5, 4)).toBe('=D6');
    expect(formulaFromR1C1('=R[0]C[-1]*2', 5, 4)).toBe('=C5*2');
  });

  it('reads whole rows and columns, and keeps sheet prefixes', () => {
    expect(formulaFromR1C1('=SUM(R[0]:R[2])', 5, 4)).toBe('=SUM(5:7)');
    expect(formulaFromR1C1('=SUM(C[-1]:C[-1])', 5, 4)).toBe('=SUM(C:C)');
    expect(formulaFromR1C1("=Sheet2!RC+'My sheet'!R1C1:R[1]C[1]", 5, 4)).toBe(
      "=Sheet2!D5+'My sheet'!$A$1:E6",
    );
  });

  it('leaves string literals and function names alone', () => {
    expect(formulaFromR1C1('=ROUND(RC[-1])&"RC R1C1"', 5, 4)).toBe('=ROUND(C5)&"RC R1C1"');
    expect(formulaFromR1C1('=COUNT(R[-1]C:R[-1]C[2])', 5, 4)).toBe('=COUNT(D4:F4)');
  });

  it('writes #REF! for a reference that falls off the sheet', () => {
    expect(formulaFromR1C1('=R[-5]C+1', 5, 4)).toBe('=#REF!+1');
    expect(formulaFromR1C1('=RC[-4]', 5, 4)).toBe('=#REF!');
    expect(formulaFromR1C1('=SUM(R[-9]C:RC)', 5, 4)).toBe('=SUM(#REF!)');
    expect(formulaFromR1C1('=Sheet2!R[-5]C', 5, 4)).toBe('=#REF!');
  });
});

describe('round trip', () => {
  const formulas = [
    '=B3',
    '=$B$3',
    '=$B3+B$3',
    '=SUM(A1:B2)',
    '=SUM(A:C)',
    '=SUM($A:$C)',
    '=SUM(2:5)',
    '=SUM(A2:A)',
    '=Sheet2!A1',
    "='My sheet'!$A$1:B2",
    '="A1 ""B2"""&LOG10(A1)&ATAN2(B1, C1)',
    '=IF(TRUE, Totals, A1)',
  ];

  it.each(formulas)('gives back %s', (formula) => {
    expect(formulaFromR1C1(formulaToR1C1(formula, 5, 4), 5, 4)).toBe(formula);
  });
});
