/**
 * The script's realm: only the built-ins and Apps Script globals exist, Date follows the emulated
 * clock and the script's time zone, service values belong to the script's realm, globals do not
 * survive an execution, and service errors look like Apps Script's.
 */
import { ScriptError } from '../../dev/emulator';
import { emulate } from './fixtures/script-emulator';
import { APPS_SCRIPT_GLOBALS } from '../support/apps-script-globals';

const FORBIDDEN_GLOBALS = [
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'fetch',
  'process',
  'require',
  'module',
  'exports',
  '__dirname',
  'global',
  'Buffer',
  'atob',
  'btoa',
  'structuredClone',
  'queueMicrotask',
  'crypto',
  'performance',
  'navigator',
  'window',
  'document',
  'WebAssembly',
  'SharedArrayBuffer',
  'Atomics',
  'AbortController',
  'EventTarget',
  'MessageChannel',
  'Blob',
];

describe('the bare script context', () => {
  const emulator = emulate(`
    function typeOf(name) { return eval('typeof ' + name); }
    function globalNames() { return Object.getOwnPropertyNames(globalThis); }
  `);

  it.each(FORBIDDEN_GLOBALS)('has no %s', (name) => {
    expect(emulator.run('typeOf', [name])).toBe('undefined');
  });

  it.each(APPS_SCRIPT_GLOBALS)('has the Apps Script global %s', (name) => {
    expect(emulator.run('typeOf', [name])).toBe('object');
  });

  it('defines nothing beyond the standard built-ins, the Apps Script globals and the script', () => {
    const standard = new Set(
      'Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError globalThis JSON Math Intl ArrayBuffer Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set WeakMap WeakSet Proxy Reflect FinalizationRegistry WeakRef decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN'.split(
        ' ',
      ),
    );
    const extra = (emulator.run('globalNames') as string[]).filter(
      (name) => !standard.has(name) && !APPS_SCRIPT_GLOBALS.includes(name),
    );
    expect(extra.sort()).toEqual(['globalNames', 'typeOf']);
  });
});

