/**
 * Logger and console: every line the script writes, with its level, kept for tests (and echoed
 * by `npm start` through onLog). Apps Script's console has log, info, warn, error, time and timeEnd.
 */
import { format, types } from 'node:util';

import type { ServiceEnvironment } from './service-object';
import { expose } from './service-object';

export type LogLevel = 'log' | 'info' | 'warn' | 'error';

export interface LogEntry {
  source: 'Logger' | 'console';
  level: LogLevel;
  text: string;
  /** The execution that wrote it, or null if none was running. */
  executionId: number | null;
  /** Emulated epoch ms. */
  atMs: number;
}

export type LogListener = (entry: LogEntry) => void;

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (types.isDate(value) || typeof value !== 'object' || value === null) return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Logger.log(format, values…) follows Java's String.format for the common %s, %d and %f. */
function javaFormat(template: string, values: unknown[]): string {
  let next = 0;
  return template.replace(/%([sdf%])/g, (match, conversion: string) => {
    if (conversion === '%') return '%';
    if (next >= values.length) return match;
    const value = values[next++];
    if (conversion === 's') return describe(value);
    const number = Number(value);
    return conversion === 'd' ? String(Math.trunc(number)) : number.toFixed(6);
  });
}

export class LogRecorder {
  readonly entries: LogEntry[] = [];
  private readonly timers = new Map<string, number>();

  constructor(
    private readonly env: ServiceEnvironment,
    private readonly listener: LogListener | undefined,
  ) {}

  record(source: LogEntry['source'], level: LogLevel, text: string): void {
    const entry: LogEntry = {
      source,
      level,
      text,
      executionId: this.env.executions.current()?.id ?? null,
      atMs: this.env.clock.now(),
    };
    this.entries.push(entry);
    this.listener?.(entry);
  }

  createLogger(): GoogleAppsScript.Base.Logger {
    const logger = {
      log: (data: unknown, ...values: unknown[]) => {
        const text =
          values.length > 0 && typeof data === 'string' ? javaFormat(data, values) : describe(data);
        this.record('Logger', 'info', text);
        return logger;
      },
    };
    return expose('Logger', logger, this.env) as unknown as GoogleAppsScript.Base.Logger;
  }

  createConsole(): Pick<Console, LogLevel | 'time' | 'timeEnd'> {
    const line =
      (level: LogLevel) =>
      (...args: unknown[]) =>
        this.record('console', level, format(...args));
    const console = {
      log: line('log'),
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      time: (label = 'default') => {
        this.timers.set(String(label), this.env.clock.now());
      },
      timeEnd: (label = 'default') => {
        const started = this.timers.get(String(label));
        if (started === undefined) return;
        this.timers.delete(String(label));
        this.record('console', 'log', `${String(label)}: ${this.env.clock.now() - started}ms`);
      },
    };
    return expose('console', console, this.env);
  }
}
