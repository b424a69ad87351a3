/**
 * What Google refuses, changed by the workbook's users between runs, in seeded sequences: the
 * built add-on in the emulator (which refuses a script write that breaks a "reject input" rule,
 * an edit of a range protected against its user, and any edit by a viewer, with Google's
 * messages) meets random interleavings of:
 *  - the owner typing into their own "Signed off" column beside the records (Yes, No, or older
 *    values such as "y" and "n/a" that a dropdown added later rejects: typing them is refused then);
 *  - the owner adding a Yes/No dropdown over that column, rejecting or only warning, or removing it;
 *  - the owner protecting a column of the tab, or the whole tab, for themselves; or removing it;
 *  - the owner sharing the spreadsheet with the editor to edit or only to view;
 *  - the service gaining records on top or in the middle, or losing one;
 *  - the owner or the editor running Refresh all or Reconcile, each with their own connection.
 *
 * The model (nothing of src/) keeps what the owner last left in "Signed off" for each record, the
 * rule each record's cell got, the protection and the editor's role. After each run:
 *  1. a run may fail only when its user may not edit (a viewer, or a protection that leaves them
 *     out), and then its message names the cause and every tab is as it was (nothing half-written);
 *     the owner's runs and an editor's unhindered runs complete, whatever the dropdowns hold;
 *  2. no value the owner typed is lost or moved to another record, and a record's rule stays with
 *     it;
 *  3. after a Reconcile that completed, the tab lists exactly the service's records.
 *
 * A failing sequence throws with its seed and every step; REFUSALS_MODEL_SEED=17 replays sequence
 * 17, REFUSALS_MODEL_SEQUENCES=20 runs the first 20.
 */
import { DEFAULT_OWNER } from '../../dev/emulator';
import type { ValidationView } from '../../dev/emulator/spreadsheet/workbook-store';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { servedRowKeys, shownRowKeys } from '../support/completion-rows';
import { syncLog, tab, workbook } from '../support/equipment-tabs';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';

const SEQUENCES = 200;
const STEPS = 10;
const OWNER = DEFAULT_OWNER;
const EDITOR = 'editor@example.com';
const TAB = 'Completed trainings';
/** The owner's own column, right of the ten imported ones. */
const SIGNED_OFF = 'K';
const SIGNED_OFF_INDEX = 10;
const DROPDOWN = ['Yes', 'No'];
/** What the owner may type: the dropdown's values, older ones it rejects, and nothing. */
const TYPED = ['Yes', 'No', 'y', 'n/a', ''];
const HOUR = 3_600_000;
const RUNS = ['Refresh all', 'Reconcile completed trainings'] as const;

const USER_SCRIPT = `
  function protectForOwner_(tabName, a1, description) {
    var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(tabName);
    var protection = (a1 ? sheet.getRange(a1).protect() : sheet.protect()).setDescription(description);
    protection.removeEditors(protection.getEditors());
  }
  function unprotectAll_(tabName) {
    var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(tabName);
    var protections = sheet.getProtections(SpreadsheetApp.ProtectionType.RANGE)
      .concat(sheet.getProtections(SpreadsheetApp.ProtectionType.SHEET));
    protections.forEach(function (protection) { protection.remove(); });
  }
`;

type Rule = 'reject' | 'warn';
interface Model {
  /** What the owner last left in "Signed off", by record key. */
  signedOff: Map<string, string>;
  /** The rule each record's "Signed off" cell was given, by record key (none: no entry). */
  rules: Map<string, Rule>;
  protection: string | null;
  editorRole: 'editor' | 'viewer';
}

/** Every tab's displayed values but the Sync log's, which records each run. */
function tabsNow(harness: AddonHarness): Record<string, string[][]> {
  const names = workbook(harness).sheetNames.filter((name) => name !== 'Sync log');
  return Object.fromEntries(names.map((name) => [name, harness.displayed(name)]));
}

/** The alerts shown since the first `since` ones, joined. */
function alertsSince(harness: AddonHarness, since: number): string {
  return workbook(harness)
    .ui.alerts.slice(since)
    .map((alert) => alert.message)
    .join(' | ');
}

/** Each shown record's key → its row (2 for the first record). */
function rowsByKey(harness: AddonHarness): Map<string, number> {
  return new Map(shownRowKeys(harness).map((key, index) => [key, index + 2]));
}

function ruleOf(validation: ValidationView | null | undefined): Rule | null {
  if (!validation) return null;
  return validation.allowInvalid ? 'warn' : 'reject';
}

/** What the generated sequences did, so that the last test can say they covered what matters. */
const covered = {
  runsRefusedToAViewer: 0,
  runsRefusedForAProtection: 0,
  runsOverARejectedOldValue: 0,
  ownerRunsUnderAProtection: 0,
  recordsMovedUnderAValue: 0,
};

class Sequence {
  readonly steps: string[] = [];
  readonly model: Model = {
    signedOff: new Map(),
    rules: new Map(),
    protection: null,
    editorRole: 'editor',
  };

