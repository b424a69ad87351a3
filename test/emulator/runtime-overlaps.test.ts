/**
 * Overlapping executions: a test makes a second execution run while the first waits on a service
 * call, as Apps Script runs a menu click and a trigger side by side. Locks and stores are shared.
 */
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function holdScriptLockAround(seconds) {
    var lock = LockService.getScriptLock();
    lock.waitLock(1000);
    Utilities.sleep(seconds * 1000);
    lock.releaseLock();
    return 'held';
  }
  function tryScriptLock() { return LockService.getScriptLock().tryLock(0); }
  function note(text) {
    var properties = PropertiesService.getScriptProperties();
    properties.setProperty('log', (properties.getProperty('log') || '') + text);
  }
  function noteTwice() { note('a'); note('b'); }
`;

it('runs the overlap just before the given call, which then goes on', () => {
  const emulator = emulate(SCRIPT);
  emulator.beforeNextCall('Properties.getProperty', () => {
    emulator.run('note', ['-other-']);
  });
  emulator.run('noteTwice');
  expect(emulator.properties.script.get('log')).toBe('-other-ab');
  expect(emulator.pendingOverlaps()).toBe(0);
});

it('shares locks with the execution it overlaps', () => {
  const emulator = emulate(SCRIPT);
  let overlapGotLock: unknown;
  emulator.beforeNextCall('Utilities.sleep', () => {
    overlapGotLock = emulator.run('tryScriptLock');
  });
  expect(emulator.run('holdScriptLockAround', [1])).toBe('held');
  expect(overlapGotLock).toBe(false);
  expect(emulator.run('tryScriptLock')).toBe(true);
});

it('is one-shot, and waits for a call that may never come', () => {
  const emulator = emulate(SCRIPT);
  let runs = 0;
  emulator.beforeNextCall('Properties.setProperty', () => runs++);
  emulator.run('noteTwice');
  expect(runs).toBe(1);
  emulator.beforeNextCall('UrlFetchApp.fetch', () => runs++);
  emulator.run('noteTwice');
  expect(runs).toBe(1);
  expect(emulator.pendingOverlaps()).toBe(1);
  expect(() => emulator.beforeNextCall('fetch', () => undefined)).toThrow('Expected "Class.method"');
});

describe('buffered Spreadsheet writes', () => {
  const WRITER = `
    function cell() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1'); }
    function write(value) { cell().setValues([[value]]); }
    function read() { return cell().getValues()[0][0]; }
    function writeThenWait(value, commit) {
      write(value);
      if (commit === 'flush') SpreadsheetApp.flush();
      if (commit === 'read') read();
      Utilities.sleep(10);
    }
  `;

  function overlapBeforeSleep(commit: string | null): unknown {
    const emulator = emulate(WRITER);
    const spreadsheetId = emulator.createSpreadsheet();
    let seen: unknown;
    emulator.beforeNextCall('Utilities.sleep', () => {
      seen = emulator.run('read', [], { spreadsheetId });
    });
    emulator.run('writeThenWait', ['new', commit], { spreadsheetId });
    expect(emulator.run('read', [], { spreadsheetId })).toBe('new');
    return seen;
  }

  it('are invisible to another execution until the writer commits', () => {
    expect(overlapBeforeSleep(null)).toBe('');
  });

  it('are committed by flush() and by a read of the same spreadsheet', () => {
    expect(overlapBeforeSleep('flush')).toBe('new');
    expect(overlapBeforeSleep('read')).toBe('new');
  });

  it('count a commit per flush or read after writes, and at the end of an execution with writes', () => {
    const emulator = emulate(`${WRITER}
      function flushTwice() { write('a'); SpreadsheetApp.flush(); SpreadsheetApp.flush(); }
      function readBack() { write('a'); read(); read(); write('b'); }
    `);
    const spreadsheetId = emulator.createSpreadsheet();
    emulator.run('flushTwice', [], { spreadsheetId });
    expect(emulator.counter.commits()).toBe(1);
    emulator.counter.reset();
    emulator.run('readBack', [], { spreadsheetId });
    expect(emulator.counter.commits()).toBe(2);
    emulator.counter.reset();
    emulator.run('read', [], { spreadsheetId });
    expect(emulator.counter.commits()).toBe(0);
  });

  it('refuse an overlapping execution writing what another has not committed', () => {
    const emulator = emulate(WRITER);
    const spreadsheetId = emulator.createSpreadsheet();
    emulator.beforeNextCall('Utilities.sleep', () => {
      expect(() => emulator.run('write', ['other'], { spreadsheetId })).toThrow(
        'not emulated: setValues on a spreadsheet another execution has uncommitted writes to',
      );
    });
    emulator.run('writeThenWait', ['new', null], { spreadsheetId });
    expect(emulator.pendingOverlaps()).toBe(0);
  });
});
