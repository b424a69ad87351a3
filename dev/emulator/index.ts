/**
 * The Apps Script emulator: runs the built add-on (dist/Code.js, the file clasp pushes) off
 * Google, in tests and in `npm start`, with Google's restrictions. Where the real platform is
 * strict the emulator is at least as strict, so that what passes here does not fail there.
 *
 *   const emulator = createEmulator(loadDist());
 *   const id = emulator.createSpreadsheet({ name: 'Trainings' });
 *   emulator.onOpen(id);
 *   emulator.clickMenu(id, 'Safety Sync', 'Import completed trainings…');
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { types } from 'node:util';

import { type ScriptRealm, ServiceCallCounter } from './core';
import { checkedInAnswer, defaultReadings, type GoogleReadings } from './readings';
import { createCacheService, CacheStores } from './runtime/cache';
import { EmulatedClock } from './runtime/clock';
import {
  calibratedFigures,
  type CostFigures,
  CostModel,
  presetFigures,
  requireFigures,
} from './runtime/cost-model';
import { type AccountKind, DAILY_FIGURES } from './runtime/daily-quota';
import { DocumentEntryPoints, TriggerRuntime, UserEntryPoints, type Runtime } from './runtime/entry-points';
import { DEFAULT_EXECUTION_LIMITS, type ExecutionLimits, Executions } from './runtime/executions';
import { createHtmlService, HtmlFiles } from './runtime/html-service';
import { createLockService, LockTable } from './runtime/lock';
import { createMailApp, MailRecorder } from './runtime/mail-app';
import { Grants, ManifestPolicy } from './runtime/manifest';
import { Overlaps } from './runtime/overlaps';
import { type LogEntry, type LogListener, LogRecorder } from './runtime/logging';
import { createPropertiesService, PropertyStores } from './runtime/properties';
import { CurrentRealm, ScriptContext } from './runtime/realm';
import { createScriptApp, createScriptEnums, type TriggerInfo, TriggerRegistry } from './runtime/script-app';
import { ScriptRunner } from './runtime/script-runner';
import type { ServiceEnvironment } from './runtime/service-object';
import { createSession, createUser } from './runtime/session';
import {
  type CloudProjectApi,
  createSpreadsheetService,
  isSpreadsheetServiceClass,
  SheetsApiQuotas,
  type WorkbookStore,
} from './runtime/spreadsheet-seam';
import { createUrlFetchApp, UrlFetchRecorder } from './runtime/url-fetch';
import { instantOfWallTime, wallClockIn } from './runtime/time-zones';
import { createUtilities } from './runtime/utilities';

export { ScriptError } from './runtime/script-runner';
export type { CustomFunctionResult, FailedTriggerExecution, RunOptions } from './runtime/entry-points';
export type { AccountKind } from './runtime/daily-quota';
export { calibratedFiguresFromFile, presetFigures } from './runtime/cost-model';
export type { CostFigures, CostQuantities } from './runtime/cost-model';
export type { LogEntry } from './runtime/logging';
export type { RecordedRequest } from './runtime/url-fetch';
export type { SentMail } from './runtime/mail-app';
export type { TriggerInfo } from './runtime/script-app';
export type { GoogleReadings, GoogleReadingName } from './readings';
export { LOOSER_READINGS, READING_NAMES, STRICTER_READINGS } from './readings';

export const DEFAULT_OWNER = 'owner@example.com';
export const DEFAULT_TIME_ZONE = 'Europe/London';
export const DEFAULT_ADD_ON_NAME = 'Safety Sync';

export interface EmulatorOptions {
  /** The script: the classic script whose top-level functions are the entry points. */
  code: string;
  /** The other pushed files by path ('settings.html', 'appsscript.json'); or give distDir. */
  files?: Record<string, string>;
  /** Read the other pushed files from this directory when `files` is not given. */
  distDir?: string;
  /** Emulated epoch ms at creation; default 2024-03-01T12:00:00Z. */
  startTime?: number;
  /** The script's time zone; default appsscript.json's, else Europe/London. */
  timeZone?: string;
  /**
   * Whose daily quotas the users have (runtime/daily-quota.ts): a consumer account's (gmail.com,
   * the default) or a Google Workspace one's. Each renews 24 hours after the user's first use.
   */
  accountKind?: AccountKind;
  /** UrlFetch calls per user per day; default the account kind's (20,000; Workspace 100,000). */
  urlFetchDailyQuota?: number;
  /** MailApp recipients per user per day; default the account kind's (100; Workspace 1,500). */
  mailDailyQuota?: number;
  /**
   * The service's latency in emulated milliseconds: a fetch waits it once, a fetchAll once every
   * wave of requests Google runs at once, on top of the cost model's price; default 0. The clock is
   * virtual, so this (not the time the service really took) is what a slow service costs a run.
   */
  urlFetchRoundTripMs?: number;
  /**
   * What Google's side charges on the emulated clock for each call, cell, commit and fetch round
   * (runtime/cost-model.ts); default the central figures, with those the checked-in calibration
   * answer measured (readings.ts, GOOGLE_ANSWER_FILE) in their place.
   */
  costFigures?: CostFigures;
  /**
   * Whether the Sheets API is enabled in the script's Cloud project, which an administrator does for
   * a published add-on; default 'enabled'. The `Sheets` global exists only where appsscript.json
   * enables the advanced service; with the API disabled its calls fail as on Google.
   */
  sheetsApiInCloudProject?: CloudProjectApi;
  /** Shrink these in tests; defaults 360,000 / 30,000 / 30,000. */
  executionLimitMs?: Partial<ExecutionLimits>;
  /** The default user, owner of new spreadsheets; default owner@example.com. */
  owner?: string;
  /** The add-on menu's title in clickMenu paths; default 'Safety Sync'. */
  addOnName?: string;
  /** Session.getActiveUserLocale(); default 'en'. */
  locale?: string;
  /** Called with every Logger/console line (npm start prints them). */
  onLog?: LogListener;
  /**
   * How to read each behaviour Google does not document (readings.ts); default the stricter
   * reading of each, or the one the calibration answer settled.
   */
  readings?: Partial<GoogleReadings>;
}

