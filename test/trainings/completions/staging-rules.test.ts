/**
 * The staging tab on its own (src/trainings/completions/staging.ts), on the emulator's Spreadsheet
 * service: what an unfinished import staged comes back exactly, in order, from a hidden one-column
 * tab, whatever the user renamed it; a tab changed meanwhile gives nothing back rather than
 * something else; and clearing it gives its cells back. The imports that stage are in
 * import-staging.test.ts.
 */
import { createTestSpreadsheetService } from '../../../dev/emulator/spreadsheet/testing';
import { type ListEntry, recordEntry } from '../../../src/api/completions-contract';
import type { Completion } from '../../../src/api/schemas';
import { DocumentState } from '../../../src/platform/document-state';
import {
  clearStaging,
  describeStaged,
  readStaging,
  stageEntries,
} from '../../../src/trainings/completions/staging';
import { stagedCellOf } from '../../support/record-key-oracle';

/** The name the staging tab is made under, as the user sees it among the hidden tabs. */
const STAGING_TAB = 'Safety Sync staging';

const service = createTestSpreadsheetService();
const scriptGlobals = globalThis as { SpreadsheetApp?: GoogleAppsScript.Spreadsheet.SpreadsheetApp };

// DocumentState names the metadata's visibility through the global, as Apps Script code does.
beforeAll(() => {
  scriptGlobals.SpreadsheetApp = service.SpreadsheetApp;
});
afterAll(() => {
  delete scriptGlobals.SpreadsheetApp;
});

function newSpreadsheet() {
  service.context.activeSpreadsheetId = service.workbooks.create({ name: 'Staging' });
  const spreadsheet = service.SpreadsheetApp.getActiveSpreadsheet();
  return {
    spreadsheet,
    /** Stages `entries` as one execution of a run does, with the state read at its start. */
    stage: (entries: readonly ListEntry[]) =>
      stageEntries(spreadsheet, DocumentState.read(spreadsheet), entries),
    read: (staged: readonly ListEntry[]) =>
      readStaging(spreadsheet, DocumentState.read(spreadsheet), describeStaged(staged)),
    clear: () => clearStaging(spreadsheet, DocumentState.read(spreadsheet)),
    tabNames: () => spreadsheet.getSheets().map((sheet) => sheet.getName()),
  };
}

function completion(overrides: Partial<Completion> = {}): Completion {
  return {
    user_id: 'u-1',
    training_id: 't-1',
    created: 1_704_164_645,
    dateNumber: 20_240_102,
    specialExpirationDateNumber: 20_250_102,
    instructor_id: 'i-1',
    groupTraining_id: 'g-1',
    ...overrides,
  };
}

const refused: ListEntry = {
  key: '#refused {"user_id":7}',
  record: null,
  rejected: { source: '{"user_id":7}', problem: 'user_id: expected string' },
};

/** Records whose fields a spreadsheet would take for something else were they typed in a cell. */
const awkward: ListEntry[] = [
  recordEntry(completion({ user_id: '007', training_id: '=1+1', instructor_id: "'quoted" })),
  recordEntry(completion({ user_id: ' ', training_id: '', groupTraining_id: 'two\nlines' })),
  recordEntry(
    completion({ user_id: '2024-01-02', training_id: '1e3', specialExpirationDateNumber: undefined }),
  ),
];

function manyEntries(count: number, from = 0): ListEntry[] {
  return Array.from({ length: count }, (_, index) =>
    recordEntry(completion({ user_id: `u-${from + index}` })),
  );
}

test('staged records come back exactly as the service sent them, in order, refused entries in their place', () => {
  const { stage, read } = newSpreadsheet();
  const staged = [...awkward.slice(0, 2), refused, awkward[2]!];
  stage(staged.slice(0, 3));
  stage(staged.slice(3));
  const back = read(staged);
  expect(back).toEqual(staged);
  // An absent field stays absent (not null): the record is the one the service sent.
  expect(back![3]!.record).not.toHaveProperty('specialExpirationDateNumber');
});

test('the staging tab is hidden, one text column, and grows by exactly the rows it needs', () => {
  const { spreadsheet, stage, read } = newSpreadsheet();
  const first = manyEntries(600);
  const second = manyEntries(650, 600);
  stage(first);
  stage(second);
  const sheet = spreadsheet.getSheetByName(STAGING_TAB)!;
  expect(sheet.isSheetHidden()).toBe(true);
  expect([sheet.getMaxRows(), sheet.getMaxColumns()]).toEqual([1250, 1]);
  expect(new Set(sheet.getRange(1, 1, 1250, 1).getNumberFormats().flat())).toEqual(new Set(['@']));
  expect(read([...first, ...second])).toEqual([...first, ...second]);
});

