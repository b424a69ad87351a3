/**
 * Builds dist/, exactly what clasp pushes: Code.js (src/main.ts bundled by esbuild into one IIFE,
 * followed by one real top-level function per export of src/main.ts, carrying that export's JSDoc so
 * `@customfunction` autocomplete survives bundling), appsscript.json and the dialog HTML.
 *
 * Apps Script has no modules: every top-level function is an entry point that any editor can type
 * into a cell, so only the exports of src/main.ts become global, and the bundle itself lives in one
 * private variable whose name ends in `_` (callable neither from cells nor from google.script.run).
 */
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export const BUNDLE_VARIABLE = 'SafetySync_';
const ROOT = path.resolve(__dirname, '..');
const ENTRY = path.join(ROOT, 'src', 'main.ts');
const SRC_DIR = path.join(ROOT, 'src');

export interface EntryPoint {
  name: string;
  /** The `/** … *\/` block written above the declaration, or '' when it has none. */
  jsDoc: string;
}

/** Reads the exports of src/main.ts through the type checker, following re-exports to their declarations. */
export function listEntryPoints(entryFile = ENTRY): EntryPoint[] {
  const program = ts.createProgram([entryFile], { target: ts.ScriptTarget.ES2020, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entryFile);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`Cannot read the exports of ${entryFile}`);
  return checker.getExportsOfModule(moduleSymbol).map((exported) => {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = target.declarations?.[0];
    if (!declaration || !ts.isFunctionDeclaration(declaration)) {
      throw new Error(`src/main.ts exports ${exported.name}, which is not a function declaration`);
    }
    return { name: exported.name, jsDoc: leadingJsDoc(declaration) };
  });
}

function leadingJsDoc(node: ts.Node): string {
  const text = node.getSourceFile().getFullText();
  const comments = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const docs = comments.map((range) => text.slice(range.pos, range.end)).filter((c) => c.startsWith('/**'));
  return docs.at(-1) ?? '';
}

export function renderWrappers(entryPoints: readonly EntryPoint[]): string {
  return entryPoints
    .map(({ name, jsDoc }) => {
      const doc = jsDoc ? `${jsDoc.replace(/^[ \t]+/gm, (indent) => (indent ? ' ' : ''))}\n` : '';
      return `${doc}function ${name}(...args) {\n  return ${BUNDLE_VARIABLE}.${name}(...args);\n}\n`;
    })
    .join('\n');
}

/** The manifest, with urlFetchWhitelist set to the service's origin when one is given at build time. */
export function renderManifest(
  manifest: Record<string, unknown>,
  serviceBaseUrl: string | undefined,
): string {
  const result = { ...manifest };
  if (serviceBaseUrl) {
    const url = new URL(serviceBaseUrl);
    if (url.protocol !== 'https:') {
      throw new Error(`SAFETY_SYNC_SERVICE_URL must be an https:// URL (got ${url.protocol}//${url.host})`);
    }
    result.urlFetchWhitelist = [`https://${url.host}/`];
  } else {
    delete result.urlFetchWhitelist;
  }
  return `${JSON.stringify(result, null, 2)}\n`;
}

/**
 * How src/ becomes Apps Script code; tests bundle single modules the same way. `urlFetchWhitelist`
 * is the pushed manifest's (src/platform/url-fetch-whitelist.ts): a script cannot read its manifest.
 */
export function bundleOptions(
  entry = ENTRY,
  urlFetchWhitelist: readonly string[] | null = null,
): esbuild.BuildOptions & { write: false } {
  return {
    define: { SAFETY_SYNC_URL_FETCH_WHITELIST: JSON.stringify(urlFetchWhitelist) },
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: BUNDLE_VARIABLE,
    target: 'es2020',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    charset: 'utf8',
    legalComments: 'none',
    // Apps Script loads the whole file at every execution (each custom function's included), so
    // less of it is less to load. Local names are shortened (a third of the file) but every
    // function keeps its own in its `name`, which V8's stack traces show: the executions log still
    // names the function that failed. Short lines keep a line and column at one statement.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: true,
    lineLimit: 160,
    logLevel: 'warning',
  };
}

