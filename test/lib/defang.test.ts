/**
 * Defanged text links nothing (src/lib/defang.ts): examples, then seeded generated text mixing words,
 * URLs, domains, addresses and punctuation, read by a link finder that links what mail clients link
 * (test/support/link-finder.ts). A failure names its seed; DEFANG_SEED=n replays one string.
 */
import { SeededRandom } from '../../dev/sample-service/random';
import { defang } from '../../src/lib/defang';
import { linksIn } from '../support/link-finder';

/** The text with the brackets defang adds taken out: what the reader reads. */
function undefanged(text: string): string {
  return text.replace(/\[([.:\u3002\uFF0E\uFF61])\]/g, '$1');
}

test.each([
  ['https://evil.example/login', 'https[:]//evil[.]example/login'],
  ['Action needed: sign in at https://evil.example', 'Action needed: sign in at https[:]//evil[.]example'],
  ['HTTP://EVIL.EXAMPLE', 'HTTP[:]//EVIL[.]EXAMPLE'],
  ['ftp://10.0.0.1/x', 'ftp[:]//10.0.0.1/x'],
  ['http://localhost:8080/', 'http[:]//localhost:8080/'],
  ['svn+ssh://host', 'svn+ssh[:]//host'],
  ['//evil.example/path', '//evil[.]example/path'],
  ['mailto:a@b.co', 'mailto[:]a@b[.]co'],
  ['javascript:alert(1)', 'javascript[:]alert(1)'],
  ['Data:text/html,x', 'Data[:]text/html,x'],
  ['tel:+15550100', 'tel[:]+15550100'],
  ['file:///etc/passwd', 'file[:]///etc/passwd'],
  ['www.example', 'www[.]example'],
  ['WWW.1example', 'WWW[.]1example'],
  ['evil.example', 'evil[.]example'],
  ['see example.com.', 'see example[.]com.'],
  ['a@b.co', 'a@b[.]co'],
  ['owner+"x"@example.com', 'owner+"x"@example[.]com'],
  ['sub.domain.co.uk/path?q=a.b', 'sub[.]domain[.]co[.]uk/path?q=a[.]b'],
  ['v2.io', 'v2[.]io'],
  ['bücher.de', 'bücher[.]de'],
  ['пример.рф', 'пример[.]рф'],
  ['例え。テスト', '例え[。]テスト'],
  ['evil．example', 'evil[．]example'],
  ['evil\u200B.example', 'evil\u200B[.]example'],
  ['evil.\u00ADexample', 'evil[.]\u00ADexample'],
  ['example.xn--p1ai', 'example[.]xn--p1ai'],
])('%s → %s', (text, expected) => {
  expect(defang(text)).toBe(expected);
  expect(linksIn(defang(text))).toEqual([]);
});

test.each([
  '3.5 hours',
  'v1.2 of the form',
  'Version 10.04',
  'Done. Next step',
  'Forklift: Monthly check',
  'Anna Müller: First aid',
  'Action needed: sign in',
  'Training data: 12 rows',
  'Ratio 3:2, 10:30',
  '1.2.3.4',
  '…and more',
  'Harness & lanyard',
  "O'Brien",
  '',
])('%j stays as it was', (text) => {
  expect(defang(text)).toBe(text);
});

test('the link finder finds what mail clients link', () => {
  for (const text of [
    'https://x',
    'see www.a',
    'example.com',
    'a@b.co',
    'mailto:x',
    'bücher.de',
    'evil\u200B.example',
  ]) {
    expect(linksIn(text)).not.toEqual([]);
  }
});

const WORDS = ['Action', 'needed', 'sign', 'in', 'at', 'Forklift', 'check', 'Müller', 'пример', '例え', 'v2'];
const SCHEMES = ['https', 'http', 'HTTPS', 'ftp', 'svn+ssh', 'mailto', 'javascript', 'data', 'tel', 'file'];
const TLDS = ['com', 'example', 'co', 'uk', 'de', 'рф', 'テスト', 'xn--p1ai', 'IO', 'a'];
const DOTS = ['.', '.', '.', '\u3002', '\uFF0E', '\uFF61'];
const INVISIBLE = ['', '', '', '\u200B', '\u00AD', '\u2060'];
const PUNCTUATION = [
  ' ',
  ' ',
  ', ',
  ': ',
  '. ',
  '(',
  ')',
  '"',
  "'",
  '<',
  '>',
  '/',
  '@',
  ':',
  '//',
  '…',
  '[',
  ']',
];
const SOUP = 'aZ09.:/@-_wW\u3002 ';

function label(random: SeededRandom): string {
  return random.chance(0.2) ? String(random.int(0, 999)) : random.pick(WORDS).toLowerCase();
}

function domain(random: SeededRandom): string {
  const labels = Array.from({ length: random.int(1, 3) }, () => label(random));
  const dot = () => random.pick(INVISIBLE) + random.pick(DOTS) + random.pick(INVISIBLE);
  return labels.join(dot()) + dot() + random.pick(TLDS);
}

/** One piece of text: a word, a number, a URL, a domain, an address, punctuation or a character soup. */
function piece(random: SeededRandom): string {
  switch (random.int(0, 8)) {
    case 0:
      return random.pick(WORDS);
    case 1:
      return `${random.int(0, 99)}.${random.int(0, 99)}`;
    case 2:
      return `${random.pick(SCHEMES)}:${random.chance(0.7) ? '//' : ''}${domain(random)}${random.chance(0.5) ? '/login?next=a.b' : ''}`;
    case 3:
      return domain(random);
    case 4:
      return `${random.pick(['www', 'WWW'])}${random.pick(DOTS)}${label(random)}`;
    case 5:
      return `${label(random)}${random.pick(['+x', '.y', ''])}@${domain(random)}`;
    case 6:
      return Array.from({ length: random.int(1, 12) }, () => random.pick([...SOUP])).join('');
    default:
      return random.pick(PUNCTUATION);
  }
}

const SEEDS = process.env['DEFANG_SEED']
  ? [Number(process.env['DEFANG_SEED'])]
  : Array.from({ length: 1_000 }, (_, index) => index + 1);

test(`${SEEDS.length} generated texts: no link once defanged, readable as before, and defanging twice changes nothing`, () => {
  const failures: string[] = [];
  for (const seed of SEEDS) {
    const random = new SeededRandom(seed, 'defang');
    const text = Array.from({ length: random.int(1, 12) }, () => piece(random)).join('');
    const defanged = defang(text);
    const links = linksIn(defanged);
    if (links.length > 0) {
      failures.push(
        `seed ${seed}: ${JSON.stringify(text)} → ${JSON.stringify(defanged)} links ${JSON.stringify(links)}`,
      );
    } else if (!text.includes('[') && undefanged(defanged) !== text) {
      failures.push(`seed ${seed}: ${JSON.stringify(text)} → ${JSON.stringify(defanged)} reads differently`);
    } else if (defang(defanged) !== defanged) {
      failures.push(`seed ${seed}: ${JSON.stringify(defanged)} changes when defanged again`);
    }
  }
  expect(failures).toEqual([]);
});