/** The people who use the spreadsheets: an owner and any editors, by e-mail. */
export class Users {
  private readonly known: Set<string>;

  constructor(readonly owner: string) {
    this.known = new Set([owner]);
  }

  add(...emails: string[]): void {
    for (const email of emails) this.known.add(email);
  }

  list(): string[] {
    return [...this.known];
  }
}

/** Reads what clasp would push from dist/: Code.js and the other files (HTML, appsscript.json). */
export function loadDist(distDir = 'dist'): { code: string; files: Record<string, string> } {
  const root = path.resolve(distDir);
  const files: Record<string, string> = {};
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(html|json)$/.test(entry.name))
        files[path.relative(root, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return { code: fs.readFileSync(path.join(root, 'Code.js'), 'utf8'), files };
}

function manifestTimeZone(files: Record<string, string>): string | undefined {
  const manifest = files['appsscript.json'];
  if (manifest === undefined) return undefined;
  const timeZone: unknown = (JSON.parse(manifest) as { timeZone?: unknown }).timeZone;
  return typeof timeZone === 'string' ? timeZone : undefined;
}

/**
 * The advanced services appsscript.json enables, by the global name the script sees them under. Only
 * the Sheets service (v4) is emulated: another would let a script pass here that fails on Google.
 */
function manifestAdvancedServices(files: Record<string, string>): string[] {
  const manifest = files['appsscript.json'];
  if (manifest === undefined) return [];
  const services: unknown = (JSON.parse(manifest) as { dependencies?: { enabledAdvancedServices?: unknown } })
    .dependencies?.enabledAdvancedServices;
  if (services === undefined) return [];
  if (!Array.isArray(services)) throw new Error('appsscript.json: enabledAdvancedServices must be a list');
  return services.map((service: { userSymbol?: unknown; serviceId?: unknown; version?: unknown }) => {
    if (service.serviceId !== 'sheets' || service.version !== 'v4' || typeof service.userSymbol !== 'string')
      throw new Error(`not emulated: the advanced service ${JSON.stringify(service)} (only sheets v4 is)`);
    return service.userSymbol;
  });
}

function requireIanaTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new Error(`Not an IANA time zone: ${timeZone}`);
  }
  return timeZone;
}

/**
 * A custom function's arguments as they arrive under the reading that date cells are read in the
 * script's zone: each Date the spreadsheet's zone made is the same wall time in the script's zone.
 */
