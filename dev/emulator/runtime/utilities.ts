/**
 * Utilities: sleep (advances the emulated clock instead of sleeping, up to 300,000 ms a call,
 * and never past the execution's deadline), formatDate (Java's SimpleDateFormat), digests and
 * base64 as Apps Script's byte[] shows them (signed bytes), and UUIDs.
 */
import { createHash, randomUUID } from 'node:crypto';
import { types } from 'node:util';

import { AppsScriptException } from '../core';
import { formatDate } from './date-format';
import type { Enum, ServiceEnvironment } from './service-object';
import {
  defineEnum,
  expose,
  fromByteArray,
  isEnumOf,
  signatureMismatch,
  toSignedBytes,
} from './service-object';
import { isValidTimeZone } from './time-zones';

export const MAX_SLEEP_MS = 300_000;

const DIGESTS = {
  MD5: 'md5',
  SHA_1: 'sha1',
  SHA_256: 'sha256',
  SHA_384: 'sha384',
  SHA_512: 'sha512',
} as const;
type DigestName = keyof typeof DIGESTS;
type CharsetName = 'US_ASCII' | 'UTF_8';

/** Java's encoders replace what a charset cannot represent with '?'. */
function encodeText(text: string, charset: CharsetName): Buffer {
  if (charset === 'UTF_8') return Buffer.from(text, 'utf8');
  return Buffer.from(
    Array.from(text, (character) => (character.codePointAt(0)! > 0x7f ? '?' : character)).join(''),
    'latin1',
  );
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_WEB_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

export function createUtilities(env: ServiceEnvironment): GoogleAppsScript.Utilities.Utilities {
  const DigestAlgorithm = defineEnum(
    'Utilities.DigestAlgorithm',
    Object.keys(DIGESTS) as DigestName[],
    env.counter,
  ) as Enum<DigestName>;
  const Charset = defineEnum('Utilities.Charset', ['US_ASCII', 'UTF_8'], env.counter) as Enum<CharsetName>;

  const charsetOf = (charset: unknown, method: string, args: unknown[]): CharsetName => {
    if (charset === undefined) return 'UTF_8';
    if (!isEnumOf(Charset, charset)) throw signatureMismatch(method, args);
    return charset.name() as CharsetName;
  };

  const bytesOf = (data: unknown, charset: unknown, method: string, args: unknown[]): Buffer =>
    typeof data === 'string'
      ? encodeText(data, charsetOf(charset, method, args))
      : fromByteArray(data, method, args);

  const decode = (encoded: unknown, charset: unknown, webSafe: boolean, method: string, args: unknown[]) => {
    if (typeof encoded !== 'string') throw signatureMismatch(method, args);
    charsetOf(charset, method, args);
    const compact = encoded.replace(/\s+/g, '');
    if (!(webSafe ? BASE64_WEB_SAFE : BASE64).test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
      throw new AppsScriptException('Could not decode string.');
    }
    return env.realm.toScript(toSignedBytes(Buffer.from(compact, webSafe ? 'base64url' : 'base64')));
  };

  const utilities = {
    DigestAlgorithm,
    Charset,
    sleep(milliseconds: unknown) {
      if (typeof milliseconds !== 'number' || Number.isNaN(milliseconds)) {
        throw signatureMismatch('Utilities.sleep', [milliseconds]);
      }
      if (milliseconds < 0 || milliseconds > MAX_SLEEP_MS) {
        throw new AppsScriptException('Invalid argument: milliseconds');
      }
      env.executions.spendTime(Math.floor(milliseconds));
    },
    formatDate(date: unknown, timeZone: unknown, format: unknown) {
      const args = [date, timeZone, format];
      if (!types.isDate(date) || typeof timeZone !== 'string' || typeof format !== 'string') {
        throw signatureMismatch('Utilities.formatDate', args);
      }
      const epochMs = Date.prototype.getTime.call(date);
      if (Number.isNaN(epochMs)) throw new AppsScriptException('Invalid argument: date');
      // Java would silently fall back to GMT for an unknown zone: a silent wrong answer, refused here.
      if (!isValidTimeZone(timeZone)) throw new AppsScriptException(`Invalid argument: timeZone ${timeZone}`);
      return formatDate(epochMs, timeZone, format);
    },
    computeDigest(algorithm: unknown, value: unknown, charset?: unknown) {
      const args = charset === undefined ? [algorithm, value] : [algorithm, value, charset];
      if (!isEnumOf(DigestAlgorithm, algorithm)) throw signatureMismatch('Utilities.computeDigest', args);
      const digest = createHash(DIGESTS[algorithm.name() as DigestName]);
      digest.update(bytesOf(value, charset, 'Utilities.computeDigest', args));
      return env.realm.toScript(toSignedBytes(digest.digest()));
    },
    base64Encode(data: unknown, charset?: unknown) {
      return bytesOf(data, charset, 'Utilities.base64Encode', [data, charset]).toString('base64');
    },
    base64EncodeWebSafe(data: unknown, charset?: unknown) {
      // Apps Script's web-safe alphabet keeps the '=' padding.
      const base64 = bytesOf(data, charset, 'Utilities.base64EncodeWebSafe', [data, charset]).toString(
        'base64',
      );
      return base64.replace(/\+/g, '-').replace(/\//g, '_');
    },
    base64Decode(encoded: unknown, charset?: unknown) {
      return decode(encoded, charset, false, 'Utilities.base64Decode', [encoded, charset]);
    },
    base64DecodeWebSafe(encoded: unknown, charset?: unknown) {
      return decode(encoded, charset, true, 'Utilities.base64DecodeWebSafe', [encoded, charset]);
    },
    getUuid() {
      return randomUUID();
    },
  };
  return expose('Utilities', utilities, env) as unknown as GoogleAppsScript.Utilities.Utilities;
}
