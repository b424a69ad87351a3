/**
 * Builds the calibration project (calibrate.ts, its manifest, its probe dialog) into dev/calibration/build/, what
 * `clasp push` sends from this folder: bundled as the add-on is (dev/build.ts), but on its own, never
 * into dist/Code.js. `npm run calibration:build`.
 */
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleOptions, listEntryPoints, renderWrappers, writeAtomically } from '../build';

const ENTRY = path.join(__dirname, 'calibrate.ts');
export const CALIBRATION_BUILD_DIR = path.join(__dirname, 'build');

export async function buildCalibration(outDir = CALIBRATION_BUILD_DIR): Promise<void> {
  const bundle = await esbuild.build(bundleOptions(ENTRY));
  const header = '// Safety Sync calibration: built from dev/calibration by its build.ts. Do not edit.\n';
  writeAtomically(
    outDir,
    new Map([
      ['Code.js', `${header}${bundle.outputFiles[0]!.text}\n${renderWrappers(listEntryPoints(ENTRY))}`],
      ['appsscript.json', fs.readFileSync(path.join(__dirname, 'appsscript.json'), 'utf8')],
      ['probe.html', fs.readFileSync(path.join(__dirname, 'probe.html'), 'utf8')],
    ]),
  );
}

if (require.main === module) {
  buildCalibration().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
