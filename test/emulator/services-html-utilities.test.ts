/**
 * HtmlService, Utilities, Session, Logger and console.
 */
import { createHash } from 'node:crypto';

import { emulate } from './fixtures/script-emulator';

describe('HtmlService', () => {
  const FILES = {
    'settings.html': '<h1>Settings</h1>',
    'dialogs/report.html':
      '<p><?= title ?></p><? for (var i = 0; i < items.length; i++) { ?><li><?= items[i] ?></li><? } ?><?!= footer() ?>',
  };
  const SCRIPT = `
    function fromFile(name) { return HtmlService.createHtmlOutputFromFile(name).getContent(); }
    function footer() { return '<footer>ok</footer>'; }
    function report(title, items) {
      var template = HtmlService.createTemplateFromFile('dialogs/report');
      template.title = title;
      template.items = items;
      var output = template.evaluate().setTitle('Report').setWidth(400).setHeight(300);
      return [output.getContent(), output.getTitle(), output.getWidth(), output.getHeight()];
    }
    function built() {
      var output = HtmlService.createHtmlOutput('<b>a</b>').append('<i>b</i>').appendUntrusted('<c>')
        .setXFrameOptionsMode(HtmlService.XFrameOptionsMode.ALLOWALL).addMetaTag('viewport', 'width=device-width');
      return output.getContent();
    }
    function badWidth() { HtmlService.createHtmlOutput('').setWidth('400px'); }
    function missingVariable() { return HtmlService.createTemplate('<?= nothing ?>').evaluate().getContent(); }
  `;

  it('reads pushed files by name, with or without .html', () => {
    const emulator = emulate(SCRIPT, { files: FILES });
    expect(emulator.run('fromFile', ['settings'])).toBe('<h1>Settings</h1>');
    expect(emulator.run('fromFile', ['settings.html'])).toBe('<h1>Settings</h1>');
    expect(() => emulator.run('fromFile', ['nope'])).toThrow('No HTML file named nope was found.');
  });

  it('evaluates templates: <?= ?> escaped, <?!= ?> raw, <? ?> code, script globals in scope', () => {
    const emulator = emulate(SCRIPT, { files: FILES });
    expect(emulator.run('report', ['<Q&A>', ['a"b', "it's"]])).toEqual([
      '<p>&lt;Q&amp;A&gt;</p><li>a&quot;b</li><li>it&#39;s</li><footer>ok</footer>',
      'Report',
      400,
      300,
    ]);
    expect(() => emulator.run('missingVariable')).toThrow('nothing is not defined');
  });

  it('builds outputs and checks their arguments', () => {
    const emulator = emulate(SCRIPT);
    expect(emulator.run('built')).toBe('<b>a</b><i>b</i>&lt;c&gt;');
    expect(() => emulator.run('badWidth')).toThrow(
      "don't match the method signature for HtmlOutput.setWidth",
    );
  });
});

