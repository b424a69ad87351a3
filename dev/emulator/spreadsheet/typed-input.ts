/**
 * What a string becomes when Sheets reads it "as if typed" (setValue/setValues on a cell whose format
 * is not plain text '@', and a user typing). This is where scripts lose data: ids lose leading zeros,
 * "22 34" becomes 2234, "-abc" becomes an error, "(5)" becomes -5, "1/2/2024" a date. The emulator
 * parses at least as eagerly as Sheets, in the spreadsheet's locale (locale-conventions.ts), so that a
 * script which forgets the '@' format or the leading apostrophe fails here too:
 * - numbers with the locale's decimal mark and thousands separators ("1,234.5"; de_DE "1.234,5";
 *   fr_FR "1 234,5" with normal, no-break or narrow no-break spaces), digits split by spaces, and
 *   scientific notation ("1e3", de_DE "1,5E3");
 * - signs, and parentheses for negatives: "-5", "+7", "(5)" is −5;
 * - currencies before or after the number ("$1,234.50", "-$5", "$-5", "£5", "€5", "5 €"), given a
 *   currency format; percentages ("7%", de_DE/fr_FR "7,5 %"), given a percent format;
 * - dates: ISO "2024-01-02" everywhere; numeric dates in the locale's order (en_US month first, the
 *   others day first) with "/", "." or "-" and two- or four-digit years; month names ("2 Jan 2024",
 *   "Jan 2, 2024", "2. Januar 2024"); times ("12:30", "12:30:15", "1:30 PM"); a date and a time;
 *   each given a date, time or date-time format;
 * - dates without a year ("1/2", "2 Jan", de_DE "1.5"), in the current year of the emulated clock;
 * - booleans, in English and in the locale's words (de_DE "WAHR").
 */
import { type LocaleConventions, MONTHS_BY_NAME, conventionsOf } from './locale-conventions';
import { serialOfInstant, serialOfWallClock, wallClockOfSerial } from './serial-dates';

export type TypedInput =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'number'; value: number; format?: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'formula'; formula: string }
  /** "+…"/"-…" that is not a plain number: Sheets makes it a formula, which computes or fails to parse. */
  | { kind: 'signed-expression'; formula: string; value: number | null };

type TypedNumber = Extract<TypedInput, { kind: 'number' }>;

/** The year it is now in the spreadsheet's time zone: a date typed without a year is in it. */
export function currentYear(workbook: { now: () => number; timeZone: string }): number {
  return wallClockOfSerial(serialOfInstant(workbook.now(), workbook.timeZone)).year;
}

export function parseTypedInput(input: string, locale: string, currentYear: () => number): TypedInput {
  if (input === '') return { kind: 'empty' };
  if (input.startsWith('=')) return { kind: 'formula', formula: input };
  // A leading apostrophe forces text and is not part of the value, as when typed.
  if (input.startsWith("'")) return { kind: 'text', text: input.slice(1) };
  const conventions = conventionsOf(locale);
  const trimmed = input.trim();
  const number = parseNumber(trimmed, conventions);
  if (number !== null) return number;
  if (/^[+-]/.test(trimmed)) {
    return { kind: 'signed-expression', formula: `=${trimmed}`, value: evaluateArithmetic(trimmed) };
  }
  const upper = trimmed.toUpperCase();
  if (conventions.trueWords.includes(upper)) return { kind: 'boolean', value: true };
  if (conventions.falseWords.includes(upper)) return { kind: 'boolean', value: false };
  return parseDateTime(trimmed, conventions, currentYear) ?? { kind: 'text', text: input };
}

const CURRENCY_SYMBOLS = '$£€¥';
const SPACES = ' \u00a0\u202f';

function escapeForClass(characters: readonly string[]): string {
  return characters.map((character) => character.replace(/[\\\]^-]/g, '\\$&')).join('');
}

/** The digits of a number in the locale, without sign, currency or percent; null when it is not one. */
function parseDecimal(
  text: string,
  conventions: LocaleConventions,
): { value: number; scientific: boolean } | null {
  const decimal = conventions.decimalMark === '.' ? '\\.' : ',';
  const group = `[${escapeForClass(conventions.groupSeparators)}]`;
  const integer = `(?:\\d{1,3}(?:${group}\\d{3})+|\\d+(?:[${SPACES}]\\d+)*)`;
  const pattern = new RegExp(`^(?:${integer}(?:${decimal}\\d*)?|${decimal}\\d+)([eE][+-]?\\d+)?$`);
  const match = pattern.exec(text);
  if (!match) return null;
  const digits = [...text]
    .filter((character) => !conventions.groupSeparators.includes(character) && !SPACES.includes(character))
    .join('')
    .replace(conventions.decimalMark, '.');
  return { value: Number(digits), scientific: match[1] !== undefined };
}

