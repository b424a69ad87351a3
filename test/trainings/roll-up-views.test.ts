/**
 * The filter views the Overview's roll-ups open, over the life of a workbook: kept under the same
 * ids run after run (a bookmarked link keeps working, and a run that changes nothing sends no write
 * request), made again when the manager deletes one, dropped with the site they were for, and a
 * view of the manager's own never touched. Where the Sheets API is not there or refuses, each name
 * opens the matrix at its group's first row instead and the run says why.
 */
import { type AddonHarness, createAddonHarness, type HarnessOptions } from '../support/addon-harness';
import { READ_REQUESTS_PER_MINUTE_PER_USER } from '../../dev/emulator/spreadsheet';
import { MATRIX, SHOW, workbook } from './training-tabs-expected';

const PEOPLE = 'People';
const OWNER = 'owner@example.com';

/** Sites and departments typed on People, by row (2 onwards); the rest stay unplaced. */
const PLACES: ReadonlyArray<[site: string, department: string]> = [
  ['Leeds', 'Yard'],
  ['Leeds', 'Stores'],
  ['York', 'Yard'],
  ['York', ''],
];

async function placedWorkbook(options: HarnessOptions = {}): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { seed: 83, completions: 60, users: 6, trainings: 3 },
    ...options,
  });
  harness.connect();
  harness.clickMenu('Refresh all');
  const titles = harness.displayed(PEOPLE)[0]!;
  const column = (title: string) => String.fromCharCode(65 + titles.indexOf(title));
  PLACES.forEach(([site, department], index) => {
    workbook(harness).typeValues(`${PEOPLE}!${column('Site')}${index + 2}`, [[site]]);
    workbook(harness).typeValues(`${PEOPLE}!${column('Department')}${index + 2}`, [[department]]);
  });
  harness.clickMenu(SHOW);
  expect(workbook(harness).ui.alerts).toEqual([]);
  return harness;
}

interface RollUpLink {
  name: string;
  formula: string;
  /** The filter view it opens, or null for a link to a range. */
  filterViewId: number | null;
}

/** The names of the roll-ups on the Overview (below row 32's title) and where each links. */
function rollUpLinks(harness: AddonHarness): RollUpLink[] {
  const overview = workbook(harness).sheet('Overview');
  const names = overview.displayValues(`A33:A${overview.lastRow}`).map((row) => row[0]!);
  const formulas = overview.formulas(`A33:A${overview.lastRow}`).map((row) => row[0]!);
  return names.flatMap((name, index) => {
    const formula = formulas[index]!;
    if (!formula.startsWith('=HYPERLINK')) return [];
    const view = /&fvid=(\d+)"/.exec(formula);
    return [{ name, formula, filterViewId: view ? Number(view[1]) : null }];
  });
}

/** The people (User ID) a filter view of the matrix shows. */
function idsShown(harness: AddonHarness, filterViewId: number): string[] {
  const ids = harness.displayed(MATRIX).map((row) => row[0]!);
  return workbook(harness)
    .rowsShownByFilterView(filterViewId)
    .filter((row) => row > 3 && row <= ids.length)
    .map((row) => ids[row - 1]!);
}

/** The matrix's people of a site, as the matrix lists them. */
function idsAt(harness: AddonHarness, site: string): string[] {
  return harness
    .displayed(MATRIX)
    .slice(3)
    .filter((row) => row[2] === site)
    .map((row) => row[0]!);
}

/** What Show training status said at its end. */
function lastToast(harness: AddonHarness): string {
  return workbook(harness).ui.toasts.at(-1)!.message;
}

function sheetsApiCalls(harness: AddonHarness, method: string): number {
  return harness.emulator.counter.snapshot()[`Sheets.Spreadsheets.${method}`] ?? 0;
}

