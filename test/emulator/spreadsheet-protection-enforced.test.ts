/**
 * Protections and sharing are enforced on scripts: a protection that is not warning-only lets only
 * its editors and the spreadsheet's owner write what it covers (Google's Protection reference,
 * canEdit); a viewer's script writes nothing. A script that may not write gets Google's message.
 */
import { emulate } from './fixtures/script-emulator';

const PROTECTED_EDIT =
  'You are trying to edit a protected cell or object. Please contact the spreadsheet owner to remove protection if you need to edit.';

const SCRIPT = `
  function tab() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0]; }
  function protect(a1, warningOnly) {
    var protection = tab().getRange(a1).protect().setDescription('Audit').setWarningOnly(warningOnly);
    protection.removeEditors(protection.getEditors());
  }
  function protectSheet() { tab().protect().setDescription('Frozen'); }
  function write(a1, value) { tab().getRange(a1).setValues([[value]]); }
  function clearTab() { tab().clear(); }
  function deleteRow(row) { tab().deleteRows(row, 1); }
  function removeTab() {
    var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    spreadsheet.insertSheet('Other');
    spreadsheet.deleteSheet(tab());
  }
  function canEditAll() {
    return SpreadsheetApp.getActiveSpreadsheet()
      .getProtections(SpreadsheetApp.ProtectionType.RANGE)
      .map(function (protection) { return protection.canEdit(); });
  }
  function read(a1) { return tab().getRange(a1).getValues()[0][0]; }
`;

function setUp() {
  const emulator = emulate(SCRIPT);
  const spreadsheetId = emulator.createSpreadsheet({ owner: 'owner@example.com' });
  const editor = emulator.asUser('editor@example.com');
  const asOwner = (name: string, args: unknown[] = []) => emulator.run(name, args, { spreadsheetId });
  const asEditor = (name: string, args: unknown[] = []) => editor.run(name, args, { spreadsheetId });
  return { emulator, spreadsheetId, asOwner, asEditor };
}

describe('a protection that is not warning-only', () => {
  it("refuses another user's write into it, with Google's message", () => {
    const { asOwner, asEditor } = setUp();
    asOwner('protect', ['B1:B10', false]);
    expect(() => asEditor('write', ['B2', 'x'])).toThrow(PROTECTED_EDIT);
    expect(asEditor('canEditAll')).toEqual([false]);
    expect(asOwner('read', ['B2'])).toBe('');
  });

  it('lets them write around it, and lets the owner write into it', () => {
    const { asOwner, asEditor } = setUp();
    asOwner('protect', ['B1:B10', false]);
    asEditor('write', ['C2', 'beside']);
    asOwner('write', ['B2', 'mine']);
    expect(asOwner('canEditAll')).toEqual([true]);
    expect([asOwner('read', ['C2']), asOwner('read', ['B2'])]).toEqual(['beside', 'mine']);
  });

  it('refuses clearing the tab, deleting a row through it, and deleting a protected tab', () => {
    const { asOwner, asEditor } = setUp();
    asOwner('protect', ['B1:B10', false]);
    expect(() => asEditor('clearTab')).toThrow(PROTECTED_EDIT);
    expect(() => asEditor('deleteRow', [3])).toThrow(PROTECTED_EDIT);
    asEditor('deleteRow', [20]);
    asOwner('protectSheet');
    expect(() => asEditor('write', ['Z99', 'x'])).toThrow(PROTECTED_EDIT);
    expect(() => asEditor('removeTab')).toThrow(PROTECTED_EDIT);
  });
});

it('a warning-only protection does not stop a script', () => {
  const { asOwner, asEditor } = setUp();
  asOwner('protect', ['B1:B10', true]);
  asEditor('write', ['B2', 'warned']);
  expect(asEditor('canEditAll')).toEqual([true]);
  expect(asOwner('read', ['B2'])).toBe('warned');
});

it("a viewer's script writes nothing, protected or not", () => {
  const { emulator, spreadsheetId, asOwner } = setUp();
  emulator.share(spreadsheetId, 'viewer@example.com', 'viewer');
  const viewer = emulator.asUser('viewer@example.com');
  expect(() => viewer.run('write', ['C3', 'x'], { spreadsheetId })).toThrow(PROTECTED_EDIT);
  expect(viewer.run('read', ['C3'], { spreadsheetId })).toBe('');
  asOwner('write', ['C3', 'owner']);
  expect(asOwner('read', ['C3'])).toBe('owner');
});

describe('through the Sheets advanced service', () => {
  const MANIFEST = JSON.stringify({
    dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
  });
  const API_SCRIPT = `${SCRIPT}
    function writeByApi(a1s) {
      var id = SpreadsheetApp.getActiveSpreadsheet().getId();
      Sheets.Spreadsheets.Values.batchUpdate({
        valueInputOption: 'RAW',
        data: a1s.map(function (a1) { return { range: a1, values: [['api']] }; }),
      }, id);
    }
  `;

  it("refuses a values write into another's protection, writing none of the request", () => {
    const emulator = emulate(API_SCRIPT, { files: { 'appsscript.json': MANIFEST } });
    const spreadsheetId = emulator.createSpreadsheet();
    emulator.run('protect', ['B1:B10', false], { spreadsheetId });
    const editor = emulator.asUser('editor@example.com');
    expect(() => editor.run('writeByApi', [['C1', 'B2']], { spreadsheetId })).toThrow(PROTECTED_EDIT);
    expect(emulator.run('read', ['C1'], { spreadsheetId })).toBe('');
    emulator.run('writeByApi', [['C1', 'B2']], { spreadsheetId });
    expect(emulator.run('read', ['B2'], { spreadsheetId })).toBe('api');
  });
});
