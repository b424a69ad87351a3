/**
 * Every relative link and image in README.md and docs/ leads to a file that exists, and to one of its
 * headings when it names one: a doc moved or a heading renamed breaks no link unseen. And every
 * module and test docs/architecture.md names exists: a file moved or renamed leaves no rule pointing
 * at nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

interface Link {
  line: number;
  target: string;
}

/** The markdown without its fenced blocks and code spans, where a bracket is not a link. */
function withoutCode(markdown: string): string {
  return markdown
    .replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length));
}

/** Links and images that point inside the repository: no scheme, no mail address. */
function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, index) => {
      for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1]!;
        if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ line: index + 1, target });
      }
    });
  return links;
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const headings = withoutCode(markdown.replace(/`/g, '')).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(
    headings.map((heading) =>
      heading
        .replace(/^#+ /, '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/** "file:line: target" for each link of `file` that leads nowhere; `read` gives a file's text or null. */
function brokenLinks(file: string, read: (file: string) => string | null): string[] {
  const markdown = read(file)!;
  return relativeLinks(markdown).flatMap(({ line, target }) => {
    const [pathPart, anchor] = target.split('#') as [string, string | undefined];
    const linked = pathPart === '' ? file : path.join(path.dirname(file), decodeURIComponent(pathPart));
    const text = read(linked);
    const found = text !== null && (anchor === undefined || anchorsOf(text).has(anchor));
    return found ? [] : [`${file}:${line}: ${target}`];
  });
}

/** A file's text, '' for a folder (it has no headings), null when nothing is there. */
function readFromDisk(file: string): string | null {
  const absolute = path.join(ROOT, file);
  if (!fs.existsSync(absolute)) return null;
  return fs.statSync(absolute).isDirectory() ? '' : fs.readFileSync(absolute, 'utf8');
}

function markdownFiles(folder: string): string[] {
  return fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(file);
    return entry.name.endsWith('.md') ? [file] : [];
  });
}

test('every relative link in README.md and docs/ leads to a file and heading that exist', () => {
  const files = ['README.md', ...markdownFiles('docs')];
  expect(files).toContain(path.join('docs', 'user-guide.md'));
  expect(files.flatMap((file) => brokenLinks(file, readFromDisk))).toEqual([]);
});

test('every file of src/, dev/ and test/ that docs/architecture.md names exists', () => {
  const named = [
    ...fs
      .readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8')
      .matchAll(/`((?:src|dev|test)\/[^`\s*]*)`/g),
  ].map((match) => match[1]!);
  expect(named).toContain('test/architecture.test.ts');
  expect(named.filter((file) => readFromDisk(file) === null)).toEqual([]);
});

test('a link to a missing file, a missing heading or a moved image is reported with its line', () => {
  const files: Record<string, string> = {
    'README.md': [
      '# Safety Sync',
      'See [the guide](docs/guide.md#the-tabs) and [its runs](docs/guide.md#runs).',
      '![Settings](docs/settings.png) and [admin](docs/admin.md), [Google](https://example.com).',
      '`[not a link](nowhere.md)`',
      '```',
      '[not a link either](nowhere.md)',
      '```',
      '[Up](#safety-sync), [down](#missing)',
    ].join('\n'),
    'docs/guide.md': '# Guide\n\n## The tabs\n\n![Shot](img/settings.png)',
    'docs/img/settings.png': '',
  };
  const read = (file: string) => files[path.normalize(file)] ?? null;

  expect(brokenLinks('README.md', read)).toEqual([
    'README.md:2: docs/guide.md#runs',
    'README.md:3: docs/settings.png',
    'README.md:3: docs/admin.md',
    'README.md:8: #missing',
  ]);
  expect(brokenLinks('docs/guide.md', read)).toEqual([]);
});
