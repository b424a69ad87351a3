/**
 * How each entry point runs: the simple onOpen trigger in NONE and LIMITED, menu items, custom
 * functions, google.script.run, time-driven triggers; and the execution time limits of each.
 */
import { ScriptError } from '../../dev/emulator';
import { emulate } from './fixtures/script-emulator';

const ADD_ON_SCRIPT = `
  var seen = [];
  function onOpen(e) {
    SpreadsheetApp.getUi().createAddonMenu().addItem('Import completed trainings…', 'importTrainings').addToUi();
    var attempts = {
      properties: function () { return PropertiesService.getUserProperties().getProperty('token'); },
      documentProperties: function () { return PropertiesService.getDocumentProperties().getKeys().length; },
      urlFetch: function () { return UrlFetchApp.fetch('http://127.0.0.1:1/'); },
      cache: function () { return CacheService.getScriptCache().get('k'); },
      lock: function () { return LockService.getScriptLock().tryLock(0); },
      triggers: function () { return ScriptApp.getProjectTriggers().length; },
      email: function () { return Session.getActiveUser().getEmail(); },
      source: function () { return e.source.getSheets()[0].getName(); },
    };
    Object.keys(attempts).forEach(function (name) {
      try { Logger.log('%s ok %s', name, attempts[name]()); } catch (error) { Logger.log('%s failed %s', name, error.message); }
    });
    Logger.log('authMode %s %s', String(e.authMode), e.authMode === ScriptApp.AuthMode[String(e.authMode)]);
    Logger.log('hasSource %s', 'source' in e);
  }
  function importTrainings() {
    var ss = SpreadsheetApp.getActiveSpreadsheet();
    return { spreadsheet: ss.getId(), user: Session.getActiveUser().getEmail(),
             token: PropertiesService.getUserProperties().getProperty('token') };
  }
`;

function logLines(emulator: { logs: readonly { text: string }[] }): string[] {
  return emulator.logs.map((entry) => entry.text);
}

describe('onOpen as a simple trigger', () => {
  it('in AuthMode.NONE can build the menu but touch nothing that needs authorization', () => {
    const emulator = emulate(ADD_ON_SCRIPT);
    const id = emulator.createSpreadsheet({ name: 'Trainings' });
    emulator.onOpen(id, { authMode: 'NONE' });
    expect(logLines(emulator)).toEqual([
      'properties failed You do not have permission to call PropertiesService.getUserProperties.',
      'documentProperties failed You do not have permission to call PropertiesService.getDocumentProperties.',
      'urlFetch failed You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
      'cache failed You do not have permission to call CacheService.getScriptCache.',
      'lock failed You do not have permission to call LockService.getScriptLock.',
      'triggers failed You do not have permission to call ScriptApp.getProjectTriggers. Required permissions: https://www.googleapis.com/auth/script.scriptapp',
      'email failed You do not have permission to call Session.getActiveUser. Required permissions: https://www.googleapis.com/auth/userinfo.email',
      "source failed Cannot read properties of undefined (reading 'getSheets')",
      'authMode NONE true',
      'hasSource false',
    ]);
    expect(emulator.workbooks.get(id)!.ui.menus).toHaveLength(1);
  });

  it('in AuthMode.LIMITED may use properties, caches, locks and the document, but not UrlFetch or triggers', () => {
    const emulator = emulate(ADD_ON_SCRIPT);
    const id = emulator.createSpreadsheet({ name: 'Trainings' });
    emulator.properties.user('owner@example.com').set('token', 'secret');
    emulator.onOpen(id);
    expect(logLines(emulator)).toEqual([
      'properties ok secret',
      'documentProperties ok 0',
      'urlFetch failed You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
      'cache ok null',
      'lock ok true',
      'triggers failed You do not have permission to call ScriptApp.getProjectTriggers. Required permissions: https://www.googleapis.com/auth/script.scriptapp',
      'email ok ',
      'source ok Sheet1',
      'authMode LIMITED true',
      'hasSource true',
    ]);
  });

  it('runs top-level code in the same mode: top-level service calls fail in NONE', () => {
    const emulator = emulate(
      `var token = PropertiesService.getUserProperties().getProperty('token'); function onOpen() {}`,
    );
    const id = emulator.createSpreadsheet();
    expect(() => emulator.onOpen(id, { authMode: 'NONE' })).toThrow(
      'You do not have permission to call PropertiesService.getUserProperties.',
    );
  });

  it('onInstall runs in FULL mode and sees the installing user', () => {
    const emulator = emulate(
      `function onInstall(e) { Logger.log('%s %s', String(e.authMode), Session.getActiveUser().getEmail()); }`,
    );
    emulator.asUser('editor@example.com').onInstall(emulator.createSpreadsheet());
    expect(logLines(emulator)).toEqual(['FULL editor@example.com']);
  });

  it('does nothing when the script has no onOpen', () => {
    const emulator = emulate('function other() {}');
    expect(() => emulator.onOpen(emulator.createSpreadsheet())).not.toThrow();
  });
});

