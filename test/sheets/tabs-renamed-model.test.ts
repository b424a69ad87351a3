/**
 * Seeded sequences of a user renaming and deleting the add-on's tabs between menu actions (Refresh
 * all, Reconcile, Show training status, Import equipment types), checked against a model that
 * knows each tab by its sheet id and by what it is (its row of titles, taken from the tabs as the
 * first imports made them), nothing of src/. A rename may take a name the add-on gives another tab.
 * After each action:
 *  1. every tab there before is there, under the same name: the add-on renames and deletes nothing;
 *  2. every new tab is one the user deleted, made again (under its usual name when that was free,
 *     else a "Safety Sync …" one), and Refresh all and Reconcile leave none of them deleted;
 *  3. every tab still holds what it is (its titles): none was written as another;
 *  4. a run that logs adds its lines to the Sync log, wherever it is; after Refresh all and
 *     Reconcile every `#gid=` link leads to a tab that is there.
 *
 * Not renamed: a Sync log made again by the last run, before another run has kept its id (the
 * add-on keeps it at the next run, by its name, to spare a commit: src/platform/sync-log.ts).
 *
 * A failing sequence throws with its seed and steps; TABS_MODEL_SEED=n replays sequence n,
 * TABS_MODEL_SEQUENCES=n runs the first n.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { IMPORT, workbook } from '../support/equipment-tabs';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';
import { brokenLinks, deleteTab, renameTab, TAB_EDITS_SCRIPT } from './tab-edits';

const SEQUENCES = 25;
const STEPS = 10;
const SYNC_LOG = 'Sync log';
/** Tabs the user may delete here; a deleted equipment tab stops the equipment refresh (tested apart). */
const DELETABLE = ['Completed trainings', SYNC_LOG, 'Trainings', 'Training matrix', 'Expiring trainings'];
const ACTIONS = [
  'Refresh all',
  'Reconcile completed trainings',
  'Show training status',
  'Import equipment types',
] as const;
/** Actions that write a Sync log line. */
const LOGGED = new Set<string>(['Refresh all', 'Reconcile completed trainings', 'Import equipment types']);
/** Actions that make every deletable tab again. */
const REMAKE_ALL = new Set<string>(['Refresh all', 'Reconcile completed trainings']);

/** One of the add-on's tabs as the model knows it: by its usual name (what it is) and its gid. */
interface ModelTab {
  usual: string;
  titles: string;
  gid: number | null;
}

function titlesOf(harness: AddonHarness, gid: number): string {
  const sheet = workbook(harness)
    .sheets()
    .find((candidate) => candidate.gid === gid)!;
  if (sheet.lastRow === 0) return '';
  // The Overview's title row says when each section was computed: a time, not a title.
  return sheet
    .displayValues(`A1:Z1`)[0]!
    .map((title) => (title.startsWith('as of ') ? 'as of …' : title))
    .join('|');
}

function tabsByGid(harness: AddonHarness): Map<number, string> {
  return new Map(
    workbook(harness)
      .sheets()
      .map((sheet) => [sheet.gid, sheet.name]),
  );
}

function logLineCount(harness: AddonHarness, model: ModelTab[]): number | null {
  const gid = model.find((tab) => tab.usual === SYNC_LOG)!.gid;
  if (gid === null) return null;
  return workbook(harness)
    .sheets()
    .find((sheet) => sheet.gid === gid)!.lastRow;
}

