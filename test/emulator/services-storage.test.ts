/**
 * PropertiesService, CacheService and LockService: their stores, scopes, limits and contention.
 */
import { emulate } from './fixtures/script-emulator';

describe('PropertiesService', () => {
  const SCRIPT = `
    function store(kind) {
      if (kind === 'user') return PropertiesService.getUserProperties();
      if (kind === 'document') return PropertiesService.getDocumentProperties();
      return PropertiesService.getScriptProperties();
    }
    function set(kind, key, value) { store(kind).setProperty(key, value); return typeof store(kind).getProperty(key); }
    function get(kind, key) { return store(kind).getProperty(key); }
    function setMany(values, deleteAllOthers) { store('script').setProperties(values, deleteAllOthers); return store('script').getProperties(); }
    function keys() { var k = store('script').getKeys(); return [k instanceof Array, k.sort()]; }
    function remove(key) { store('script').deleteProperty(key); store('user').deleteAllProperties(); }
    function hasDocument() { return PropertiesService.getDocumentProperties() !== null; }
  `;

  it('keeps values as strings', () => {
    const emulator = emulate(SCRIPT);
    expect(emulator.run('set', ['script', 'count', 42])).toBe('string');
    expect(emulator.run('get', ['script', 'count'])).toBe('42');
    expect(emulator.run('get', ['script', 'missing'])).toBeNull();
    expect(() => emulator.run('set', ['script', 'config', { a: 1 }])).toThrow(
      "The parameters (String,Object) don't match the method signature for Properties.setProperty.",
    );
    expect(() => emulator.run('set', ['script', 'nothing', null])).toThrow('Invalid argument: value');
  });

  it('sets, lists and deletes', () => {
    const emulator = emulate(SCRIPT);
    emulator.properties.script.set('old', 'x');
    expect(emulator.run('setMany', [{ a: '1', b: 2 }, false])).toEqual({ old: 'x', a: '1', b: '2' });
    expect(emulator.run('setMany', [{ c: '3' }, true])).toEqual({ c: '3' });
    expect(emulator.run('keys')).toEqual([true, ['c']]);
    emulator.properties.user('owner@example.com').set('token', 't');
    emulator.run('remove', ['c']);
    expect(emulator.properties.script.all()).toEqual({});
    expect(emulator.properties.user('owner@example.com').all()).toEqual({});
  });

  it('keeps one user store per user, one document store per spreadsheet, null without a document', () => {
    const emulator = emulate(SCRIPT);
    const first = emulator.createSpreadsheet();
    const second = emulator.createSpreadsheet();
    emulator.run('set', ['user', 'token', 'mine']);
    emulator.asUser('editor@example.com').run('set', ['user', 'token', 'theirs']);
    expect(emulator.run('get', ['user', 'token'])).toBe('mine');
    expect(emulator.properties.user('editor@example.com').get('token')).toBe('theirs');

    emulator.run('set', ['document', 'optIn', 'yes'], { spreadsheetId: first });
    expect(
      emulator.asUser('editor@example.com').run('get', ['document', 'optIn'], { spreadsheetId: first }),
    ).toBe('yes');
    expect(emulator.run('get', ['document', 'optIn'], { spreadsheetId: second })).toBeNull();
    expect(emulator.run('hasDocument')).toBe(false);
  });

  it('limits a property to 9 KB (key and value, UTF-8 bytes) and a store to 500 KB', () => {
    const emulator = emulate(SCRIPT);
    expect(emulator.run('set', ['script', 'k', 'x'.repeat(9 * 1024 - 1)])).toBe('string');
    expect(() => emulator.run('set', ['script', 'k', 'x'.repeat(9 * 1024)])).toThrow(
      'Argument too large: value',
    );
    expect(() => emulator.run('set', ['script', 'k', 'é'.repeat(4700)])).toThrow('Argument too large: value');

    const chunk = 'x'.repeat(9000);
    const values = Object.fromEntries(
      Array.from({ length: 56 }, (_, index) => [`key${String(index).padStart(2, '0')}`, chunk]),
    );
    emulator.run('setMany', [values, true]);
    expect(() => emulator.run('set', ['script', 'one-more', chunk])).toThrow(
      'You have exceeded the property storage quota. Please remove some properties and try again.',
    );
    expect(emulator.properties.script.get('one-more')).toBeNull();
  });
});

