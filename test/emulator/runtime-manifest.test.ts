/**
 * The emulator grants what appsscript.json lists, as Google does: a call whose service needs a scope
 * the manifest's oauthScopes lacks throws Google's permission error, and with a urlFetchWhitelist a
 * fetch outside it throws before anything is sent.
 */
import { SCOPE } from '../../dev/emulator/runtime/manifest';
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function openOther(id) { return SpreadsheetApp.openById(id).getId(); }
  function activeName() { return SpreadsheetApp.getActiveSpreadsheet().getId(); }
  function fetchCode(url) { return UrlFetchApp.fetch(url, { muteHttpExceptions: true }).getResponseCode(); }
  function triggers() { return ScriptApp.getProjectTriggers().length; }
  function email() { return Session.getActiveUser().getEmail(); }
  function alertUser() { return String(SpreadsheetApp.getUi().alert('Hello')); }
  function menu() { SpreadsheetApp.getUi().createAddonMenu().addItem('Go', 'activeName').addToUi(); return 'ok'; }
  function rawWrite(id) {
    Sheets.Spreadsheets.Values.batchUpdate({ valueInputOption: 'RAW', data: [{ range: 'A1', values: [['x']] }] }, id);
    return 'written';
  }
  function timeZone() { return Session.getScriptTimeZone(); }
  function remember() { PropertiesService.getUserProperties().setProperty('k', 'v'); return 'kept'; }
`;

const EVERY_SCOPE = Object.values(SCOPE);

function manifestWith(scopes: readonly string[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    timeZone: 'Etc/UTC',
    oauthScopes: scopes,
    dependencies: { enabledAdvancedServices: [{ userSymbol: 'Sheets', serviceId: 'sheets', version: 'v4' }] },
    ...extra,
  });
}

function emulatorWith(manifest: string | undefined) {
  const emulator = emulate(SCRIPT, { files: manifest === undefined ? {} : { 'appsscript.json': manifest } });
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Doc' });
  return { emulator, spreadsheetId };
}

const denied = (call: string, scopes: string) =>
  `Specified permissions are not sufficient to call ${call}. Required permissions: ${scopes}`;

describe('oauthScopes', () => {
  it.each<[string, string[], string[], string, string]>([
    [
      'fetchCode',
      ['https://nonexistent.invalid/'],
      [SCOPE.externalRequest],
      'UrlFetchApp.fetch',
      SCOPE.externalRequest,
    ],
    ['triggers', [], [SCOPE.scriptApp], 'ScriptApp.getProjectTriggers', SCOPE.scriptApp],
    ['email', [], [SCOPE.email], 'Session.getActiveUser', SCOPE.email],
    ['alertUser', [], [SCOPE.containerUi], 'Ui.alert', SCOPE.containerUi],
    [
      'activeName',
      [],
      [SCOPE.spreadsheets, SCOPE.currentSpreadsheet],
      'SpreadsheetApp.getActiveSpreadsheet',
      `(${SCOPE.currentSpreadsheet} || ${SCOPE.spreadsheets})`,
    ],
  ])('%s throws without the scope it needs, and runs with it', (name, args, missing, call, required) => {
    const without = emulatorWith(manifestWith(EVERY_SCOPE.filter((scope) => !missing.includes(scope))));
    expect(() => without.emulator.run(name, args, { spreadsheetId: without.spreadsheetId })).toThrow(
      denied(call, required),
    );
    expect(without.emulator.urlFetch.requests).toEqual([]);
    // With every scope the call goes through (the fetch then reaches the network: a DNS error).
    const withAll = emulatorWith(manifestWith(EVERY_SCOPE));
    expect(() => withAll.emulator.run(name, args, { spreadsheetId: withAll.spreadsheetId })).not.toThrow(
      /Specified permissions/,
    );
  });

  it('lets spreadsheets.currentonly use the bound document but not open another, nor the Sheets API', () => {
    const { emulator, spreadsheetId } = emulatorWith(
      manifestWith(EVERY_SCOPE.filter((scope) => scope !== SCOPE.spreadsheets)),
    );
    expect(emulator.run('activeName', [], { spreadsheetId })).toBe(spreadsheetId);
    expect(() => emulator.run('openOther', [spreadsheetId], { spreadsheetId })).toThrow(
      denied('SpreadsheetApp.openById', SCOPE.spreadsheets),
    );
    expect(() => emulator.run('rawWrite', [spreadsheetId], { spreadsheetId })).toThrow(
      denied('Sheets.Spreadsheets.Values.batchUpdate', SCOPE.spreadsheets),
    );
  });

  it('needs no scope for menus, the script time zone or properties', () => {
    const { emulator, spreadsheetId } = emulatorWith(manifestWith([]));
    expect(emulator.run('menu', [], { spreadsheetId, kind: 'simple-trigger', authMode: 'NONE' })).toBe('ok');
    expect(emulator.run('timeZone', [], { spreadsheetId })).toBe('Etc/UTC');
    expect(emulator.run('remember', [], { spreadsheetId })).toBe('kept');
  });

  it('grants everything when the manifest lists no scopes (Google detects them from the code)', () => {
    const { emulator, spreadsheetId } = emulatorWith(JSON.stringify({ timeZone: 'Etc/UTC' }));
    expect(emulator.run('openOther', [spreadsheetId], { spreadsheetId })).toBe(spreadsheetId);
    expect(emulator.run('triggers', [], { spreadsheetId })).toBe(0);
  });
});

describe('urlFetchWhitelist', () => {
  const whitelisted = (prefixes: string[]) =>
    emulatorWith(manifestWith(EVERY_SCOPE, { urlFetchWhitelist: prefixes })).emulator;

  it('refuses a URL outside every prefix before sending anything', () => {
    const emulator = whitelisted(['https://safety.example.com/v1/', 'https://*.example.org/']);
    for (const url of [
      'http://127.0.0.1:9/v1/x',
      'https://safety.example.com/v2/x',
      'https://safety.example.com.evil.test/v1/x',
      'https://example.org/x',
    ]) {
      expect(() => emulator.run('fetchCode', [url])).toThrow(
        `UrlFetch to ${url} is not allowed: it matches no prefix of urlFetchWhitelist in the script's manifest.`,
      );
    }
    expect(emulator.urlFetch.requests).toEqual([]);
  });

  it('lets a URL inside a prefix through to the network (a subdomain for a *. prefix)', () => {
    const emulator = whitelisted(['https://*.example.invalid/']);
    expect(() => emulator.run('fetchCode', ['https://safety.example.invalid/x'])).toThrow(/DNS error/);
    expect(emulator.urlFetch.requests).toHaveLength(1);
  });

  it.each([['http://safety.example.com/'], ['https://safety.example.com'], ['https://localhost/']])(
    'refuses the manifest entry %s (https, a full domain and a path are required)',
    (prefix) => {
      expect(() => whitelisted([prefix])).toThrow(/urlFetchWhitelist entry/);
    },
  );
});