describe('menu items', () => {
  it('run their function in FULL mode as the clicking user, with the spreadsheet active', () => {
    const emulator = emulate(ADD_ON_SCRIPT);
    const id = emulator.createSpreadsheet({ name: 'Trainings' });
    emulator.properties.user('editor@example.com').set('token', 'editor-token');
    emulator.onOpen(id);
    expect(
      emulator.asUser('editor@example.com').clickMenu(id, 'Safety Sync', 'Import completed trainings…'),
    ).toEqual({
      spreadsheet: id,
      user: 'editor@example.com',
      token: 'editor-token',
    });
  });

  it('must exist: a missing item says which items there are', () => {
    const emulator = emulate(ADD_ON_SCRIPT);
    const id = emulator.createSpreadsheet();
    expect(() => emulator.clickMenu(id, 'Safety Sync', 'Import completed trainings…')).toThrow(
      'did onOpen run?',
    );
    emulator.onOpen(id);
    expect(() => emulator.clickMenu(id, 'Safety Sync', 'Refresh all')).toThrow(
      `No menu item Safety Sync > Refresh all in spreadsheet ${id}. Menu items: Safety Sync > Import completed trainings…`,
    );
  });
});

describe('execution time limits', () => {
  const SLEEPER = `
    function sleepForever() { for (;;) Utilities.sleep(300000); }
    function sleepAndCatch() {
      for (var i = 0; i < 10; i++) { try { Utilities.sleep(300000); } catch (e) { /* keep going */ } }
      return 'survived';
    }
    function spin() { for (;;) {} }
    function SLOW() { Utilities.sleep(20000); Utilities.sleep(20000); return 'never'; }
    function onOpen() { Utilities.sleep(31000); }
  `;

  it('stop a menu run at 6 minutes of emulated time', () => {
    const emulator = emulate(SLEEPER);
    const started = emulator.clock.now();
    expect(() => emulator.run('sleepForever')).toThrow(
      new ScriptError('Exceeded maximum execution time', null, 'Exception'),
    );
    const elapsed = emulator.clock.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(360_000);
    expect(elapsed).toBeLessThan(361_000);
  });

  it('cannot be escaped by catching the error', () => {
    const emulator = emulate(SLEEPER);
    expect(() => emulator.run('sleepAndCatch')).toThrow('Exceeded maximum execution time');
  });

  it('stop a custom function at 30 seconds', () => {
    const emulator = emulate(SLEEPER);
    const id = emulator.createSpreadsheet();
    expect(emulator.customFunction(id, 'SLOW', [])).toEqual({ error: 'Exceeded maximum execution time' });
  });

  it('stop a simple trigger at 30 seconds', () => {
    const emulator = emulate(SLEEPER);
    expect(() => emulator.onOpen(emulator.createSpreadsheet())).toThrow('Exceeded maximum execution time');
  });

  it('stop pure computation by real time as a backstop', () => {
    const emulator = emulate(SLEEPER, { executionLimitMs: { full: 100 } });
    expect(() => emulator.run('spin')).toThrow('Exceeded maximum execution time');
  });
});