/**
 * A number as typed: sign or parentheses, currency before or after, percent after; null for others.
 * Typed currencies and percentages get their format, scientific notation a scientific one.
 */
function parseNumber(text: string, conventions: LocaleConventions): TypedNumber | null {
  const negated = /^\((.+)\)$/.exec(text);
  if (negated) {
    const inner = parseUnsignedNumber(negated[1]!.trim(), conventions);
    return inner && { ...inner, value: -inner.value };
  }
  const signed = new RegExp(`^([${CURRENCY_SYMBOLS}]?)[${SPACES}]*([+-])(.*)$`).exec(text);
  if (signed) {
    const [, currency, sign, rest] = signed;
    const unsigned = parseUnsignedNumber(currency + rest!.trim(), conventions);
    return unsigned && (sign === '-' ? { ...unsigned, value: -unsigned.value } : unsigned);
  }
  return parseUnsignedNumber(text, conventions);
}

function parseUnsignedNumber(text: string, conventions: LocaleConventions): TypedNumber | null {
  const currency = new RegExp(
    `^(?:([${CURRENCY_SYMBOLS}])[${SPACES}]*(.+)|(.+?)[${SPACES}]*([${CURRENCY_SYMBOLS}]))$`,
  ).exec(text);
  if (currency) {
    const [, before, afterIt, beforeIt, after] = currency;
    const number = parseDecimal((afterIt ?? beforeIt)!, conventions);
    if (!number) return null;
    const symbol = `"${before ?? after}"`;
    return {
      kind: 'number',
      value: number.value,
      format: before ? `${symbol}#,##0.00` : `#,##0.00 ${symbol}`,
    };
  }
  const percent = new RegExp(`^(.+?)[${SPACES}]*%$`).exec(text);
  if (percent) {
    const number = parseDecimal(percent[1]!, conventions);
    if (!number) return null;
    return {
      kind: 'number',
      value: number.value / 100,
      format: Number.isInteger(number.value) ? '0%' : '0.00%',
    };
  }
  const number = parseDecimal(text, conventions);
  if (!number) return null;
  return number.scientific
    ? { kind: 'number', value: number.value, format: '0.00E+00' }
    : { kind: 'number', value: number.value };
}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
  format: string;
}

interface ClockTime {
  hours: number;
  minutes: number;
  seconds: number;
  format: string;
}

function parseDateTime(
  text: string,
  conventions: LocaleConventions,
  currentYear: () => number,
): TypedNumber | null {
  const time = parseTime(text);
  if (time) return typedDateTime({ year: 1899, month: 12, day: 30, format: '' }, time);
  // A date, then maybe a time after a space or a "T" (ISO); the split is tried at each space.
  const date = parseDate(text, conventions, currentYear);
  if (date) return typedDateTime(date, null);
  for (const split of text.matchAll(/[ T]+/g)) {
    const datePart = parseDate(text.slice(0, split.index), conventions, currentYear);
    const timePart = datePart && parseTime(text.slice(split.index + split[0].length));
    if (datePart && timePart) return typedDateTime(datePart, timePart);
  }
  return null;
}

function typedDateTime(date: CalendarDate, time: ClockTime | null): TypedNumber | null {
  const serial = serialOfWallClock(
    date.year,
    date.month,
    date.day,
    time?.hours,
    time?.minutes,
    time?.seconds,
  );
  if (serial === null) return null;
  const format = [date.format, time?.format].filter(Boolean).join(' ');
  return { kind: 'number', value: serial, format };
}

/** Two-digit years: 00–29 are 2000–2029, 30–99 are 1930–1999, as Sheets reads them; none is this year. */
function fullYear(digits: string | undefined, currentYear: () => number): number {
  if (digits === undefined) return currentYear();
  const year = Number(digits);
  if (digits.length > 2) return year;
  return year < 30 ? 2000 + year : 1900 + year;
}

const MONTH_NAME = String.raw`(\p{L}+\.?)`;

