/**
 * The add-on's in-sheet links work in a spreadsheet whose locale writes decimals with a comma
 * (de_DE: `;` between a formula's arguments) and in one that writes them with a point (en_US), under
 * either reading of whether `;` also separates arguments there: an equipment import, its forecast
 * and the expiring trainings show each link's label, with its link, and no #ERROR!.
 */
import type { SheetView } from '../../dev/emulator/spreadsheet/workbook-store';
import { EQUIPMENT_TYPES_SHEET, SCHEDULES_SHEET } from '../../src/equipment/tables';
import { FORECAST_SHEET } from '../../src/equipment/forecast';
import { EXPIRING_SHEET } from '../../src/trainings/expiring';
import { createAddonHarness } from '../support/addon-harness';

const CASES = ['de_DE', 'en_US'].flatMap((locale) =>
  [false, true].map((semicolonArgumentsInEveryLocale): [string, boolean] => [
    locale,
    semicolonArgumentsInEveryLocale,
  ]),
);

/** Every link formula of a tab as the user sees it: its text, what it shows, where it leads. */
function linksOf(sheet: SheetView): Array<{ formula: string; shown: string; link: string | null }> {
  return sheet
    .cells()
    .flat()
    .filter((cell) => cell.formula.startsWith('=HYPERLINK('))
    .map((cell) => ({ formula: cell.formula, shown: cell.error?.message ?? cell.display, link: cell.link }));
}

test.each(CASES)(
  'in %s, with ; in every locale %s, every link shows its label and has its link',
  async (locale, semicolonArgumentsInEveryLocale) => {
    const harness = await createAddonHarness({
      dataset: { seed: 7, completions: 40, users: 6, equipmentTypes: 3 },
      locale,
      emulator: { readings: { semicolonArgumentsInEveryLocale } },
    });
    try {
      harness.connect();
      // Each run reads the spreadsheet's locale once, however many tabs it writes formulas into.
      for (const caption of [
        'Import equipment types',
        'Reconcile completed trainings',
        'Show training status',
      ]) {
        harness.emulator.counter.reset();
        harness.clickMenu(caption);
        expect({
          caption,
          reads: harness.emulator.counter.snapshot()['Spreadsheet.getSpreadsheetLocale'],
        }).toEqual({
          caption,
          reads: 1,
        });
      }
      const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
      const separator = locale === 'de_DE' ? ';' : ',';
      for (const tab of [EQUIPMENT_TYPES_SHEET, FORECAST_SHEET, EXPIRING_SHEET]) {
        const links = linksOf(workbook.sheet(tab));
        expect({ tab, links: links.length > 0 }).toEqual({ tab, links: true });
        for (const { formula, shown, link } of links) {
          expect({ tab, formula, shown, link }).toEqual({
            tab,
            formula: expect.stringMatching(
              new RegExp(`^=HYPERLINK\\("#gid=\\d+&range=[A-Z]+\\d+"\\${separator} `),
            ),
            shown: expect.not.stringMatching(/^$|^#|parse error/i),
            link: expect.stringMatching(/^#gid=\d+&range=[A-Z]+\d+$/),
          });
        }
      }
      // The amber flag of a future "Last inspected" date is a formula in the same syntax.
      const flags = workbook
        .sheet(SCHEDULES_SHEET)
        .conditionalRules()
        .filter((rule) => rule.type === 'CUSTOM_FORMULA');
      expect(flags.map((rule) => rule.values)).toEqual([
        [
          expect.stringMatching(
            new RegExp(`^=AND\\(ISNUMBER\\([A-Z]+2\\)\\${separator}[A-Z]+2>TODAY\\(\\)\\)$`),
          ),
        ],
      ]);
    } finally {
      await harness.done();
    }
  },
  120_000,
);
