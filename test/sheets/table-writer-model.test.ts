/**
 * The table writer on its own (src/sheets/table-writer.ts and the modules it writes with), run in
 * Node against the emulator's Spreadsheet service: a seeded model-based test that is fast enough
 * to run for every mutant. Each sequence writes a small table, then alternates what a manager does
 * in the tab (values, formulas, formats, notes and reject-input rules in two columns of their own,
 * one of them between the table's columns; a formula on another tab pointing at a record's cell)
 * with new versions of the table (records removed, added anywhere, moved, their values changed).
 *
 * The oracle is what the user last left beside each record: after every write each record's row
 * shows the table's values, and the user's cells (value, formula, format, note, rule) that the user
 * left for that record, or nothing for a new record (under the first record's rules); nothing is
 * left below the table; a formula on another tab keeps showing the record it pointed at while the
 * records keep their rows; and the write reports how many records with the user's content left.
 *
 * A failing sequence throws with its seed and steps; TABLE_WRITER_SEED=17 replays sequence 17,
 * TABLE_WRITER_SEQUENCES=20 runs the first 20.
 */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';
import type { SheetView, ValidationView } from '../../dev/emulator/spreadsheet/workbook-store';
import type { CellValue, ColumnSpec, Table } from '../../src/sheets/table';
import { readTabLayout } from '../../src/sheets/added-columns';
import { insertRowsOnTop } from '../../src/sheets/rows-on-top';
import { writeTable } from '../../src/sheets/table-writer';
import { type Random, seeded, sequenceSeeds } from '../support/seeded-random';

const SEQUENCES = 60;
const TAB = 'Records';
const COLUMNS: ColumnSpec[] = [
  { header: 'Name', kind: 'text', width: 180 },
  { header: 'Count', kind: 'integer', width: 100 },
  { header: 'Key', kind: 'text', width: 100, hidden: true },
];
const KEY = 2;
/** The user's columns: one inserted before "Count" (so it sits inside the table), one after it. */
const USER_TITLES = ['Mine', 'Signed off'];
const TYPED = ['Yes', 'No', '42', '007', '=1+1', 'true', '-3', '(draft)', ''];
const FORMATS = ['', '@', '0.00'];

type Service = ReturnType<typeof createTestSpreadsheetService>;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** One user cell as the oracle compares it. */
interface UserCell {
  value: CellValue | Date;
  /**
   * The user's formula: 'twice the count' for one reading the record's count on its row (the
   * emulator computes no reference, so its text is checked), else as typed; '' for none.
   */
  formula: string;
  format: string;
  note: string;
  /** The rule as the user sees it ('' for none). */
  rule: string;
}

class ModelViolation extends Error {}

function ruleText(rule: ValidationView | null): string {
  return rule
    ? `${rule.criteria} ${JSON.stringify(rule.values)} ${rule.allowInvalid ? 'warns' : 'rejects'}`
    : '';
}

class Sequence {
  private readonly random: Random;
  private readonly steps: string[] = [];
  private readonly service: Service;
  private readonly spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  private readonly workbookId: string;
  private sheet!: Sheet;
  /** The table as last written: each record's name and count, by key, in the table's order. */
  private records: { key: string; name: string; count: number }[] = [];
  private nextKey = 1;
  /** What the user last left beside each record, by key, one cell per user column. */
  private readonly oracle = new Map<string, UserCell[]>();
  /** Notes the user left on the record's table cells, by key and column title. */
  private readonly tableNotes = new Map<string, Map<string, string>>();
  /** The rules on the record's table cells ("Name", "Count"), by key: a user's, or a new row's. */
  private readonly tableRules = new Map<string, string[]>();
  /** Whether the user hid "No" in the filter of "Signed off". */
  private filterHidesNo = false;
  /** The record a formula on another tab points at (by its cell in the user's column "Signed off"). */
  private watched: { key: string } | null = null;
  private userColumnsAdded = false;

  constructor(private readonly seed: number) {
    this.random = seeded(seed);
    this.service = createTestSpreadsheetService();
    this.workbookId = this.service.workbooks.create({ name: 'Model' });
    this.service.context.activeSpreadsheetId = this.workbookId;
    this.spreadsheet = this.service.SpreadsheetApp.getActiveSpreadsheet();
  }

