/**
 * The menu built when a spreadsheet opens (onOpen, an installed add-on's simple trigger in
 * AuthMode.LIMITED) after a scheduled refresh: Google does not document whether LIMITED may read the
 * developer metadata that holds the refresh status. Either way the whole menu is there; the
 * "Last refreshed" line only where the status can be read.
 */
import { MENU_ITEMS } from '../../src/menu';
import { createAddonHarness } from '../support/addon-harness';

const MENU_CAPTIONS = MENU_ITEMS.map((item) => item?.caption ?? null);

test.each([
  ['refused', 'without its status line', false, MENU_CAPTIONS],
  [
    'readable',
    'and its "Last refreshed" line',
    true,
    [...MENU_CAPTIONS, null, expect.stringMatching(/^Last refreshed \d+ \w+ \d{4}, \d\d:\d\d$/)],
  ],
] as const)(
  'developer metadata %s in LIMITED: onOpen builds the whole menu %s',
  async (_name, _line, readable, expected) => {
    const harness = await createAddonHarness({
      dataset: { seed: 3, completions: 10, users: 3 },
      emulator: { readings: { developerMetadataInLimited: readable } },
    });
    try {
      harness.connect();
      harness.callServer('saveSchedule', { every: '4' });
      harness.emulator.fireTrigger(harness.emulator.triggers()[0]!.uid);
      const workbook = harness.emulator.workbooks.get(harness.spreadsheetId)!;
      expect(() => harness.emulator.onOpen(harness.spreadsheetId, { authMode: 'LIMITED' })).not.toThrow();
      const menu = workbook.ui.menus
        .at(-1)!
        .entries.map((entry) => (entry.kind === 'item' ? entry.caption : null));
      expect(menu).toEqual(expected);
    } finally {
      await harness.done();
    }
  },
);
