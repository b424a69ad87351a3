/**
 * The layout's rules: imports in src/ point one way (capabilities → platform → sheets, api → lib),
 * which eslint enforces (eslint.config.mjs, layerRules; checked here so the rule cannot silently
 * stop applying), and no circle of imports anywhere in src/ or dev/ (a circle makes load order
 * matter and the pieces impossible to read on their own), which eslint cannot see.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Relative imports that exist at run time (type-only ones are erased by the build). */
function runtimeImports(file: string, known: ReadonlySet<string>): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const statements = text.matchAll(
    /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm,
  );
  return [...statements].flatMap(([, specifier]) => {
    const base = path.join(path.dirname(file), specifier!);
    const found = [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')].find((c) => known.has(c));
    return found ? [found] : [];
  });
}

/** Every circle, as the files on it (strongly connected components of more than one file). */
function circles(files: readonly string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(files.map((file) => [file, runtimeImports(file, known)]));
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
      component.push(path.relative(ROOT, member));
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

test('no file in src/ or dev/ is on a circle of imports', () => {
  const files = ['src', 'dev'].flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
  expect(files.length).toBeGreaterThan(100);
  expect(circles(files)).toEqual([]);
});

describe('imports point one way', () => {
  // The CLI, not the ESLint class: jest's module system cannot load the ESM config.
  const lint = (file: string, code: string) => {
    const eslint = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');
    const run = spawnSync(
      process.execPath,
      [eslint, '--stdin', '--stdin-filename', file, '--format', 'json'],
      {
        cwd: ROOT,
        input: code,
        encoding: 'utf8',
      },
    );
    const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null }[] }[];
    return result!.messages.map((message) => message.ruleId);
  };

  test.each([
    ['src/api/probe.ts', "import { readConnection } from '../platform/settings-store';"],
    ['src/lib/probe.ts', "import { fetchUsers } from '../api/users';"],
    ['src/platform/probe.ts', "import { importCompletions } from '../completions/import';"],
    ['src/completions/probe.ts', "import { onOpen } from '../menu';"],
    ['src/platform/probe.ts', "import { showTrainingStatus } from '../trainings/actions';"],
    ['src/trainings/probe.ts', "import { onOpen } from '../menu';"],
  ])('%s may not import from a layer above: %s', (file, line) => {
    expect(lint(file, `${line}\nexport const used = [${line.match(/\{ (\w+) \}/)![1]}];\n`)).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
  });

  test('an import downwards, or of types only, is allowed', () => {
    const code =
      "import { formatCount } from '../lib/numbers';\nimport type { ServiceClient } from '../api/client';\n" +
      'export const used: [typeof formatCount, ServiceClient | null] = [formatCount, null];\n';
    expect(lint('src/platform/probe.ts', code)).toEqual([]);
  });
});