function readDatesInZone(
  args: unknown[],
  spreadsheetZone: string,
  scriptZone: string,
  realm: ScriptRealm,
): unknown[] {
  const rezone = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rezone);
    if (!types.isDate(value)) return value;
    const wall = wallClockIn(spreadsheetZone, value.getTime());
    const wallAsUtcMs = Date.UTC(
      wall.year,
      wall.month - 1,
      wall.day,
      wall.hour,
      wall.minute,
      wall.second,
      wall.millisecond,
    );
    return realm.newDate(instantOfWallTime(scriptZone, wallAsUtcMs));
  };
  return args.map(rezone);
}

interface EmulatorParts {
  runtime: Runtime;
  clock: EmulatedClock;
  counter: ServiceCallCounter;
  costs: CostModel;
  workbooks: WorkbookStore;
  users: Users;
  timeZone: string;
  properties: PropertyStores;
  caches: CacheStores;
  locks: LockTable;
  urlFetch: UrlFetchRecorder;
  mail: MailRecorder;
  triggerRuntime: TriggerRuntime;
  sheetsApiQuotas: SheetsApiQuotas;
  logRecorder: LogRecorder;
  owners: Map<string, string>;
  shares: Map<string, Map<string, 'editor' | 'viewer'>>;
  overlaps: Overlaps;
  grants: Grants;
  readings: GoogleReadings;
}

function assemble(options: EmulatorOptions): EmulatorParts {
  const files = options.files ?? (options.distDir ? loadDist(options.distDir).files : {});
  const timeZone = requireIanaTimeZone(options.timeZone ?? manifestTimeZone(files) ?? DEFAULT_TIME_ZONE);
  const clock = new EmulatedClock(options.startTime);
  const answer = checkedInAnswer();
  const readings: GoogleReadings = { ...defaultReadings(answer), ...options.readings };
  const daily = DAILY_FIGURES[options.accountKind ?? 'consumer'];
  const executions = new Executions(clock, { ...DEFAULT_EXECUTION_LIMITS, ...options.executionLimitMs });
  const overlaps = new Overlaps();
  // Google's time is spent by the running execution, up to its deadline; a commit at the end of an
  // execution comes after it, when no execution runs.
  const costs = new CostModel(
    requireFigures(
      options.costFigures ??
        (answer ? calibratedFigures(presetFigures('central'), answer) : presetFigures('central')),
    ),
    (ms) => (executions.current() ? executions.spendTime(ms) : clock.advance(ms)),
    isSpreadsheetServiceClass,
  );
  const manifest = new ManifestPolicy(files['appsscript.json']);
  const grants = new Grants(manifest, executions);
  const counter = new ServiceCallCounter((serviceCall) => {
    manifest.checkCall(serviceCall);
    grants.checkCall(serviceCall);
    executions.checkDeadline();
    overlaps.beforeCall(serviceCall);
  }, costs);
  let standingRealm: ScriptContext | undefined;
  const realm = new CurrentRealm(() => {
    const execution = executions.current();
    if (execution?.hasScriptContext()) return execution.scriptContext;
    return (standingRealm ??= new ScriptContext(clock, timeZone, {}));
  });
  const env: ServiceEnvironment = { counter, realm, executions, clock, costs };
  const users = new Users(options.owner ?? DEFAULT_OWNER);
  const owners = new Map<string, string>();
  const ownerOf = (spreadsheetId: string) => {
    const owner = owners.get(spreadsheetId);
    if (owner === undefined)
      throw new Error(`No spreadsheet ${spreadsheetId} was created with createSpreadsheet`);
    return owner;
  };

  // A formula in a cell calls the script back, through entry points that need the service first.
  const formulas: { entryPoints?: DocumentEntryPoints } = {};
  const shares = new Map<string, Map<string, 'editor' | 'viewer'>>();
  // A spreadsheet made outside createSpreadsheet has no owner on record: everyone owns it, as before
  // roles were emulated. Anyone not shared with explicitly is an editor (asUser's users).
  const roleOf = (spreadsheetId: string, email: string): 'owner' | 'editor' | 'viewer' => {
    const owner = owners.get(spreadsheetId);
    if (owner === undefined || owner === email) return 'owner';
    return shares.get(spreadsheetId)?.get(email) ?? 'editor';
  };
  const spreadsheet = createSpreadsheetService({
    counter,
    realm,
    currentContext: () => executions.requireCurrent().context,
    roleOf,
    atExecutionEnd: (commit) => executions.requireCurrent().onEnd(commit),
    othersMayRun: () => overlaps.count() > 0,
    now: () => clock.now(),
    evaluateCustomFunction: (name, args, spreadsheetId) =>
      formulas.entryPoints!.evaluateFormula(
        spreadsheetId,
        name,
        readings.customFunctionDateZone === 'script'
          ? readDatesInZone(args, spreadsheet.workbooks.get(spreadsheetId)!.timeZone, timeZone, realm)
          : args,
      ),
    readings,
  });

  const parts = {
    clock,
    counter,
    costs,
    workbooks: spreadsheet.workbooks,
    users,
    timeZone,
    properties: new PropertyStores(daily.propertyOperations),
    caches: new CacheStores(),
    locks: new LockTable(clock),
    urlFetch: new UrlFetchRecorder(options.urlFetchDailyQuota ?? daily.urlFetch, options.urlFetchRoundTripMs),
    mail: new MailRecorder(options.mailDailyQuota ?? daily.mailRecipients),
    triggerRuntime: new TriggerRuntime(daily.triggerRuntimeMs),
    sheetsApiQuotas: new SheetsApiQuotas(() => clock.now()),
    logRecorder: new LogRecorder(env, options.onLog),
    owners,
    shares,
    overlaps,
    grants,
    readings,
  };
  const triggers = new TriggerRegistry();
  const enums = createScriptEnums(counter);
  const advancedServices = Object.fromEntries(
    manifestAdvancedServices(files).map((symbol) => [
      symbol,
      spreadsheet.sheetsAdvancedService({
        quotas: parts.sheetsApiQuotas,
        cloudProjectApi: options.sheetsApiInCloudProject ?? 'enabled',
      }),
    ]),
  );
  const runner = new ScriptRunner(options.code, clock, timeZone, executions, {
    ...advancedServices,
    SpreadsheetApp: spreadsheet.SpreadsheetApp,
    Charts: spreadsheet.Charts,
    UrlFetchApp: createUrlFetchApp(env, parts.urlFetch, (url) => manifest.checkUrl(url)),
    MailApp: createMailApp(env, parts.mail),
    PropertiesService: createPropertiesService(env, parts.properties, readings),
    CacheService: createCacheService(env, parts.caches, readings),
    LockService: createLockService(env, parts.locks),
    ScriptApp: createScriptApp(env, triggers, timeZone, enums, grants, readings),
    HtmlService: createHtmlService(env, new HtmlFiles(files)),
    Utilities: createUtilities(env),
    Session: createSession(env, timeZone, options.locale ?? 'en'),
    Logger: parts.logRecorder.createLogger(),
    console: parts.logRecorder.createConsole(),
  });
  const runtime: Runtime = {
    runner,
    clock,
    enums,
    triggers,
    triggerRuntime: parts.triggerRuntime,
    readings,
    workbooks: spreadsheet.workbooks,
    addOnName: options.addOnName ?? DEFAULT_ADD_ON_NAME,
    ownerOf,
    activeSpreadsheet: () => spreadsheet.SpreadsheetApp.getActiveSpreadsheet(),
    userObject: (email) => createUser(env, email),
  };
  formulas.entryPoints = new DocumentEntryPoints(runtime, users.owner);
  return { ...parts, runtime };
}