describe('the roll-ups’ filter views over the life of a workbook', () => {
  let harness: AddonHarness;
  beforeAll(async () => {
    harness = await placedWorkbook();
  });
  afterAll(() => harness.done());

  test('each site and department links to a view of its own people; run again unchanged, the ids stay and no write request is sent', () => {
    const links = rollUpLinks(harness);
    expect(links.map((link) => link.name)).toEqual([
      'Leeds',
      'York',
      '(no site)',
      'Stores',
      'Yard',
      '(no department)',
    ]);
    expect(links.every((link) => link.filterViewId !== null)).toBe(true);
    expect(idsShown(harness, links[0]!.filterViewId!)).toEqual(idsAt(harness, 'Leeds'));
    expect(idsShown(harness, links[1]!.filterViewId!)).toEqual(idsAt(harness, 'York'));
    expect(
      workbook(harness)
        .sheet(MATRIX)
        .filterViews()
        .map((view) => view.title),
    ).toEqual(expect.arrayContaining(['Site: Leeds (Safety Sync)', 'Department: (none) (Safety Sync)']));

    harness.emulator.counter.reset();
    harness.clickMenu(SHOW);
    expect(rollUpLinks(harness)).toEqual(links);
    expect(sheetsApiCalls(harness, 'get')).toBe(1);
    expect(sheetsApiCalls(harness, 'batchUpdate')).toBe(0);
  });

  test('a view the manager deleted is made again; the others keep their ids', () => {
    const [leeds, york] = rollUpLinks(harness);
    workbook(harness).deleteFilterView(leeds!.filterViewId!);
    harness.clickMenu(SHOW);
    const [leedsAfter, yorkAfter] = rollUpLinks(harness);
    expect(leedsAfter!.filterViewId).not.toBe(leeds!.filterViewId);
    expect(idsShown(harness, leedsAfter!.filterViewId!)).toEqual(idsAt(harness, 'Leeds'));
    expect(yorkAfter).toEqual(york);
  });

  test('a view of the manager’s own, even titled like the add-on’s, is left as it is', () => {
    const matrix = workbook(harness).sheet(MATRIX);
    const own = workbook(harness).addFilterView({
      title: 'Site: Leeds (Safety Sync)',
      range: { sheetId: matrix.gid, startRowIndex: 1 },
    });
    const before = matrix.filterViews().find((view) => view.filterViewId === own);
    harness.clickMenu(SHOW);
    expect(matrix.filterViews().find((view) => view.filterViewId === own)).toEqual(before);
    expect(rollUpLinks(harness)[0]!.filterViewId).not.toBe(own);
  });

  test('a site renamed on People: its view follows the new name and the old one goes', () => {
    const titles = harness.displayed(PEOPLE)[0]!;
    const siteColumn = String.fromCharCode(65 + titles.indexOf('Site'));
    const york = rollUpLinks(harness)[1]!;
    workbook(harness).typeValues(`${PEOPLE}!${siteColumn}4:${siteColumn}5`, [['York North'], ['York North']]);
    harness.clickMenu(SHOW);
    const links = rollUpLinks(harness);
    expect(links.map((link) => link.name).slice(0, 3)).toEqual(['Leeds', 'York North', '(no site)']);
    expect(idsShown(harness, links[1]!.filterViewId!)).toEqual(idsAt(harness, 'York North'));
    const ids = workbook(harness)
      .sheet(MATRIX)
      .filterViews()
      .map((view) => view.filterViewId);
    expect(ids).not.toContain(york.filterViewId);
  });

  test('nobody placed any more: the views go and the Overview says how to get the roll-ups back', () => {
    const titles = harness.displayed(PEOPLE)[0]!;
    const [site, department] = ['Site', 'Department'].map((title) =>
      String.fromCharCode(65 + titles.indexOf(title)),
    );
    const rows = PLACES.length + 1;
    const blank = PLACES.map(() => ['']);
    workbook(harness).typeValues(`${PEOPLE}!${site}2:${site}${rows}`, blank);
    workbook(harness).typeValues(`${PEOPLE}!${department}2:${department}${rows}`, blank);
    harness.clickMenu(SHOW);
    const ownOnly = workbook(harness)
      .sheet(MATRIX)
      .filterViews()
      .filter((view) => view.title.endsWith('(Safety Sync)'));
    // Only the manager's own view, made in the test before, is still there.
    expect(ownOnly).toHaveLength(1);
    const overview = harness.displayed('Overview');
    expect(overview[31]![0]).toMatch(/^Compliance by site and department: fill in Site and Department/);
    // The block's earlier rows are emptied, not left behind.
    expect(overview.slice(32).every((row) => row.slice(0, 5).every((cell) => cell === ''))).toBe(true);
  });
});

test('without the Sheets advanced service, each name opens the matrix at its group’s first row, and the run says why', async () => {
  const harness = await placedWorkbook({ withoutSheetsAdvancedService: true });
  try {
    const links = rollUpLinks(harness);
    expect(links.map((link) => link.filterViewId)).toEqual(links.map(() => null));
    const matrix = harness.displayed(MATRIX);
    const leedsRow = matrix.findIndex((row) => row[2] === 'Leeds') + 1;
    expect(links[0]!.formula).toContain(`#gid=${workbook(harness).sheet(MATRIX).gid}&range=A${leedsRow}"`);
    expect(lastToast(harness)).toContain(
      "The Overview's sites and departments open the Training matrix at their first row, not filtered, because the Sheets advanced service is not in the add-on's manifest.",
    );
  } finally {
    await harness.done();
  }
});

test('with the Sheets API’s read quota used up, the run links to rows and says so; the next run links to views again', async () => {
  const harness = await placedWorkbook();
  try {
    const views = rollUpLinks(harness);
    harness.emulator.sheetsApiQuotas.spend(OWNER, READ_REQUESTS_PER_MINUTE_PER_USER, 'read');
    harness.clickMenu(SHOW);
    expect(workbook(harness).ui.alerts).toEqual([]);
    expect(rollUpLinks(harness).map((link) => link.filterViewId)).toEqual(views.map(() => null));
    expect(lastToast(harness)).toContain('not filtered, because the Sheets API answered');
    harness.emulator.clock.advance(61_000);
    harness.clickMenu(SHOW);
    expect(rollUpLinks(harness)).toEqual(views);
  } finally {
    await harness.done();
  }
});
