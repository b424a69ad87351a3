/**
 * What every emulated service shares: the count of service calls (the cost that matters on
 * Google's side), the execution context a call runs in (and so what it may do), the emulated
 * clock, and strictness about anything the emulator does not implement.
 */

/** The kinds of execution Apps Script distinguishes, each with its own restrictions. */
export type ExecutionKind =
  | 'simple-trigger' // onOpen/onInstall: AuthMode.NONE or LIMITED, 30 s
  | 'menu' // a menu item: FULL, 6 min
  | 'dialog' // google.script.run from a dialog or sidebar: FULL, 6 min
  | 'custom-function' // a formula in a cell: CUSTOM_FUNCTION, anonymous, read-only, 30 s
  | 'time-trigger'; // an installable time-driven trigger: FULL as its creator, no UI, 6 min

export type AuthModeName = 'NONE' | 'LIMITED' | 'FULL' | 'CUSTOM_FUNCTION';

export interface ExecutionContext {
  kind: ExecutionKind;
  authMode: AuthModeName;
  /** The effective user's e-mail; empty for anonymous custom functions. */
  userEmail: string;
  /** The spreadsheet the script is bound to in this execution, or null (time-driven triggers). */
  activeSpreadsheetId: string | null;
  /** Emulated epoch milliseconds after which the execution is killed. */
  deadlineMs: number;
}

/** Thrown into the script exactly as Apps Script would, with its message. */
export class AppsScriptException extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

/** What the cost model (runtime/cost-model.ts) is told, to charge Google's time on the emulated clock. */
export interface CostHooks {
  call(key: string): void;
  cellsWritten(cells: number): void;
  formatsWritten(cells: number): void;
  cellsRead(cells: number): void;
  cellsRangeWide(cells: number): void;
  sheetsApiRequest(cells: number): void;
  commit(): void;
}

export class ServiceCallCounter {
  private readonly counts = new Map<string, number>();
  private committed = 0;

  /**
   * @param beforeEachCall Runs before every counted call: where the runtime enforces execution time limits.
   * @param costs Prices each call, cell and commit; none in unit tests of a single service.
   */
  constructor(
    private readonly beforeEachCall: (key: string) => void = () => {},
    private readonly costs?: CostHooks,
  ) {}

  record(className: string, method: string): void {
    const key = `${className}.${method}`;
    this.beforeEachCall(key);
    this.costs?.call(key);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Cells whose values or formulas a call writes: priced per cell on Google. */
  recordCellsWritten(cells: number): void {
    this.costs?.cellsWritten(cells);
  }

  /** Cells whose number formats a call writes. */
  recordFormatsWritten(cells: number): void {
    this.costs?.formatsWritten(cells);
  }

  /** Cells a call reads. */
  recordCellsRead(cells: number): void {
    this.costs?.cellsRead(cells);
  }

  /** Cells a range-wide call sets or clears (one format, note or rule for the whole range). */
  recordCellsRangeWide(cells: number): void {
    this.costs?.cellsRangeWide(cells);
  }

  /** A request to the Sheets API (the Sheets advanced service) carrying `cells` cells. */
  recordSheetsApiRequest(cells: number): void {
    this.costs?.sheetsApiRequest(cells);
  }

  /** Calls per `Class.method`, sorted by name. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** A commit: buffered Spreadsheet writes sent to Google's side (see spreadsheet/write-buffer.ts). */
  recordCommit(): void {
    this.committed++;
    this.costs?.commit();
  }

  /** Commits since the last reset: each costs Google 0.3–0.8 s (runtime/cost-model.ts, COMMIT_MS). */
  commits(): number {
    return this.committed;
  }

  total(prefix = ''): number {
    let sum = 0;
    for (const [key, count] of this.counts) if (key.startsWith(prefix)) sum += count;
    return sum;
  }

  reset(): void {
    this.counts.clear();
    this.committed = 0;
  }
}

/**
 * Wraps an emulated object so that every method it defines is counted, and every property it
 * does not define throws "not emulated: Class.member" instead of quietly being undefined.
 * `then` and symbol lookups pass through so that the object can be inspected by Node.
 */
export function strict<T extends object>(className: string, target: T, counter: ServiceCallCounter): T {
  return new Proxy(target, {
    get(obj, property, receiver) {
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') {
        return Reflect.get(obj, property, receiver);
      }
      if (!(property in obj)) {
        throw new AppsScriptException(`not emulated: ${className}.${property}`);
      }
      const value = Reflect.get(obj, property, receiver);
      if (typeof value !== 'function' || property === 'constructor') return value;
      return (...args: unknown[]) => {
        counter.record(className, property);
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
}

/**
 * The script's own realm (its vm context). Values handed to the script must come from it:
 * `instanceof Date` or `instanceof Error` in the script is false for objects made in Node's realm.
 */
export interface ScriptRealm {
  newDate(epochMs: number): Date;
  newError(message: string): Error;
  /** Deep-copies plain data (arrays, plain objects, primitives, Dates) into the script's realm. */
  toScript<T>(value: T): T;
}
