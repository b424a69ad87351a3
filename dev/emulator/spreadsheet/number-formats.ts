/**
 * Number formats: which ones make a cell a date, and how a number is displayed under one.
 *
 * Supported: the automatic format, '@' (plain text), numeric patterns built from 0 # ? , . % with
 * quoted or escaped literals and up to three sections (positive;negative;zero), and date-time
 * patterns from y m d h s, AM/PM and fractional seconds ('yyyy-mm-dd hh:mm:ss.000', 'd mmm yyyy',
 * 'dddd', 'h:mm AM/PM'). Month and day names are English whatever the locale. Not supported: colours,
 * conditions ([>100]), elapsed time ([h]), scientific patterns (shown as the automatic format), and
 * the thousands-scaling trailing comma.
 */
import { MONTH_NAMES, WEEKDAY_NAMES } from '../english-calendar';
import { wallClockOfSerial } from './serial-dates';

/** What Sheets reports for a cell whose format was never set (automatic). */
export const AUTOMATIC_NUMBER_FORMAT = '0.###############';
export const PLAIN_TEXT_FORMAT = '@';

/** A stored format, or undefined for the automatic one (which '' and 'General' also select). */
export function normalizeNumberFormat(format: string): string | undefined {
  return format === '' || format === AUTOMATIC_NUMBER_FORMAT || format.toLowerCase() === 'general'
    ? undefined
    : format;
}

interface Piece {
  /** Text shown as is (quoted, escaped, or a currency symbol in brackets). */
  literal: boolean;
  text: string;
}

function splitSections(format: string): string[] {
  const sections: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < format.length; i++) {
    const char = format[i]!;
    if (char === '"') quoted = !quoted;
    if (char === '\\' && !quoted) {
      current += char + (format[++i] ?? '');
      continue;
    }
    if (char === ';' && !quoted) {
      sections.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  sections.push(current);
  return sections;
}

function piecesOf(section: string): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i < section.length; i++) {
    const char = section[i]!;
    if (char === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end === -1 ? section.length : end;
      pieces.push({ literal: true, text: section.slice(i + 1, stop) });
      i = stop;
    } else if (char === '\\') {
      pieces.push({ literal: true, text: section[++i] ?? '' });
    } else if (char === '[') {
      const end = section.indexOf(']', i + 1);
      const stop = end === -1 ? section.length : end;
      const currency = /^\$([^-\]]*)/.exec(section.slice(i + 1, stop));
      if (currency) pieces.push({ literal: true, text: currency[1]! });
      i = stop;
    } else if (char === '_') {
      pieces.push({ literal: true, text: ' ' });
      i++;
    } else if (char === '*') {
      i++; // a fill character: nothing to fill in plain text
    } else {
      pieces.push({ literal: false, text: char });
    }
  }
  return pieces;
}

function codeOf(pieces: Piece[]): string {
  return pieces
    .filter((piece) => !piece.literal)
    .map((piece) => piece.text)
    .join('');
}

/** Formats are parsed once: a large sheet reads the same few formats for every cell. */
function memoized<T>(parse: (format: string) => T): (format: string) => T {
  const parsed = new Map<string, T>();
  return (format) => {
    if (!parsed.has(format)) parsed.set(format, parse(format));
    return parsed.get(format)!;
  };
}

const isDateTimePattern = memoized((format) =>
  /[ymdhs]/i.test(codeOf(piecesOf(splitSections(format)[0] ?? ''))),
);

export function isDateTimeFormat(format: string | undefined): boolean {
  return format !== undefined && format !== PLAIN_TEXT_FORMAT && isDateTimePattern(format);
}

export function formatNumber(value: number, format: string | undefined): string {
  if (format === undefined || format === PLAIN_TEXT_FORMAT) return formatAutomaticNumber(value);
  if (isDateTimeFormat(format)) return formatDateTime(value, format);
  const sections = splitSections(format);
  if (value < 0 && sections.length > 1) return formatNumericSection(-value, sections[1]!);
  if (value === 0 && sections.length > 2) return formatNumericSection(0, sections[2]!);
  return formatNumericSection(value, sections[0]!);
}

