/**
 * The empty tab a new spreadsheet starts with, end to end: the built add-on in the emulator against
 * the sample service. The first import removes it only when it is the only tab and holds nothing at
 * all, whatever it is called (its name follows the spreadsheet's locale); a tab with anything of the
 * user's in it stays, and so does every tab once the add-on has made its own.
 */
import { type AddonHarness, createAddonHarness } from '../support/addon-harness';
import { IMPORT, workbook } from '../support/equipment-tabs';

/** What a user does to a tab that the tests cannot type into the workbook view. */
const USER_SCRIPT = `
  function firstTab_() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
  function paintCell() { firstTab_().getRange('C3').setBackgrounds([['#fce5cd']]); }
  function boldCell() { firstTab_().getRange('C3').setFontWeight('bold'); }
  function freezeFirstRow() { firstTab_().setFrozenRows(1); }
  function addConditionalFormat() {
    var sheet = firstTab_();
    var rule = SpreadsheetApp.newConditionalFormatRule().whenNumberGreaterThan(5).setBackground('#ff0000')
      .setRanges([sheet.getRange('A1:A10')]).build();
    sheet.setConditionalFormatRules([rule]);
  }
`;

async function newSpreadsheet(): Promise<AddonHarness> {
  const harness = await createAddonHarness({
    dataset: { seed: 41, completions: 120, users: 6, trainings: 3, equipmentTypes: 3 },
    userScript: USER_SCRIPT,
  });
  harness.connect();
  return harness;
}

function runUserScript(harness: AddonHarness, name: string): void {
  harness.emulator.run(name, [], { spreadsheetId: harness.spreadsheetId });
}

function importCompletions(harness: AddonHarness): void {
  let step = harness.callServer('startCompletionsImport', {});
  while (!step.done) step = harness.callServer('continueCompletionsImport');
}

test('the first import removes the untouched default tab; a tab added empty later stays', async () => {
  const harness = await newSpreadsheet();
  try {
    expect(workbook(harness).sheetNames).toEqual(['Sheet1']);
    importCompletions(harness);
    expect(workbook(harness).sheetNames).not.toContain('Sheet1');
    expect(workbook(harness).sheetNames).toContain('Completed trainings');
    workbook(harness).addSheet('Sheet2', { rows: 1000, columns: 26 });
    harness.clickMenu(IMPORT);
    harness.clickMenu('Refresh all');
    expect(workbook(harness).sheetNames).toContain('Sheet2');
  } finally {
    await harness.done();
  }
});

test('it is recognised by what it holds, not by its name: "Tabellenblatt1" (German) goes too, on an equipment import', async () => {
  const harness = await newSpreadsheet();
  try {
    workbook(harness).sheet('Sheet1').rename('Tabellenblatt1');
    harness.clickMenu(IMPORT);
    expect(workbook(harness).sheetNames).not.toContain('Tabellenblatt1');
    expect(workbook(harness).sheetNames[0]).toBe('Overview');
    expect(workbook(harness).activeSheetName).toBe('Overview');
  } finally {
    await harness.done();
  }
});

test('a first import that pauses after staging its first pages removes it beside the Sync log, and goes on', async () => {
  // 6,000 records over a slow network: the first execution stages some pages (a hidden tab) and pauses.
  const harness = await createAddonHarness({
    dataset: { seed: 43, completions: 6_000, users: 20 },
    emulator: { urlFetchRoundTripMs: 60_000 },
  });
  try {
    harness.connect();
    harness.useBatchSize(1);
    let step = harness.callServer('startCompletionsImport', {});
    expect(step.done).toBe(false);
    expect(workbook(harness).sheetNames).not.toContain('Sheet1');
    expect(workbook(harness).sheetNames).toContain('Sync log');
    while (!step.done) step = harness.callServer('continueCompletionsImport');
    expect(workbook(harness).sheetNames).toContain('Completed trainings');
  } finally {
    await harness.done();
  }
});

const TOUCHES: { what: string; touch: (harness: AddonHarness) => void }[] = [
  { what: 'a value', touch: (h) => workbook(h).typeValues('Sheet1!D7', [['budget']]) },
  { what: 'a formula', touch: (h) => workbook(h).typeValues('Sheet1!A1', [['=1+1']]) },
  { what: 'a number format', touch: (h) => workbook(h).sheet('Sheet1').setNumberFormat('B2', 'yyyy-mm-dd') },
  { what: 'a background colour', touch: (h) => runUserScript(h, 'paintCell') },
  { what: 'bold text', touch: (h) => runUserScript(h, 'boldCell') },
  { what: 'a note', touch: (h) => workbook(h).sheet('Sheet1').setNote('E5', 'Ask Sam') },
  {
    what: 'a validation',
    touch: (h) =>
      workbook(h)
        .sheet('Sheet1')
        .setDataValidation('A2:A9', { valueInList: ['Yes', 'No'] }),
  },
  { what: 'a named range', touch: (h) => workbook(h).addNamedRange('Budget', 'Sheet1', 'B2:B4') },
  { what: 'a protection', touch: (h) => workbook(h).sheet('Sheet1').protectRange('A1:B2', 'Kept') },
  { what: 'a conditional format', touch: (h) => runUserScript(h, 'addConditionalFormat') },
  { what: 'a frozen row', touch: (h) => runUserScript(h, 'freezeFirstRow') },
];

test.each(TOUCHES)('a default tab holding $what stays', async ({ touch }) => {
  const harness = await newSpreadsheet();
  try {
    touch(harness);
    importCompletions(harness);
    expect(workbook(harness).sheetNames.slice(0, 2)).toEqual(['Sheet1', 'Completed trainings']);
  } finally {
    await harness.done();
  }
});

test('an empty default tab beside a tab of the user’s stays: it is not the only tab', async () => {
  const harness = await newSpreadsheet();
  try {
    workbook(harness).addSheet('Plans', { rows: 100, columns: 10 });
    harness.clickMenu(IMPORT);
    expect(workbook(harness).sheetNames.slice(0, 3)).toEqual(['Overview', 'Sheet1', 'Plans']);
  } finally {
    await harness.done();
  }
});