  run(): void {
    const random = this.random;
    try {
      this.sheet = this.spreadsheet.insertSheet(TAB);
      this.spreadsheet.insertSheet('Summary');
      this.records = Array.from({ length: random.int(1, 8) }, () => this.newRecord());
      this.write();
      this.addUserColumns();
      for (let step = random.int(4, 8); step > 0; step--) {
        const roll = random.int(1, 100);
        if (roll <= 50) this.userAction();
        else if (roll <= 65 && this.records.length > 0) this.arriveOnTop();
        else {
          this.changeTable();
          this.write();
        }
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ModelViolation(
        `sequence ${this.seed} (replay: TABLE_WRITER_SEED=${this.seed}) failed: ${message}\nsteps:\n  ${this.steps.join('\n  ')}`,
      );
    }
  }

  private log(step: string): void {
    this.steps.push(step);
  }

  private newRecord(): { key: string; name: string; count: number } {
    const key = `k${this.nextKey++}`;
    return {
      key,
      name: this.random.pick(['Ann', 'Bo', '0042', '=A1', 'TRUE', 'Cy']),
      count: this.random.int(0, 99),
    };
  }

  /** The tab as the user sees it (what the script wrote committed first). */
  private view(): SheetView {
    this.service.SpreadsheetApp.flush();
    return this.service.workbooks.get(this.workbookId)!.sheet(TAB);
  }

  private type(a1: string, value: string): void {
    this.service.workbooks.get(this.workbookId)!.typeValues(a1, [[value]]);
  }

  private titles(): string[] {
    const view = this.view();
    return view.values(`A1:${this.columnLetter(view.lastColumn)}1`)[0]!.map(String);
  }

  private columnOf(title: string): number {
    const column = this.titles().indexOf(title) + 1;
    if (column === 0) throw new Error(`no "${title}" column`);
    return column;
  }

  /** The row of each record, as the tab's key column says. */
  private rowOf(key: string): number {
    const letter = this.columnLetter(this.columnOf('Key'));
    const keys = this.view()
      .values(`${letter}2:${letter}${this.records.length + 1}`)
      .map((row) => String(row[0]));
    const index = keys.indexOf(key);
    if (index < 0) throw new Error(`record ${key} is not in the tab`);
    return index + 2;
  }

  private addUserColumns(): void {
    this.view().insertColumnsBefore(2);
    this.userColumnsAdded = true;
    this.type(`'${TAB}'!B1`, USER_TITLES[0]!);
    this.type(`'${TAB}'!E1`, USER_TITLES[1]!);
    for (const record of this.records)
      this.oracle.set(record.key, this.readUserCells(this.rowOf(record.key)));
    this.log(`user: columns ${USER_TITLES.join(', ')} added (B and E)`);
  }

  /** A new record's cells: empty, without a note, in the format and under the rule of the first record's. */
  private newRecordCells(first: readonly UserCell[]): UserCell[] {
    return first.map((cell) => ({ value: '', formula: '', format: cell.format, note: '', rule: cell.rule }));
  }

  private userAction(): void {
    const random = this.random;
    if (this.records.length === 0) return;
    const record = random.pick(this.records);
    const which = random.int(0, 1);
    const column = this.columnOf(USER_TITLES[which]!);
    const row = this.rowOf(record.key);
    const cell = `${this.columnLetter(column)}${row}`;
    const view = this.view();
    const kept = this.oracle.get(record.key)![which]!;
    const roll = random.int(1, 10);
    if (roll === 1) {
      // A formula reading the record's own count, relative to its row.
      this.type(`'${TAB}'!${cell}`, `=${this.columnLetter(this.columnOf('Count'))}${row}*2`);
      this.log(`user: ${record.key}'s ${USER_TITLES[which]} is twice its count`);
    } else if (roll === 2) {
      const format = random.pick(FORMATS);
      view.setNumberFormat(cell, format === '' ? 'General' : format);
      this.log(`user: ${record.key}'s ${USER_TITLES[which]} formatted "${format}"`);
    } else if (roll === 3) {
      const note = random.pick(['checked', 'ask Bo', '']);
      if (random.chance(0.3)) {
        const title = random.pick(['Name', 'Count']);
        view.setNote(`${this.columnLetter(this.columnOf(title))}${row}`, note);
        this.noteOnTable(record.key).set(title, note);
        this.log(`user: note "${note}" on ${record.key}'s ${title}`);
      } else {
        view.setNote(cell, note);
        this.log(`user: note "${note}" on ${record.key}'s ${USER_TITLES[which]}`);
      }
    } else if (roll === 4 && kept.formula === '') {
      // A Yes/No rule over what is there, rejecting other input from now on (or only warning).
      view.setDataValidation(cell, { valueInList: ['Yes', 'No'], allowInvalid: random.chance(0.5) });
      this.log(`user: Yes/No rule on ${record.key}'s ${USER_TITLES[which]}`);
    } else if (roll === 5) {
      // A rule on the record's count accepting only the count it has now: the add-on's write of
      // another count must lift it, and the rule stays with its record.
      const count = `${this.columnLetter(this.columnOf('Count'))}${row}`;
      view.setDataValidation(count, { valueInList: [String(record.count)], allowInvalid: false });
      this.log(`user: rule accepting only ${record.count} on ${record.key}'s Count`);
    } else if (roll === 6) {
      if (view.maxRows > view.lastRow) view.deleteRows(view.lastRow + 1, view.maxRows - view.lastRow);
      this.log(`user: the empty rows below the table deleted (${view.lastRow} rows left)`);
    } else if (
      roll === 7 &&
      which === 1 &&
      (view.filter?.split(':')[1] ?? 'A') >= this.columnLetter(column)
    ) {
      view.setFilterCriteria(column, { hiddenValues: ['No'] });
      this.filterHidesNo = true;
      this.log('user: "No" hidden in the filter of Signed off');
    } else if (roll === 8 && which === 1) {
      this.type('Summary!A1', `='${TAB}'!${cell}`);
      this.watched = { key: record.key };
      this.log(`user: Summary!A1 shows ${record.key}'s ${USER_TITLES[which]}`);
    } else {
      const typed = random.pick(TYPED);
      if (kept.rule.endsWith('rejects') && typed !== 'Yes' && typed !== 'No') return;
      this.type(`'${TAB}'!${cell}`, typed);
      this.log(`user: typed "${typed}" in ${record.key}'s ${USER_TITLES[which]}`);
    }
    this.oracle.set(record.key, this.readUserCells(row));
    this.tableRules.set(record.key, this.readTableRules(row));
  }

  private readTableRules(row: number): string[] {
    const view = this.view();
    return ['Name', 'Count'].map((title) =>
      ruleText(view.dataValidations(`${this.columnLetter(this.columnOf(title))}${row}`)[0]![0]!),
    );
  }

  private noteOnTable(key: string): Map<string, string> {
    let notes = this.tableNotes.get(key);
    if (!notes) {
      notes = new Map();
      this.tableNotes.set(key, notes);
    }
    return notes;
  }

  private columnLetter(column: number): string {
    return String.fromCharCode(64 + column);
  }

  private readUserCells(row: number): UserCell[] {
    const view = this.view();
    return USER_TITLES.map((title) => {
      const a1 = `${this.columnLetter(this.columnOf(title))}${row}`;
      const cell = view.cells(a1)[0]![0]!;
      return {
        value: cell.formula === '' ? cell.value : '(formula)',
        formula: /^=[A-Z]\d+\*2$/.test(cell.formula) ? 'twice the count' : cell.formula,
        format: cell.numberFormat,
        note: cell.note,
        rule: ruleText(view.dataValidations(a1)[0]![0]!),
      };
    });
  }

  private changeTable(): void {
    const random = this.random;
    let records = this.records.filter(() => !random.chance(0.25));
    for (let added = random.int(0, 3); added > 0; added--)
      records.splice(random.int(0, records.length), 0, this.newRecord());
    if (records.length > 1 && random.chance(0.4)) {
      const [moved] = records.splice(random.int(0, records.length - 1), 1);
      records.splice(random.int(0, records.length), 0, moved!);
      // A record out of order may take a new row, and the formula pointing at its old one #REF!.
      this.watched = null;
    }
    // Records arriving on top take the first record's row (a reference to it means the newest).
    if (this.watched?.key === this.records[0]?.key && records[0]?.key !== this.watched?.key)
      this.watched = null;
    records = records.map((record) =>
      random.chance(0.2) ? { ...record, count: random.int(0, 99) } : record,
    );
    this.records = records;
    this.log(`upstream: the table is ${records.map((record) => `${record.key}=${record.count}`).join(' ')}`);
  }

  /** Records arriving on top of the tab (newest first), inserted without rewriting the rest. */
  private arriveOnTop(): void {
    const arriving = Array.from({ length: this.random.int(1, 3) }, () => this.newRecord());
    const first = this.userColumnsAdded ? this.readUserCells(2) : null;
    const firstRules = this.readTableRules(2);
    const rowsBefore = this.view().maxRows;
    const rows = arriving.map((record) => [record.name, record.count, record.key]);
    this.log(`upstream: ${arriving.map((record) => record.key).join(' ')} arrive on top, inserted`);
    if (insertRowsOnTop(this.sheet, COLUMNS, readTabLayout(this.sheet, COLUMNS), rows) !== null)
      throw new Error('a small insertion reported a slower write');
    // A reference to the first record's row keeps meaning the newest record.
    if (this.watched?.key === this.records[0]!.key) this.watched = null;
    this.records = [...arriving, ...this.records];
    // The new rows take the first record's formats and rules, and no note.
    if (first) for (const record of arriving) this.oracle.set(record.key, this.newRecordCells(first));
    for (const record of arriving) this.tableRules.set(record.key, firstRules);
    if (this.view().maxRows !== rowsBefore + arriving.length)
      throw new Error(`the tab has ${this.view().maxRows} rows, expected ${rowsBefore + arriving.length}`);
    // The titles and the filter are the caller's to set after an insertion on top.
    this.check({ frame: false });
  }

  private write(): void {
    const listed = new Set(this.records.map((record) => record.key));
    const leaving = [...this.oracle.keys()].filter((key) => !listed.has(key));
    const expectedDropped = leaving.filter((key) => this.hasUserContent(key)).length;
    const firstRow = !this.userColumnsAdded
      ? null
      : this.oracle.size > 0
        ? this.readUserCells(2)
        : this.readUserCells(this.records.length + 50);
    const firstRules = this.view().lastRow > 1 ? this.readTableRules(2) : ['', ''];
    const height = this.records.length + 1;
    const expectedRows = Math.max(this.view().maxRows, height);
    const table: Table = {
      columns: COLUMNS,
      rows: this.records.map((record) => [record.name, record.count, record.key]),
      keyColumn: KEY,
    };
    const result = writeTable(this.sheet, table);
    this.log(`write: ${this.records.length} records`);
    if (result.rowsWritten !== this.records.length)
      throw new Error(`rowsWritten ${result.rowsWritten}, expected ${this.records.length}`);
    if (this.oracle.size > 0 && result.userRowsDropped !== expectedDropped)
      throw new Error(`userRowsDropped ${result.userRowsDropped}, expected ${expectedDropped}`);
    for (const key of leaving) {
      this.oracle.delete(key);
      this.tableNotes.delete(key);
      this.tableRules.delete(key);
    }
    // A new record's row takes the rules of the first record's row, table cells included.
    for (const record of this.records)
      if (!this.tableRules.has(record.key)) this.tableRules.set(record.key, firstRules);
    const { placement } = result;
    if (
      placement.height !== height ||
      placement.maxRows !== expectedRows ||
      this.view().maxRows !== expectedRows
    )
      throw new Error(
        `the tab has ${this.view().maxRows} rows (placement: ${placement.height} of ${placement.maxRows}), expected ${height} of ${expectedRows}`,
      );
    if (firstRow) {
      for (const record of this.records)
        if (!this.oracle.has(record.key)) this.oracle.set(record.key, this.newRecordCells(firstRow));
    }
    this.check();
  }

  private hasUserContent(key: string): boolean {
    const cells = this.oracle.get(key)!;
    const notes = this.tableNotes.get(key);
    return (
      cells.some(
        (cell) => (cell.value !== '' && cell.value !== null) || cell.formula !== '' || cell.note !== '',
      ) || [...(notes?.values() ?? [])].some((note) => note !== '')
    );
  }

  private check({ frame } = { frame: true }): void {
    const titles = this.titles();
    const view = this.view();
    const width = titles.length;
    const expectedTitles = this.userColumnsAdded
      ? ['Name', 'Mine', 'Count', 'Key', 'Signed off']
      : COLUMNS.map((column) => column.header);
    if (JSON.stringify(titles) !== JSON.stringify(expectedTitles))
      throw new Error(`titles ${JSON.stringify(titles)}, expected ${JSON.stringify(expectedTitles)}`);
    const height = this.records.length + 1;
    if (view.lastRow !== height) throw new Error(`the tab's last row is ${view.lastRow}, expected ${height}`);
    const all = `A1:${this.columnLetter(width)}${height}`;
    const values = view.values(all);
    const formats = view.numberFormats(all);
    this.records.forEach((record, index) => {
      const row = values[index + 1]!;
      const shown = [row[titles.indexOf('Name')], row[titles.indexOf('Count')], row[titles.indexOf('Key')]];
      if (JSON.stringify(shown) !== JSON.stringify([record.name, record.count, record.key]))
        throw new Error(`row ${index + 2} shows ${JSON.stringify(shown)}, expected ${record.key}'s cells`);
      if (
        formats[index + 1]![titles.indexOf('Name')] !== '@' ||
        formats[index + 1]![titles.indexOf('Count')] !== '0'
      )
        throw new Error(`row ${index + 2}'s table cells lost their formats`);
      for (const [title, note] of this.tableNotes.get(record.key) ?? []) {
        const actual = view.notes(`${this.columnLetter(titles.indexOf(title) + 1)}${index + 2}`)[0]![0]!;
        if (actual !== note)
          throw new Error(`${record.key}'s note on ${title} is "${actual}", expected "${note}"`);
      }
      const rules = this.readTableRules(index + 2);
      if (JSON.stringify(rules) !== JSON.stringify(this.tableRules.get(record.key)))
        throw new Error(
          `${record.key}'s rules on Name and Count are ${JSON.stringify(rules)}, expected ${JSON.stringify(this.tableRules.get(record.key))}`,
        );
      const expected = this.oracle.get(record.key);
      if (!expected) return;
      const actual = this.readUserCells(index + 2);
      expected.forEach((cell, column) => {
        if (JSON.stringify(actual[column]) !== JSON.stringify(cell))
          throw new Error(
            `${record.key}'s ${USER_TITLES[column]} is ${JSON.stringify(actual[column])}, expected ${JSON.stringify(cell)}`,
          );
        if (cell.formula !== 'twice the count') return;
        // The formula still reads its own record's count, on the row the record is on now.
        const a1 = `${this.columnLetter(titles.indexOf(USER_TITLES[column]!) + 1)}${index + 2}`;
        const formula = view.formulas(a1)[0]![0];
        const wanted = `=${this.columnLetter(titles.indexOf('Count') + 1)}${index + 2}*2`;
        if (formula !== wanted) throw new Error(`${record.key}'s formula is ${formula}, expected ${wanted}`);
      });
    });
    if (frame) this.checkFrame(titles, height);
    const watchedAt = this.records.findIndex((record) => record.key === this.watched?.key);
    if (watchedAt >= 0) {
      // The emulator computes no reference: what the formula points at is what the user would see.
      const formula = this.service.workbooks.get(this.workbookId)!.sheet('Summary').formulas('A1')[0]![0];
      const wanted = `='${TAB}'!${this.columnLetter(titles.indexOf(USER_TITLES[1]!) + 1)}${watchedAt + 2}`;
      if (formula !== wanted)
        throw new Error(`Summary!A1 is ${formula}, expected ${wanted} (${this.watched!.key}'s cell)`);
    } else this.watched = null;
  }
  /** The titles bold and frozen, the filter over the table and the user's columns, the key hidden. */
  private checkFrame(titles: readonly string[], height: number): void {
    const view = this.view();
    const width = titles.length;
    if (view.fontWeights(`A1:${this.columnLetter(width)}1`)[0]!.some((weight) => weight !== 'bold'))
      throw new Error('the titles are not all bold');
    if (view.frozenRows !== 1) throw new Error('the titles are not frozen');
    const expectedFilter = `A1:${this.columnLetter(width)}${height}`;
    if (view.filter !== expectedFilter)
      throw new Error(`the filter covers ${view.filter}, expected ${expectedFilter}`);
    if (JSON.stringify(view.hiddenColumns) !== JSON.stringify([titles.indexOf('Key') + 1]))
      throw new Error(`hidden columns ${JSON.stringify(view.hiddenColumns)}: only the key column should be`);
    const criteria = view.filterCriteria(titles.indexOf(USER_TITLES[1]!) + 1);
    if (this.filterHidesNo && JSON.stringify(criteria?.hiddenValues) !== '["No"]')
      throw new Error(
        `the filter of Signed off hides ${JSON.stringify(criteria?.hiddenValues)}, expected "No"`,
      );
    if (titles.length === 3 && view.columnWidth(1) !== 180)
      throw new Error("a new tab lost the table's widths");
  }
}

const { seeds } = sequenceSeeds('TABLE_WRITER', SEQUENCES);

test.each(seeds)("sequence %i: the user's cells stay beside their records", (seed) => {
  new Sequence(seed).run();
});
