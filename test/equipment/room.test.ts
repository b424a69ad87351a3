/**
 * The four equipment tabs need room together: a spreadsheet with room for each of them alone but
 * not for all four is refused before any tab is written, and the alert is true to what happened.
 */
import { createAddonHarness, type AddonHarness } from '../support/addon-harness';
import { IMPORT, workbook } from '../support/equipment-tabs';

const CELL_LIMIT = 10_000_000;
/** A new tab: 1,000 rows of 26 columns. */
const NEW_TAB_CELLS = 26_000;

describe('room for every equipment tab, not for each alone', () => {
  let harness: AddonHarness;

  beforeAll(async () => {
    harness = await createAddonHarness({ dataset: { equipmentTypes: 300, seed: 2, anomalies: true } });
    harness.connect();
  });
  afterAll(() => harness.done());

  test('the import is refused before any tab is written, and says how many rows it needs', async () => {
    const types = (await harness.dataset.data()).equipmenttypes;
    const metafields = types.reduce((sum, type) => sum + type.metafields.length, 0);
    const schedules = types.reduce((sum, type) => sum + type.schedules.length, 0);
    expect(metafields + 1).toBeGreaterThan(1_000);
    expect(schedules + 1).toBeLessThanOrEqual(1_000);
    // Types, schedules and upcoming fit in new tabs; the metafields tab grows past its 1,000 rows.
    const needed = 3 * NEW_TAB_CELLS + (metafields + 1) * 26;
    const book = workbook(harness);
    const inUse = NEW_TAB_CELLS; // Sheet1
    const spare = CELL_LIMIT - inUse - needed + 1;
    book.addSheet('Big', { rows: spare, columns: 1 });
    const namesBefore = book.sheetNames;

    harness.clickMenu(IMPORT);

    const [alert] = book.ui.alerts.slice(-1);
    expect(alert!.title).toBe('Safety Sync: Import equipment types failed');
    expect(alert!.message).toMatch(
      /^"Equipment \w+" would need [\d,]+ rows, but this spreadsheet has room for about/,
    );
    expect(alert!.message).toContain('The tabs keep their previous content');
    expect(book.sheetNames.filter((name) => name !== 'Sync log')).toEqual(namesBefore);
  });
});
