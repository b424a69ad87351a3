/**
 * The sheet stays the user's, end to end: the built add-on in the emulator against the sample
 * service, with a manager working in the imported tabs between its runs. Each seeded sequence
 * interleaves what people do in Sheets (type text with and without an apostrophe, numbers, dates,
 * formulas, formats, notes and validation in their own columns; notes on imported cells; insert,
 * move and delete columns, imported ones included; sort and filter from the filter; rename a tab;
 * type "Last inspected" dates) with changes upstream (records on top, backdated, deleted) and the
 * add-on's runs (Reconcile, Refresh all, Import equipment types) and Sheets recalculating custom functions.
 *
 * The oracle is what the tab held just before each run. After the run:
 *  1. A tab whose titles the user broke (an imported column deleted, or a second column of an
 *     imported title) is refused: every cell of it is as it was, and for the equipment tabs, all three.
 *  2. Otherwise every row that was there and whose record the service still lists holds, in every
 *     user column (found by its title), exactly what it held: value, formula (relative to its row),
 *     number format, note, validation; notes on imported cells stay too. New rows hold nothing of the
 *     user's. The user's columns keep their titles, order and filter criteria.
 *  3. No imported column is misread: the Completed trainings tab holds the service's records (as a
 *     multiset of record keys), each row's ids are its record's, and after Reconcile the rows are in
 *     the service's order, or, when the user sorted the tab, in the user's order below the new ones.
 *     The equipment tabs hold the service's types, metafields and schedules, linked to each other,
 *     each schedule keeping the "Last inspected" date typed for it.
 *
 * A failing sequence throws with its seed and every step; USER_EDITS_SEED=17 replays sequence 17.
 */
import { formulaToR1C1 } from '../../dev/emulator/spreadsheet/r1c1';
import { SeededRandom } from '../../dev/sample-service/random';
import type { CellView } from '../../dev/emulator/spreadsheet/workbook-store';
import { rowKeys } from '../../src/api/completion-key';
import type { Completion } from '../../src/api/schemas';
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { userActions } from '../support/user-actions';

const SEQUENCES = 300;
const COMPLETIONS = 'Completed trainings';
const SCHEDULES = 'Inspection schedules';
const EQUIPMENT_TABS = ['Equipment types', 'Equipment metafields', SCHEDULES];

/** The imported tabs whose rows the oracle follows, with what identifies a row. */
const IDENTITY: Record<string, readonly string[]> = {
  [COMPLETIONS]: ['Record key'],
  'Equipment types': ['Equipment type ID'],
  'Equipment metafields': ['Equipment type ID', 'Metafield ID'],
  [SCHEDULES]: ['Equipment type ID', 'Schedule ID'],
};
/** The equipment tabs' hidden key columns, which an import makes again when they are deleted. */
const REMADE_KEYS = ['Metafield key', 'Schedule key'];
/** Columns of the schedules tab that the user owns although the add-on made them. */
const USER_OWNED_IMPORTED = ['Last inspected'];

/** What people type: text that looks like something else, with and without the apostrophe. */
const TYPED = [
  "'00123",
  '00123',
  "'=not a formula",
  "'+44 20 7946",
  '+44 20 7946',
  "'1,234",
  '1,234',
  '2024-01-02',
  "'2024-01-02",
  '15/03/2024',
  '12:30',
  '7%',
  '(5)',
  '$5.20',
  'TRUE',
  "'TRUE",
  '-',
  "'-",
  'plain words',
  '  spaced  ',
  '3.5',
];
const FORMATS = ['0.00', '@', 'yyyy-mm-dd', '0%', 'General'];

/** One cell as the oracle compares it. */
interface CellSnapshot {
  value: string;
  /** R1C1, so that it reads the same on whichever row the record lands. */
  formula: string;
  format: string;
  note: string;
  validation: string;
}

