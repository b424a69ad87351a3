/**
 * What `npm run bench` reports, over made-up results: the Google table's comparisons with the
 * references, and where the tables go: between the two markers of docs/performance.md, and nowhere
 * else in that file (the bench itself runs with `npm run bench`, not here).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BenchResults, Implementation, Measurement } from '../../dev/bench/measurement';
import { googleTable, TABLES_END, TABLES_START, withTables } from '../../dev/bench/report';
import { noQuantities, presetFigures } from '../../dev/emulator/runtime/cost-model';
import { madeUpMeasurement } from './made-up-measurement';

const PERFORMANCE_DOC = path.resolve(__dirname, '../../docs/performance.md');

test('the tables of docs/performance.md are replaced, and the text around them kept', () => {
  const document = fs.readFileSync(PERFORMANCE_DOC, 'utf8');
  const rewritten = withTables(document, '| New | table |');

  const before = document.slice(0, document.indexOf(TABLES_START) + TABLES_START.length);
  const after = document.slice(document.indexOf(TABLES_END));
  expect(rewritten).toBe(`${before}\n\n| New | table |\n\n${after}`);
  expect(document.slice(before.length, document.length - after.length)).toContain('| Case');
  // The next run replaces this run's tables in turn, not beside them.
  expect(withTables(rewritten, '| Newer |')).toBe(`${before}\n\n| Newer |\n\n${after}`);
});

test.each([
  ['no markers', 'Latest run:\n\n| Case |\n'],
  ['only the first marker', `${TABLES_START}\n| Case |\n`],
  ['the markers in the wrong order', `${TABLES_END}\n| Case |\n${TABLES_START}\n`],
  ['a marker twice', `${TABLES_START}\n| Case |\n${TABLES_END}\n${TABLES_START}\n`],
])('a document with %s is refused, not guessed at', (_, document) => {
  expect(() => withTables(document, '| New |')).toThrow(
    `Put the bench's two markers, once each and in this order, around the tables`,
  );
});

describe('the Google table', () => {
  const figures = {
    low: presetFigures('low'),
    central: presetFigures('central'),
    high: presetFigures('high'),
  };
  /** A full import of 10,000 that costs Google `commits` commits (0.5 s each at the central figures) and nothing else. */
  const fullImport = (implementation: Implementation, commits: number): Measurement =>
    madeUpMeasurement({
      implementation,
      records: 10_000,
      expectedUserRequests: 50,
      google: { ...noQuantities(), commits },
    });
  const results: BenchResults = {
    config: {
      figures,
      calibration: null,
      latencyMs: 100,
      batchSize: 100,
      seed: 1,
      users: 50,
      sizes: [10_000],
      timedRuns: 1,
    },
    // On Google: the add-on 1 s; the references 0.5 s (expert), 3 s (competent), 5 s (sequential), 20 s (naive).
    measurements: [
      fullImport('naive', 40),
      fullImport('sequential', 10),
      fullImport('competent', 6),
      fullImport('expert', 1),
      fullImport('add-on', 2),
    ],
    build: { codeBytes: 1, coldLoadMs: 1, warmLoadMs: 1 },
  };
  /** The table's cells by column name, a row per case. */
  function rowsOf(table: string): Record<string, string>[] {
    const [header, , ...rows] = table.split('\n').map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
    return rows.map((row) => Object.fromEntries(header!.map((column, index) => [column, row[index]!])));
  }

  test("sets each import against the expert and competent references' estimated Google seconds, then the sequential and naive ones", () => {
    const rows = rowsOf(googleTable(results));

    expect(rows.map((row) => row['Case'])).toEqual([
      'Full import, add-on',
      'Full import, expert reference',
      'Full import, competent reference',
      'Full import, sequential reference',
      'Full import, naive reference',
    ]);
    const comparisons = ['Expert ÷ this', 'Competent ÷ this', 'Sequential ÷ this', 'Naive ÷ this'];
    expect(Object.keys(rows[0]!).slice(-4)).toEqual(comparisons);
    const compared = (row: Record<string, string>) => comparisons.map((column) => row[column]);
    // Above 1×, the reference is the dearer; below, the add-on is.
    expect(compared(rows[0]!)).toEqual(['0.50×', '3.00×', '5.00×', '20.0×']);
    expect(compared(rows[1]!)).toEqual(['–', '6.00×', '10.0×', '40.0×']);
  });
});