describe('Date in the script', () => {
  const start = Date.UTC(2024, 5, 1, 8, 0, 0);
  const code = `
    function now() { return [Date.now(), new Date().getTime()]; }
    function sleepThenNow(ms) { Utilities.sleep(ms); return Date.now(); }
    function calendar() {
      var d = new Date(Date.UTC(2024, 0, 31, 23, 30));
      return {
        instanceOfDate: d instanceof Date, constructorIsDate: d.constructor === Date,
        parsedIso: Date.parse('2024-01-31T23:30:00Z'), utc: Date.UTC(2024, 0, 1),
        localParts: [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getDay()],
        offset: d.getTimezoneOffset(), text: d.toString(), json: JSON.stringify(d),
        dateOnlyIsUtc: new Date('2024-02-01').getTime() === Date.UTC(2024, 1, 1),
        localComponents: new Date(2024, 1, 1, 9, 0).toISOString(),
        localString: new Date('2024-02-01T09:00:00').toISOString(),
        asFunction: typeof Date(),
        intlZone: new Intl.DateTimeFormat('en-US').resolvedOptions().timeZone,
        localeString: d.toLocaleString('en-US'),
      };
    }
    function subclass() { class Day extends Date {} var day = new Day(0); return [day instanceof Date, day.getTime()]; }
    function setters() { var d = new Date(Date.UTC(2024, 2, 1)); d.setHours(0, 0, 0, 0); d.setDate(d.getDate() + 1); return d.toISOString(); }
  `;

  it('follows the emulated clock, not the machine clock', () => {
    const emulator = emulate(code, { startTime: start });
    const [dateNow, newDate] = emulator.run('now') as number[];
    expect(dateNow).toBeGreaterThanOrEqual(start);
    expect(dateNow).toBeLessThan(start + 60_000);
    expect(newDate).toBeGreaterThanOrEqual(dateNow!);

    emulator.clock.advance(86_400_000);
    expect((emulator.run('now') as number[])[0]).toBeGreaterThanOrEqual(start + 86_400_000);

    emulator.clock.set(Date.UTC(2030, 0, 1));
    expect((emulator.run('now') as number[])[0]).toBeGreaterThanOrEqual(Date.UTC(2030, 0, 1));
  });

  it('moves on by Utilities.sleep without sleeping', () => {
    const emulator = emulate(code, { startTime: start });
    expect(emulator.run('sleepThenNow', [300_000])).toBeGreaterThanOrEqual(start + 300_000);
  });

  it('reads local time in the script time zone (Pacific/Kiritimati, UTC+14)', () => {
    const result = emulate(code, { timeZone: 'Pacific/Kiritimati' }).run('calendar') as Record<
      string,
      unknown
    >;
    expect(result).toMatchObject({
      instanceOfDate: true,
      constructorIsDate: true,
      parsedIso: Date.UTC(2024, 0, 31, 23, 30),
      utc: Date.UTC(2024, 0, 1),
      localParts: [2024, 1, 1, 13, 30, 4],
      offset: -840,
      json: '"2024-01-31T23:30:00.000Z"',
      dateOnlyIsUtc: true,
      localComponents: '2024-01-31T19:00:00.000Z',
      localString: '2024-01-31T19:00:00.000Z',
      asFunction: 'string',
      intlZone: 'Pacific/Kiritimati',
      localeString: '2/1/2024, 1:30:00 PM',
    });
    expect(result.text).toBe('Thu Feb 01 2024 13:30:00 GMT+1400 (Line Islands Time)');
  });

  it('reads local time in the script time zone (Pacific/Pago_Pago, UTC-11)', () => {
    const result = emulate(code, { timeZone: 'Pacific/Pago_Pago' }).run('calendar') as Record<
      string,
      unknown
    >;
    expect(result).toMatchObject({ localParts: [2024, 0, 31, 12, 30, 3], offset: 660 });
    expect(result.localComponents).toBe('2024-02-01T20:00:00.000Z');
  });

  it('sets local fields in the script time zone, and can be subclassed', () => {
    const emulator = emulate(code, { timeZone: 'America/New_York' });
    expect(emulator.run('setters')).toBe('2024-03-01T05:00:00.000Z');
    expect(emulator.run('subclass')).toEqual([true, 0]);
  });

  it('resolves skipped and repeated local hours as V8 does (America/New_York, 2024)', () => {
    const emulator = emulate(
      `function transitions() {
         return [new Date(Date.UTC(2024, 2, 10, 6, 59)).getHours(), new Date(Date.UTC(2024, 2, 10, 7, 0)).getHours(),
                 new Date(2024, 2, 10, 2, 30).toISOString(), new Date(2024, 10, 3, 1, 30).toISOString(),
                 new Date(2024, 10, 3, 12).toString()];
       }`,
      { timeZone: 'America/New_York' },
    );
    expect(emulator.run('transitions')).toEqual([
      1,
      3,
      '2024-03-10T07:30:00.000Z',
      '2024-11-03T05:30:00.000Z',
      'Sun Nov 03 2024 12:00:00 GMT-0500 (Eastern Standard Time)',
    ]);
  });

  it('takes the time zone from appsscript.json when none is given', () => {
    const emulator = emulate('function zone() { return Session.getScriptTimeZone(); }', {
      files: { 'appsscript.json': JSON.stringify({ timeZone: 'Asia/Kolkata' }) },
    });
    expect(emulator.run('zone')).toBe('Asia/Kolkata');
    expect(emulator.timeZone).toBe('Asia/Kolkata');
  });
});

