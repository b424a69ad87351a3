/**
 * What names a server function (the dialogs' scripts, the menu, the tests) is type-checked against
 * src/main.ts's exports by `npm run typecheck`: calling one that does not exist, or with the wrong
 * arguments, must fail the check. Proven here on small fixtures, so the check cannot quietly stop
 * working (a lost declaration would make every call `any` and every mistake pass).
 */
import * as path from 'node:path';
import ts from 'typescript';
import { dialogScriptFiles } from '../../dev/build';

const ROOT = path.resolve(__dirname, '../..');

interface Fixture {
  /** The tsconfig that checks such files. */
  config: string;
  /** Where it seems to be, so that its imports resolve as its neighbours' do. */
  file: string;
  lines: string[];
}

function parsedConfig(config: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, config),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`Cannot read ${config}`);
  return parsed;
}

/** Type-checks the fixture as `npm run typecheck` would: its errors, as line (1-based) and code. */
function typeErrors({ config, file, lines }: Fixture): { line: number; code: number }[] {
  const parsed = parsedConfig(config);
  const fixturePath = path.join(ROOT, file);
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    path.resolve(fileName) === fixturePath
      ? ts.createSourceFile(fileName, lines.join('\n'), languageVersion)
      : getSourceFile(fileName, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => path.resolve(fileName) === fixturePath || fileExists(fileName);
  const program = ts.createProgram([fixturePath], parsed.options, host);
  const fixture = program.getSourceFile(fixturePath)!;
  return ts.getPreEmitDiagnostics(program, fixture).map((diagnostic) => ({
    line: fixture.getLineAndCharacterOfPosition(diagnostic.start!).line + 1,
    code: diagnostic.code,
  }));
}

/** TypeScript's codes for the mistakes. */
const NO_SUCH_PROPERTY = 2339;
const NO_SUCH_PROPERTY_DID_YOU_MEAN = 2551;
const WRONG_ARGUMENT = 2345;
const WRONG_ARGUMENT_COUNT = 2554;
const NOT_ASSIGNABLE = 2322;

test('a dialog calling a missing server function, or one with wrong arguments or result, fails the type check', () => {
  const errors = typeErrors({
    config: 'tsconfig.dialogs.json',
    file: 'src/settings/contract-fixture.client.ts',
    lines: [
      "import { dialogForm } from '../platform/dialog/dialog-form.client';",
      "import type { SettingsView } from './settings-dialog';",
      "const dialog = dialogForm({ status: 'status', buttons: [], fields: [] });",
      "dialog.call('Loading…', (settings: SettingsView) => settings.baseUrl).getSettings();",
      'google.script.run.getSetings();',
      "google.script.run.setFormulaAccess('yes');",
      "dialog.call('Saving…', (settings: SettingsView) => settings.baseUrl).saveSettings({ baseUrl: '', token: '' });",
      'google.script.run.removeToken(true);',
    ],
  });
  expect(errors).toEqual([
    // getSetings: no such server function (line 4, a right call, has no error).
    { line: 5, code: NO_SUCH_PROPERTY_DID_YOU_MEAN },
    // setFormulaAccess takes a boolean.
    { line: 6, code: WRONG_ARGUMENT },
    // saveSettings answers a SaveOutcome, which a handler of SettingsView cannot take.
    { line: 7, code: NO_SUCH_PROPERTY },
    // removeToken takes nothing.
    { line: 8, code: WRONG_ARGUMENT_COUNT },
  ]);
});

test('a menu item naming a missing server function fails the type check', () => {
  const errors = typeErrors({
    config: 'tsconfig.json',
    file: 'src/contract-fixture.ts',
    lines: [
      "import type { MenuItem } from './menu';",
      "export const right: MenuItem = { caption: 'Refresh all', functionName: 'refreshAll' };",
      "export const wrong: MenuItem = { caption: 'Refresh all', functionName: 'refreshEverything' };",
    ],
  });
  expect(errors).toEqual([{ line: 3, code: NOT_ASSIGNABLE }]);
});

test('a test calling a missing server function, or one with wrong arguments, fails the type check', () => {
  const errors = typeErrors({
    config: 'tsconfig.dev.json',
    file: 'test/contract-fixture.ts',
    lines: [
      "import type { AddonHarness } from './support/addon-harness';",
      'export function calls(harness: AddonHarness): boolean {',
      "  harness.callServer('getSetings');",
      "  harness.callServer('setFormulaAccess', 'yes');",
      "  return harness.callServer('getSettings').formulaAccess;",
      '}',
    ],
  });
  expect(errors).toEqual([
    { line: 3, code: WRONG_ARGUMENT },
    { line: 4, code: WRONG_ARGUMENT },
  ]);
});

test("every dialog page's script is in the type check", () => {
  const checked = parsedConfig('tsconfig.dialogs.json').fileNames.map((file) => path.resolve(file));
  const scripts = dialogScriptFiles();
  expect(scripts.length).toBeGreaterThanOrEqual(3);
  expect(checked).toEqual(expect.arrayContaining(scripts));
});
