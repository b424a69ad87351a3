/**
 * The entry points of the built add-on (dist/Code.js): what a cell, a trigger or google.script.run
 * can call. Found as Apps Script finds them, not by reading the source: the script runs once as a
 * classic script in a global scope of the JavaScript built-ins alone (it needs nothing else to load,
 * and loading it touches no Apps Script service: test/bundle checks both), and every own property of
 * that global which is a function is one, however it got there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { DIST_DIR } from './addon-harness';

/** dist/Code.js run in a fresh global scope that has the JavaScript built-ins and nothing else. */
export function loadBareScript(distDir = DIST_DIR): vm.Context {
  const code = fs.readFileSync(path.join(distDir, 'Code.js'), 'utf8');
  const context = vm.createContext({});
  vm.runInContext(code, context, { filename: 'Code.js' });
  return context;
}

/** The script's own globals (the built-ins are not own properties of the context), sorted. */
export function globalNames(context: vm.Context): { callable: string[]; other: string[] } {
  const names = Object.getOwnPropertyNames(context).sort();
  return {
    callable: names.filter((name) => typeof context[name] === 'function'),
    other: names.filter((name) => typeof context[name] !== 'function'),
  };
}

/** Every function the built add-on leaves in the global scope, sorted. */
export function callableGlobalNames(distDir = DIST_DIR): string[] {
  return globalNames(loadBareScript(distDir)).callable;
}
