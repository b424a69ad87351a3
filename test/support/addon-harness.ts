/**
 * The built add-on (dist/Code.js, what clasp pushes) in a fresh emulator, talking to a fresh dataset
 * of the sample service over loopback: what every add-on test starts from. `connect()` saves the
 * connection through the add-on's own Settings server function, as a user would.
 */
import * as path from 'node:path';
import { createEmulator, type Emulator, type EmulatorOptions, loadDist } from '../../dev/emulator';
import type {
  ServerArguments,
  ServerFunctionName,
  ServerResult,
} from '../../src/platform/dialog/server-functions';
import { type CreateDatasetRequest, SampleDataset, sampleServiceUrl } from './sample-service';

export const DIST_DIR = path.resolve(__dirname, '../../dist');

/**
 * The server functions as a dialog's google.script.run calls them, typed by src/main.ts's exports:
 * a renamed function, a wrong argument or a changed result is a type error in the test.
 */
export interface ServerCaller {
  callServer<Name extends ServerFunctionName>(name: Name, ...args: ServerArguments<Name>): ServerResult<Name>;
}

/** What the emulator offers to call server functions as one user (itself, or asUser(email)). */
interface ServerEntryPoints {
  callServer(spreadsheetId: string, functionName: string, ...args: unknown[]): unknown;
}

/** The typed server functions of dist/Code.js in this emulator (or as one of its users), in one spreadsheet. */
export function serverOf(entryPoints: ServerEntryPoints, spreadsheetId: string): ServerCaller {
  return {
    // dist/Code.js is built from src/main.ts: each function returns what its export declares, copied
    // across google.script.run as plain data (which is all the server functions return).
    callServer: (name, ...args) =>
      entryPoints.callServer(spreadsheetId, name, ...args) as ServerResult<typeof name>,
  };
}

export interface AddonHarness extends ServerCaller {
  emulator: Emulator;
  spreadsheetId: string;
  dataset: SampleDataset;
  /** Saves the service URL and a token (default: the dataset's valid one) through Settings. */
  connect(token?: string): void;
  /** Saves the batch size (requests sent at once) through Settings, keeping the saved connection. */
  useBatchSize(batchSize: number): void;
  /** Runs a menu item of the Safety Sync menu (onOpen must have built it: the harness does). */
  clickMenu(caption: string): unknown;
  /**
   * Calls any name with any arguments, as a page could: for tests of what a dialog cannot do
   * (call a missing function, pass arguments of the wrong type). Everything else uses callServer.
   */
  callServerUntyped(functionName: string, ...args: unknown[]): unknown;
  /** The server functions as another user calls them from this spreadsheet's dialogs. */
  asUser(email: string): ServerCaller;
  /** The displayed values of a tab, as the user sees them. */
  displayed(sheetName: string): string[][];
  done(): Promise<void>;
}

export interface HarnessOptions {
  dataset?: CreateDatasetRequest;
  /** The spreadsheet's time zone. */
  timeZone?: string;
  /** The spreadsheet's locale ("de_DE"); default en_GB. */
  locale?: string;
  emulator?: Omit<EmulatorOptions, 'code' | 'files'>;
  /** The user's own functions, added to the script (`emulator.run` calls them: edits a test cannot type). */
  userScript?: string;
  /** Push the add-on without the Sheets advanced service in its manifest (default: as built). */
  withoutSheetsAdvancedService?: boolean;
  /** Push the add-on with its manifest changed (scopes taken out, a urlFetchWhitelist added). */
  editManifest?: (manifest: Manifest) => Manifest;
}

export type Manifest = Record<string, unknown>;

/** dist/ as clasp would push it, its manifest edited if asked. */
function pushedFiles(editManifest: ((manifest: Manifest) => Manifest) | undefined): {
  code: string;
  files: Record<string, string>;
} {
  const { code, files } = loadDist(DIST_DIR);
  if (!editManifest) return { code, files };
  const manifest = editManifest(JSON.parse(files['appsscript.json']!) as Manifest);
  return { code, files: { ...files, 'appsscript.json': JSON.stringify(manifest) } };
}

function withoutSheetsAdvancedService({ dependencies: _dependencies, ...manifest }: Manifest): Manifest {
  return manifest;
}

export async function createAddonHarness(options: HarnessOptions = {}): Promise<AddonHarness> {
  const dataset = await SampleDataset.create(options.dataset ?? {});
  const pushed = pushedFiles(
    options.withoutSheetsAdvancedService ? withoutSheetsAdvancedService : options.editManifest,
  );
  const emulator = createEmulator({
    ...pushed,
    code: pushed.code + (options.userScript ?? ''),
    ...options.emulator,
  });
  const spreadsheetId = emulator.createSpreadsheet({
    name: 'Safety',
    timeZone: options.timeZone ?? 'Europe/London',
    locale: options.locale,
  });
  emulator.onOpen(spreadsheetId, { authMode: 'LIMITED' });
  const server = serverOf(emulator, spreadsheetId);
  const harness: AddonHarness = {
    emulator,
    spreadsheetId,
    dataset,
    connect(token = dataset.tokens.valid) {
      const outcome = server.callServer('saveSettings', { baseUrl: sampleServiceUrl(), token });
      if (!outcome.ok) throw new Error(`Settings refused the connection: ${JSON.stringify(outcome)}`);
    },
    useBatchSize(batchSize) {
      const { baseUrl } = server.callServer('getSettings');
      server.callServer('saveSettings', { baseUrl, token: '', batchSize });
    },
    clickMenu: (caption) => emulator.clickMenu(spreadsheetId, 'Safety Sync', caption),
    callServer: server.callServer,
    callServerUntyped: (functionName, ...args) => emulator.callServer(spreadsheetId, functionName, ...args),
    asUser: (email) => serverOf(emulator.asUser(email), spreadsheetId),
    displayed: (sheetName) => {
      const workbook = emulator.workbooks.get(spreadsheetId);
      if (!workbook) throw new Error(`The spreadsheet ${spreadsheetId} no longer exists in the emulator.`);
      return workbook.sheet(sheetName).displayValues();
    },
    done: () => dataset.delete(),
  };
  return harness;
}
