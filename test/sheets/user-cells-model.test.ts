/**
 * The user's cells stay with their records whatever happens between runs: a seeded model-based test
 * through the built add-on and the sample service. Each sequence interleaves changes upstream
 * (records added on top, entered late inside the list, removed) with what a manager does in two
 * columns of their own beside the Completed trainings tab (typing values, adding Yes/No rules that
 * reject input or only warn over values already there, notes, number formats, sorting from the
 * filter) and the add-on's runs (Refresh all, Reconcile, a full import from the dialog).
 *
 * The oracle is what the user last left for each record: after every run, each record's user cells
 * (value, rule, note, number format) are exactly that; a record new to the tab holds no value and
 * no note, under the rule and format the first record's row had before the run (which a new row
 * takes). Every run completes (Google refuses a script's write that breaks a reject-input rule, and
 * the emulator with it), and no tab is half-written: every record shows the service's cells, once,
 * and the tab holds what the run promised (Reconcile and a full import: the service's list; Refresh
 * all: every row it held, and nothing the service never listed).
 *
 * A failing sequence throws with its seed and steps; USER_CELLS_SEED=17 replays sequence 17,
 * USER_CELLS_SEQUENCES=20 runs the first 20.
 */
import type { CellView } from '../../dev/emulator/spreadsheet/workbook-store';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { expectedCompletionRows } from '../support/completion-rows';
import { syncLog, tab } from '../support/equipment-tabs';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';
import { userActions } from '../support/user-actions';

const SEQUENCES = 200;
const TAB = 'Completed trainings';
/** The tab's table columns A to J (J: the record key); the user's two columns after them. */
const KEY_INDEX = 9;
const USER_COLUMNS = ['K', 'L'] as const;
const USER_TITLES = ['Signed off', 'Comment'];
/** Outcome, in the Sync log's columns from Action. */
const OUTCOME = 5;
const TYPED = ['Yes', 'No', 'y', 'n', 'maybe', '42', '7.5'];
const LIST = ['Yes', 'No'];

type RunKind = 'refresh' | 'reconcile' | 'import';

/** One user cell as the oracle compares it. */
interface UserCell {
  value: string;
  note: string;
  format: string;
  /** The rule as the user sees it ('' for none): criteria, values, rejects or warns. */
  rule: string;
}

class ModelViolation extends Error {}

class Sequence {
  private readonly random: Random;
  private readonly steps: string[] = [];
  private harness!: AddonHarness;
  /** What the user last left in their columns, by record key. */
  private readonly oracle = new Map<string, UserCell[]>();
  /** Each record the service ever listed: its table cells as the tab should show them. */
  private readonly listedRows = new Map<string, string[]>();

  constructor(private readonly seed: number) {
    this.random = seeded(seed);
  }

  async run(): Promise<void> {
    const random = this.random;
    const completions = random.int(3, 5);
    this.harness = await createAddonHarness({
      dataset: { seed: 7000 + this.seed, completions, users: 4, equipmentTypes: 0 },
    });
    try {
      this.harness.connect();
      this.log(`dataset: ${completions} completions`);
      await this.runAddon('reconcile');
      const user = userActions(this.harness);
      user.type(TAB, 1, 11, [USER_TITLES]);
      for (let step = random.int(5, 8); step > 0; step--) {
        const roll = random.int(1, 100);
        if (roll <= 45) this.userAction();
        else if (roll <= 65) await this.upstreamChange();
        else await this.runAddon(random.pick(['refresh', 'refresh', 'reconcile', 'import']));
      }
      await this.runAddon(random.pick(['refresh', 'reconcile', 'import']));
    } catch (error) {
      if (error instanceof ModelViolation) throw error;
      this.fail(
        'the sequence could not go on',
        error instanceof Error ? (error.stack ?? error.message) : String(error),
      );
    } finally {
      await this.harness.done();
    }
  }

  private log(step: string): void {
    this.steps.push(step);
  }