export class Emulator extends DocumentEntryPoints {
  readonly clock: EmulatedClock;
  /** Every service call, by Class.method. */
  readonly counter: ServiceCallCounter;
  /** What the runs cost on Google's side: costs.quantities(), priced by runtime/cost-model.ts. */
  readonly costs: CostModel;
  readonly workbooks: WorkbookStore;
  readonly users: Users;
  readonly timeZone: string;
  /**
   * Test access to property stores: properties.user(email).set('token', …), .document(id), .script;
   * and each user's daily read/write calls: properties.operations.spend(user, n, nowMs).
   */
  readonly properties: PropertyStores;
  /** Test access to caches: caches.evictAll(). */
  readonly caches: CacheStores;
  /** Lock contention: locks.hold('script' | 'user' | 'document', key?, { releaseAfterMs? }). */
  readonly locks: LockTable;
  /** Every request sent (method, url, headers, payload) and the daily quota. */
  readonly urlFetch: UrlFetchRecorder;
  /** Every message MailApp would have sent (mail.sent) and the daily recipient quota. */
  readonly mail: MailRecorder;
  /**
   * Each user's daily trigger time (triggerRuntime.spend(user, ms, nowMs) uses some up) and the
   * trigger executions that failed because it was spent (triggerRuntime.failures).
   */
  readonly triggerRuntime: TriggerRuntime;
  /** The Sheets API's write quotas: sheetsApiQuotas.spend(user, requests) uses some up. */
  readonly sheetsApiQuotas: SheetsApiQuotas;
  /**
   * What each user authorised: grants.set(user, scopes) makes them someone who authorised under an
   * older manifest, until their next menu item (runtime/manifest.ts).
   */
  readonly grants: Grants;
  /** How this emulator reads each behaviour Google does not document (readings.ts). */
  readonly readings: Readonly<GoogleReadings>;
  readonly #logRecorder: LogRecorder;
  readonly #owners: Map<string, string>;
  readonly #shares: Map<string, Map<string, 'editor' | 'viewer'>>;
  readonly #overlaps: Overlaps;