describe('CacheService', () => {
  const SCRIPT = `
    function cache(kind) {
      if (kind === 'user') return CacheService.getUserCache();
      if (kind === 'document') return CacheService.getDocumentCache();
      return CacheService.getScriptCache();
    }
    function put(key, value, seconds) { if (seconds === undefined) cache('script').put(key, value); else cache('script').put(key, value, seconds); }
    function get(key) { return cache('script').get(key); }
    function putMany(count) { var values = {}; for (var i = 0; i < count; i++) values['k' + i] = String(i); cache('script').putAll(values, 3600); }
    function getMany(keys) { return cache('script').getAll(keys); }
    function removeMany(keys) { cache('script').removeAll(keys); }
    function userPutGet(value) { if (value) cache('user').put('u', value); return cache('user').get('u'); }
    function hasDocumentCache() { return cache('document') !== null; }
  `;

  it('stores, reads, and removes values', () => {
    const emulator = emulate(SCRIPT);
    emulator.run('put', ['a', 'apple']);
    expect(emulator.run('get', ['a'])).toBe('apple');
    emulator.run('putMany', [3]);
    expect(emulator.run('getMany', [['k0', 'k2', 'nope']])).toEqual({ k0: '0', k2: '2' });
    emulator.run('removeMany', [['k0', 'k2']]);
    expect(emulator.run('getMany', [['k0', 'k1', 'k2']])).toEqual({ k1: '1' });
  });

  it('expires items on the emulated clock (default 600 s)', () => {
    const emulator = emulate(SCRIPT);
    emulator.run('put', ['short', 'v', 5]);
    emulator.run('put', ['default', 'v']);
    emulator.clock.advance(5_000);
    expect(emulator.run('get', ['short'])).toBeNull();
    expect(emulator.run('get', ['default'])).toBe('v');
    emulator.clock.advance(595_000);
    expect(emulator.run('get', ['default'])).toBeNull();
  });

  it('limits keys to 250 characters, values to 100 KB and expiry to 6 hours', () => {
    const emulator = emulate(SCRIPT);
    expect(() => emulator.run('put', ['k'.repeat(251), 'v'])).toThrow('Argument too large: key');
    expect(() => emulator.run('put', ['k', 'v'.repeat(100 * 1024 + 1)])).toThrow('Argument too large: value');
    expect(() => emulator.run('put', ['k', 'v', 21_601])).toThrow('Invalid argument: expirationInSeconds');
    emulator.run('put', ['k'.repeat(250), 'v'.repeat(100 * 1024), 21_600]);
  });

  it('drops the oldest item when the 1,001st is put', () => {
    const emulator = emulate(SCRIPT);
    emulator.run('putMany', [1000]);
    emulator.run('put', ['newest', 'v']);
    expect(emulator.run('get', ['k0'])).toBeNull();
    expect(emulator.run('get', ['k1'])).toBe('1');
    expect(emulator.run('get', ['newest'])).toBe('v');
  });

  it('keeps user caches apart, has no document cache without a document, and can lose everything', () => {
    const emulator = emulate(SCRIPT);
    emulator.run('userPutGet', ['mine']);
    expect(emulator.asUser('editor@example.com').run('userPutGet')).toBeNull();
    expect(emulator.run('hasDocumentCache')).toBe(false);
    expect(emulator.run('hasDocumentCache', [], { spreadsheetId: emulator.createSpreadsheet() })).toBe(true);
    emulator.caches.evictAll();
    expect(emulator.run('userPutGet')).toBeNull();
  });
});

describe('LockService', () => {
  const SCRIPT = `
    function tryScriptLock(timeout) { var lock = LockService.getScriptLock(); return [lock.tryLock(timeout), lock.hasLock()]; }
    function waitScriptLock(timeout) { var lock = LockService.getScriptLock(); lock.waitLock(timeout); return lock.hasLock(); }
    function lockAndRelease() { var lock = LockService.getScriptLock(); lock.waitLock(0); lock.releaseLock(); return lock.hasLock(); }
    function lockAndLeave() { LockService.getUserLock().waitLock(0); }
    function tryUserLock() { return LockService.getUserLock().tryLock(0); }
    function hasDocumentLock() { return LockService.getDocumentLock() !== null; }
  `;

  it('takes a free lock at once', () => {
    const emulator = emulate(SCRIPT);
    const before = emulator.clock.now();
    expect(emulator.run('tryScriptLock', [10_000])).toEqual([true, true]);
    expect(emulator.clock.now() - before).toBeLessThan(1_000);
    expect(emulator.run('lockAndRelease')).toBe(false);
  });

  it('fails after waiting the whole timeout while another holds the lock', () => {
    const emulator = emulate(SCRIPT);
    const held = emulator.locks.hold('script');
    const before = emulator.clock.now();
    expect(emulator.run('tryScriptLock', [10_000])).toEqual([false, false]);
    expect(emulator.clock.now() - before).toBeGreaterThanOrEqual(10_000);
    expect(() => emulator.run('waitScriptLock', [5_000])).toThrow(
      'Lock timeout: another process was holding the lock for too long.',
    );
    held.release();
    expect(emulator.run('waitScriptLock', [0])).toBe(true);
  });

  it('gets the lock when the holder releases it within the timeout, after waiting that long', () => {
    const emulator = emulate(SCRIPT);
    emulator.locks.hold('script', '', { releaseAfterMs: 3_000 });
    const before = emulator.clock.now();
    expect(emulator.run('waitScriptLock', [10_000])).toBe(true);
    const waited = emulator.clock.now() - before;
    expect(waited).toBeGreaterThanOrEqual(3_000);
    expect(waited).toBeLessThan(10_000);
  });

  it('releases an execution’s locks when it ends', () => {
    const emulator = emulate(SCRIPT);
    emulator.run('lockAndLeave');
    expect(emulator.locks.isHeld('user', 'owner@example.com')).toBe(false);
    expect(emulator.run('tryUserLock')).toBe(true);
  });

  it('scopes user locks per user and has no document lock without a document', () => {
    const emulator = emulate(SCRIPT);
    emulator.locks.hold('user', 'owner@example.com');
    expect(emulator.run('tryUserLock')).toBe(false);
    expect(emulator.asUser('editor@example.com').run('tryUserLock')).toBe(true);
    expect(emulator.run('hasDocumentLock')).toBe(false);
    expect(emulator.run('hasDocumentLock', [], { spreadsheetId: emulator.createSpreadsheet() })).toBe(true);
  });

  it('waiting counts toward the execution time limit', () => {
    const emulator = emulate(SCRIPT, { executionLimitMs: { full: 20_000 } });
    emulator.locks.hold('script');
    expect(() => emulator.run('waitScriptLock', [30_000])).toThrow('Exceeded maximum execution time');
  });
});
