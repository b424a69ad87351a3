/**
 * What crosses google.script.run between a dialog and the server. Google documents the arguments:
 * primitives, and arrays and plain objects of them; a Date, a function or any other type anywhere
 * makes the request fail, as does a cycle; undefined in an array becomes null. Return values obey
 * the same rules; whether an illegal one fails the call or reaches the client as null for the whole
 * value is the reading unserialisableReturn (readings.ts). Either way a Date never arrives as a
 * Date, so dialogs must exchange ISO strings.
 */
import { types } from 'node:util';

import type { GoogleReadings } from '../readings';
import { isPlainObject } from './realm';

export class IllegalValue extends Error {
  constructor(readonly path: string) {
    // The message google.script.run's client throws.
    super(`Failed due to illegal value in property: ${path}`);
    this.name = 'Error';
  }
}

/** A JSON-like copy; throws IllegalValue naming the first illegal value's path. */
function transfer(value: unknown, path: string, inArray: boolean, ancestors: Set<object>): unknown {
  if (value === undefined) return inArray ? null : undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'object' || types.isDate(value) || types.isProxy(value)) throw new IllegalValue(path);
  if (ancestors.has(value)) throw new IllegalValue(path);
  if (!Array.isArray(value) && !isPlainObject(value)) throw new IllegalValue(path);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return Array.from(value, (item, index) => transfer(item, String(index), true, ancestors));
    }
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const transferred = transfer(item, key, false, ancestors);
      if (transferred !== undefined) copy[key] = transferred;
    }
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

/** The server function's arguments as it receives them (Node values; the caller moves them into the realm). */
export function argumentsToServer(args: readonly unknown[]): unknown[] {
  return args.map((arg, index) => transfer(arg, String(index), true, new Set()));
}

/**
 * What the dialog's success handler receives: under the reading 'null' (readings.ts) null for a value
 * it cannot carry; under 'failure' that throws IllegalValue, for the failure handler.
 */
export function resultToClient(
  result: unknown,
  unserialisable: GoogleReadings['unserialisableReturn'],
): unknown {
  try {
    return transfer(result, '', true, new Set());
  } catch (error) {
    if (error instanceof IllegalValue && unserialisable === 'null') return null;
    throw error;
  }
}

/** Private functions (trailing underscore) have no client-side stub. */
export function isCallableFromClient(functionName: string): boolean {
  return !functionName.endsWith('_');
}
