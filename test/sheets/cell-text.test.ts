import { CELL_TEXT_LIMIT, describeCut, fitTableText, fitText } from '../../src/sheets/cell-text';
import { formulaString, type Table } from '../../src/sheets/table';

const MARKER = /… \[cut: ([\d,]+) characters; the full text is in the service\]$/;

describe('fitText', () => {
  test.each([0, 1, CELL_TEXT_LIMIT - 1, CELL_TEXT_LIMIT])('a text of %i characters fits whole', (length) => {
    const text = 'x'.repeat(length);
    expect(fitText(text)).toBe(text);
  });

  test.each([CELL_TEXT_LIMIT + 1, 61_234, 1_000_000])(
    'a text of %i characters is cut to exactly the limit, its start kept, the marker saying how long it was',
    (length) => {
      const text = Array.from({ length }, (_, index) => String.fromCharCode(97 + (index % 26))).join('');
      const fitted = fitText(text);
      expect(fitted).toHaveLength(CELL_TEXT_LIMIT);
      expect(MARKER.exec(fitted)![1]).toBe(length.toLocaleString('en-US'));
      expect(text.startsWith(fitted.replace(MARKER, ''))).toBe(true);
    },
  );

  test('never splits a character made of two code units', () => {
    const fitted = fitText('🦺'.repeat(30_000));
    const kept = fitted.replace(MARKER, '');
    expect(kept).toBe('🦺'.repeat(kept.length / 2));
    expect(fitted.length).toBeLessThanOrEqual(CELL_TEXT_LIMIT);
  });

  test('quoted: the text fits inside a formula string literal, where each quote takes two characters', () => {
    const text = '"'.repeat(30_000);
    expect(fitText(text, CELL_TEXT_LIMIT, false)).toBe(text);
    const fitted = fitText(text, CELL_TEXT_LIMIT, true);
    expect(formulaString(fitted).length - 2).toBeLessThanOrEqual(CELL_TEXT_LIMIT);
    expect(formulaString(fitted).length - 2).toBeGreaterThan(CELL_TEXT_LIMIT - 3);
    expect(fitted).toMatch(MARKER);
  });
});

describe('fitTableText', () => {
  const table: Table = {
    columns: [
      { header: 'ID', kind: 'text', width: 10 },
      { header: 'Link', kind: 'formula', width: 10 },
      { header: 'Text', kind: 'text', width: 10 },
      { header: 'Count', kind: 'integer', width: 10 },
    ],
    rows: [
      ['a', '=HYPERLINK("#gid=1&range=A2", "a")', 'short', 1],
      ['b', '=HYPERLINK("#gid=1&range=A3", "b")', 'y'.repeat(60_000), 2],
    ],
    keyColumn: 0,
  };

  test('cuts what does not fit and says which record and field it was, leaving every other cell as it was', () => {
    const { table: fitted, cuts } = fitTableText('Things', table);
    expect(fitted.rows[0]).toEqual(table.rows[0]);
    expect(fitted.rows[1]!.filter((_, column) => column !== 2)).toEqual(
      table.rows[1]!.filter((_, column) => column !== 2),
    );
    expect(String(fitted.rows[1]![2])).toHaveLength(CELL_TEXT_LIMIT);
    expect(cuts).toEqual([{ tab: 'Things', record: 'ID b', field: 'Text', length: 60_000 }]);
    expect(describeCut(cuts[0]!)).toBe('Things, ID b: Text (60,000 characters)');
  });

  test('names a record by a long key without repeating all of it', () => {
    const long: Table = { ...table, rows: [['k'.repeat(60_000), null, 'z'.repeat(50_001), 3]] };
    const { cuts } = fitTableText('Things', long);
    expect(cuts.map((cut) => cut.record)).toEqual([`ID ${'k'.repeat(40)}…`, `ID ${'k'.repeat(40)}…`]);
    expect(cuts.map((cut) => cut.field)).toEqual(['ID', 'Text']);
  });
});
