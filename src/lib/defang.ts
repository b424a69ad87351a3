/**
 * Text that must not become a link. Mail clients turn a bare URL, a `www.` name, a domain or an
 * e-mail address into a link, in a plain body and in the text of an HTML body alike, so words typed
 * in a spreadsheet or sent by a service ("sign in at https://evil.example") would reach a reader as
 * a link that seems to come from whoever sent the message. Defanged, the text still reads the same
 * and links nothing:
 *
 * - `https://x` → `https[:]//x`: any `:` followed by `//`, whatever the scheme;
 * - `mailto:`, `javascript:`, `data:`, `tel:`, `file:` followed by anything but a space → `mailto[:]`;
 * - `www.` → `www[.]`, even before a digit;
 * - a dot between a letter or digit and a letter, the dot of a domain (`example.com` → `example[.]com`,
 *   `a@b.co` → `a@b[.]co`, `пример.рф` → `пример[.]рф`); the ideographic and full-width dots that
 *   browsers read as dots too, and invisible format characters (zero-width space, soft hyphen)
 *   beside the dot, change nothing to that.
 *
 * A dot between digits stays ("3.5 hours", "v1.2"): no top-level domain is a number, so no client
 * links it, and a bare IPv4 address without a scheme is not linked either. Nothing is removed: taking
 * the inserted brackets out gives the text back. Defanging twice changes nothing more. Pure.
 */

/** `:` before `//`: the scheme of any URL. */
const SCHEME_SLASHES = /:(?=\/\/)/g;

/** Schemes a client links without `//`, when something follows them. */
const SCHEMES_WITHOUT_SLASHES = /(mailto|javascript|data|tel|file):(?=\S)/gi;

/** `www` and a dot: the dot, or one browsers read as a dot (ideographic U+3002, full-width, half-width). */
const WWW = /(www)([.\u3002\uFF0E\uFF61])/gi;

/** Such a dot after a letter or digit and before a letter, invisible format characters (Cf) beside it. */
const DOMAIN_DOT = /(?<=[\p{L}\p{M}\p{N}]\p{Cf}*)([.\u3002\uFF0E\uFF61])(?=\p{Cf}*\p{L})/gu;

/** The text with every would-be link broken by brackets, readable as before. */
export function defang(text: string): string {
  return text
    .replace(SCHEME_SLASHES, '[:]')
    .replace(SCHEMES_WITHOUT_SLASHES, '$1[:]')
    .replace(WWW, '$1[$2]')
    .replace(DOMAIN_DOT, '[$1]');
}
