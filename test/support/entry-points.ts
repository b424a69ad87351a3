/**
 * The top-level functions of the built add-on (dist/Code.js), read from the build's wrappers: what
 * a cell, a trigger or google.script.run can call. test/bundle checks that they are exactly the
 * intended ones.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIST_DIR } from './addon-harness';

export function topLevelFunctionNames(distDir = DIST_DIR): string[] {
  const code = fs.readFileSync(path.join(distDir, 'Code.js'), 'utf8');
  return [...code.matchAll(/^function (\w+)\(/gm)].map((match) => match[1]!);
}