  constructor(
    readonly seed: number,
    readonly harness: AddonHarness,
    readonly random: Random,
  ) {}

  fail(problem: string): never {
    const { seed } = this;
    throw new Error(
      `Sequence ${seed} (REFUSALS_MODEL_SEED=${seed} to replay): ${problem}\nSteps:\n` +
        this.steps.map((step, index) => `  ${index + 1}. ${step}`).join('\n'),
    );
  }

  typeSignedOff(): void {
    const rows = [...rowsByKey(this.harness)];
    if (rows.length === 0) return;
    const [key, row] = this.random.pick(rows);
    const value = this.random.pick(TYPED);
    const fitsDropdown = value === '' || DROPDOWN.includes(value);
    // A record that arrived after the dropdown may have got one from the rows around it, as in
    // Sheets: that is the cell's, not the model's, so typing into it follows the cell.
    const rule =
      this.model.rules.get(key) ??
      ruleOf(tab(this.harness, TAB).dataValidations(`${SIGNED_OFF}${row}`)[0]![0]);
    const refused = rule === 'reject' && !fitsDropdown;
    this.steps.push(`owner types ${JSON.stringify(value)} into ${SIGNED_OFF}${row} (${key})`);
    try {
      workbook(this.harness).typeValues(`'${TAB}'!${SIGNED_OFF}${row}`, [[value]]);
    } catch (error) {
      if (!refused) this.fail(`typing ${JSON.stringify(value)} was refused: ${String(error)}`);
      this.steps.push('  (refused by the dropdown, as in Sheets)');
      return;
    }
    if (refused) this.fail(`typing ${JSON.stringify(value)} under a reject rule was accepted`);
    this.model.signedOff.set(key, value);
  }

  setRule(): void {
    const rule = this.random.pick<Rule | null>(['reject', 'warn', null]);
    const sheet = tab(this.harness, TAB);
    this.steps.push(rule ? `owner adds a Yes/No dropdown (${rule}) over ${SIGNED_OFF}` : 'owner removes it');
    sheet.setDataValidation(
      `${SIGNED_OFF}2:${SIGNED_OFF}${sheet.maxRows}`,
      rule ? { valueInList: DROPDOWN, allowInvalid: rule === 'warn' } : null,
    );
    this.model.rules.clear();
    if (rule) for (const key of rowsByKey(this.harness).keys()) this.model.rules.set(key, rule);
  }

  protect(): void {
    const { harness, model } = this;
    if (model.protection !== null) {
      this.steps.push('owner removes the protection');
      harness.emulator.run('unprotectAll_', [TAB], { spreadsheetId: harness.spreadsheetId });
      model.protection = null;
      return;
    }
    const range = this.random.pick([`${SIGNED_OFF}1:${SIGNED_OFF}1000`, 'C1:C1000', '']);
    const description = range ? `Owner only: ${range}` : 'Owner only: the tab';
    this.steps.push(`owner protects ${range || 'the whole tab'} for themselves`);
    harness.emulator.run('protectForOwner_', [TAB, range, description], {
      spreadsheetId: harness.spreadsheetId,
    });
    model.protection = description;
  }

  share(): void {
    const role = this.model.editorRole === 'editor' ? 'viewer' : 'editor';
    this.steps.push(`owner shares the spreadsheet with the editor as ${role}`);
    this.harness.emulator.share(this.harness.spreadsheetId, EDITOR, role);
    this.model.editorRole = role;
  }

  async changeService(): Promise<void> {
    const served = (await this.harness.dataset.data()).completions.length;
    const change = this.random.int(0, 2);
    if (change === 0) {
      const count = this.random.int(1, 2);
      this.steps.push(`the service gains ${count} record(s) on top`);
      await this.harness.dataset.mutate({ addCompletions: count });
    } else if (change === 1 && served > 1) {
      const position = this.random.int(1, served - 1);
      this.steps.push(`the service gains a record at position ${position}`);
      await this.harness.dataset.mutate({ insertCompletionsAt: [{ position }] });
    } else if (served > 2) {
      const position = this.random.int(0, served - 1);
      this.steps.push(`the service loses the record at position ${position}`);
      await this.harness.dataset.mutate({ removeCompletionsAt: [position] });
    }
  }

