/**
 * What a string becomes when Sheets reads it "as if typed" (setValue/setValues on a cell whose format
 * is not plain text '@'). This is where scripts lose data: ids lose leading zeros, "22 34" becomes 2234,
 * "-abc" becomes an error. The emulator parses at least as eagerly as Sheets so that a script which
 * forgets the '@' format fails here too.
 *
 * Parsing is English-style whatever the locale ('.' decimal point, ',' thousands), except slashed
 * dates: en_US reads 1/2/2024 as January 2, every other locale as 1 February.
 */
import { serialOfWallClock } from './serial-dates';

export type TypedInput =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'number'; value: number; format?: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'formula'; formula: string }
  /** "+…"/"-…" that is not a plain number: Sheets makes it a formula, which computes or fails to parse. */
  | { kind: 'signed-expression'; formula: string; value: number | null };

const NUMBER = /^(?:(?:\d+|\d{1,3}(?:,\d{3})+|\d+(?: \d+)+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function parseTypedInput(input: string, locale: string): TypedInput {
  if (input === '') return { kind: 'empty' };
  if (input.startsWith('=')) return { kind: 'formula', formula: input };
  // A leading apostrophe forces text and is not part of the value, as when typed.
  if (input.startsWith("'")) return { kind: 'text', text: input.slice(1) };
  const trimmed = input.trim();
  const number = parseUnsignedNumber(trimmed);
  if (number !== null) return number;
  if (/^[+-]/.test(trimmed)) {
    const signed = parseUnsignedNumber(trimmed.slice(1));
    if (signed !== null) return trimmed.startsWith('-') ? { ...signed, value: -signed.value } : signed;
    return { kind: 'signed-expression', formula: `=${trimmed}`, value: evaluateArithmetic(trimmed) };
  }
  if (/^true$/i.test(trimmed)) return { kind: 'boolean', value: true };
  if (/^false$/i.test(trimmed)) return { kind: 'boolean', value: false };
  return parseDateTime(trimmed, locale) ?? { kind: 'text', text: input };
}

/** "1234", "01234", "1,234.5", "22 34", ".5", "1e3", "5%" (shown as a percentage); null for others. */
function parseUnsignedNumber(text: string): Extract<TypedInput, { kind: 'number' }> | null {
  const percent = text.endsWith('%');
  const body = percent ? text.slice(0, -1) : text;
  if (!NUMBER.test(body)) return null;
  const value = Number(body.replace(/[, ]/g, ''));
  if (!percent) return { kind: 'number', value };
  return { kind: 'number', value: value / 100, format: Number.isInteger(value) ? '0%' : '0.00%' };
}

function parseDateTime(text: string, locale: string): TypedInput | null {
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (iso) {
    const [, year, month, day, hours, minutes, seconds] = iso;
    const dateFormat = 'yyyy-mm-dd';
    return dateInput([year, month, day, hours, minutes, seconds], dateFormat);
  }
  const slashed = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (slashed) {
    const [, first, second, year, hours, minutes, seconds] = slashed;
    const monthFirst = locale === 'en_US';
    const [month, day] = monthFirst ? [first, second] : [second, first];
    return dateInput([year, month, day, hours, minutes, seconds], monthFirst ? 'm/d/yyyy' : 'dd/mm/yyyy');
  }
  const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (time) {
    const [, hours, minutes, seconds] = time;
    const serial = serialOfWallClock(1899, 12, 30, Number(hours), Number(minutes), Number(seconds ?? 0));
    return serial === null ? null : { kind: 'number', value: serial, format: seconds ? 'hh:mm:ss' : 'hh:mm' };
  }
  return null;
}

function dateInput(fields: (string | undefined)[], dateFormat: string): TypedInput | null {
  const [year, month, day, hours, minutes, seconds] = fields.map((field) => Number(field ?? 0)) as number[];
  const serial = serialOfWallClock(year!, month!, day!, hours, minutes, seconds);
  if (serial === null) return null;
  const timeFormat = fields[5] !== undefined ? ' hh:mm:ss' : fields[3] !== undefined ? ' hh:mm' : '';
  return { kind: 'number', value: serial, format: dateFormat + timeFormat };
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
