/**
 * What every runtime service object has in common: it is counted and strict (core.strict), its
 * exceptions reach the script as the script realm's Errors with Apps Script's messages, it refuses
 * what the execution's authorization mode forbids, and it checks argument types the way Apps
 * Script's Java signatures do.
 */
import { types } from 'node:util';

import { AppsScriptException, type AuthModeName, type ServiceCallCounter, strict } from '../core';
import type { EmulatedClock } from './clock';
import type { CostModel } from './cost-model';
import type { Execution, Executions } from './executions';
import type { CurrentRealm } from './realm';

export interface ServiceEnvironment {
  counter: ServiceCallCounter;
  realm: CurrentRealm;
  executions: Executions;
  clock: EmulatedClock;
  /** Google's time for what the services do, charged on the clock (UrlFetch rounds report to it). */
  costs: CostModel;
}

/**
 * Wraps a service object for the script: counted, strict about unknown members, and translating
 * AppsScriptException into the script realm's Error. A method that returns its own object (for
 * chaining) returns the wrapper, so that the chain stays counted.
 */
export function expose<T extends object>(className: string, target: T, env: ServiceEnvironment): T {
  const counted = strict(className, target, env.counter);
  const toScriptError = (error: unknown): unknown =>
    error instanceof AppsScriptException ? env.realm.newError(error.message) : error;
  const exposed: T = new Proxy(counted, {
    get(object, property) {
      let value: unknown;
      try {
        value = Reflect.get(object, property);
      } catch (error) {
        throw toScriptError(error);
      }
      if (typeof value !== 'function' || property === 'constructor') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        try {
          const result = method(...args);
          return result === target ? exposed : result;
        } catch (error) {
          throw toScriptError(error);
        }
      };
    },
  });
  return exposed;
}

/** An Apps Script enum value: compares by identity and prints as its name. */
export class EnumValue {
  readonly #name: string;
  readonly #ordinal: number;

  constructor(name: string, ordinal: number) {
    this.#name = name;
    this.#ordinal = ordinal;
    Object.freeze(this);
  }

  toString(): string {
    return this.#name;
  }

  name(): string {
    return this.#name;
  }

  ordinal(): number {
    return this.#ordinal;
  }
}

export type Enum<Name extends string> = Readonly<Record<Name, EnumValue>>;

/** An enum whose unknown members throw "not emulated" instead of reading as undefined. */
export function defineEnum<Name extends string>(
  className: string,
  names: readonly Name[],
  counter: ServiceCallCounter,
): Enum<Name> {
  const values = Object.fromEntries(names.map((name, index) => [name, new EnumValue(name, index)]));
  return strict(className, Object.freeze(values) as Enum<Name>, counter);
}

export function isEnumOf<Name extends string>(enumeration: Enum<Name>, value: unknown): value is EnumValue {
  return value instanceof EnumValue && Object.values(enumeration).includes(value);
}

/**
 * Throws Apps Script's permission error unless the running execution's authorization mode is
 * one of those allowed; returns the execution for convenience.
 */
export function requireAuthMode(
  env: ServiceEnvironment,
  method: string,
  allowed: readonly AuthModeName[],
  scope?: string,
): Execution {
  const execution = env.executions.requireCurrent();
  if (!allowed.includes(execution.context.authMode)) {
    throw new AppsScriptException(
      `You do not have permission to call ${method}.${scope ? ` Required permissions: ${scope}` : ''}`,
    );
  }
  return execution;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'Boolean';
  if (typeof value === 'function') return 'Function';
  if (types.isDate(value)) return 'Date';
  if (Array.isArray(value)) return 'Object[]';
  if (value instanceof EnumValue) return 'Enum';
  return 'Object';
}

/** Apps Script's message when arguments do not fit any of a method's Java signatures. */
export function signatureMismatch(method: string, args: readonly unknown[]): AppsScriptException {
  return new AppsScriptException(
    `The parameters (${args.map(describeType).join(',')}) don't match the method signature for ${method}.`,
  );
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !types.isDate(value);
}

/** Bytes as Apps Script's byte[] shows them in JavaScript: signed, -128..127. */
export function toSignedBytes(bytes: Uint8Array): number[] {
  return Array.from(bytes, (byte) => (byte > 127 ? byte - 256 : byte));
}

/** A script byte array (signed or unsigned values) as bytes; throws the signature error if it is not one. */
export function fromByteArray(value: unknown, method: string, args: readonly unknown[]): Buffer {
  if (!Array.isArray(value)) throw signatureMismatch(method, args);
  const bytes = Buffer.alloc(value.length);
  value.forEach((item, index) => {
    if (typeof item !== 'number' || !Number.isInteger(item) || item < -128 || item > 255) {
      throw signatureMismatch(method, args);
    }
    bytes[index] = item & 0xff;
  });
  return bytes;
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