describe('custom functions', () => {
  const FUNCTIONS = `
    function WHO_AM_I() { return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail()]; }
    function OWNER_TOKEN() { return PropertiesService.getUserProperties().getProperty('token'); }
    function SHOW_UI() { SpreadsheetApp.getUi(); }
    function WRITE() { SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1').setValues([['x']]); }
    function READ() { return SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1').getValues()[0][0]; }
    function MAKE_TRIGGER() { ScriptApp.newTrigger('x').timeBased().everyHours(1).create(); }
    function DOUBLE(value) { return value instanceof Array ? value.map(function (row) { return row.map(function (v) { return v * 2; }); }) : value * 2; }
    function DAY(date) { return date instanceof Date ? date.getUTCDate() : 'not a date'; }
    function secret_() { return 'private'; }
  `;

  it('run anonymously, with the spreadsheet OWNER’s user properties', () => {
    const emulator = emulate(FUNCTIONS);
    const id = emulator.createSpreadsheet({ owner: 'boss@example.com' });
    emulator.properties.user('boss@example.com').set('token', 'boss-token');
    emulator.properties.user('owner@example.com').set('token', 'someone-else');
    expect(emulator.customFunction(id, 'WHO_AM_I')).toEqual({ value: ['', ''] });
    expect(emulator.customFunction(id, 'OWNER_TOKEN')).toEqual({ value: 'boss-token' });
  });

  it('may read the spreadsheet but not write it, show UI or create triggers', () => {
    const emulator = emulate(FUNCTIONS);
    const id = emulator.createSpreadsheet();
    emulator.workbooks.get(id)!.typeValues('Sheet1!A1', [['hello']]);
    expect(emulator.customFunction(id, 'READ')).toEqual({ value: 'hello' });
    expect(emulator.customFunction(id, 'WRITE')).toEqual({
      error: 'You do not have permission to call setValues',
    });
    expect(emulator.customFunction(id, 'SHOW_UI')).toEqual({
      error: 'Cannot call SpreadsheetApp.getUi() from this context.',
    });
    expect(emulator.customFunction(id, 'MAKE_TRIGGER')).toEqual({
      error:
        'You do not have permission to call ScriptApp.newTrigger. Required permissions: https://www.googleapis.com/auth/script.scriptapp',
    });
  });

  it('receive values of the script realm and match names as Sheets does', () => {
    const emulator = emulate(FUNCTIONS);
    const id = emulator.createSpreadsheet();
    expect(emulator.customFunction(id, 'double', [[[1, 2]]])).toEqual({ value: [[2, 4]] });
    expect(emulator.customFunction(id, 'DAY', [new Date(Date.UTC(2024, 4, 17))])).toEqual({ value: 17 });
    expect(emulator.customFunction(id, 'secret_')).toEqual({ error: "Unknown function: 'secret_'." });
    expect(emulator.customFunction(id, 'NOWHERE')).toEqual({ error: "Unknown function: 'NOWHERE'." });
  });

  it('compute cell formulas when the spreadsheet recalculates', () => {
    const emulator = emulate(FUNCTIONS);
    const id = emulator.createSpreadsheet();
    const workbook = emulator.workbooks.get(id)!;
    workbook.typeValues('Sheet1!A1:C1', [['=DOUBLE(21)', '=NOWHERE()', '=SHOW_UI()']]);
    workbook.recalculate();
    expect(workbook.sheet('Sheet1').displayValues('A1:C1')).toEqual([['42', '#NAME?', '#ERROR!']]);
    expect(workbook.sheet('Sheet1').cells('C1')[0]![0]!.error).toEqual({
      code: '#ERROR!',
      message: 'Cannot call SpreadsheetApp.getUi() from this context.',
    });
  });
});

