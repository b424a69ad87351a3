/**
 * The equipment tabs as a manager rearranges them: a column inserted among the imported ones and a
 * column moved are followed by the import and by Show upcoming inspections; an imported title gone
 * missing refuses both, before any request, with the four linked tabs unchanged.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import {
  IMPORT,
  SCHEDULES_TAB,
  SHOW_UPCOMING,
  tab,
  TYPES_TAB,
  UPCOMING_TAB,
  workbook,
} from '../support/equipment-tabs';
import { userActions } from '../support/user-actions';

const LINKED = [TYPES_TAB, 'Equipment metafields', SCHEDULES_TAB, UPCOMING_TAB];

async function importedHarness(): Promise<AddonHarness> {
  const harness = await createAddonHarness({ dataset: { equipmentTypes: 6, completions: 10, seed: 23 } });
  harness.connect();
  harness.clickMenu(IMPORT);
  return harness;
}

/** The schedules tab's rows as maps from title to what is shown. */
function schedules(harness: AddonHarness): Map<string, string>[] {
  const [titles, ...rows] = harness.displayed(SCHEDULES_TAB);
  return rows.map((row) => new Map(titles!.map((title, index) => [title, row[index]!])));
}

const columnOf = (harness: AddonHarness, title: string) =>
  harness.displayed(SCHEDULES_TAB)[0]!.indexOf(title) + 1;

test('an inserted and a moved column are followed by the import and by Show upcoming inspections', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  const before = schedules(harness);
  user.insertColumnsBefore(SCHEDULES_TAB, columnOf(harness, 'Name'), 1);
  user.type(SCHEDULES_TAB, 1, columnOf(harness, 'Name') - 1, [['Inspector'], ['Ana'], ['Bo']]);
  const width = harness.displayed(SCHEDULES_TAB)[0]!.length;
  user.moveColumns(SCHEDULES_TAB, columnOf(harness, 'Status'), 1, width + 1);
  // A schedule last inspected long ago is Expired; typed under "Last inspected" wherever it is.
  const inspected = 3;
  user.type(SCHEDULES_TAB, inspected, columnOf(harness, 'Last inspected'), [['2020-01-01']]);

  harness.clickMenu(SHOW_UPCOMING);
  let after = schedules(harness);
  expect(after[inspected - 2]!.get('Status')).toBe('Expired');
  expect(after.slice(0, 2).map((row) => row.get('Inspector'))).toEqual(['Ana', 'Bo']);
  expect(harness.displayed(SCHEDULES_TAB)[0]![width - 1]).toBe('Status');
  const upcoming = harness.displayed(UPCOMING_TAB);
  expect(upcoming.some((row) => row.includes(before[inspected - 2]!.get('Schedule ID')!))).toBe(true);

  harness.clickMenu(IMPORT);
  after = schedules(harness);
  expect(after).toHaveLength(before.length);
  expect(after[inspected - 2]!.get('Status')).toBe('Expired');
  expect(after[inspected - 2]!.get('Last inspected')).toBe('2020-01-01');
  for (const [index, row] of before.entries()) {
    for (const title of ['Equipment type ID', 'Schedule ID', 'Name', 'Trigger type']) {
      expect(after[index]!.get(title)).toBe(row.get(title));
    }
  }
  expect(after.slice(0, 2).map((row) => row.get('Inspector'))).toEqual(['Ana', 'Bo']);
  await harness.done();
});

test('a missing imported title refuses the import and Show upcoming inspections, and no linked tab changes', async () => {
  const harness = await importedHarness();
  const user = userActions(harness);
  user.deleteColumns(SCHEDULES_TAB, columnOf(harness, 'Frequency (days)'), 1);
  const cells = () => LINKED.map((name) => JSON.stringify(tab(harness, name).cells()));
  const before = cells();
  const requests = harness.emulator.urlFetch.requests.length;
  for (const caption of [IMPORT, SHOW_UPCOMING, 'Refresh all']) {
    harness.clickMenu(caption);
    const alerts = workbook(harness).ui.alerts;
    expect(alerts[alerts.length - 1]!.message).toContain('"Frequency (days)"');
    expect(cells()).toEqual(before);
  }
  // Refresh all imports completions; equipment types asked nothing of the service.
  const equipmentRequests = harness.emulator.urlFetch.requests
    .slice(requests)
    .filter((request) => request.url.includes('equipmenttypes'));
  expect(equipmentRequests).toHaveLength(0);
  await harness.done();
});