export async function build(outDir = path.join(ROOT, 'dist')): Promise<void> {
  const source = JSON.parse(fs.readFileSync(path.join(ROOT, 'appsscript.json'), 'utf8'));
  const manifest = renderManifest(source, process.env.SAFETY_SYNC_SERVICE_URL || undefined);
  const { urlFetchWhitelist } = JSON.parse(manifest) as { urlFetchWhitelist?: string[] };
  const bundle = await esbuild.build(bundleOptions(ENTRY, urlFetchWhitelist ?? null));
  const code = bundle.outputFiles[0]!.text;
  const header = '// Safety Sync: built from src/ by dev/build.ts. Do not edit; run `npm run build`.\n';
  const outputs = new Map<string, string>([
    ['Code.js', `${header}${code}\n${renderWrappers(listEntryPoints())}`],
    ['appsscript.json', manifest],
  ]);
  for (const file of dialogPages()) {
    const name = path.basename(file);
    if (outputs.has(name)) throw new Error(`Two dialog pages are called ${name}; dist/ is one folder.`);
    outputs.set(name, renderDialogPage(file));
  }
  writeAtomically(outDir, outputs);
}

/** Each capability keeps its dialog pages beside its code; clasp pushes them side by side. */
function dialogPages(dir = SRC_DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return dialogPages(file);
    return entry.name.endsWith('.html') ? [file] : [];
  });
}

const PARTIALS_DIR = path.join(SRC_DIR, 'platform', 'dialog');
const INCLUDE_LINE = /^([ \t]*)\/\* (include|script): ([\w.-]+) \*\/$/gm;

/**
 * Makes a dialog page whole, so that it arrives in one piece and costs no server call to assemble
 * (rather than HtmlService templates): a line `/* include: NAME *\/` becomes what the dialogs share,
 * src/platform/dialog/NAME (their stylesheet); a line `/* script: NAME *\/` becomes the page's own
 * script, NAME beside the page, bundled with what it imports. Both are indented like the line.
 */
export function renderDialogPage(pageFile: string): string {
  const html = fs.readFileSync(pageFile, 'utf8');
  return html.replace(INCLUDE_LINE, (_line, indent: string, kind: string, name: string) => {
    const text =
      kind === 'script'
        ? dialogScript(path.join(path.dirname(pageFile), name))
        : fs.readFileSync(path.join(PARTIALS_DIR, name), 'utf8');
    return text
      .trimEnd()
      .split('\n')
      .map((line) => (line ? indent + line : line))
      .join('\n');
  });
}

/** The scripts the dialog pages bundle (their `/* script: NAME *\/` lines), each beside its page. */
export function dialogScriptFiles(): string[] {
  return dialogPages().flatMap((page) =>
    [...fs.readFileSync(page, 'utf8').matchAll(INCLUDE_LINE)]
      .filter(([, , kind]) => kind === 'script')
      .map(([, , , name]) => path.join(path.dirname(page), name!)),
  );
}

/**
 * A dialog's TypeScript (type-checked against the server's exports by tsconfig.dialogs.json) as
 * one browser script: an IIFE, so that nothing it declares becomes a global of the page.
 */
function dialogScript(entry: string): string {
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    // Google supports dialogs in current browsers only; the server code is ES2020 as well.
    target: 'es2020',
    platform: 'browser',
    tsconfig: path.join(ROOT, 'tsconfig.dialogs.json'),
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

/**
 * Each file is written beside its place and renamed into it, and files no longer built are removed
 * afterwards, so a test run loading dist/ while another build runs never finds it missing or half-written.
 */
export function writeAtomically(outDir: string, outputs: ReadonlyMap<string, string>): void {
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, content] of outputs) {
    const temporary = path.join(outDir, `.${name}.${process.pid}.tmp`);
    fs.writeFileSync(temporary, content);
    fs.renameSync(temporary, path.join(outDir, name));
  }
  for (const name of fs.readdirSync(outDir)) {
    if (!outputs.has(name) && !name.endsWith('.tmp'))
      fs.rmSync(path.join(outDir, name), { recursive: true, force: true });
  }
}

if (require.main === module) {
  build().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
