/**
 * The add-on builds formulas with `,` between arguments and writes them in the syntax of the
 * spreadsheet's locale: its separator table agrees with CLDR, and a converted formula means in a
 * decimal-comma locale what the canonical one means in en_US.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';
import { argumentSeparatorOf, formulaInLocale } from '../../src/sheets/formula-syntax';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';

/** Locales Sheets offers, with the older codes it still uses (in_ID, iw_IL, no_NO). */
const SHEETS_LOCALES = (
  'ar_EG bg_BG ca_ES cs_CZ da_DK de_AT de_CH de_DE el_GR en_AU en_CA en_GB en_IE en_IN en_NZ en_PH ' +
  'en_US en_ZA es_AR es_BO es_CL es_CO es_CR es_DO es_EC es_ES es_GT es_HN es_MX es_NI es_PA es_PE ' +
  'es_PR es_PY es_SV es_US es_UY es_VE et_EE fi_FI fil_PH fr_BE fr_CA fr_CH fr_FR fr_LU hr_HR hu_HU ' +
  'hy_AM id_ID in_ID is_IS it_CH it_IT iw_IL ja_JP ka_GE kk_KZ ko_KR lt_LT lv_LV mn_MN ms_MY nb_NO ' +
  'nl_BE nl_NL no_NO pl_PL pt_BR pt_PT ro_RO ru_RU sk_SK sl_SI sr_RS sv_SE th_TH tr_TR uk_UA vi_VN ' +
  'zh_CN zh_HK zh_TW'
).split(' ');

/** CLDR's decimal mark of a locale, through Node's Intl (latn digits, as Sheets writes them). */
function cldrDecimalMark(locale: string): string {
  const format = new Intl.NumberFormat(locale.replace('_', '-'), { numberingSystem: 'latn' });
  return format.formatToParts(1.5).find((part) => part.type === 'decimal')!.value;
}

describe('argumentSeparatorOf', () => {
  it.each(SHEETS_LOCALES)('%s: ; exactly where CLDR writes decimals with a comma', (locale) => {
    expect(argumentSeparatorOf(locale)).toBe(cldrDecimalMark(locale) === ',' ? ';' : ',');
  });
});

describe('formulaInLocale', () => {
  it('turns , between arguments into ; and a decimal point into a comma, nothing inside quotes', () => {
    expect(formulaInLocale('=HYPERLINK("#gid=1&range=A5", "Smith, J. 1.5")', ';')).toBe(
      '=HYPERLINK("#gid=1&range=A5"; "Smith, J. 1.5")',
    );
    expect(formulaInLocale('=ROUND(1.5, 0)+.25', ';')).toBe('=ROUND(1,5; 0)+,25');
    expect(formulaInLocale("=SUM('Bob''s, 1.5'!A1:A3, STDEV.S(B1:B2), 2E3)", ';')).toBe(
      "=SUM('Bob''s, 1.5'!A1:A3; STDEV.S(B1:B2); 2E3)",
    );
    expect(formulaInLocale('=AND(ISNUMBER(P2),P2>TODAY())', ';')).toBe('=AND(ISNUMBER(P2);P2>TODAY())');
  });

  it('leaves a formula as it is where , separates arguments', () => {
    const formula = '=HYPERLINK("#gid=1&range=A5", 1.5)';
    expect(formulaInLocale(formula, ',')).toBe(formula);
  });

  it('refuses what it cannot carry over, in either locale', () => {
    for (const separator of [',', ';'] as const) {
      expect(() => formulaInLocale('=SUM({1,2})', separator)).toThrow(
        'The add-on cannot write a formula with { outside a string: =SUM({1,2})',
      );
      expect(() => formulaInLocale('=F(1; 2)', separator)).toThrow(
        'The add-on cannot write a formula with ; outside a string: =F(1; 2)',
      );
      expect(() => formulaInLocale('=F("open)', separator)).toThrow(
        'A formula has a quote that does not close: =F("open)',
      );
    }
  });
});

/** A canonical argument: a string with the characters a conversion could get wrong, a number, a boolean. */
function randomArgument(random: Random): string {
  switch (random.int(0, 3)) {
    case 0: {
      const pieces = Array.from({ length: random.int(0, 4) }, () =>
        random.pick(['a', ',', ';', '.', '1.5', ' ', '""', "'", 'x,y']),
      );
      return `"${pieces.join('')}"`;
    }
    case 1:
      return random.pick(['1.5', '.25', '3', '10.', '2E3', '1.5e-2', '-4.75']);
    case 2:
      return random.pick(['TRUE', 'FALSE']);
    default:
      return '';
  }
}

describe('a converted formula reads in de_DE as the canonical one reads in en_US', () => {
  const { seeds } = sequenceSeeds('FORMULA_SYNTAX', 200);

  /** The arguments a custom function receives from the formula, written into a spreadsheet of the locale. */
  function argumentsReceived(locale: string, formula: string): unknown[] {
    const received: unknown[] = [];
    const service = createTestSpreadsheetService({
      evaluateCustomFunction: (_name, args) => {
        received.push(...args);
        return 'done';
      },
    });
    const id = service.workbooks.create({ locale });
    service.context.activeSpreadsheetId = id;
    service.SpreadsheetApp.getActiveSpreadsheet()
      .getSheets()[0]!
      .getRange('A1')
      .setValues([[formula]]);
    service.workbooks.recalculate(id);
    return received;
  }

  it.each(seeds)('sequence %i', (seed) => {
    const random = seeded(seed);
    const args = Array.from({ length: random.int(2, 5) }, () => randomArgument(random));
    const canonical = `=SAFETY_X(${args.join(random.pick([',', ', ']))})`;
    const converted = formulaInLocale(canonical, argumentSeparatorOf('de_DE'));
    const expected = argumentsReceived('en_US', canonical);
    expect(expected).toHaveLength(args.length);
    expect({ seed, canonical, converted, received: argumentsReceived('de_DE', converted) }).toEqual({
      seed,
      canonical,
      converted,
      received: expected,
    });
  });
});
