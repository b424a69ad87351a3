/**
 * ScriptApp: enums and installable time-driven triggers under the ADD-ON rules (this emulator
 * runs an add-on): at most hourly, at most one time-driven trigger per user per document, 20
 * triggers per user per script, and none from a custom function or a simple trigger. A trigger
 * remembers the spreadsheet it was created in; the emulator fires it as its creator.
 * getAuthorizationInfo answers from what the running user granted (manifest.ts, Grants).
 */
import { AppsScriptException, type ServiceCallCounter } from '../core';
import type { GoogleReadings } from '../readings';
import type { Grants } from './manifest';
import type { Enum, ServiceEnvironment } from './service-object';
import { defineEnum, expose, isEnumOf, requireAuthMode, signatureMismatch } from './service-object';
import { isValidTimeZone } from './time-zones';

export const SCRIPT_ID = '1SafetySyncEmulatedScriptId0000000000000000000000000000';
export const MAX_TRIGGERS_PER_USER = 20;
const ALLOWED_HOURLY_INTERVALS = [1, 2, 4, 6, 8, 12];
const SCRIPTAPP_SCOPE = 'https://www.googleapis.com/auth/script.scriptapp';
/**
 * Where getAuthorizationUrl sends the user: Google's URL carries state it does not document, so the
 * emulator's is a fixed address on script.google.com.
 */
export const AUTHORIZATION_URL = `https://script.google.com/macros/d/${SCRIPT_ID}/authorize`;
const WEEK_DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;

export interface ClockSchedule {
  /** 'months' for onMonthDay, which needs no everyDays or everyWeeks. */
  every: 'hours' | 'days' | 'weeks' | 'months';
  interval: number;
  atHour: number | null;
  nearMinute: number | null;
  weekDay: (typeof WEEK_DAYS)[number] | null;
  /** The day of the month, 1–31, for onMonthDay. */
  monthDay: number | null;
  timeZone: string;
}

export interface TriggerInfo {
  uid: string;
  handler: string;
  owner: string;
  /** The spreadsheet the trigger was created in (its document), or null. */
  spreadsheetId: string | null;
  schedule: ClockSchedule;
  /** When it was created: an interval of days or weeks counts from then (clock-trigger-times.ts). */
  createdAtMs: number;
}

export class TriggerRegistry {
  private readonly triggers = new Map<string, TriggerInfo>();
  private nextUid = 8_130_000_001;

  list(): TriggerInfo[] {
    return [...this.triggers.values()].map((trigger) => structuredClone(trigger));
  }

  get(uid: string): TriggerInfo | undefined {
    const trigger = this.triggers.get(uid);
    return trigger && structuredClone(trigger);
  }

  ownedBy(user: string): TriggerInfo[] {
    return this.list().filter((trigger) => trigger.owner === user);
  }

  add(trigger: Omit<TriggerInfo, 'uid'>): TriggerInfo {
    const created = { uid: String(this.nextUid++), ...trigger };
    this.triggers.set(created.uid, created);
    return structuredClone(created);
  }

  delete(uid: string): boolean {
    return this.triggers.delete(uid);
  }
}

export interface ScriptEnums {
  AuthMode: Enum<'NONE' | 'CUSTOM_FUNCTION' | 'LIMITED' | 'FULL'>;
  AuthorizationStatus: Enum<'REQUIRED' | 'NOT_REQUIRED'>;
  EventType: Enum<'CLOCK' | 'ON_OPEN' | 'ON_EDIT' | 'ON_FORM_SUBMIT' | 'ON_CHANGE' | 'ON_EVENT_UPDATED'>;
  TriggerSource: Enum<'SPREADSHEETS' | 'CLOCK' | 'FORMS' | 'DOCUMENTS' | 'CALENDAR'>;
  WeekDay: Enum<(typeof WEEK_DAYS)[number]>;
}

/** Made once per emulator: event objects compare `e.authMode === ScriptApp.AuthMode.FULL`. */
export function createScriptEnums(counter: ServiceCallCounter): ScriptEnums {
  return {
    AuthMode: defineEnum('ScriptApp.AuthMode', ['NONE', 'CUSTOM_FUNCTION', 'LIMITED', 'FULL'], counter),
    AuthorizationStatus: defineEnum('ScriptApp.AuthorizationStatus', ['REQUIRED', 'NOT_REQUIRED'], counter),
    EventType: defineEnum(
      'ScriptApp.EventType',
      ['CLOCK', 'ON_OPEN', 'ON_EDIT', 'ON_FORM_SUBMIT', 'ON_CHANGE', 'ON_EVENT_UPDATED'],
      counter,
    ),
    TriggerSource: defineEnum(
      'ScriptApp.TriggerSource',
      ['SPREADSHEETS', 'CLOCK', 'FORMS', 'DOCUMENTS', 'CALENDAR'],
      counter,
    ),
    WeekDay: defineEnum('ScriptApp.WeekDay', WEEK_DAYS, counter),
  };
}

