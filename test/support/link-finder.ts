/**
 * What mail clients turn into a link in text (a plain body, or the text of an HTML body), as
 * generously as any of them: a scheme and `//`, a scheme linked without slashes, `www.`, a name with
 * a top-level domain of two or more letters, an e-mail address. Written for the tests, apart from
 * src/lib/defang.ts, so that the two rules check each other.
 */
const DOT = '[.\\u3002\\uFF0E\\uFF61]';

const LINK_FINDERS: readonly RegExp[] = [
  /[a-z][a-z0-9+.-]*:\/\//i,
  /(?<![\p{L}\p{N}])(?:mailto|javascript|data|tel|file|sms|callto):\S/iu,
  new RegExp(`www${DOT}`, 'i'),
  // A domain: a label of letters, digits and hyphens, a dot, a top-level domain of 2+ letters.
  new RegExp(
    `[\\p{L}\\p{M}\\p{N}](?:[\\p{L}\\p{M}\\p{N}_-]*[\\p{L}\\p{M}\\p{N}])?\\p{Cf}*${DOT}\\p{Cf}*\\p{L}{2,}`,
    'u',
  ),
  // An address: local part, @, a domain.
  new RegExp(`[\\w.+-]+@[\\p{L}\\p{N}-]+(?:${DOT}[\\p{L}\\p{N}-]+)*${DOT}\\p{L}{2,}`, 'u'),
];

/** The first link each finder sees in the text: none when a mail client would link nothing. */
export function linksIn(text: string): string[] {
  return LINK_FINDERS.flatMap((finder) => finder.exec(text)?.[0] ?? []);
}

export interface MailParts {
  subject: string;
  body: string;
  htmlBody: string | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/**
 * Every link a client would make of a message, but the add-on's own (URLs that start with `ownUrl`):
 * in the subject and the plain body, each `href=` or `src=` in the HTML body's tags, and its text as
 * a reader sees it (tags removed, entities read).
 */
export function foreignLinksInMail(mail: MailParts, ownUrl: string): string[] {
  const own = new RegExp(`${ownUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\w#=&;]*`, 'g');
  const htmlBody = mail.htmlBody ?? '';
  const tags = htmlBody.match(/<[^>]*>/g) ?? [];
  const attributes = tags
    .flatMap((tag) => [...tag.matchAll(/\b(?:href|src)\s*=\s*["']?([^"'\s>]*)/gi)])
    .filter(([, url]) => !url!.startsWith(ownUrl))
    .map(([attribute]) => attribute!);
  const htmlText = htmlBody
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]!);
  return [
    ...attributes,
    ...[mail.subject, mail.body, htmlText].flatMap((text) => linksIn(text.replace(own, ' '))),
  ];
}
