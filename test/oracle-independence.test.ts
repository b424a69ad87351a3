/**
 * The model tests, the staging test and the oracles compute what they expect (record keys,
 * identities, rows, limits) with the tests' own implementation of each rule, never with src/'s: a
 * test that asks the add-on's code what the add-on should do agrees with any mistake in it. So none
 * of them imports a value from src/ (type-only imports are fine: they vanish at run time; a shared
 * constant is code like any other), neither directly nor through a test module that does. A pure
 * model test imports the function it tests, its subject, and nothing else from src/: each subject
 * is named below.
 *
 * Imports are read with the TypeScript parser: `import type …`, and `import { type A, type B }`
 * with every name type-only, bring in nothing at run time; everything else does (named, default
 * and namespace imports, `import '…'`, `export … from`, `import(…)`, `require(…)`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..');
const SRC = path.join(ROOT, 'src');
const TEST = path.join(ROOT, 'test');

/** The tests that must compute their expectations themselves, besides every model test and oracle. */
const NAMED = [
  'test/trainings/completions/exact-under-change.test.ts',
  'test/api/completions-paging.test.ts',
  'test/trainings/completions/import-staging.test.ts',
  'test/trainings/completions/progress-under-change.test.ts',
];

/**
 * What a pure model test may import from src/: the code it tests, never what computes its
 * expectations. Keyed by test file, then by src/ module.
 */
const SUBJECTS: Record<string, Record<string, readonly string[]>> = {
  // The digest's rules, from the memory a spreadsheet starts with.
  'test/refresh/digest-model.test.ts': { 'src/refresh/digest.ts': ['planDigest', 'EMPTY_MEMORY'] },
  // The table writer as imports call it: the tab's layout read, records on top, the table written.
  'test/sheets/table-writer-model.test.ts': {
    'src/sheets/added-columns.ts': ['readTabLayout'],
    'src/sheets/rows-on-top.ts': ['insertRowsOnTop'],
    'src/sheets/table-writer.ts': ['writeTable'],
  },
  // Compliance history's recording, over the matrix as of a day that the add-on counts with.
  'test/trainings/compliance-history-model.test.ts': {
    'src/trainings/compliance-history.ts': ['historyUpdate', 'matrixAsOf'],
  },
  // The one reader of completions, over the real client.
  'test/api/completions-paging.test.ts': {
    'src/api/completions.ts': ['readCompletionPages', 'fetchRecentCompletions'],
    'src/api/client.ts': ['ServiceClient'],
    // What a failed round is handed back or thrown as: part of the reader's contract.
    'src/api/errors.ts': ['TransportError'],
  },
};

/** A value one module imports from another at run time. */
interface ValueImport {
  specifier: string;
  /** The names imported; '*' for a namespace or `export *`, 'default', or '(side effects)'. */
  names: string[];
}

/** Every value a module's text imports at run time, by module specifier. */
export function valueImportsOf(fileName: string, text: string): ValueImport[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ValueImport[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      const clause = node.importClause;
      if (!clause) found.push({ specifier, names: ['(side effects)'] });
      else if (!clause.isTypeOnly) {
        const names: string[] = [];
        if (clause.name) names.push('default');
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
          }
        }
        if (names.length > 0) found.push({ specifier, names });
      }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!node.isTypeOnly) {
        const clause = node.exportClause;
        const names =
          clause && ts.isNamedExports(clause)
            ? clause.elements
                .filter((element) => !element.isTypeOnly)
                .map((element) => (element.propertyName ?? element.name).text)
            : ['*'];
        if (names.length > 0) found.push({ specifier: node.moduleSpecifier.text, names });
      }
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      !node.isTypeOnly &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ specifier: node.moduleReference.expression.text, names: ['*'] });
    } else if (ts.isCallExpression(node)) {
      const [argument] = node.arguments;
      const dynamic =
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require');
      if (dynamic && argument && ts.isStringLiteral(argument)) {
        found.push({ specifier: argument.text, names: ['*'] });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Reads a module's text by absolute path; undefined when there is none. */
type Reader = (absolutePath: string) => string | undefined;

const diskReader: Reader = (absolutePath) =>
  fs.existsSync(absolutePath) && fs.statSync(absolutePath).isFile()
    ? fs.readFileSync(absolutePath, 'utf8')
    : undefined;

function resolve(fromFile: string, specifier: string, read: Reader): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')];
  return (
    candidates.find((candidate) => /\.(ts|js)$/.test(candidate) && read(candidate) !== undefined) ?? null
  );
}

const inside = (folder: string, file: string) => !path.relative(folder, file).startsWith('..');

/**
 * The src/ values a test module brings in at run time, directly or through the test modules it
 * imports (test/support and the like), each as "NAME from src/… (via …)".
 */
export function srcValuesOf(
  file: string,
  read: Reader = diskReader,
  allowed: Record<string, readonly string[]> = {},
): string[] {
  const violations: string[] = [];
  const seen = new Set<string>();
  const walk = (module: string, via: string[]): void => {
    if (seen.has(module)) return;
    seen.add(module);
    const text = read(module);
    if (text === undefined) throw new Error(`No module at ${module}`);
    for (const { specifier, names } of valueImportsOf(module, text)) {
      const target = resolve(module, specifier, read);
      if (!target) continue;
      if (inside(SRC, target)) {
        const relative = path.relative(ROOT, target);
        const through = via.length > 0 ? ` (via ${via.join(' → ')})` : '';
        for (const name of names) {
          if (!(allowed[relative] ?? []).includes(name))
            violations.push(`${name} from ${relative}${through}`);
        }
      } else if (inside(TEST, target)) {
        walk(target, [...via, path.relative(ROOT, target)]);
      }
    }
  };
  walk(path.resolve(ROOT, file), []);
  return violations;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [path.relative(ROOT, file)];
  });
}

