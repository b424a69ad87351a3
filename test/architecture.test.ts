/**
 * The layout's rules. Imports in src/ point one way, from the layers above to the layers below:
 *
 *   main.ts, menu.ts → composers (refresh/, formulas/, settings/) → capabilities (trainings/,
 *   equipment/) → platform/ → sheets/ | api/ → lib/
 *
 * A capability owns one subject end to end and never imports another capability; only the
 * composers reach across capabilities. Type-only imports count like the others (a type names what
 * it depends on just the same), with one stated exception: the dialog contract
 * (src/platform/dialog/server-functions.ts) names main's exports by `typeof import`, and the
 * dialogs' clients and the menu reach that contract there. No file in src/ or dev/ is on a circle
 * of imports (a circle makes load order matter and the pieces impossible to read on their own).
 *
 * eslint enforces the layers as the code is written (eslint.config.mjs, layerRules), which the
 * probes below check so that the rule cannot silently stop applying; this file checks the whole
 * graph. The same check from the command line, from the repository's root:
 *
 *   node ../shared/tools/import-graph.mjs src dev --layers 'src/main.ts,src/menu.ts|src/refresh|src/formulas|src/settings,src/trainings|src/equipment,src/platform,src/sheets|src/api,src/lib'
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** Top layer first; within a layer, `|` separates its folders (or files). */
const LAYERS =
  'src/main.ts,src/menu.ts|src/refresh|src/formulas|src/settings,src/trainings|src/equipment,src/platform,src/sheets|src/api,src/lib';
/** The layer whose folders may not import one another. */
const CAPABILITIES = 'src/trainings|src/equipment';
/** The one import left out of every rule here: the dialog contract naming main's exports by type. */
const DIALOG_CONTRACT = { from: 'src/platform/dialog/server-functions.ts', to: 'src/main.ts' };