function roundHalfAwayFromZero(value: number, decimals: number): number {
  const sign = value < 0 ? -1 : 1;
  // Shifting through the exponent avoids binary artefacts: 1.005 rounds to 1.01, not 1.00.
  return sign * Number(`${Math.round(Number(`${Math.abs(value)}e${decimals}`))}e-${decimals}`);
}

function trimmedDecimal(value: number, maxDecimals: number, minDecimals = 0): string {
  let text = roundHalfAwayFromZero(value, maxDecimals).toFixed(maxDecimals);
  if (maxDecimals > minDecimals) {
    const [integer, decimals = ''] = text.split('.');
    const kept = decimals.slice(0, minDecimals) + decimals.slice(minDecimals).replace(/0+$/, '');
    text = kept ? `${integer}.${kept}` : integer!;
  }
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** The automatic format: up to 15 significant digits and 10 decimals, scientific beyond 10^15. */
export function formatAutomaticNumber(value: number): string {
  const precise = Number(value.toPrecision(15));
  const magnitude = Math.abs(precise);
  if (magnitude >= 1e15 || (magnitude > 0 && magnitude < 1e-10)) {
    const [mantissa, exponent] = precise.toExponential(5).split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa.replace(/\.?0+$/, '')}E${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return trimmedDecimal(precise, 10);
}

function formatNumericSection(value: number, section: string): string {
  const pieces = piecesOf(section);
  const code = codeOf(pieces);
  if (/E[+-]/i.test(code)) return formatAutomaticNumber(value);
  const isPlaceholder = (piece: Piece, chars: string): boolean =>
    !piece.literal && chars.includes(piece.text);
  const start = pieces.findIndex((piece) => isPlaceholder(piece, '0#?.'));
  if (start === -1) return pieces.map((piece) => piece.text).join('');
  let end = start;
  while (end < pieces.length && isPlaceholder(pieces[end]!, '0#?.,')) end++;
  const pattern = codeOf(pieces.slice(start, end));
  const [integerPattern = '', decimalPattern] = pattern.split('.');
  const scaled = code.includes('%') ? value * 100 : value;
  const minDecimals = (decimalPattern ?? '').replace(/[^0]/g, '').length;
  const maxDecimals = (decimalPattern ?? '').replace(/[^0#?]/g, '').length;
  const digits = trimmedDecimal(Math.abs(scaled), maxDecimals, minDecimals);
  const [integerDigits = '', decimalDigits] = digits.split('.');
  const minIntegerDigits = integerPattern.replace(/[^0]/g, '').length;
  let integer =
    integerDigits === '0' && minIntegerDigits === 0 ? '' : integerDigits.padStart(minIntegerDigits, '0');
  if (integerPattern.includes(',')) integer = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const number = decimalPattern === undefined ? integer : `${integer}.${decimalDigits ?? ''}`;
  const isZero = /^[0.,]*$/.test(number);
  const text = (list: Piece[]): string => list.map((piece) => piece.text).join('');
  const sign = scaled < 0 && !isZero ? '-' : '';
  return `${sign}${text(pieces.slice(0, start))}${number}${text(pieces.slice(end))}`;
}

type DateToken =
  | { kind: 'literal'; text: string }
  | { kind: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'; width: number }
  | { kind: 'fraction'; width: number }
  | { kind: 'meridiem'; short: boolean; upper: boolean };

const FIELD_OF_LETTER: Record<string, 'year' | 'month' | 'day' | 'hour' | 'second'> = {
  y: 'year',
  m: 'month',
  d: 'day',
  h: 'hour',
  s: 'second',
};

function dateTokens(section: string): DateToken[] {
  const pieces = piecesOf(section);
  const tokens: DateToken[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const previous = tokens[tokens.length - 1];
    if (piece.literal) {
      tokens.push({ kind: 'literal', text: piece.text });
      continue;
    }
    const meridiem = meridiemAt(pieces, i);
    const field = FIELD_OF_LETTER[piece.text.toLowerCase()];
    if (meridiem) {
      tokens.push(meridiem.token);
      i += meridiem.length - 1;
    } else if (field && previous?.kind === field) {
      previous.width++;
    } else if (field) {
      tokens.push({ kind: field, width: 1 });
    } else if (piece.text === '0' && previous?.kind === 'fraction') {
      previous.width++;
    } else if (piece.text === '0' && isSecondsDot(tokens)) {
      tokens.push({ kind: 'fraction', width: 1 });
    } else {
      tokens.push({ kind: 'literal', text: piece.text });
    }
  }
  return resolveMinutes(tokens);
}

function meridiemAt(pieces: Piece[], index: number): { token: DateToken; length: number } | null {
  const code = pieces
    .slice(index, index + 5)
    .map((piece) => (piece.literal ? '\u0000' : piece.text))
    .join('');
  const match = /^am\/pm/i.exec(code) ?? /^a\/p/i.exec(code);
  if (!match) return null;
  const upper = match[0][0] === 'A';
  return { token: { kind: 'meridiem', short: match[0].length === 3, upper }, length: match[0].length };
}

function isSecondsDot(tokens: DateToken[]): boolean {
  const dot = tokens[tokens.length - 1];
  const beforeDot = tokens[tokens.length - 2];
  return dot?.kind === 'literal' && dot.text === '.' && beforeDot?.kind === 'second';
}

/** "m" means minutes right after an hour or right before a second, and months everywhere else. */
function resolveMinutes(tokens: DateToken[]): DateToken[] {
  const fields = tokens.filter((token) => token.kind !== 'literal');
  return tokens.map((token) => {
    if (token.kind !== 'month' || token.width > 2) return token;
    const index = fields.indexOf(token);
    const before = fields[index - 1];
    const after = fields[index + 1];
    return before?.kind === 'hour' || after?.kind === 'second'
      ? { kind: 'minute', width: token.width }
      : token;
  });
}

const dateTokensOf = memoized((format) => dateTokens(splitSections(format)[0] ?? ''));

export function formatDateTime(serial: number, format: string): string {
  const tokens = dateTokensOf(format);
  const clock = wallClockOfSerial(serial);
  const twelveHour = tokens.some((token) => token.kind === 'meridiem');
  const pad = (value: number, width: number): string => String(value).padStart(width, '0');
  return tokens
    .map((token) => {
      switch (token.kind) {
        case 'literal':
          return token.text;
        case 'year':
          return token.width <= 2 ? pad(clock.year % 100, 2) : pad(clock.year, 4);
        case 'month':
          if (token.width >= 5) return MONTH_NAMES[clock.month - 1]![0]!;
          if (token.width === 4) return MONTH_NAMES[clock.month - 1]!;
          if (token.width === 3) return MONTH_NAMES[clock.month - 1]!.slice(0, 3);
          return pad(clock.month, token.width);
        case 'day':
          if (token.width >= 4) return WEEKDAY_NAMES[clock.weekday]!;
          if (token.width === 3) return WEEKDAY_NAMES[clock.weekday]!.slice(0, 3);
          return pad(clock.day, token.width);
        case 'hour':
          return pad(twelveHour ? ((clock.hours + 11) % 12) + 1 : clock.hours, Math.min(token.width, 2));
        case 'minute':
          return pad(clock.minutes, Math.min(token.width, 2));
        case 'second':
          return pad(clock.seconds, Math.min(token.width, 2));
        case 'fraction':
          return pad(clock.milliseconds, 3).slice(0, token.width);
        case 'meridiem': {
          const text = (clock.hours < 12 ? 'AM' : 'PM').slice(0, token.short ? 1 : 2);
          return token.upper ? text : text.toLowerCase();
        }
      }
    })
    .join('');
}
