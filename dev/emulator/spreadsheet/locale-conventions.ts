/**
 * How a spreadsheet's locale writes numbers, dates and booleans, as far as reading typed input needs
 * it: the decimal mark and thousands separators, the order of a numeric date's fields and the format
 * Sheets gives a typed date, and the words for TRUE and FALSE. Locales are grouped by language as
 * Sheets groups them (de_AT reads like de_DE); a locale the emulator does not know reads like en_GB.
 * Where CLDR (Node's Intl) gives a locale another decimal mark than its group's (de_CH writes 1.5,
 * it_IT 1,5), its decimal mark and thousands separator are CLDR's, so that the emulator agrees with
 * CLDR in every locale: the decimal mark also decides which character separates a formula's
 * arguments (formulas.ts).
 */
import { MONTH_NAMES } from '../english-calendar';

export interface LocaleConventions {
  decimalMark: '.' | ',';
  /** Characters that group thousands ("1,234", "1.234", "1 234"). */
  groupSeparators: readonly string[];
  /** A numeric date is day first (1/2/2024 is 1 February) unless it is month first. */
  dayFirst: boolean;
  /** The format Sheets gives a numeric date typed in this locale. */
  dateFormat: string;
  trueWords: readonly string[];
  falseWords: readonly string[];
}

const NO_BREAK_SPACE = '\u00a0';
const NARROW_NO_BREAK_SPACE = '\u202f';

const ENGLISH: LocaleConventions = {
  decimalMark: '.',
  groupSeparators: [','],
  dayFirst: true,
  dateFormat: 'dd/mm/yyyy',
  trueWords: ['TRUE'],
  falseWords: ['FALSE'],
};

const CONVENTIONS: Record<string, LocaleConventions> = {
  en_US: { ...ENGLISH, dayFirst: false, dateFormat: 'm/d/yyyy' },
  en: ENGLISH,
  de: {
    decimalMark: ',',
    groupSeparators: ['.'],
    dayFirst: true,
    dateFormat: 'dd.mm.yyyy',
    trueWords: ['TRUE', 'WAHR'],
    falseWords: ['FALSE', 'FALSCH'],
  },
  fr: {
    decimalMark: ',',
    groupSeparators: [' ', NO_BREAK_SPACE, NARROW_NO_BREAK_SPACE],
    dayFirst: true,
    dateFormat: 'dd/mm/yyyy',
    trueWords: ['TRUE', 'VRAI'],
    falseWords: ['FALSE', 'FAUX'],
  },
  es: {
    decimalMark: ',',
    groupSeparators: ['.'],
    dayFirst: true,
    dateFormat: 'd/mm/yyyy',
    trueWords: ['TRUE', 'VERDADERO'],
    falseWords: ['FALSE', 'FALSO'],
  },
};

const conventionsByLocale = new Map<string, LocaleConventions>();

export function conventionsOf(locale: string): LocaleConventions {
  let conventions = conventionsByLocale.get(locale);
  if (!conventions) {
    const grouped = CONVENTIONS[locale] ?? CONVENTIONS[locale.split('_')[0]!] ?? ENGLISH;
    const cldr = numbersOfCldr(locale);
    conventions = cldr && cldr.decimalMark !== grouped.decimalMark ? { ...grouped, ...cldr } : grouped;
    conventionsByLocale.set(locale, conventions);
  }
  return conventions;
}

/** The locale's decimal mark and thousands separator as CLDR (Node's Intl) has them; null if unknown. */
function numbersOfCldr(locale: string): Pick<LocaleConventions, 'decimalMark' | 'groupSeparators'> | null {
  let parts: Intl.NumberFormatPart[];
  try {
    const format = new Intl.NumberFormat(locale.replace(/_/g, '-'), { numberingSystem: 'latn' });
    parts = format.formatToParts(12_345.5);
  } catch {
    return null;
  }
  const decimal = parts.find((part) => part.type === 'decimal')?.value;
  const group = parts.find((part) => part.type === 'group')?.value;
  if ((decimal !== '.' && decimal !== ',') || group === undefined) return null;
  return { decimalMark: decimal, groupSeparators: [group] };
}

const MONTH_NAMES_BY_LANGUAGE = [
  MONTH_NAMES,
  [
    'Januar',
    'Februar',
    'März',
    'April',
    'Mai',
    'Juni',
    'Juli',
    'August',
    'September',
    'Oktober',
    'November',
    'Dezember',
  ],
  [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  [
    'enero',
    'febrero',
    'marzo',
    'abril',
    'mayo',
    'junio',
    'julio',
    'agosto',
    'septiembre',
    'octubre',
    'noviembre',
    'diciembre',
  ],
];

/**
 * Month names a typed date may use, lower case, with their month (1–12), and their first three or
 * four letters where those name one month only ("jui" is juin and juillet). English is read in every
 * locale, as Sheets reads it; German, French and Spanish are too, stricter than reading each in its
 * own locale only, as the emulator must parse at least what Sheets parses.
 */
export const MONTHS_BY_NAME: ReadonlyMap<string, number> = (() => {
  const months = new Map<string, Set<number>>();
  for (const names of MONTH_NAMES_BY_LANGUAGE) {
    names.forEach((name, index) => {
      const lower = name.toLowerCase();
      for (const key of [lower, lower.slice(0, 3), lower.slice(0, 4)]) {
        if (!months.has(key)) months.set(key, new Set());
        months.get(key)!.add(index + 1);
      }
    });
  }
  return new Map(
    [...months]
      .filter(([, numbers]) => numbers.size === 1)
      .map(([name, numbers]) => [name, [...numbers][0]!]),
  );
})();