  private fail(rule: string, details: string): never {
    throw new ModelViolation(
      `seed ${this.seed} (replay: USER_CELLS_SEED=${this.seed}): ${rule}\n${details}\nsteps:\n  ${this.steps.join('\n  ')}`,
    );
  }

  private sheet() {
    return tab(this.harness, TAB);
  }

  /** The record keys top to bottom (rows 2 on). */
  private keys(): string[] {
    if (!this.hasTab(TAB)) return [];
    return this.harness
      .displayed(TAB)
      .slice(1)
      .map((row) => row[KEY_INDEX]!);
  }

  private hasTab(name: string): boolean {
    return this.harness.emulator.workbooks.get(this.harness.spreadsheetId)!.sheetNames.includes(name);
  }

  private userCellsAt(row: number): UserCell[] {
    const sheet = this.sheet();
    const cells = sheet.cells(`K${row}:L${row}`)[0]!;
    const rules = sheet.dataValidations(`K${row}:L${row}`)[0]!;
    return cells.map((cell: CellView, index) => {
      const rule = rules[index] ?? null;
      return {
        value: cell.display,
        note: cell.note,
        format: cell.numberFormat,
        rule: rule
          ? `${rule.criteria} ${JSON.stringify(rule.values)} ${rule.allowInvalid ? 'warns' : 'rejects'}`
          : '',
      };
    });
  }

  /** Something a manager does in their own columns of one record's row, then what it left there. */
  private userAction(): void {
    const keys = this.keys();
    if (keys.length === 0) return;
    const random = this.random;
    const row = random.int(2, keys.length + 1);
    const column = random.int(0, 1);
    const a1 = `${USER_COLUMNS[column]}${row}`;
    const sheet = this.sheet();
    const kind = random.pick(['type', 'type', 'reject', 'warn', 'note', 'format', 'sort'] as const);
    switch (kind) {
      case 'type': {
        const rule = sheet.dataValidations(a1)[0]![0] ?? null;
        const rejects = rule !== null && !rule.allowInvalid;
        const value = random.pick(rejects ? LIST : TYPED);
        this.log(`user types ${JSON.stringify(value)} in ${a1} (${keys[row - 2]})`);
        this.harness.emulator.workbooks
          .get(this.harness.spreadsheetId)!
          .typeValues(`'${TAB}'!${a1}`, [[value]]);
        break;
      }
      case 'reject':
      case 'warn':
        this.log(`user adds a Yes/No rule that ${kind === 'reject' ? 'rejects input' : 'warns'} on ${a1}`);
        sheet.setDataValidation(a1, { valueInList: LIST, allowInvalid: kind === 'warn' });
        break;
      case 'note':
        this.log(`user notes ${a1}`);
        sheet.setNote(a1, `note ${random.int(1, 99)}`);
        break;
      case 'format': {
        const format = random.pick(['0.00', '@', 'General']);
        this.log(`user formats ${a1} as ${format}`);
        sheet.setNumberFormat(a1, format);
        break;
      }
      case 'sort': {
        // Completion date (newest first, ties in the tab's order) or the record key.
        const [sortColumn, ascending] = random.pick([
          [4, false],
          [10, true],
        ] as const);
        this.log(`user sorts the tab by column ${sortColumn} ${ascending ? 'A → Z' : 'Z → A'}`);
        sheet.sortFilter(sortColumn, ascending);
        // A filter made before the user's columns were titled does not cover them: the sort leaves
        // their cells where they were, beside other records, as on Google. That is what they left.
        this.keys().forEach((key, index) => this.oracle.set(key, this.userCellsAt(index + 2)));
        return;
      }
    }
    this.oracle.set(keys[row - 2]!, this.userCellsAt(row));
  }