describe('Utilities', () => {
  const SCRIPT = `
    function format(epochMs, zone, pattern) { return Utilities.formatDate(new Date(epochMs), zone, pattern); }
    function digest(algorithm, value) { return Utilities.computeDigest(Utilities.DigestAlgorithm[algorithm], value); }
    function encode(value) { return [Utilities.base64Encode(value), Utilities.base64EncodeWebSafe(value)]; }
    function decode(value) { return Utilities.base64Decode(value); }
    function roundTrip(text) { return Utilities.base64Encode(Utilities.base64Decode(Utilities.base64Encode(text))); }
    function sleep(ms) { Utilities.sleep(ms); }
    function uuid() { return Utilities.getUuid(); }
  `;
  const INSTANT = Date.UTC(2024, 0, 31, 23, 30, 5, 7);

  it.each([
    ['Pacific/Kiritimati', "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2024-02-01T13:30:05.007+14:00'],
    ['Pacific/Pago_Pago', "yyyy-MM-dd'T'HH:mm:ssXXX", '2024-01-31T12:30:05-11:00'],
    ['Pacific/Pago_Pago', 'EEE, d MMM yy h:mm a Z', 'Wed, 31 Jan 24 12:30 PM -1100'],
    ['Pacific/Kiritimati', 'EEEE d MMMM yyyy, H:mm X', 'Thursday 1 February 2024, 13:30 +14'],
    ['UTC', "yyyyMMdd HHmm XXX 'o''clock'", "20240131 2330 Z o'clock"],
    ['Asia/Kolkata', 'hh:mm a XX', '05:00 AM +0530'],
    ['GMT-08:00', 'M/d/yyyy HH:mm', '1/31/2024 15:30'],
  ])('formatDate in %s with %s', (zone, pattern, expected) => {
    expect(emulate(SCRIPT).run('format', [INSTANT, zone, pattern])).toBe(expected);
  });

  it('refuses what Java refuses in formatDate, and unknown zones', () => {
    const emulator = emulate(SCRIPT);
    expect(() => emulator.run('format', [INSTANT, 'UTC', 'yyyy-qq'])).toThrow(
      "Illegal pattern character 'q'",
    );
    expect(() => emulator.run('format', [INSTANT, 'Mars/Olympus', 'yyyy'])).toThrow(
      'Invalid argument: timeZone',
    );
  });

  it.each([
    ['MD5', 'md5'],
    ['SHA_1', 'sha1'],
    ['SHA_256', 'sha256'],
    ['SHA_512', 'sha512'],
  ])('computeDigest(%s) returns signed bytes equal to Node’s %s', (algorithm, nodeName) => {
    const value = 'Safety Sync — ünïcödé';
    const expected = [...createHash(nodeName).update(value, 'utf8').digest()].map((byte) =>
      byte > 127 ? byte - 256 : byte,
    );
    const bytes = emulate(SCRIPT).run('digest', [algorithm, value]) as number[];
    expect(bytes).toEqual(expected);
    expect(Math.min(...bytes)).toBeLessThan(0);
  });

  it('encodes and decodes base64, web-safe keeping the padding', () => {
    const emulator = emulate(SCRIPT);
    expect(emulator.run('encode', ['ü?>'])).toEqual(['w7w/Pg==', 'w7w_Pg==']);
    expect(emulator.run('encode', [[-61, -68, 63, 62]])).toEqual(['w7w/Pg==', 'w7w_Pg==']);
    expect(emulator.run('decode', ['w7w/Pg=='])).toEqual([-61, -68, 63, 62]);
    expect(emulator.run('roundTrip', ['héllo'])).toBe(Buffer.from('héllo').toString('base64'));
    expect(() => emulator.run('decode', ['not base64!'])).toThrow('Could not decode string.');
  });

  it('sleeps up to 300,000 ms a call', () => {
    const emulator = emulate(SCRIPT);
    expect(() => emulator.run('sleep', [300_001])).toThrow('Invalid argument: milliseconds');
    expect(() => emulator.run('sleep', ['1000'])).toThrow(
      "don't match the method signature for Utilities.sleep",
    );
    emulator.run('sleep', [300_000]);
  });

  it('makes UUIDs', () => {
    expect(emulate(SCRIPT).run('uuid')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('Session', () => {
  const SCRIPT = `
    function session() {
      return [Session.getActiveUser().getEmail(), Session.getEffectiveUser().getEmail(), Session.getScriptTimeZone(),
              Session.getActiveUserLocale(), Session.getTemporaryActiveUserKey().length > 20];
    }
  `;

  it('tells who runs the script, and the script time zone', () => {
    const emulator = emulate(SCRIPT, { timeZone: 'Pacific/Pago_Pago' });
    expect(emulator.asUser('editor@example.com').run('session')).toEqual([
      'editor@example.com',
      'editor@example.com',
      'Pacific/Pago_Pago',
      'en',
      true,
    ]);
  });

  it('keeps the temporary key stable per user and different between users', () => {
    const emulator = emulate('function key() { return Session.getTemporaryActiveUserKey(); }');
    const mine = emulator.run('key');
    expect(emulator.run('key')).toBe(mine);
    expect(emulator.asUser('editor@example.com').run('key')).not.toBe(mine);
  });
});

describe('Logger and console', () => {
  it('record every line with its level and execution', () => {
    const lines: string[] = [];
    const emulator = emulate(
      `function log() {
         Logger.log('plain').log('%s has %d items (%s)', 'list', 3.7, { a: 1 });
         Logger.log({ b: [1, 2] });
         console.log('a', 1, { c: true }); console.info('info'); console.warn('warn'); console.error('error');
       }`,
      { onLog: (entry) => lines.push(entry.text) },
    );
    emulator.run('log');
    expect(
      emulator.logs.map(({ source, level, text, executionId }) => [source, level, text, executionId]),
    ).toEqual([
      ['Logger', 'info', 'plain', 1],
      ['Logger', 'info', 'list has 3 items ({"a":1})', 1],
      ['Logger', 'info', '{"b":[1,2]}', 1],
      ['console', 'log', 'a 1 { c: true }', 1],
      ['console', 'info', 'info', 1],
      ['console', 'warn', 'warn', 1],
      ['console', 'error', 'error', 1],
    ]);
    expect(lines).toHaveLength(7);
  });

  it('has no console methods Apps Script lacks', () => {
    const emulator = emulate('function table() { console.table([]); }');
    expect(() => emulator.run('table')).toThrow('not emulated: console.table');
  });
});