test('nothing to stage makes no tab', () => {
  const { stage, tabNames } = newSpreadsheet();
  stage([]);
  expect(tabNames()).toEqual(['Sheet1']);
});

test('a staging tab the user renamed is still the one the run staged in', () => {
  const { spreadsheet, stage, read, tabNames } = newSpreadsheet();
  const staged = manyEntries(3);
  stage(staged.slice(0, 2));
  const sheet = spreadsheet.getSheetByName(STAGING_TAB)!;
  sheet.setName('Old import');
  stage(staged.slice(2));
  expect(tabNames()).toEqual(['Sheet1', 'Old import']);
  expect(sheet.isSheetHidden()).toBe(true);
  expect(read(staged)).toEqual(staged);
});

test('a staging tab an earlier version of the add-on kept by its id is found, renamed, during an update', () => {
  const { spreadsheet, read } = newSpreadsheet();
  const staged = manyEntries(2);
  const sheet = spreadsheet.insertSheet('Renamed staging');
  sheet.getRange(1, 1, 2, 1).setNumberFormat('@');
  sheet.getRange(1, 1, 2, 1).setValues(staged.map((entry) => [stagedCellOf(entry.record!)]));
  spreadsheet.addDeveloperMetadata(
    'safetySync.stagingTab',
    JSON.stringify({ staging: sheet.getSheetId() }),
    service.SpreadsheetApp.DeveloperMetadataVisibility.PROJECT,
  );
  expect(read(staged)).toEqual(staged);
});

describe('a staging tab changed between executions gives nothing back', () => {
  function stagedTab() {
    const setup = newSpreadsheet();
    const staged = [...manyEntries(2), refused];
    setup.stage(staged);
    const sheet = setup.spreadsheet.getSheetByName(STAGING_TAB)!;
    const cell = (row: number) => {
      const range = sheet.getRange(row, 1);
      return {
        text: () => range.getValues()[0]![0] as string,
        set: (value: string | number) => range.setValues([[value]]),
        range,
      };
    };
    return { ...setup, staged, sheet, cell };
  }

  test('deleted', () => {
    const { spreadsheet, sheet, read, staged } = stagedTab();
    spreadsheet.deleteSheet(sheet);
    expect(read(staged)).toBeNull();
  });

  test('a row added or cleared', () => {
    const { cell, read, staged } = stagedTab();
    cell(4).set(cell(1).text());
    expect(read(staged)).toBeNull();
    cell(4).range.clearContent();
    cell(3).range.clearContent();
    expect(read(staged)).toBeNull();
  });

  test('a record edited into another', () => {
    const { cell, read, staged } = stagedTab();
    cell(2).set(cell(1).text());
    expect(read(staged)).toBeNull();
  });

  test.each([
    ['text that is not JSON', 'a note'],
    ['a number', 42],
    ['JSON null', 'null'],
    ['a record with a field too many', null],
  ])('a cell holding %s', (_what, value) => {
    const { cell, read, staged } = stagedTab();
    const fields = JSON.parse(cell(1).text()) as unknown[];
    if (typeof value === 'number') cell(1).range.setNumberFormat('0');
    cell(1).set(value ?? JSON.stringify([...fields, 'extra']));
    expect(read(staged)).toBeNull();
  });

  test.each(['key', 'source', 'problem'])('a refused entry whose %s is not text', (field) => {
    const { cell, read, staged } = stagedTab();
    const entry = JSON.parse(cell(3).text()) as Record<string, unknown>;
    cell(3).set(JSON.stringify({ ...entry, [field]: [entry[field]] }));
    expect(read(staged)).toBeNull();
  });
});

test('nothing staged reads as nothing, whether the tab was never made or was cleared', () => {
  const { stage, read, clear } = newSpreadsheet();
  expect(read([])).toEqual([]);
  stage(manyEntries(2));
  clear();
  expect(read([])).toEqual([]);
});

test('clearing the staging tab empties it and gives back all its rows but one', () => {
  const { spreadsheet, stage, read, clear } = newSpreadsheet();
  const staged = manyEntries(1_200);
  stage(staged);
  clear();
  const sheet = spreadsheet.getSheetByName(STAGING_TAB)!;
  expect([sheet.getMaxRows(), sheet.getLastRow()]).toEqual([1, 0]);
  expect(read(staged)).toBeNull();
  // Cleared again (a run that ends twice) or never made: nothing to do.
  clear();
  expect(sheet.getMaxRows()).toBe(1);
  const untouched = newSpreadsheet();
  untouched.clear();
  expect(untouched.tabNames()).toEqual(['Sheet1']);
});