function parseDate(
  text: string,
  conventions: LocaleConventions,
  currentYear: () => number,
): CalendarDate | null {
  const iso = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})$/.exec(text);
  if (iso) return { year: Number(iso[1]), month: Number(iso[3]), day: Number(iso[4]), format: 'yyyy-mm-dd' };
  const numeric = /^(\d{1,2})([-/.])(\d{1,2})(?:\2(\d{4}|\d{2}))?\.?$/.exec(text);
  if (numeric) {
    const [, first, , second, year] = numeric;
    const [day, month] = conventions.dayFirst ? [first, second] : [second, first];
    return {
      year: fullYear(year, currentYear),
      month: Number(month),
      day: Number(day),
      format: conventions.dateFormat,
    };
  }
  const dayFirst = new RegExp(String.raw`^(\d{1,2})\.?[ -]?${MONTH_NAME}(?:[ ,-]*(\d{4}|\d{2}))?$`, 'u').exec(
    text,
  );
  if (dayFirst) {
    const [, day, name, year] = dayFirst;
    return namedDate(name!, Number(day), fullYear(year, currentYear), 'd mmm yyyy');
  }
  const monthFirst = new RegExp(
    String.raw`^${MONTH_NAME} (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?$`,
    'u',
  ).exec(text);
  if (monthFirst) {
    const [, name, day, year] = monthFirst;
    return namedDate(name!, Number(day), fullYear(year, currentYear), 'mmm d, yyyy');
  }
  // "Jan 2024" is its first day.
  const monthOnly = new RegExp(String.raw`^${MONTH_NAME}[ ,-]*(\d{4})$`, 'u').exec(text);
  if (monthOnly) return namedDate(monthOnly[1]!, 1, Number(monthOnly[2]), 'mmm yyyy');
  return null;
}

function namedDate(name: string, day: number, year: number, format: string): CalendarDate | null {
  const month = MONTHS_BY_NAME.get(name.toLowerCase().replace(/\.$/, ''));
  return month === undefined ? null : { year, month, day, format };
}

function parseTime(text: string): ClockTime | null {
  const match = /^(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?\s*([ap]\.?m\.?)?$/i.exec(text);
  if (!match) return null;
  const [, hourText, minutes, seconds, meridiem] = match;
  // "12" alone is a number; "1 PM" is a time.
  if (minutes === undefined && meridiem === undefined) return null;
  let hours = Number(hourText);
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (/^p/i.test(meridiem) ? 12 : 0);
  }
  const clock = meridiem ? (seconds ? 'h:mm:ss AM/PM' : 'h:mm AM/PM') : seconds ? 'hh:mm:ss' : 'hh:mm';
  return { hours, minutes: Number(minutes ?? 0), seconds: Number(seconds ?? 0), format: clock };
}

/**
 * Arithmetic over number literals (+ - * / ^ % and parentheses), as Sheets computes "+1+2" typed
 * into a cell. Null when the text is not such an expression (then Sheets shows a parse error).
 */
export function evaluateArithmetic(text: string): number | null {
  const tokens = text.match(/\d*\.?\d+(?:[eE][+-]?\d+)?|\d+\.|[-+*/^%()]|\s+|./g) ?? [];
  const meaningful = tokens.filter((token) => !/^\s+$/.test(token));
  let position = 0;
  const peek = (): string | undefined => meaningful[position];
  const take = (): string | undefined => meaningful[position++];

  function expression(): number | null {
    let value = term();
    while (value !== null && (peek() === '+' || peek() === '-')) {
      const operator = take();
      const right = term();
      if (right === null) return null;
      value = operator === '+' ? value + right : value - right;
    }
    return value;
  }
  function term(): number | null {
    let value = unary();
    while (value !== null && (peek() === '*' || peek() === '/')) {
      const operator = take();
      const right = unary();
      if (right === null) return null;
      value = operator === '*' ? value * right : value / right;
    }
    return value;
  }
  function unary(): number | null {
    if (peek() === '-' || peek() === '+') {
      const operator = take();
      const value = unary();
      return value === null ? null : operator === '-' ? -value : value;
    }
    return power();
  }
  function power(): number | null {
    const base = percent();
    if (base === null || peek() !== '^') return base;
    take();
    const exponent = unary();
    return exponent === null ? null : base ** exponent;
  }
  function percent(): number | null {
    let value = primary();
    while (value !== null && peek() === '%') {
      take();
      value /= 100;
    }
    return value;
  }
  function primary(): number | null {
    const token = take();
    if (token === '(') {
      const value = expression();
      return take() === ')' ? value : null;
    }
    return token !== undefined && /^(\d*\.?\d+(?:[eE][+-]?\d+)?|\d+\.)$/.test(token) ? Number(token) : null;
  }

  const value = expression();
  return value !== null && position === meaningful.length ? value : null;
}