export function createScriptApp(
  env: ServiceEnvironment,
  registry: TriggerRegistry,
  scriptTimeZone: string,
  enums: ScriptEnums,
  grants: Grants,
  readings: Pick<GoogleReadings, 'userTriggersListClockTriggers'>,
): GoogleAppsScript.Script.ScriptApp {
  const { AuthMode, AuthorizationStatus, EventType, TriggerSource, WeekDay } = enums;
  const exposedTriggers = new WeakMap<object, string>();

  const requireFull = (method: string) => requireAuthMode(env, method, ['FULL'], SCRIPTAPP_SCOPE);

  function exposeTrigger(info: TriggerInfo): GoogleAppsScript.Script.Trigger {
    const trigger = {
      getUniqueId: () => info.uid,
      getHandlerFunction: () => info.handler,
      getEventType: () => EventType.CLOCK,
      getTriggerSource: () => TriggerSource.CLOCK,
      // Time-driven triggers have no source object.
      getTriggerSourceId: () => null,
    };
    const exposed = expose('Trigger', trigger, env);
    exposedTriggers.set(exposed, info.uid);
    return exposed as unknown as GoogleAppsScript.Script.Trigger;
  }

  function clockTriggerBuilder(handler: string) {
    const schedule: ClockSchedule = {
      every: 'hours',
      interval: 0,
      atHour: null,
      nearMinute: null,
      weekDay: null,
      monthDay: null,
      timeZone: scriptTimeZone,
    };
    const integerIn = (value: unknown, min: number, max: number, method: string, name: string) => {
      if (typeof value !== 'number') throw signatureMismatch(method, [value]);
      if (!Number.isInteger(value) || value < min || value > max) {
        throw new AppsScriptException(`Invalid argument: ${name}`);
      }
      return value;
    };
    const recurring = (every: ClockSchedule['every'], interval: number) => {
      schedule.every = every;
      schedule.interval = interval;
    };
    const builder = {
      everyMinutes(minutes: unknown) {
        integerIn(minutes, 1, 30, 'ClockTriggerBuilder.everyMinutes', 'minutes');
        throw new AppsScriptException(
          "Add-ons can't create time-based triggers that run more frequently than once per hour.",
        );
      },
      everyHours(hours: unknown) {
        const interval = integerIn(hours, 1, 12, 'ClockTriggerBuilder.everyHours', 'hours');
        if (!ALLOWED_HOURLY_INTERVALS.includes(interval)) {
          throw new AppsScriptException('The number of hours must be 1, 2, 4, 6, 8 or 12.');
        }
        recurring('hours', interval);
        return builder;
      },
      everyDays(days: unknown) {
        recurring('days', integerIn(days, 1, 365, 'ClockTriggerBuilder.everyDays', 'days'));
        return builder;
      },
      everyWeeks(weeks: unknown) {
        recurring('weeks', integerIn(weeks, 1, 52, 'ClockTriggerBuilder.everyWeeks', 'weeks'));
        return builder;
      },
      atHour(hour: unknown) {
        schedule.atHour = integerIn(hour, 0, 23, 'ClockTriggerBuilder.atHour', 'hour');
        return builder;
      },
      nearMinute(minute: unknown) {
        schedule.nearMinute = integerIn(minute, 0, 59, 'ClockTriggerBuilder.nearMinute', 'minute');
        return builder;
      },
      onWeekDay(day: unknown) {
        if (!isEnumOf(WeekDay, day)) throw signatureMismatch('ClockTriggerBuilder.onWeekDay', [day]);
        schedule.weekDay = day.name() as ClockSchedule['weekDay'];
        return builder;
      },
      /** Google: "Specifies the date in the month that the trigger runs", 1–31. */
      onMonthDay(day: unknown) {
        schedule.monthDay = integerIn(day, 1, 31, 'ClockTriggerBuilder.onMonthDay', 'day');
        return builder;
      },
      inTimezone(timeZone: unknown) {
        if (typeof timeZone !== 'string')
          throw signatureMismatch('ClockTriggerBuilder.inTimezone', [timeZone]);
        if (!isValidTimeZone(timeZone)) throw new AppsScriptException(`Invalid argument: timezone`);
        schedule.timeZone = timeZone;
        return builder;
      },
      create() {
        const execution = requireFull('ClockTriggerBuilder.create');
        validateSchedule(schedule);
        const owned = registry.ownedBy(execution.user);
        if (owned.length >= MAX_TRIGGERS_PER_USER) {
          throw new AppsScriptException(
            'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
          );
        }
        const spreadsheetId = execution.context.activeSpreadsheetId;
        if (owned.some((trigger) => trigger.spreadsheetId === spreadsheetId)) {
          throw new AppsScriptException(
            'This add-on has already created a time-based trigger for this document for this Google user ' +
              'account. Triggers must be deleted before more can be added.',
          );
        }
        return exposeTrigger(
          registry.add({
            handler,
            owner: execution.user,
            spreadsheetId,
            schedule: { ...schedule },
            createdAtMs: env.clock.now(),
          }),
        );
      },
    };
    return expose('ClockTriggerBuilder', builder, env);
  }

  const scriptApp = {
    ...enums,
    getScriptId: () => SCRIPT_ID,
    /**
     * getAuthorizationInfo(authMode) or (authMode, oAuthScopes): whether the running user must
     * authorise (the manifest's scopes, or those listed), where, and which of them they have granted
     * (developers.google.com/apps-script/reference/script/authorization-info). No scope needed.
     */
    getAuthorizationInfo(...args: unknown[]) {
      const [authMode, scopes] = args;
      const scopeList =
        Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string')
          ? (scopes as string[])
          : undefined;
      if (!isEnumOf(AuthMode, authMode) || args.length > 2 || (args.length === 2 && scopeList === undefined))
        throw signatureMismatch('ScriptApp.getAuthorizationInfo', args);
      const { required, authorized } = grants.authorizationFor(authMode.name(), scopeList);
      const info = {
        getAuthorizationStatus: () =>
          required ? AuthorizationStatus.REQUIRED : AuthorizationStatus.NOT_REQUIRED,
        getAuthorizationUrl: () => (required ? AUTHORIZATION_URL : null),
        getAuthorizedScopes: () => env.realm.toScript([...authorized]),
      };
      return expose('AuthorizationInfo', info, env);
    },
    newTrigger(functionName: unknown) {
      requireFull('ScriptApp.newTrigger');
      if (typeof functionName !== 'string') throw signatureMismatch('ScriptApp.newTrigger', [functionName]);
      return expose('TriggerBuilder', { timeBased: () => clockTriggerBuilder(functionName) }, env);
    },
    getProjectTriggers() {
      const execution = requireFull('ScriptApp.getProjectTriggers');
      return env.realm.toScript(registry.ownedBy(execution.user).map(exposeTrigger));
    },
    /** Every trigger here is time-driven: listed only under the reading that these are (readings.ts). */
    getUserTriggers(spreadsheet: unknown) {
      const execution = requireFull('ScriptApp.getUserTriggers');
      const getId = (spreadsheet as { getId?: unknown } | null)?.getId;
      if (typeof getId !== 'function') throw signatureMismatch('ScriptApp.getUserTriggers', [spreadsheet]);
      const spreadsheetId: unknown = getId.call(spreadsheet);
      if (!readings.userTriggersListClockTriggers) return env.realm.toScript([]);
      return env.realm.toScript(
        registry
          .ownedBy(execution.user)
          .filter((trigger) => trigger.spreadsheetId === spreadsheetId)
          .map(exposeTrigger),
      );
    },
    deleteTrigger(trigger: unknown) {
      const execution = requireFull('ScriptApp.deleteTrigger');
      const uid = typeof trigger === 'object' && trigger !== null ? exposedTriggers.get(trigger) : undefined;
      if (uid === undefined) throw signatureMismatch('ScriptApp.deleteTrigger', [trigger]);
      if (registry.get(uid)?.owner !== execution.user || !registry.delete(uid)) {
        throw new AppsScriptException(`Invalid argument: trigger ${uid} does not exist`);
      }
    },
  };
  return expose('ScriptApp', scriptApp, env) as unknown as GoogleAppsScript.Script.ScriptApp;
}

/**
 * Refuses a builder that names no recurrence or two. Google does not document what it does with
 * onMonthDay beside everyHours, everyDays or everyWeeks: the emulator takes the stricter reading
 * and refuses it.
 */
function validateSchedule(schedule: ClockSchedule): void {
  if (schedule.monthDay !== null) {
    if (schedule.interval !== 0) {
      throw new AppsScriptException(
        'Invalid argument: onMonthDay cannot be combined with everyHours, everyDays or everyWeeks',
      );
    }
    schedule.every = 'months';
    schedule.interval = 1;
  }
  if (schedule.interval === 0) {
    throw new AppsScriptException(
      'Invalid argument: a time-based trigger needs everyHours, everyDays, everyWeeks or onMonthDay',
    );
  }
  if (schedule.atHour !== null && schedule.every === 'hours') {
    throw new AppsScriptException('Invalid argument: atHour needs everyDays or everyWeeks');
  }
  if (schedule.weekDay !== null && schedule.every !== 'weeks') {
    throw new AppsScriptException('Invalid argument: onWeekDay needs everyWeeks');
  }
}