describe('google.script.run (callServer)', () => {
  const SERVER = `
    function echo(value) { return { received: value, isArray: value instanceof Array }; }
    function today() { return new Date(); }
    function nested() { return { when: new Date(), n: 1 }; }
    function sparse() { return [1, undefined, function () {}, NaN]; }
    function whoAndWhere() { return [Session.getActiveUser().getEmail(), SpreadsheetApp.getActiveSpreadsheet().getId()]; }
    function helper_() { return 'private'; }
  `;

  it('copies arguments and results as JSON-like data, in FULL mode for the calling user', () => {
    const emulator = emulate(SERVER, { readings: { unserialisableReturn: 'null' } });
    const id = emulator.createSpreadsheet();
    expect(emulator.callServer(id, 'echo', [1, 'a', null, undefined, { x: true, y: undefined }])).toEqual({
      received: [1, 'a', null, null, { x: true }],
      isArray: true,
    });
    expect(emulator.asUser('editor@example.com').callServer(id, 'whoAndWhere')).toEqual([
      'editor@example.com',
      id,
    ]);
    expect(emulator.callServer(id, 'sparse')).toEqual(null);
  });

  it('refuses Dates, functions, class instances and cycles as arguments', () => {
    const emulator = emulate(SERVER);
    const id = emulator.createSpreadsheet();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => emulator.callServer(id, 'echo', new Date())).toThrow(
      'Failed due to illegal value in property: 0',
    );
    expect(() => emulator.callServer(id, 'echo', { when: new Date() })).toThrow(
      'illegal value in property: when',
    );
    expect(() => emulator.callServer(id, 'echo', [() => 1])).toThrow('illegal value in property: 0');
    expect(() => emulator.callServer(id, 'echo', new Map())).toThrow('illegal value');
    expect(() => emulator.callServer(id, 'echo', cyclic)).toThrow('illegal value in property: self');
    expect(emulator.counter.total()).toBe(0);
  });

  it('delivers null for a result that holds a Date, where Google reads it so', () => {
    const emulator = emulate(SERVER, { readings: { unserialisableReturn: 'null' } });
    const id = emulator.createSpreadsheet();
    expect(emulator.callServer(id, 'today')).toBeNull();
    expect(emulator.callServer(id, 'nested')).toBeNull();
  });

  it('cannot call private or missing functions', () => {
    const emulator = emulate(SERVER);
    const id = emulator.createSpreadsheet();
    expect(() => emulator.callServer(id, 'helper_')).toThrow('google.script.run.helper_ is not a function');
    expect(() => emulator.callServer(id, 'missing')).toThrow('google.script.run.missing is not a function');
  });
});

describe('time-driven triggers', () => {
  const SCHEDULER = `
    function schedule() { return ScriptApp.newTrigger('refresh').timeBased().everyHours(1).create().getUniqueId(); }
    function refresh(e) {
      return { authMode: String(e.authMode), isFull: e.authMode === ScriptApp.AuthMode.FULL, uid: e.triggerUid,
               year: e.year, month: e.month, day: e['day-of-month'], dow: e['day-of-week'], week: e['week-of-year'],
               hour: e.hour, minute: e.minute, timezone: e.timezone,
               active: SpreadsheetApp.getActiveSpreadsheet(), user: Session.getEffectiveUser().getEmail(),
               documentProperties: PropertiesService.getDocumentProperties() };
    }
    function showUi() { SpreadsheetApp.getUi(); }
  `;

  it('fire as their creator in FULL mode, with no active spreadsheet and Google’s event fields', () => {
    const emulator = emulate(SCHEDULER, { startTime: Date.UTC(2024, 11, 30, 9, 15, 0) });
    const id = emulator.createSpreadsheet();
    const uid = emulator.asUser('editor@example.com').run('schedule', [], { spreadsheetId: id }) as string;
    expect(emulator.triggers()).toEqual([
      {
        uid,
        handler: 'refresh',
        owner: 'editor@example.com',
        spreadsheetId: id,
        schedule: {
          every: 'hours',
          interval: 1,
          atHour: null,
          nearMinute: null,
          weekDay: null,
          monthDay: null,
          timeZone: 'Europe/London',
        },
        createdAtMs: expect.any(Number),
      },
    ]);
    expect(emulator.fireTrigger(uid)).toEqual({
      authMode: 'FULL',
      isFull: true,
      uid,
      year: 2024,
      month: 12,
      day: 30,
      dow: 1,
      week: 1,
      hour: 9,
      minute: 15,
      timezone: 'UTC',
      active: null,
      user: 'editor@example.com',
      documentProperties: null,
    });
  });

  it('have no UI', () => {
    const emulator = emulate(SCHEDULER);
    expect(() => emulator.run('showUi', [], { kind: 'time-trigger' })).toThrow(
      'Cannot call SpreadsheetApp.getUi() from this context.',
    );
  });

  it('must exist to be fired', () => {
    expect(() => emulate(SCHEDULER).fireTrigger('123')).toThrow('No trigger 123');
  });
});