interface RowSnapshot {
  identity: string;
  /** The user's cells by their column's title. */
  user: Map<string, CellSnapshot>;
  /** Notes on imported cells, by title. */
  importedNotes: Map<string, string>;
  /** Imported cells as displayed, by title. */
  imported: Map<string, string>;
}

interface TabSnapshot {
  titles: string[];
  rows: RowSnapshot[];
  /** Every cell, for a refused run's "nothing changed". */
  cells: CellView[][];
  filterCriteria: Map<string, string>;
}

class ModelViolation extends Error {}

class Sequence {
  private readonly steps: string[] = [];
  private readonly random: SeededRandom;
  private harness!: AddonHarness;
  private user!: ReturnType<typeof userActions>;
  /** Titles the user gave their columns, so that each is unique. */
  private columnsMade = 0;
  private renamed: { name: string; cells: CellView[][] } | null = null;
  /** Each tab's titles as the add-on first wrote them (before the user touched it). */
  private readonly importedTitles = new Map<string, readonly string[]>();

  constructor(readonly seed: number) {
    this.random = new SeededRandom(seed, 'user edits');
  }

  async run(): Promise<void> {
    const random = this.random;
    const completions = random.int(8, 24);
    this.harness = await createAddonHarness({
      dataset: { seed: 1000 + this.seed, completions, users: 8, equipmentTypes: random.int(2, 4) },
    });
    this.user = userActions(this.harness);
    try {
      this.harness.connect();
      this.harness.callServer('setFormulaAccess', true);
      this.log(`dataset: ${completions} completions`);
      await this.addonRun('reconcile');
      await this.addonRun('equipment');
      for (let step = random.int(6, 14); step > 0; step--) {
        const roll = random.int(1, 100);
        if (roll <= 55) this.edit();
        else if (roll <= 62) this.recalculate();
        else if (roll <= 72) await this.upstreamChange();
        else await this.addonRun(random.pick(['reconcile', 'reconcile', 'refresh', 'equipment'] as const));
      }
      await this.addonRun('refresh');
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

  // ---- what the user does -------------------------------------------------------------------

  private sheet(tab: string) {
    return this.harness.emulator.workbooks.get(this.harness.spreadsheetId)!.sheet(tab);
  }

  private titles(tab: string): string[] {
    return this.harness.displayed(tab)[0] ?? [];
  }

  private recordRows(tab: string): number {
    return this.harness.displayed(tab).length - 1;
  }

  /** A user column of `tab` (one is made when there is none), as its sheet column. */
  private userColumn(tab: string): number {
    const imported = new Set(this.importedTitlesOf(tab));
    const titles = this.titles(tab);
    const userColumns = titles.flatMap((title, index) =>
      imported.has(title) || title === '' ? [] : [index + 1],
    );
    if (userColumns.length > 0 && this.random.chance(0.8)) return this.random.pick(userColumns);
    const column = titles.length + 1;
    const title = `Mine ${++this.columnsMade}`;
    this.user.type(tab, 1, column, [[title]]);
    this.log(`types the title "${title}" in column ${column} of ${tab}`);
    return column;
  }

  private edit(): void {
    const random = this.random;
    const tab = random.chance(0.75) || !this.hasRows(SCHEDULES) ? COMPLETIONS : SCHEDULES;
    if (!this.hasRows(tab)) return;
    const rows = this.recordRows(tab);
    const row = random.int(2, rows + 1);
    const kind = random.pick([
      'text',
      'text',
      'text',
      'formula',
      'custom function',
      'format',
      'note',
      'imported note',
      'validation',
      'insert column',
      'move column',
      'delete column',
      'sort',
      'filter',
      'rename',
      'last inspected',
    ] as const);
    const titles = this.titles(tab);
    switch (kind) {
      case 'text': {
        const column = this.userColumn(tab);
        const text = random.pick(TYPED);
        this.user.type(tab, row, column, [[text]]);
        return this.log(`types ${JSON.stringify(text)} in row ${row}, column ${column} of ${tab}`);
      }
      case 'formula': {
        const column = this.userColumn(tab);
        const source = titles.indexOf(tab === COMPLETIONS ? 'Training ID' : 'Schedule ID') + 1;
        const formula = `=LEN(${this.user.a1(row, source)})`;
        this.user.typeFormula(tab, row, column, formula);
        return this.log(`types ${formula} in row ${row}, column ${column} of ${tab}`);
      }
      case 'custom function': {
        // One cell's answer each (a function answering a range would spill over the user's cells).
        const column = this.userColumn(tab);
        const sources =
          tab === COMPLETIONS ? ['User ID'] : ['Timing', 'Timing date', 'Frequency (days)', 'Last inspected'];
        if (sources.some((title) => !titles.includes(title))) return;
        const cells = sources.map((title) => this.user.a1(row, titles.indexOf(title) + 1)).join(', ');
        const formula = `=${tab === COMPLETIONS ? 'SAFETY_USER' : 'SAFETY_NEXT_INSPECTION'}(${cells})`;
        this.user.typeFormula(tab, row, column, formula);
        return this.log(`types ${formula} in row ${row}, column ${column} of ${tab}`);
      }
      case 'format': {
        const column = this.userColumn(tab);
        const format = random.pick(FORMATS);
        this.sheet(tab).setNumberFormat(this.user.a1(row, column), format);
        return this.log(`formats row ${row}, column ${column} of ${tab} as ${format}`);
      }
      case 'note': {
        const column = this.userColumn(tab);
        this.user.note(tab, row, column, `note ${this.steps.length}`);
        return this.log(`notes row ${row}, column ${column} of ${tab}`);
      }
      case 'imported note': {
        const column = random.int(1, titles.length);
        if (!this.importedTitlesOf(tab).includes(titles[column - 1]!)) return;
        this.user.note(tab, row, column, `on imported ${this.steps.length}`);
        return this.log(`notes the imported cell at row ${row}, column ${column} of ${tab}`);
      }
      case 'validation': {
        const column = this.userColumn(tab);
        this.user.requireList(tab, 2, column, rows, ['yes', 'no', 'n/a']);
        return this.log(`puts a yes/no list on rows 2-${rows + 1} of column ${column} of ${tab}`);
      }
      case 'insert column': {
        const column = random.int(1, titles.length + 1);
        this.user.insertColumnsBefore(tab, column, 1);
        const title = `Inserted ${++this.columnsMade}`;
        this.user.type(tab, 1, column, [[title]]);
        return this.log(`inserts column "${title}" before column ${column} of ${tab}`);
      }
      case 'move column': {
        const start = random.int(1, titles.length);
        const destination = random.int(1, titles.length + 1);
        if (destination === start || destination === start + 1) return;
        this.user.moveColumns(tab, start, 1, destination);
        return this.log(
          `moves column ${start} ("${titles[start - 1]}") of ${tab} to before column ${destination}`,
        );
      }
      case 'delete column': {
        const column = random.int(1, titles.length);
        const title = titles[column - 1]!;
        const imported = this.importedTitlesOf(tab).includes(title);
        if (imported && random.chance(0.7)) return;
        this.user.deleteColumns(tab, column, 1);
        return this.log(`deletes column ${column} ("${title}") of ${tab}`);
      }
      case 'sort': {
        const filter = this.filterColumns(tab);
        if (!filter) return;
        const column = random.int(filter.left, filter.right);
        const ascending = random.chance(0.5);
        this.user.sortByFilter(tab, column, ascending);
        return this.log(
          `sorts ${tab} from its filter by column ${column} ("${titles[column - 1]}"), ${ascending ? 'A→Z' : 'Z→A'}`,
        );
      }
      case 'filter': {
        const filter = this.filterColumns(tab);
        if (!filter) return;
        const column = random.int(filter.left, filter.right);
        const shown = this.harness
          .displayed(tab)
          .slice(1)
          .map((cells) => cells[column - 1]!);
        const hidden = random.pick(shown);
        // Hiding cells the user can see (empty ones excepted: hiding them hides too much to follow).
        if (hidden === '') return;
        this.user.hideValues(tab, column, [hidden]);
        return this.log(
          `hides ${JSON.stringify(hidden)} in column ${column} ("${titles[column - 1]}") of ${tab} from its filter`,
        );
      }
      case 'rename': {
        if (tab !== COMPLETIONS || this.renamed) return;
        const name = 'Completed trainings (mine)';
        this.sheet(COMPLETIONS).rename(name);
        this.renamed = { name, cells: this.sheet(name).cells() };
        return this.log(`renames ${COMPLETIONS} to "${name}"`);
      }
      case 'last inspected': {
        if (tab !== SCHEDULES) return;
        const column = titles.indexOf('Last inspected') + 1;
        if (column === 0) return;
        const date = `2024-0${random.int(1, 2)}-${String(random.int(10, 28))}`;
        this.user.type(tab, row, column, [[date]]);
        return this.log(`types Last inspected ${date} in row ${row} of ${tab}`);
      }
    }
  }

  /** The first and last columns of the tab's filter, or null without one. */
  private filterColumns(tab: string): { left: number; right: number } | null {
    const match = /^([A-Z]+)\d+:([A-Z]+)\d+$/.exec(this.user.filterRange(tab) ?? '');
    if (!match) return null;
    const number = (letters: string) =>
      [...letters].reduce((sum, letter) => sum * 26 + letter.charCodeAt(0) - 64, 0);
    return { left: number(match[1]!), right: number(match[2]!) };
  }

  private hasRows(tab: string): boolean {
    return (
      this.harness.emulator.workbooks.get(this.harness.spreadsheetId)!.sheetNames.includes(tab) &&
      this.recordRows(tab) > 0
    );
  }

  private async upstreamChange(): Promise<void> {
    const data = await this.harness.dataset.data();
    const length = data.completions.length;
    const kind = this.random.pick(['top', 'backdate', 'delete'] as const);
    if (kind === 'top') {
      const count = this.random.int(1, 3);
      await this.harness.dataset.mutate({ addCompletions: count });
      return this.log(`upstream: ${count} new records on top`);
    }
    if (kind === 'backdate') {
      const position = this.random.int(1, length);
      await this.harness.dataset.mutate({ insertCompletionsAt: [{ position }] });
      return this.log(`upstream: a record backdated to position ${position}`);
    }
    if (length <= 4) return;
    const position = this.random.int(0, length - 1);
    await this.harness.dataset.mutate({ removeCompletionsAt: [position] });
    this.log(`upstream: the record at position ${position} deleted`);
  }

  // ---- the add-on's runs and the oracle -----------------------------------------------------

  /** Sheets recomputes the custom functions (their answers may spill): nothing of the user's moves. */
  private recalculate(): void {
    const tabs = [COMPLETIONS, ...EQUIPMENT_TABS];
    const before = tabs.map((tab) => this.snapshot(tab));
    this.harness.emulator.workbooks.get(this.harness.spreadsheetId)!.recalculate();
    this.log('Sheets recalculates the custom functions');
    // A renamed tab's formulas compute too: what the add-on must leave alone is the tab as it is now.
    if (this.renamed) this.renamed.cells = this.sheet(this.renamed.name).cells();
    tabs.forEach((tab, index) => this.expectUserCellsKept(tab, before[index]!, this.snapshot(tab)));
  }

  private async addonRun(kind: 'reconcile' | 'refresh' | 'equipment'): Promise<void> {
    const touchesCompletions = kind !== 'equipment';
    const touchesEquipment = kind !== 'reconcile';
    const before = {
      completions: this.snapshot(COMPLETIONS),
      equipment: EQUIPMENT_TABS.map((tab) => this.snapshot(tab)),
    };
    const brokenCompletions = touchesCompletions && this.broken(COMPLETIONS, before.completions);
    const brokenEquipment =
      touchesEquipment && before.equipment.some((tab, index) => this.broken(EQUIPMENT_TABS[index]!, tab));
    const caption = {
      reconcile: 'Reconcile completed trainings',
      refresh: 'Refresh all',
      equipment: 'Import equipment types',
    }[kind];
    const alerts = this.alerts().length;
    this.harness.clickMenu(caption);
    const alert = this.alerts().slice(alerts).pop();
    this.log(`runs ${caption}: ${alert ? `${alert.title}: ${alert.message.slice(0, 160)}` : 'no message'}`);
    const workbook = this.harness.emulator.workbooks.get(this.harness.spreadsheetId)!;
    for (const tab of [COMPLETIONS, ...EQUIPMENT_TABS]) {
      // A tab the add-on has just made holds its titles and nothing of the user's yet.
      if (!this.importedTitles.has(tab) && workbook.sheetNames.includes(tab))
        this.importedTitles.set(tab, this.titles(tab));
    }
    // No change lands during a run in this test: the service now is the service during the run.
    this.serviceData = (await this.harness.dataset.data()) as unknown as { completions: Completion[] };
    this.check(kind, before, { completions: brokenCompletions, equipment: brokenEquipment });
  }

  private alerts() {
    return this.harness.emulator.workbooks.get(this.harness.spreadsheetId)!.ui.alerts;
  }

  /**
   * Whether a tab's imported titles are not each there exactly once (the add-on must refuse it). A
   * hidden key column of the equipment tabs is made again from the ids beside it, so its loss is not.
   */
  private broken(tab: string, snapshot: TabSnapshot | null): boolean {
    if (!snapshot) return false;
    const remade = (title: string) =>
      tab !== COMPLETIONS && REMADE_KEYS.includes(title) && !snapshot.titles.includes(title);
    return this.importedTitlesOf(tab)
      .filter((title) => !remade(title))
      .some((title) => snapshot.titles.filter((found) => found === title).length !== 1);
  }

  /** The titles the add-on writes in `tab` ("Last inspected" among them); none before its first run. */
  private importedTitlesOf(tab: string): readonly string[] {
    return this.importedTitles.get(tab) ?? [];
  }

  private snapshot(tab: string): TabSnapshot | null {
    const workbook = this.harness.emulator.workbooks.get(this.harness.spreadsheetId)!;
    if (!workbook.sheetNames.includes(tab)) return null;
    const sheet = workbook.sheet(tab);
    const cells = sheet.cells();
    const titles = (cells[0] ?? []).map((cell) => cell.display);
    const imported = new Set(this.importedTitlesOf(tab));
    const ownedImported = new Set(USER_OWNED_IMPORTED);
    const validations = sheet.dataValidations();
    const identityOf = (row: CellView[]) =>
      IDENTITY[tab]!.map((title) => row[titles.indexOf(title)]?.display ?? '').join('|');
    const rows = cells.slice(1).flatMap((row, index): RowSnapshot[] => {
      if (row.every((cell) => cell.display === '' && cell.formula === '' && cell.note === '')) return [];
      const user = new Map<string, CellSnapshot>();
      const importedNotes = new Map<string, string>();
      const importedCells = new Map<string, string>();
      titles.forEach((title, column) => {
        const cell = row[column]!;
        if (imported.has(title) && !ownedImported.has(title)) {
          importedNotes.set(title, cell.note);
          importedCells.set(title, cell.display);
          return;
        }
        user.set(title || `(untitled ${column + 1})`, {
          value: cell.formula
            ? ''
            : cell.value instanceof Date
              ? cell.value.toISOString()
              : String(cell.value),
          formula: cell.formula ? formulaToR1C1(cell.formula, index + 2, column + 1) : '',
          format: cell.numberFormat,
          note: cell.note,
          validation: JSON.stringify(validations[index + 1]?.[column] ?? null),
        });
      });
      return [{ identity: identityOf(row), user, importedNotes, imported: importedCells }];
    });
    const filterCriteria = new Map<string, string>();
    const filter = this.filterColumns(tab);
    titles.forEach((title, column) => {
      if (!filter || column + 1 < filter.left || column + 1 > filter.right) return;
      const criteria = sheet.filterCriteria(column + 1);
      if (criteria) filterCriteria.set(title, JSON.stringify(criteria));
    });
    return { titles, rows, cells, filterCriteria };
  }

  private check(
    kind: 'reconcile' | 'refresh' | 'equipment',
    before: { completions: TabSnapshot | null; equipment: (TabSnapshot | null)[] },
    broken: { completions: boolean; equipment: boolean },
  ): void {
    if (this.renamed) {
      const cells = this.sheet(this.renamed.name).cells();
      if (JSON.stringify(cells) !== JSON.stringify(this.renamed.cells)) {
        this.fail("a renamed tab is the user's own", `"${this.renamed.name}" changed`);
      }
    }
    if (kind !== 'equipment') {
      const after = this.snapshot(COMPLETIONS);
      if (broken.completions) this.expectUnchanged(COMPLETIONS, before.completions, after);
      else this.expectCompletionsKept(kind, before.completions, after);
    }
    if (kind !== 'reconcile') {
      EQUIPMENT_TABS.forEach((tab, index) => {
        const after = this.snapshot(tab);
        if (broken.equipment) this.expectUnchanged(tab, before.equipment[index]!, after);
        else this.expectUserCellsKept(tab, before.equipment[index]!, after);
      });
    }
  }

  private expectUnchanged(tab: string, before: TabSnapshot | null, after: TabSnapshot | null): void {
    // A1's note is where Safety Sync tells when the tabs were last refreshed, refused runs included.
    const cells = (snapshot: TabSnapshot | null) =>
      JSON.stringify(
        snapshot?.cells.map((row, index) =>
          index === 0 ? [{ ...row[0]!, note: '' }, ...row.slice(1)] : row,
        ),
      );
    if (cells(before) !== cells(after)) {
      this.fail('a run refuses a tab whose titles the user broke, and changes nothing', `${tab} changed`);
    }
  }

  private expectCompletionsKept(
    kind: 'reconcile' | 'refresh',
    before: TabSnapshot | null,
    after: TabSnapshot | null,
  ): void {
    if (!after) return this.fail('an import writes the tab', `${COMPLETIONS} is missing`);
    this.expectUserCellsKept(COMPLETIONS, before, after);
    const data = this.serviceData!;
    const keys = rowKeys(data.completions);
    const byKey = new Map(keys.map((key, index) => [key, data.completions[index]!]));
    const tabKeys = after.rows.map((row) => row.identity);
    if (kind === 'reconcile') {
      if ([...tabKeys].sort().join() !== [...keys].sort().join()) {
        this.fail(
          "Reconcile ends with the service's records",
          `tab ${tabKeys.join(' ')}\nservice ${keys.join(' ')}`,
        );
      }
      const heldBefore = before?.rows.map((row) => row.identity).filter((key) => byKey.has(key)) ?? [];
      const dates = before?.rows.map((row) => row.imported.get('Completion date') ?? '') ?? [];
      const sortedByUser = dates.some((date, index) => index > 0 && date > dates[index - 1]!);
      const expected = sortedByUser
        ? [...keys.filter((key) => !heldBefore.includes(key)), ...heldBefore]
        : keys;
      if (tabKeys.join() !== expected.join()) {
        this.fail(
          sortedByUser
            ? "Reconcile keeps the user's sort, new records on top"
            : "Reconcile writes the service's order",
          `tab ${tabKeys.join(' ')}\nexpected ${expected.join(' ')}`,
        );
      }
    } else {
      const missing = keys.filter((key) => !tabKeys.includes(key));
      if (missing.length > 0 || new Set(tabKeys).size !== tabKeys.length) {
        this.fail(
          'Refresh all adds what is new, once',
          `missing ${missing.join(' ')}; tab ${tabKeys.join(' ')}`,
        );
      }
    }
    for (const row of after.rows) {
      const record = byKey.get(row.identity) as Completion | undefined;
      if (!record) continue;
      if (
        row.imported.get('User ID') !== record.user_id ||
        row.imported.get('Training ID') !== record.training_id
      ) {
        this.fail(
          'no imported column is misread',
          `row ${row.identity}: ${JSON.stringify([...row.imported])}`,
        );
      }
    }
  }

  /** Oracle 2: rows kept keep the user's cells; new rows hold none; titles and criteria stay. */
  private expectUserCellsKept(tab: string, before: TabSnapshot | null, after: TabSnapshot | null): void {
    if (!before || !after) return;
    const userTitles = (snapshot: TabSnapshot) => {
      const imported = new Set(
        [...this.importedTitlesOf(tab)].filter((title) => !USER_OWNED_IMPORTED.includes(title)),
      );
      return snapshot.titles.filter((title) => !imported.has(title));
    };
    if (userTitles(before).join('|') !== userTitles(after).join('|')) {
      this.fail(
        "the user's columns keep their titles and order",
        `${tab}: ${userTitles(before)} → ${userTitles(after)}`,
      );
    }
    for (const [title, criteria] of before.filterCriteria) {
      if (after.filterCriteria.get(title) !== criteria) {
        this.fail(
          "the user's filter criteria survive a run",
          `${tab}, column "${title}": ${criteria} → ${after.filterCriteria.get(title)}`,
        );
      }
    }
    const afterByIdentity = new Map<string, RowSnapshot[]>();
    for (const row of after.rows)
      afterByIdentity.set(row.identity, [...(afterByIdentity.get(row.identity) ?? []), row]);
    const beforeIdentities = new Set(before.rows.map((row) => row.identity));
    for (const row of before.rows) {
      const kept = afterByIdentity.get(row.identity);
      if (!kept) continue;
      if (kept.length > 1) this.fail('a row is never doubled', `${tab}: ${row.identity} ×${kept.length}`);
      const now = kept[0]!;
      for (const [title, cell] of row.user) {
        const found = now.user.get(title);
        if (JSON.stringify(found) !== JSON.stringify(cell)) {
          this.fail(
            'every user cell stays beside its record with exactly what was typed',
            `${tab}, row ${row.identity}, column "${title}": ${JSON.stringify(cell)} → ${JSON.stringify(found)}`,
          );
        }
      }
      for (const [title, note] of row.importedNotes) {
        if (now.importedNotes.get(title) !== note) {
          this.fail(
            'notes stay beside their records',
            `${tab}, row ${row.identity}, column "${title}": ${note} → ${now.importedNotes.get(title)}`,
          );
        }
      }
    }
    for (const row of after.rows) {
      if (beforeIdentities.has(row.identity)) continue;
      for (const [title, cell] of row.user) {
        if (cell.value !== '' || cell.formula !== '' || cell.note !== '') {
          this.fail(
            "a new record's row holds nothing of the user's",
            `${tab}, row ${row.identity}, column "${title}": ${JSON.stringify(cell)}`,
          );
        }
      }
    }
  }

  // ---- bookkeeping --------------------------------------------------------------------------

  /** The service's data as the last run found it. */
  private serviceData: { completions: Completion[] } | null = null;

  private log(step: string): void {
    this.steps.push(step);
  }

  private fail(oracle: string, details: string): never {
    const steps = this.steps.map((step, index) => `  ${index + 1}. ${step}`).join('\n');
    throw new ModelViolation(
      `seed ${this.seed}: ${oracle}: ${details}\nReplay with USER_EDITS_SEED=${this.seed}. Steps:\n${steps}`,
    );
  }
}

const only = process.env.USER_EDITS_SEED;
const seeds = only ? [Number(only)] : Array.from({ length: SEQUENCES }, (_, index) => index + 1);

describe("the sheet stays the user's: seeded sequences of user edits, upstream changes and add-on runs", () => {
  test.each(seeds)('seed %i', async (seed) => {
    await new Sequence(seed).run();
  });
});