const TEST_FILES = filesUnder(TEST);
const MODEL_TESTS = TEST_FILES.filter((file) => /model[^/]*\.test\.ts$/.test(file));
const ORACLES = TEST_FILES.filter(
  (file) => /oracle[^/]*\.ts$/.test(path.basename(file)) && !file.endsWith('.test.ts'),
);
const CHECKED = [...new Set([...MODEL_TESTS, ...NAMED, ...ORACLES])].sort();

describe('the import reader', () => {
  const valuesOf = (text: string) => valueImportsOf('probe.ts', text);

  test('type-only imports and exports bring in nothing', () => {
    expect(
      valuesOf(`
        import type { A } from '../src/a';
        import { type B, type C } from '../src/b';
        export type { D } from '../src/d';
        export { type E } from '../src/e';
      `),
    ).toEqual([]);
  });

  test('every other form of import brings in a value', () => {
    expect(
      valuesOf(`
        import { type A, rowKeys, completionKey as key } from '../src/a';
        import * as everything from '../src/b';
        import fingerprint from '../src/c';
        import '../src/d';
        export { MAX_LISTED } from '../src/e';
        export * from '../src/f';
        import legacy = require('../src/g');
        const later = () => import('../src/h');
        const old = require('../src/i');
      `),
    ).toEqual([
      { specifier: '../src/a', names: ['rowKeys', 'completionKey'] },
      { specifier: '../src/b', names: ['*'] },
      { specifier: '../src/c', names: ['default'] },
      { specifier: '../src/d', names: ['(side effects)'] },
      { specifier: '../src/e', names: ['MAX_LISTED'] },
      { specifier: '../src/f', names: ['*'] },
      { specifier: '../src/g', names: ['*'] },
      { specifier: '../src/h', names: ['*'] },
      { specifier: '../src/i', names: ['*'] },
    ]);
  });

  test('a value that comes through a test module is found, with the way it came', () => {
    const modules: Record<string, string> = {
      'test/x/probe.test.ts': `import { keys } from '../support/helper';\nimport type { T } from '../../src/api/t';`,
      'test/support/helper.ts': `import { rowKeys } from '../../src/api/completion-key';\nimport { deeper } from './deeper';`,
      'test/support/deeper.ts': `import { MAX } from '../../src/lib/limits';`,
      'src/api/completion-key.ts': '',
      'src/api/t.ts': '',
      'src/lib/limits.ts': '',
    };
    const read: Reader = (absolute) => modules[path.relative(ROOT, absolute)];
    expect(srcValuesOf('test/x/probe.test.ts', read)).toEqual([
      'rowKeys from src/api/completion-key.ts (via test/support/helper.ts)',
      'MAX from src/lib/limits.ts (via test/support/helper.ts → test/support/deeper.ts)',
    ]);
    expect(srcValuesOf('test/x/probe.test.ts', read, { 'src/lib/limits.ts': ['MAX'] })).toEqual([
      'rowKeys from src/api/completion-key.ts (via test/support/helper.ts)',
    ]);
  });
});

test('the checked files are found: every model test, the named tests and the oracles', () => {
  for (const file of NAMED) expect(TEST_FILES).toContain(file);
  expect(MODEL_TESTS).toEqual(
    expect.arrayContaining([
      'test/refresh/digest-model.test.ts',
      'test/equipment/trusted-cells-model.test.ts',
    ]),
  );
  expect(ORACLES).toEqual(
    expect.arrayContaining(['test/support/record-key-oracle.ts', 'test/support/training-oracle.ts']),
  );
  for (const file of Object.keys(SUBJECTS)) expect(CHECKED).toContain(file);
});

test.each(CHECKED)('%s computes what it expects without src/', (file) => {
  expect(srcValuesOf(file, diskReader, SUBJECTS[file])).toEqual([]);
});
