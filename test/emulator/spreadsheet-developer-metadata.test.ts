/**
 * Developer metadata on a spreadsheet: key-value pairs kept in the document, readable by any
 * execution that can open it (a time-driven trigger opening it by id included), written only where
 * the document may be written, and limited in size.
 */
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  var PROJECT = SpreadsheetApp.DeveloperMetadataVisibility.PROJECT;
  function open(id) { return id ? SpreadsheetApp.openById(id) : SpreadsheetApp.getActiveSpreadsheet(); }
  function put(key, value, id) {
    var found = open(id).getDeveloperMetadata().filter(function (m) { return m.getKey() === key; });
    if (found.length) found[0].setValue(value); else open(id).addDeveloperMetadata(key, value, PROJECT);
  }
  function list(id) {
    return open(id).getDeveloperMetadata().map(function (m) {
      return [m.getKey(), m.getValue(), String(m.getVisibility())];
    });
  }
  function removeAll(id) { open(id).getDeveloperMetadata().forEach(function (m) { m.remove(); }); }
  function addTag(key) {
    var all = open().addDeveloperMetadata(key).getDeveloperMetadata();
    return all[all.length - 1].getId();
  }
  function addAmbiguous() { open().addDeveloperMetadata('k', 'PROJECT'); }
  function useAfterRemoval() { var m = open().getDeveloperMetadata()[0]; m.remove(); return m.getValue(); }
`;

function setup() {
  const emulator = emulate(SCRIPT);
  const id = emulator.createSpreadsheet({ name: 'Kept' });
  return { emulator, id, at: { spreadsheetId: id } };
}

it('keeps key-value pairs in the document, updated in place and removable', () => {
  const { emulator, id, at } = setup();
  emulator.run('put', ['a', '1'], at);
  emulator.run('put', ['b', '2'], at);
  emulator.run('put', ['a', '3'], at);
  expect(emulator.run('list', [], at)).toEqual([
    ['a', '3', 'PROJECT'],
    ['b', '2', 'PROJECT'],
  ]);
  expect(emulator.workbooks.get(id)!.developerMetadata()).toEqual([
    { key: 'a', value: '3', visibility: 'PROJECT' },
    { key: 'b', value: '2', visibility: 'PROJECT' },
  ]);
  emulator.run('removeAll', [], at);
  expect(emulator.run('list', [], at)).toEqual([]);
});

it('is reachable by id from a time-driven trigger, which has no document properties', () => {
  const { emulator, id, at } = setup();
  emulator.run('put', ['state', 'x'], at);
  expect(emulator.run('list', [id], { kind: 'time-trigger' })).toEqual([['state', 'x', 'PROJECT']]);
  emulator.run('put', ['state', 'y', id], { kind: 'time-trigger' });
  expect(emulator.run('list', [], at)).toEqual([['state', 'y', 'PROJECT']]);
});

it('can be read but not written from a custom function', () => {
  const { emulator, at } = setup();
  emulator.run('put', ['a', '1'], at);
  const asFormula = { ...at, kind: 'custom-function' as const };
  expect(emulator.run('list', [], asFormula)).toEqual([['a', '1', 'PROJECT']]);
  expect(() => emulator.run('put', ['a', '2'], asFormula)).toThrow(
    'You do not have permission to call setValue',
  );
  expect(() => emulator.run('put', ['b', '2'], asFormula)).toThrow(
    'You do not have permission to call addDeveloperMetadata',
  );
});

it('gives keys without a value null and document visibility, and numbers them', () => {
  const { emulator, at } = setup();
  const first = emulator.run('addTag', ['tag'], at) as number;
  expect(emulator.run('addTag', ['other'], at)).toBe(first + 1);
  expect(emulator.run('list', [], at)).toEqual([
    ['tag', null, 'DOCUMENT'],
    ['other', null, 'DOCUMENT'],
  ]);
});

it('refuses more than 30,000 characters in a spreadsheet', () => {
  const { emulator, at } = setup();
  emulator.run('put', ['big', 'x'.repeat(29_000)], at);
  expect(() => emulator.run('put', ['more', 'x'.repeat(1_000)], at)).toThrow('would exceed 30000 characters');
  expect(() => emulator.run('put', ['big', 'x'.repeat(30_000)], at)).toThrow('would exceed 30000 characters');
  emulator.run('put', ['big', 'small'], at);
  emulator.run('put', ['more', 'x'.repeat(1_000)], at);
});

it('refuses what it cannot tell apart, and metadata used after its removal', () => {
  const { emulator, at } = setup();
  expect(() => emulator.run('addAmbiguous', [], at)).toThrow('is ambiguous here');
  emulator.run('put', ['a', '1'], at);
  expect(() => emulator.run('useAfterRemoval', [], at)).toThrow('has been removed');
});