  private async upstreamChange(): Promise<void> {
    const random = this.random;
    const length = (await this.harness.dataset.data()).completions.length;
    const kind = random.pick(['on top', 'inside', 'removed'] as const);
    if (kind === 'on top') {
      const count = random.int(1, 2);
      this.log(`service: ${count} records added on top`);
      await this.harness.dataset.mutate({ addCompletions: count });
    } else if (kind === 'inside') {
      const daysBeforeNewest = random.int(1, 30);
      this.log(`service: a record entered late, ${daysBeforeNewest} days before the newest`);
      await this.harness.dataset.mutate({ addBackdatedCompletions: { count: 1, daysBeforeNewest } });
    } else if (length > 1) {
      const at = random.int(0, length - 1);
      this.log(`service: the record at position ${at} removed`);
      await this.harness.dataset.mutate({ removeCompletionsAt: [at] });
    }
  }

  private async runAddon(kind: RunKind): Promise<void> {
    this.log(`run: ${kind}`);
    const keysBefore = this.keys();
    // A new row takes the rule and number format the first record's row has.
    const template = keysBefore.length > 0 ? this.userCellsAt(2) : null;
    const logged = this.hasTab('Sync log') ? this.harness.displayed('Sync log').length : 0;
    if (kind === 'import') this.harness.callServer('startCompletionsImport', {});
    else this.harness.clickMenu(kind === 'refresh' ? 'Refresh all' : 'Reconcile completed trainings');

    const log = syncLog(this.harness);
    if (this.harness.displayed('Sync log').length <= logged) this.fail('every run is logged', 'no new line');
    if (log[0]![OUTCOME] !== 'Success')
      this.fail('every run completes', `the Sync log says: ${log[0]!.join(' | ')}`);

    const data = await this.harness.dataset.data();
    const servedNow = expectedCompletionRows(data, 'Europe/London');
    for (const row of servedNow) this.listedRows.set(row[KEY_INDEX]!, row);
    const shown = this.harness.displayed(TAB).slice(1);
    const keys = shown.map((row) => row[KEY_INDEX]!);
    if (new Set(keys).size !== keys.length) this.fail('no record is shown twice', keys.join(', '));
    if (kind === 'refresh') {
      const lost = keysBefore.filter((key) => !keys.includes(key));
      if (lost.length) this.fail('Refresh all keeps every row', `gone: ${lost.join(', ')}`);
      const unknown = keys.filter((key) => !this.listedRows.has(key));
      if (unknown.length) this.fail('no row for a record never listed', unknown.join(', '));
    } else {
      const expected = servedNow.map((row) => row[KEY_INDEX]!).sort();
      if (JSON.stringify([...keys].sort()) !== JSON.stringify(expected))
        this.fail(
          "a full import holds the service's list",
          `shown: ${keys.join(', ')}\nserved: ${expected.join(', ')}`,
        );
    }
    shown.forEach((row, index) => {
      const key = row[KEY_INDEX]!;
      const listed = this.listedRows.get(key)!;
      if (JSON.stringify(row.slice(0, KEY_INDEX + 1)) !== JSON.stringify(listed))
        this.fail(
          "each row shows its record's cells",
          `row ${index + 2}: ${row.join(' | ')}\nlisted: ${listed.join(' | ')}`,
        );
      const cells = this.userCellsAt(index + 2);
      const wanted =
        this.oracle.get(key) ??
        (template ? template.map((cell) => ({ ...cell, value: '', note: '' })) : cells);
      if (JSON.stringify(cells) !== JSON.stringify(wanted))
        this.fail(
          'each record keeps what the user left in its cells',
          `record ${key} on row ${index + 2}: ${JSON.stringify(cells)}\nexpected: ${JSON.stringify(wanted)}`,
        );
      this.oracle.set(key, cells);
    });
  }
}

const { seeds } = sequenceSeeds('USER_CELLS', SEQUENCES);

describe("the user's cells stay with their records: seeded sequences of upstream changes, user edits and runs", () => {
  test.each(seeds)('seed %i', async (seed) => {
    await new Sequence(seed).run();
  });
});
