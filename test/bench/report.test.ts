/**
 * Where `npm run bench` writes its tables: between the two markers of docs/performance.md, and
 * nowhere else in that file (the bench itself runs with `npm run bench`, not here).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TABLES_END, TABLES_START, withTables } from '../../dev/bench/report';

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
