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