  constructor(parts: EmulatorParts) {
    super(parts.runtime, parts.users.owner);
    this.clock = parts.clock;
    this.counter = parts.counter;
    this.costs = parts.costs;
    this.workbooks = parts.workbooks;
    this.users = parts.users;
    this.timeZone = parts.timeZone;
    this.properties = parts.properties;
    this.caches = parts.caches;
    this.locks = parts.locks;
    this.urlFetch = parts.urlFetch;
    this.mail = parts.mail;
    this.triggerRuntime = parts.triggerRuntime;
    this.sheetsApiQuotas = parts.sheetsApiQuotas;
    this.grants = parts.grants;
    this.readings = parts.readings;
    this.#logRecorder = parts.logRecorder;
    this.#owners = parts.owners;
    this.#shares = parts.shares;
    this.#overlaps = parts.overlaps;
  }

  /** Every line the script logged (Logger.log and console.*), in order. */
  get logs(): readonly LogEntry[] {
    return this.#logRecorder.entries;
  }

  /**
   * Pushes a new version of the script (as clasp push does): every spreadsheet, property and trigger
   * stays, and the next execution runs `code`.
   */
  pushCode(code: string): void {
    this.runtime.runner.push(code);
  }

  /** A new spreadsheet owned by `owner` (default: the emulator's owner). Returns its id. */
  createSpreadsheet(
    options: { name?: string; timeZone?: string; locale?: string; owner?: string } = {},
  ): string {
    const { owner = this.users.owner, ...workbook } = options;
    this.users.add(owner);
    const id = this.workbooks.create(workbook);
    this.#owners.set(id, owner);
    return id;
  }

  ownerOf(spreadsheetId: string): string {
    return this.runtime.ownerOf(spreadsheetId);
  }

  /**
   * Shares a spreadsheet made with createSpreadsheet as Drive's Share does: a viewer's scripts can
   * write nothing in it; an editor's obey its protections. Users not shared with are editors.
   */
  share(spreadsheetId: string, email: string, role: 'editor' | 'viewer'): void {
    if (this.#owners.get(spreadsheetId) === undefined)
      throw new Error(`No spreadsheet ${spreadsheetId} was created with createSpreadsheet`);
    if (this.#owners.get(spreadsheetId) === email) throw new Error(`${email} owns ${spreadsheetId}`);
    this.users.add(email);
    const roles = this.#shares.get(spreadsheetId) ?? new Map<string, 'editor' | 'viewer'>();
    roles.set(email, role);
    this.#shares.set(spreadsheetId, roles);
  }

  /** The same entry points, acting as another user (an editor unless shared as a viewer). */
  asUser(email: string): UserEntryPoints {
    this.users.add(email);
    return new UserEntryPoints(this.runtime, email);
  }

  /**
   * Makes two executions overlap: `overlap` (another entry point, typically) runs just before the
   * script's next call of `serviceCall` ("UrlFetchApp.fetch"), while the running execution waits
   * there, as executions run side by side on Google. One-shot.
   */
  beforeNextCall(serviceCall: string, overlap: () => void): void {
    this.#overlaps.add(serviceCall, overlap);
  }

  /** Overlaps scheduled with beforeNextCall whose call has not happened yet. */
  pendingOverlaps(): number {
    return this.#overlaps.count();
  }

  /** The installable triggers that exist, with their creator, document and schedule. */
  triggers(): TriggerInfo[] {
    return this.runtime.triggers.list();
  }
}

export function createEmulator(options: EmulatorOptions): Emulator {
  return new Emulator(assemble(options));
}
