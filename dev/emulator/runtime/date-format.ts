/**
 * Java's SimpleDateFormat, as Utilities.formatDate applies it (English names). Letters that Java
 * accepts but this emulator does not implement throw "not emulated"; letters Java rejects throw as
 * Java does, so a pattern that fails on Google fails here too.
 */
import { MONTH_NAMES, WEEKDAY_NAMES } from '../english-calendar';
import { AppsScriptException } from '../core';
import { offsetMinutesAt, wallClockIn } from './time-zones';

const JAVA_PATTERN_LETTERS = 'GyYMLwWDdFEuaHkKhmsSzZX';
const UNIMPLEMENTED_LETTERS = 'YwWFz';

type Token = { literal: string } | { letter: string; count: number };

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < pattern.length) {
    const character = pattern[index]!;
    if (character === "'") {
      if (pattern[index + 1] === "'") {
        tokens.push({ literal: "'" });
        index += 2;
        continue;
      }
      let text = '';
      index++;
      while (index < pattern.length) {
        if (pattern[index] === "'" && pattern[index + 1] === "'") {
          text += "'";
          index += 2;
        } else if (pattern[index] === "'") {
          break;
        } else {
          text += pattern[index++];
        }
      }
      if (index >= pattern.length) throw new AppsScriptException('Invalid argument: Unterminated quote');
      index++;
      tokens.push({ literal: text });
    } else if (/[a-zA-Z]/.test(character)) {
      if (!JAVA_PATTERN_LETTERS.includes(character)) {
        throw new AppsScriptException(`Invalid argument: Illegal pattern character '${character}'`);
      }
      if (UNIMPLEMENTED_LETTERS.includes(character)) {
        throw new AppsScriptException(`not emulated: Utilities.formatDate pattern letter '${character}'`);
      }
      let count = 1;
      while (pattern[index + count] === character) count++;
      tokens.push({ letter: character, count });
      index += count;
    } else {
      tokens.push({ literal: character });
      index++;
    }
  }
  return tokens;
}

const pad = (value: number, width: number) =>
  `${value < 0 ? '-' : ''}${String(Math.abs(value)).padStart(width, '0')}`;

function formatOffset(offsetMinutes: number, letter: 'Z' | 'X', count: number): string {
  if (letter === 'X' && offsetMinutes === 0) return 'Z';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = pad(Math.floor(Math.abs(offsetMinutes) / 60), 2);
  const minutes = pad(Math.abs(offsetMinutes) % 60, 2);
  if (letter === 'Z') return `${sign}${hours}${minutes}`;
  if (count === 1) return `${sign}${hours}`;
  return count === 2 ? `${sign}${hours}${minutes}` : `${sign}${hours}:${minutes}`;
}

function dayOfYear(year: number, month: number, day: number): number {
  const start = new Date(0);
  start.setUTCFullYear(year, 0, 1);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return Math.round((date.getTime() - start.getTime()) / 86_400_000) + 1;
}

export function formatDate(epochMs: number, timeZone: string, pattern: string): string {
  const wall = wallClockIn(timeZone, epochMs);
  const fields = (letter: string, count: number): string => {
    switch (letter) {
      case 'G':
        return wall.year > 0 ? 'AD' : 'BC';
      case 'y': {
        const year = wall.year > 0 ? wall.year : 1 - wall.year;
        return count === 2 ? pad(year % 100, 2) : pad(year, count);
      }
      case 'M':
      case 'L':
        if (count >= 4) return MONTH_NAMES[wall.month - 1]!;
        if (count === 3) return MONTH_NAMES[wall.month - 1]!.slice(0, 3);
        return pad(wall.month, count);
      case 'd':
        return pad(wall.day, count);
      case 'D':
        return pad(dayOfYear(wall.year, wall.month, wall.day), count);
      case 'E':
        return count >= 4 ? WEEKDAY_NAMES[wall.weekday]! : WEEKDAY_NAMES[wall.weekday]!.slice(0, 3);
      case 'u':
        return pad(wall.weekday === 0 ? 7 : wall.weekday, count);
      case 'a':
        return wall.hour < 12 ? 'AM' : 'PM';
      case 'H':
        return pad(wall.hour, count);
      case 'k':
        return pad(wall.hour === 0 ? 24 : wall.hour, count);
      case 'K':
        return pad(wall.hour % 12, count);
      case 'h':
        return pad(wall.hour % 12 === 0 ? 12 : wall.hour % 12, count);
      case 'm':
        return pad(wall.minute, count);
      case 's':
        return pad(wall.second, count);
      case 'S':
        return pad(wall.millisecond, count);
      case 'Z':
      case 'X':
        if (letter === 'X' && count > 3)
          throw new AppsScriptException('Invalid argument: invalid ISO 8601 format: length=4');
        return formatOffset(offsetMinutesAt(timeZone, epochMs), letter, count);
      default:
        throw new AppsScriptException(`not emulated: Utilities.formatDate pattern letter '${letter}'`);
    }
  };
  return tokenize(pattern)
    .map((token) => ('literal' in token ? token.literal : fields(token.letter, token.count)))
    .join('');
}
