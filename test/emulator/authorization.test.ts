/**
 * What each user granted: a user who authorised before a scope was added to the manifest has not
 * granted it. Their trigger's call that needs it fails with the permission error (Google runs an
 * add-on's installable trigger "without prompting for authorization but throws an exception if the
 * script attempts to call the unauthorized service": the AuthorizationStatus reference), and
 * ScriptApp.getAuthorizationInfo says REQUIRED, until they run a menu item (Google's consent screen,
 * accepted) and grant the manifest's scopes.
 */
import { SCOPE } from '../../dev/emulator/runtime/manifest';
import { AUTHORIZATION_URL } from '../../dev/emulator/runtime/script-app';
import { emulate } from './fixtures/script-emulator';

const SCRIPT = `
  function send() { MailApp.sendEmail('someone@example.com', 'Hi', 'Body'); return 'sent'; }
  function status(scopes) {
    const info = scopes
      ? ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL, scopes)
      : ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
    return [String(info.getAuthorizationStatus()), info.getAuthorizationUrl(), info.getAuthorizedScopes()];
  }
  function limitedStatus() {
    return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.LIMITED).getAuthorizationStatus());
  }
  function badArguments() { return ScriptApp.getAuthorizationInfo('FULL'); }
  function isRequired() {
    return ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus() ===
      ScriptApp.AuthorizationStatus.REQUIRED;
  }
`;

const MANIFEST_SCOPES = [SCOPE.spreadsheets, SCOPE.scriptApp, SCOPE.sendMail];
const BEFORE_MAIL = [SCOPE.spreadsheets, SCOPE.scriptApp];
const USER = 'owner@example.com';

function setUp() {
  const emulator = emulate(SCRIPT, {
    files: { 'appsscript.json': JSON.stringify({ timeZone: 'Etc/UTC', oauthScopes: MANIFEST_SCOPES }) },
  });
  emulator.grants.set(USER, BEFORE_MAIL);
  return emulator;
}

const asTrigger = { kind: 'time-trigger' } as const;

it('refuses a call whose scope the running user has not granted, with the permission error', () => {
  const emulator = setUp();
  expect(() => emulator.run('send', [], asTrigger)).toThrow(
    `You do not have permission to call MailApp.sendEmail. Required permissions: ${SCOPE.sendMail}`,
  );
  // A dialog's google.script.run cannot show the consent screen either.
  expect(() => emulator.run('send', [], { kind: 'dialog' })).toThrow('You do not have permission');
  expect(emulator.mail.sent).toEqual([]);
});

it('answers REQUIRED until the user runs a menu item, then NOT_REQUIRED', () => {
  const emulator = setUp();
  expect(emulator.run('status', [], asTrigger)).toEqual(['REQUIRED', AUTHORIZATION_URL, BEFORE_MAIL]);
  expect(emulator.run('isRequired', [], asTrigger)).toBe(true);
  // Of a list: only the listed scopes count.
  expect(emulator.run('status', [[SCOPE.spreadsheets]], asTrigger)).toEqual([
    'NOT_REQUIRED',
    null,
    [SCOPE.spreadsheets],
  ]);
  expect(emulator.run('status', [[SCOPE.sendMail, SCOPE.spreadsheets]], asTrigger)).toEqual([
    'REQUIRED',
    AUTHORIZATION_URL,
    [SCOPE.spreadsheets],
  ]);
  // No other mode asks the user for anything.
  expect(emulator.run('limitedStatus', [], asTrigger)).toBe('NOT_REQUIRED');

  // A menu item: Google asks first, and the user accepts the manifest's scopes.
  expect(emulator.run('status', [], { kind: 'menu' })).toEqual(['NOT_REQUIRED', null, MANIFEST_SCOPES]);
  expect(emulator.grants.of(USER)).toEqual(MANIFEST_SCOPES);
  expect(emulator.run('send', [], asTrigger)).toBe('sent');
  expect(emulator.mail.sent).toHaveLength(1);
});

it('takes a user it has no record of as having granted the manifest', () => {
  const emulator = setUp();
  const editor = emulator.asUser('editor@example.com');
  expect(editor.run('status', [], asTrigger)).toEqual(['NOT_REQUIRED', null, MANIFEST_SCOPES]);
  expect(editor.run('send', [], asTrigger)).toBe('sent');
});

it("keeps the manifest's refusal distinct: a scope the manifest lacks is not the user's to grant", () => {
  const emulator = emulate(SCRIPT, {
    files: { 'appsscript.json': JSON.stringify({ timeZone: 'Etc/UTC', oauthScopes: BEFORE_MAIL }) },
  });
  expect(() => emulator.run('send', [], { kind: 'menu' })).toThrow(
    `Specified permissions are not sufficient to call MailApp.sendEmail. Required permissions: ${SCOPE.sendMail}`,
  );
});

it('checks its arguments as Apps Script does', () => {
  const emulator = setUp();
  expect(() => emulator.run('badArguments', [], asTrigger)).toThrow(
    "The parameters (String) don't match the method signature for ScriptApp.getAuthorizationInfo.",
  );
});