  /** Runs a menu item as the owner or the editor (random unless given) and checks the outcome. */
  async run(
    user: string = this.random.pick([OWNER, EDITOR]),
    caption: (typeof RUNS)[number] = this.random.pick(RUNS),
  ): Promise<void> {
    const { harness, model } = this;
    harness.emulator.clock.advance(HOUR);
    this.steps.push(`${user === OWNER ? 'owner' : 'editor'} runs ${caption}`);
    const before = tabsNow(harness);
    const rejectedOldValue = [...model.signedOff].some(
      ([key, value]) => model.rules.get(key) === 'reject' && value !== '' && !DROPDOWN.includes(value),
    );
    const logLines = syncLog(harness).length;
    const alertsBefore = workbook(harness).ui.alerts.length;
    try {
      harness.emulator.asUser(user).clickMenu(harness.spreadsheetId, 'Safety Sync', caption);
    } catch (error) {
      this.fail(`the run stopped with an error of its own: ${String(error)}`);
    }
    const newest = syncLog(harness)
      .slice(0, syncLog(harness).length - logLines)
      .map((line) => line.join(' '));
    const alert = alertsSince(harness, alertsBefore);
    const refused =
      newest.some((line) => /Error|refused|failed/i.test(line)) || /changed nothing/.test(alert);
    const mayNotEdit = user === EDITOR && (model.editorRole === 'viewer' || model.protection !== null);

    if (mayNotEdit) {
      // A viewer under a protection is refused for either reason: naming one of them is right.
      const causes = [
        ...(model.editorRole === 'viewer' ? ['you can only view this spreadsheet'] : []),
        ...(model.protection === null
          ? []
          : [`is protected \\("${model.protection.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\)`]),
      ];
      const cause = new RegExp(causes.join('|'));
      if (!cause.test(alert)) this.fail(`the refused run's message does not name the cause: ${alert}`);
      if (JSON.stringify(tabsNow(harness)) !== JSON.stringify(before))
        this.fail('a refused run changed a tab');
      if (model.editorRole === 'viewer') covered.runsRefusedToAViewer++;
      else covered.runsRefusedForAProtection++;
      this.steps.push('  refused, naming the cause; no tab changed');
      return;
    }
    if (refused) this.fail(`the run did not complete: ${alert} | ${newest.join(' | ')}`);

    const rows = rowsByKey(harness);
    const cells = tab(harness, TAB);
    for (const [key, row] of rows) {
      const shown = harness.displayed(TAB)[row - 1]![SIGNED_OFF_INDEX] ?? '';
      const expected = model.signedOff.get(key) ?? '';
      if (shown !== expected)
        this.fail(
          `record ${key} shows ${JSON.stringify(shown)} in Signed off, not ${JSON.stringify(expected)}`,
        );
      const rule = model.rules.get(key);
      if (rule) {
        const validation = cells.dataValidations(`${SIGNED_OFF}${row}`)[0]![0] ?? null;
        if (ruleOf(validation) !== rule)
          this.fail(`record ${key} lost its ${rule} dropdown (row ${row}: ${JSON.stringify(validation)})`);
      }
    }
    if (caption === 'Reconcile completed trainings') {
      const served = await servedRowKeys(harness);
      if (JSON.stringify(shownRowKeys(harness)) !== JSON.stringify(served))
        this.fail('after Reconcile the tab does not list exactly the service records');
    }
    if (rejectedOldValue) covered.runsOverARejectedOldValue++;
    if (user === OWNER && model.protection !== null) covered.ownerRunsUnderAProtection++;
    if (
      JSON.stringify(before[TAB]?.map((line) => line[9])) !==
        JSON.stringify(harness.displayed(TAB).map((line) => line[9])) &&
      model.signedOff.size > 0
    )
      covered.recordsMovedUnderAValue++;
    this.steps.push(`  completed (${rows.size} records)`);
  }
}

const { seeds, complete } = sequenceSeeds('REFUSALS_MODEL', SEQUENCES);

test.each(seeds.map((seed) => [seed]))('sequence %i: refusals between runs lose nothing', async (seed) => {
  const random = seeded(seed * 7919);
  const harness = await createAddonHarness({
    dataset: { seed, completions: random.int(4, 12), users: 5 },
    userScript: USER_SCRIPT,
  });
  try {
    harness.connect();
    harness.clickMenu('Reconcile completed trainings');
    workbook(harness).typeValues(`'${TAB}'!${SIGNED_OFF}1`, [['Signed off']]);
    const { baseUrl } = harness.callServer('getSettings');
    harness.asUser(EDITOR).callServer('saveSettings', { baseUrl, token: harness.dataset.tokens.valid });

    const sequence = new Sequence(seed, harness, random);
    for (let step = 0; step < STEPS; step++) {
      const kind = random.pick(['type', 'type', 'rule', 'protect', 'share', 'service', 'run', 'run']);
      if (kind === 'type') sequence.typeSignedOff();
      else if (kind === 'rule') sequence.setRule();
      else if (kind === 'protect') sequence.protect();
      else if (kind === 'share') sequence.share();
      else if (kind === 'service') await sequence.changeService();
      else await sequence.run();
    }
    // Every sequence ends with the owner's Reconcile: whatever the others did, it completes.
    await sequence.run(OWNER, 'Reconcile completed trainings');
  } finally {
    await harness.done();
  }
});

test('the sequences covered refusals, protections and old values under a dropdown', () => {
  if (!complete) return;
  expect(covered.runsRefusedToAViewer).toBeGreaterThanOrEqual(20);
  expect(covered.runsRefusedForAProtection).toBeGreaterThanOrEqual(20);
  expect(covered.runsOverARejectedOldValue).toBeGreaterThanOrEqual(20);
  expect(covered.ownerRunsUnderAProtection).toBeGreaterThanOrEqual(20);
  expect(covered.recordsMovedUnderAValue).toBeGreaterThanOrEqual(20);
});