async function runSequence(seed: number, steps: string[]): Promise<void> {
  const random: Random = seeded(seed);
  const harness = await createAddonHarness({
    dataset: { equipmentTypes: 4, completions: 30, seed },
    userScript: TAB_EDITS_SCRIPT,
  });
  try {
    harness.connect();
    harness.clickMenu(IMPORT);
    harness.clickMenu('Refresh all');
    const model: ModelTab[] = workbook(harness)
      .sheets()
      .filter((sheet) => sheet.name !== 'Sheet1')
      .map((sheet) => ({ usual: sheet.name, gid: sheet.gid, titles: titlesOf(harness, sheet.gid) }));
    expect(new Set(model.map((tab) => tab.titles)).size).toBe(model.length);
    let renames = 0;
    /** The Sync log was made by the last logged run, whose id the next one keeps. */
    let freshLog = false;
    for (let step = 0; step < STEPS; step++) {
      const live = model.filter((tab) => tab.gid !== null);
      const names = tabsByGid(harness);
      if (random.chance(0.3)) {
        const tab = random.pick(live.filter((candidate) => !(freshLog && candidate.usual === SYNC_LOG)));
        const candidates = [...model.map((other) => other.usual), `${tab.usual} (mine)`, `Tab ${++renames}`];
        const to = random.pick(candidates.filter((name) => ![...names.values()].includes(name)));
        const from = names.get(tab.gid!)!;
        steps.push(`rename "${from}" to "${to}"`);
        renameTab(harness, from, to);
        continue;
      }
      if (random.chance(0.25)) {
        const deletable = live.filter((tab) => DELETABLE.includes(tab.usual));
        if (deletable.length > 0) {
          const tab = random.pick(deletable);
          steps.push(`delete "${names.get(tab.gid!)!}" (the ${tab.usual} tab)`);
          deleteTab(harness, names.get(tab.gid!)!);
          tab.gid = null;
          continue;
        }
      }
      const action = random.pick(ACTIONS);
      steps.push(action);
      const before = tabsByGid(harness);
      const logBefore = logLineCount(harness, model);
      if (LOGGED.has(action)) freshLog = logBefore === null;
      harness.clickMenu(action);
      const after = tabsByGid(harness);
      // 1. Nothing renamed or deleted by the add-on.
      for (const [gid, name] of before) expect([gid, after.get(gid)]).toEqual([gid, name]);
      // 2. New tabs are deleted ones made again, each under its usual name or a free one.
      for (const [gid, name] of after) {
        if (before.has(gid)) continue;
        const titles = titlesOf(harness, gid);
        const remade = model.find((tab) => tab.gid === null && tab.titles === titles);
        if (!remade) throw new Error(`The run made "${name}", which is none of the tabs the user deleted.`);
        const usualWasFree = ![...before.values()].includes(remade.usual);
        if (usualWasFree) expect(name).toBe(remade.usual);
        else expect(name).toMatch(/^Safety Sync /);
        remade.gid = gid;
      }
      if (REMAKE_ALL.has(action)) expect(model.filter((tab) => tab.gid === null)).toEqual([]);
      // 3. Every tab holds what it is.
      for (const tab of model)
        if (tab.gid !== null)
          expect([tab.usual, titlesOf(harness, tab.gid)]).toEqual([tab.usual, tab.titles]);
      // 4. The Sync log, wherever it is, has the run's lines; links lead to tabs that are there.
      if (LOGGED.has(action)) expect(logLineCount(harness, model)!).toBeGreaterThan(logBefore ?? 0);
      // Links into a deleted tab stay broken until a run writes the tab they are on.
      if (REMAKE_ALL.has(action)) expect(brokenLinks(harness)).toEqual([]);
    }
  } finally {
    await harness.done();
  }
}

test(`${SEQUENCES} seeded sequences of tabs renamed and deleted between runs keep every tab the add-on's, once`, async () => {
  const { seeds } = sequenceSeeds('TABS_MODEL', SEQUENCES);
  for (const seed of seeds) {
    const steps: string[] = [];
    try {
      await runSequence(seed, steps);
    } catch (error) {
      throw new Error(
        `Sequence ${seed} failed (TABS_MODEL_SEED=${seed} replays it) after:\n  ${steps.join('\n  ')}\n` +
          `${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  // Every sequence in one test: jest's minute is for one example, not for twenty-five workbooks.
}, 300_000);