interface Import {
  from: string;
  to: string;
  /** False for a type-only import, which the build erases. */
  runtime: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/**
 * Every relative import of a file, type-only ones included: import and export statements (`import
 * type`, `{ type X }` and `export type … from` alike) and `import('…')` expressions, which is how
 * `typeof import` names a module.
 */
function importsOf(file: string, known: ReadonlySet<string>): { to: string; runtime: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  const statements = text.matchAll(/^(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm);
  const expressions = text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g);
  return [...statements, ...expressions].flatMap(([statement, specifier]) => {
    const base = path.join(path.dirname(file), specifier!);
    const found = [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')].find((c) => known.has(c));
    return found ? [{ to: path.relative(ROOT, found), runtime: isRuntime(statement) }] : [];
  });
}

/** Whether an import is still there once the build erases types: not `import type`, `export type`, `typeof import`. */
function isRuntime(statement: string): boolean {
  return !/^(?:import|export)\s+type\b/.test(statement) && !statement.startsWith('import(');
}

function importGraph(): Import[] {
  const files = ['src', 'dev'].flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
  const known = new Set(files);
  return files.flatMap((file) =>
    importsOf(file, known).map((edge) => ({ from: path.relative(ROOT, file), ...edge })),
  );
}

const isDialogContract = ({ from, to }: Import) => from === DIALOG_CONTRACT.from && to === DIALOG_CONTRACT.to;

/** Every circle, as the files on it (strongly connected components of more than one file). */
function circles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const { from, to } of imports) {
    edges.set(from, [...(edges.get(from) ?? []), to]);
    if (!edges.has(to)) edges.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of edges.get(file)!) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, low.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The folder (or file) of LAYERS that holds `file`, and the index of its layer; null outside them. */
function placeOf(file: string): { layer: number; part: string } | null {
  const layers = LAYERS.split(',').map((layer) => layer.split('|'));
  for (const [layer, parts] of layers.entries()) {
    const part = parts.find((p) => file === p || file.startsWith(`${p}/`));
    if (part) return { layer, part };
  }
  return null;
}

/** Imports that go up a layer, or from one capability to another. */
function layerBreaches(imports: readonly Import[]): string[] {
  const capabilities = CAPABILITIES.split('|');
  return imports.flatMap(({ from, to }) => {
    const source = placeOf(from);
    const target = placeOf(to);
    if (!source || !target) return [];
    const upward = target.layer < source.layer;
    const across =
      source.part !== target.part && capabilities.includes(source.part) && capabilities.includes(target.part);
    return upward || across ? [`${from} → ${to}`] : [];
  });
}

describe('the import graph of src/ and dev/', () => {
  const graph = importGraph();

  test('reads type-only imports, the dialog contract among them', () => {
    expect(graph.length).toBeGreaterThan(500);
    expect(graph.filter(isDialogContract)).toHaveLength(1);
  });

  test('no file in src/ or dev/ is on a circle of imports, type-only ones included', () => {
    expect(circles(graph.filter((edge) => !isDialogContract(edge)))).toEqual([]);
  });

  test('no import goes up a layer or from one capability to another, type-only ones included', () => {
    expect(layerBreaches(graph.filter((edge) => !isDialogContract(edge)))).toEqual([]);
  });
});

describe('eslint refuses imports against the layers', () => {
  /**
   * Lints each probe as if it were the file named, all in one eslint run (jest's module system
   * cannot load the ESM config, so the linting runs in a child process).
   */
  const lintAll = (probes: readonly (readonly [string, string])[]): string[][] => {
    const script = `
      import { ESLint } from 'eslint';
      const probes = JSON.parse(process.argv[1]);
      const eslint = new ESLint();
      const results = [];
      for (const [filePath, code] of probes) {
        const [result] = await eslint.lintText(code, { filePath });
        results.push(result.messages.map((message) => message.ruleId));
      }
      console.log(JSON.stringify(results));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(probes)], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout) as string[][];
  };
  /** A probe that uses what it imports (a re-export needs no use), so only the import can be at fault. */
  const probe = (file: string, line: string) => {
    if (line.startsWith('export')) return [file, `${line}\n`] as const;
    const used = line.match(/\{ (?:type )?(\w+) \}/)![1]!;
    const typeOnly = line.startsWith('import type') || line.includes('{ type ');
    return [
      file,
      `${line}\n${typeOnly ? `export type Used = ${used};` : `export const used = [${used}];`}\n`,
    ] as const;
  };

  const refused = [
    ['src/api/probe.ts', "import { readConnection } from '../platform/settings-store';"],
    ['src/lib/probe.ts', "import { fetchUsers } from '../api/users';"],
    ['src/platform/probe.ts', "import { showTrainingStatus } from '../trainings/actions';"],
    ['src/trainings/probe.ts', "import { onOpen } from '../menu';"],
    // A capability importing another capability, at either depth.
    ['src/trainings/probe.ts', "import { InspectionStatus } from '../equipment/inspections';"],
    ['src/equipment/probe.ts', "import { TrainingStatus } from '../trainings/training-status';"],
    ['src/trainings/completions/probe.ts', "import { importEquipment } from '../../equipment/import';"],
    // A capability importing a composer.
    ['src/equipment/probe.ts', "import { refreshAll } from '../refresh/refresh-all';"],
    ['src/trainings/completions/probe.ts', "import { sharingView } from '../../settings/sharing';"],
    // Type-only imports upwards, in each of their forms.
    ['src/platform/probe.ts', "import type { TrainingStatus } from '../trainings/training-status';"],
    ['src/trainings/probe.ts', "import { type RefreshSchedule } from '../refresh/schedule-store';"],
    ['src/sheets/probe.ts', "export type { Connection } from '../platform/settings-store';"],
  ] as const;

  const allowed = [
    // Downwards, within a capability, and a composer reaching a capability.
    ['src/platform/probe.ts', "import { formatCount } from '../lib/numbers';"],
    ['src/trainings/completions/probe.ts', "import { TrainingStatus } from '../training-status';"],
    ['src/equipment/probe.ts', "import { fetchEquipmentTypes } from '../api/equipment';"],
    ['src/settings/probe.ts', "import { importCompletionsStep } from '../trainings/completions/actions';"],
    ['src/refresh/probe.ts', "import { importEquipment } from '../equipment/import';"],
    ['src/platform/probe.ts', "import type { ServiceClient } from '../api/client';"],
  ] as const;

  const typeOfImport = [
    'src/settings/probe.ts',
    "type ServerExports = typeof import('../main');\nexport type Used = ServerExports;\n",
  ] as const;

  /** A module of `lines` lines before a function of `statements` statements (and four lines more). */
  const sized = (lines: number, statements: number) =>
    [
      'src/lib/probe.ts',
      [
        ...Array.from({ length: lines }, (_, index) => `export const f${index} = ${index};`),
        'export function long(): number {',
        '  let total = 0;',
        ...Array.from({ length: statements }, (_, index) => `  total += ${index};`),
        '  return total;',
        '}',
      ].join('\n') + '\n',
    ] as const;
  // 400 lines with a function of 80; then a line more in the file, and in the function.
  const sizes = [sized(320, 76), sized(321, 76), sized(319, 77)] as const;

  let refusedRules: string[][];
  let allowedRules: string[][];
  let typeOfImportRules: string[];
  let sizeRules: string[][];
  beforeAll(() => {
    const results = lintAll([
      ...refused.map(([file, line]) => probe(file, line)),
      ...allowed.map(([file, line]) => probe(file, line)),
      typeOfImport,
      ...sizes,
    ]);
    refusedRules = results.slice(0, refused.length);
    allowedRules = results.slice(refused.length, refused.length + allowed.length);
    typeOfImportRules = results[refused.length + allowed.length]!;
    sizeRules = results.slice(-sizes.length);
  });

  test.each(refused.map((entry, index) => [...entry, index] as const))(
    '%s may not: %s',
    (_file, _line, index) => {
      expect(refusedRules[index]).toEqual(['no-restricted-imports']);
    },
  );

  test.each(allowed.map((entry, index) => [...entry, index] as const))(
    '%s may: %s',
    (_file, _line, index) => {
      expect(allowedRules[index]).toEqual([]);
    },
  );

  test('only the dialog contract names a module by typeof import', () => {
    expect(typeOfImportRules).toEqual(['no-restricted-syntax']);
  });

  test('a file of more than 400 lines, or a function of more than 80, is refused', () => {
    expect(sizeRules).toEqual([[], ['max-lines'], ['max-lines-per-function']]);
  });
});
