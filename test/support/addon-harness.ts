/**
 * The built add-on (dist/Code.js, what clasp pushes) in a fresh emulator, talking to a fresh dataset
 * of the sample service over loopback: what every add-on test starts from. `connect()` saves the
 * connection through the add-on's own Settings server function, as a user would.
 */
import * as path from 'node:path';
import { createEmulator, type Emulator, type EmulatorOptions, loadDist } from '../../dev/emulator';
import { type CreateDatasetRequest, SampleDataset, sampleServiceUrl } from './sample-service';

export const DIST_DIR = path.resolve(__dirname, '../../dist');

export interface AddonHarness {
  emulator: Emulator;
  spreadsheetId: string;
  dataset: SampleDataset;
  /** Saves the service URL and a token (default: the dataset's valid one) through Settings. */
  connect(token?: string): void;
  /** Runs a menu item of the Safety Sync menu (onOpen must have built it: the harness does). */
  clickMenu(caption: string): unknown;
  /** Calls a server function as a dialog's google.script.run would. */
  callServer(functionName: string, ...args: unknown[]): unknown;
  /** The displayed values of a tab, as the user sees them. */
  displayed(sheetName: string): string[][];
  done(): Promise<void>;
}

export interface HarnessOptions {
  dataset?: CreateDatasetRequest;
  /** The spreadsheet's time zone. */
  timeZone?: string;
  emulator?: Omit<EmulatorOptions, 'code' | 'files'>;
}

export async function createAddonHarness(options: HarnessOptions = {}): Promise<AddonHarness> {
  const dataset = await SampleDataset.create(options.dataset ?? {});
  const emulator = createEmulator({ ...loadDist(DIST_DIR), ...options.emulator });
  const spreadsheetId = emulator.createSpreadsheet({
    name: 'Safety',
    timeZone: options.timeZone ?? 'Europe/London',
  });
  emulator.onOpen(spreadsheetId, { authMode: 'LIMITED' });
  const harness: AddonHarness = {
    emulator,
    spreadsheetId,
    dataset,
    connect(token = dataset.tokens.valid) {
      const outcome = emulator.callServer(spreadsheetId, 'saveSettings', {
        baseUrl: sampleServiceUrl(),
        token,
      }) as {
        ok: boolean;
      };
      if (!outcome.ok) throw new Error(`Settings refused the connection: ${JSON.stringify(outcome)}`);
    },
    clickMenu: (caption) => emulator.clickMenu(spreadsheetId, 'Safety Sync', caption),
    callServer: (functionName, ...args) => emulator.callServer(spreadsheetId, functionName, ...args),
    displayed: (sheetName) => {
      const workbook = emulator.workbooks.get(spreadsheetId);
      if (!workbook) throw new Error(`The spreadsheet ${spreadsheetId} no longer exists in the emulator.`);
      return workbook.sheet(sheetName).displayValues();
    },
    done: () => dataset.delete(),
  };
  return harness;
}