describe('values and errors in the script realm', () => {
  it('include the Spreadsheet service’s Dates and arrays', () => {
    const emulator = emulate(`
      function roundTrip() {
        var range = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1');
        range.setValues([[new Date(Date.UTC(2024, 4, 17))]]);
        var values = range.getValues();
        return [values instanceof Array, values[0] instanceof Array, values[0][0] instanceof Date];
      }
    `);
    expect(emulator.run('roundTrip', [], { spreadsheetId: emulator.createSpreadsheet() })).toEqual([
      true,
      true,
      true,
    ]);
  });

  const emulator = emulate(`
    function realmChecks() {
      var keys = PropertiesService.getScriptProperties().getKeys();
      var bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.MD5, 'x');
      var caught;
      try { Utilities.sleep(-1); } catch (e) { caught = e; }
      var missing;
      try { UrlFetchApp.fetchEverything(); } catch (e) { missing = e; }
      var fromSpreadsheet;
      try { SpreadsheetApp.openById('no-such-id'); } catch (e) { fromSpreadsheet = e; }
      class OwnError extends Error {}
      return {
        spreadsheetErrorIsError: fromSpreadsheet instanceof Error && !(fromSpreadsheet instanceof TypeError),
        ordinaryInstanceOf: [new TypeError('t') instanceof Error, new OwnError() instanceof OwnError,
                             new Error('e') instanceof OwnError, {} instanceof Error, new TypeError('t') instanceof RangeError],
        arrayIsArray: keys instanceof Array && bytes instanceof Array,
        errorIsError: caught instanceof Error,
        name: caught.name, message: caught.message, printed: String(caught),
        missingIsError: missing instanceof Error, missingMessage: missing.message,
      };
    }
  `);

  it('hands the script arrays and Errors of its own realm, with Apps Script messages', () => {
    expect(emulator.run('realmChecks')).toEqual({
      spreadsheetErrorIsError: true,
      ordinaryInstanceOf: [true, true, false, false, false],
      arrayIsArray: true,
      errorIsError: true,
      name: 'Exception',
      message: 'Invalid argument: milliseconds',
      printed: 'Exception: Invalid argument: milliseconds',
      missingIsError: true,
      missingMessage: 'not emulated: UrlFetchApp.fetchEverything',
    });
  });
});

describe('emulated objects', () => {
  it('keep their state out of the script’s reach', () => {
    const emulator = emulate(`
      function peek() {
        var found = [];
        [PropertiesService.getScriptProperties(), CacheService.getScriptCache(), LockService.getScriptLock()].forEach(
          function (object) { ['store', 'env', 'table', 'id'].forEach(function (name) {
            try { object[name]; found.push(name); } catch (e) { /* not there */ }
          }); });
        return found;
      }
    `);
    expect(emulator.run('peek')).toEqual([]);
  });
});

describe('executions', () => {
  const emulator = emulate(`
    var counter = 0;
    function increment() { counter += 1; return counter; }
    function fail() { throw new TypeError('bad input'); }
    function failWithString() { throw 'plain'; }
    async function later() { var value = await Promise.resolve(41); Logger.log('resolved'); return value + 1; }
    function whoCalls() { return Session.getEffectiveUser().getEmail(); }
  `);

  it('start from freshly evaluated code: globals do not survive an execution', () => {
    expect(emulator.run('increment')).toBe(1);
    expect(emulator.run('increment')).toBe(1);
  });

  it('report the script exception as a ScriptError keeping its name and message', () => {
    expect(() => emulator.run('fail')).toThrow(ScriptError);
    expect(() => emulator.run('fail')).toThrow(
      expect.objectContaining({ message: 'bad input', errorName: 'TypeError' }),
    );
    expect(() => emulator.run('failWithString')).toThrow(expect.objectContaining({ message: 'plain' }));
  });

  it('fail clearly when the function does not exist', () => {
    expect(() => emulator.run('nowhere')).toThrow('Script function not found: nowhere');
  });

  it('run promise jobs before the execution ends', () => {
    emulator.run('later');
    expect(emulator.logs.map((entry) => entry.text)).toContain('resolved');
  });

  it('run as the emulator owner, or as another user', () => {
    expect(emulator.run('whoCalls')).toBe('owner@example.com');
    expect(emulator.asUser('editor@example.com').run('whoCalls')).toBe('editor@example.com');
    expect(emulator.users.list()).toEqual(['owner@example.com', 'editor@example.com']);
  });
});

describe('service call counting', () => {
  it('counts every service call by class and method, chained calls included', () => {
    const emulator = emulate(`
      function work() {
        var props = PropertiesService.getScriptProperties();
        props.setProperty('a', '1').setProperty('b', '2');
        Logger.log(props.getProperty('a'));
      }
    `);
    emulator.run('work');
    expect(emulator.counter.snapshot()).toEqual({
      'Logger.log': 1,
      'Properties.getProperty': 1,
      'Properties.setProperty': 2,
      'PropertiesService.getScriptProperties': 1,
    });
    expect(emulator.counter.total('Properties.')).toBe(3);
  });
});
