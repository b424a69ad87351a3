// Runs inside every script context before the script (read as text by realm.ts, never required).
// It makes the context look like Apps Script's V8: globals Apps Script lacks are removed, `Date`
// reads the emulated clock, and local time is the SCRIPT's time zone, not the machine's (on Google,
// `new Date().getHours()` answers in the zone set in appsscript.json). The expression evaluates to a
// function that receives the host hooks and returns what the emulator needs from this realm.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- evaluated for its value
(function bootstrap(host) {
  'use strict';

  for (const name of ['console', 'SharedArrayBuffer', 'Atomics', 'WebAssembly']) delete globalThis[name];

  // globalThis: the `function Date` below is hoisted over the global name in this scope.
  const NativeDate = globalThis.Date;
  const proto = NativeDate.prototype;
  const MS_PER_MINUTE = 60000;
  const getTime = proto.getTime;
  const setTime = proto.setTime;
  const native = {};
  for (const name of Object.getOwnPropertyNames(proto)) native[name] = proto[name];

  const define = (target, name, value) =>
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });

  /** Epoch ms of the script-zone wall time at instant t, read as if it were UTC. */
  const wallOf = (t) => t + host.offsetMinutesAt(t) * MS_PER_MINUTE;
  const instantOf = (wallMs) => (wallMs === wallMs ? host.instantOfWallTime(wallMs) : NaN);

  function wallFromParts(year, month, day, hours, minutes, seconds, ms) {
    const date = new NativeDate(0);
    native.setUTCFullYear.call(date, year, month, day);
    native.setUTCHours.call(date, hours, minutes, seconds, ms);
    return getTime.call(date);
  }

  function toPrimitive(value) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    const exotic = value[Symbol.toPrimitive];
    if (exotic != null) return exotic.call(value, 'default');
    for (const name of ['valueOf', 'toString']) {
      const method = value[name];
      if (typeof method !== 'function') continue;
      const result = method.call(value);
      if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return result;
    }
    throw new TypeError('Cannot convert object to primitive value');
  }

  const ISO_DATE_ONLY = /^[+-]?\d{4,6}(?:-\d\d(?:-\d\d)?)?$/;
  const EXPLICIT_ZONE = /\d:\d\d(?::\d\d(?:\.\d+)?)?\s*(?:Z|[+-]\d\d:?\d\d)|\b(?:UTC|UT|GMT|[ECMP][SD]T)\b/i;

  function parseDateString(text) {
    const string = String(text);
    const machineValue = NativeDate.parse(string);
    if (machineValue !== machineValue || ISO_DATE_ONLY.test(string.trim()) || EXPLICIT_ZONE.test(string)) {
      return machineValue;
    }
    // The native parser read a zone-less wall time in the machine's zone: take that wall time back
    // and place it in the script's zone.
    const machine = new NativeDate(machineValue);
    const wall = wallFromParts(
      native.getFullYear.call(machine),
      native.getMonth.call(machine),
      native.getDate.call(machine),
      native.getHours.call(machine),
      native.getMinutes.call(machine),
      native.getSeconds.call(machine),
      native.getMilliseconds.call(machine),
    );
    return instantOf(wall);
  }

  function timeValueFromLocalParts(args) {
    const numbers = [];
    for (let i = 0; i < 7; i++) numbers.push(i < args.length ? Number(args[i]) : i === 2 ? 1 : 0);
    if (numbers.some((n) => !Number.isFinite(n))) return NaN;
    const [year, month, day, hours, minutes, seconds, ms] = numbers.map(Math.trunc);
    const fullYear = year >= 0 && year <= 99 ? 1900 + year : year;
    return instantOf(wallFromParts(fullYear, month, day, hours, minutes, seconds, ms));
  }

  function Date(...args) {
    if (new.target === undefined) return new Date(host.now()).toString();
    let value;
    if (args.length === 0) {
      value = host.now();
    } else if (args.length === 1) {
      const single = args[0];
      if (Object.prototype.toString.call(single) === '[object Date]') {
        value = getTime.call(single);
      } else {
        const primitive = toPrimitive(single);
        value = typeof primitive === 'string' ? parseDateString(primitive) : Number(primitive);
      }
    } else {
      value = timeValueFromLocalParts(args);
    }
    return Reflect.construct(NativeDate, [value], new.target);
  }
  Object.defineProperty(Date, 'length', { value: 7 });
  Object.defineProperty(Date, 'prototype', { value: proto, writable: false });
  define(Date, 'now', function now() {
    return host.now();
  });
  define(Date, 'parse', function parse(text) {
    return parseDateString(text);
  });
  define(Date, 'UTC', NativeDate.UTC);
  define(proto, 'constructor', Date);
  define(globalThis, 'Date', Date);

  function localView(date) {
    const t = getTime.call(date);
    return t === t ? new NativeDate(wallOf(t)) : null;
  }

  for (const unit of ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds']) {
    const utcGetter = native[`getUTC${unit}`];
    define(proto, `get${unit}`, function () {
      const local = localView(this);
      return local ? utcGetter.call(local) : NaN;
    });
    if (unit === 'Day') continue;
    const utcSetter = native[`setUTC${unit}`];
    define(proto, `set${unit}`, function (...args) {
      const t = getTime.call(this);
      // setFullYear alone starts from +0 when the date is invalid (ECMA-262 21.4.4.21).
      const start = t === t ? wallOf(t) : unit === 'FullYear' ? 0 : NaN;
      const scratch = new NativeDate(start);
      if (start === start) utcSetter.apply(scratch, args);
      return setTime.call(this, instantOf(getTime.call(scratch)));
    });
  }
  define(proto, 'getYear', function getYear() {
    return this.getFullYear() - 1900;
  });
  define(proto, 'setYear', function setYear(year) {
    const number = Math.trunc(Number(year));
    return this.setFullYear(number >= 0 && number <= 99 ? 1900 + number : number);
  });
  define(proto, 'getTimezoneOffset', function getTimezoneOffset() {
    const t = getTime.call(this);
    return t === t ? -host.offsetMinutesAt(t) : NaN;
  });

  const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (number, width) => String(Math.abs(number)).padStart(width, '0');

  function dateString(date) {
    const local = localView(date);
    if (!local) return 'Invalid Date';
    const year = native.getUTCFullYear.call(local);
    return `${DAYS[native.getUTCDay.call(local)]} ${MONTHS[native.getUTCMonth.call(local)]} ${pad(
      native.getUTCDate.call(local),
      2,
    )} ${year < 0 ? '-' : ''}${pad(year, year < 0 ? 6 : 4)}`;
  }

  function timeString(date) {
    const local = localView(date);
    if (!local) return 'Invalid Date';
    const t = getTime.call(date);
    const offset = host.offsetMinutesAt(t);
    const hms = [native.getUTCHours, native.getUTCMinutes, native.getUTCSeconds].map((get) =>
      pad(get.call(local), 2),
    );
    const zone = `GMT${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60), 2)}${pad(offset % 60, 2)}`;
    return `${hms.join(':')} ${zone} (${host.zoneLongName(t)})`;
  }

  define(proto, 'toDateString', function toDateString() {
    return dateString(this);
  });
  define(proto, 'toTimeString', function toTimeString() {
    return timeString(this);
  });
  define(proto, 'toString', function toString() {
    const date = dateString(this);
    return date === 'Invalid Date' ? date : `${date} ${timeString(this)}`;
  });

  const withScriptZone = (options) =>
    options === undefined || options === null || options.timeZone === undefined
      ? Object.assign({}, options, { timeZone: host.timeZone })
      : options;
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
    const nativeMethod = native[name];
    define(proto, name, function (locales, options) {
      return nativeMethod.call(this, locales, withScriptZone(options));
    });
  }

  const NativeDateTimeFormat = Intl.DateTimeFormat;
  function DateTimeFormat(locales, options) {
    return Reflect.construct(
      NativeDateTimeFormat,
      [locales, withScriptZone(options)],
      new.target === undefined ? NativeDateTimeFormat : new.target,
    );
  }
  Object.defineProperty(DateTimeFormat, 'prototype', {
    value: NativeDateTimeFormat.prototype,
    writable: false,
  });
  define(DateTimeFormat, 'supportedLocalesOf', NativeDateTimeFormat.supportedLocalesOf);
  define(NativeDateTimeFormat.prototype, 'constructor', DateTimeFormat);
  define(Intl, 'DateTimeFormat', DateTimeFormat);

  // Services that throw core's AppsScriptException (a Node Error) instead of this realm's Error would
  // fail `e instanceof Error` in the script, which Apps Script's exceptions pass. Only Error itself
  // answers for them: subclasses (TypeError, user classes) keep the ordinary check.
  const ordinaryHasInstance = Function.prototype[Symbol.hasInstance];
  const ScriptError = Error;
  Object.defineProperty(ScriptError, Symbol.hasInstance, {
    value: function (value) {
      return (
        ordinaryHasInstance.call(this, value) || (this === ScriptError && host.isServiceException(value))
      );
    },
  });

  return {
    newDate(epochMs) {
      return new Date(epochMs);
    },
    newError(message) {
      const error = new Error(message);
      // Apps Script's service exceptions print as "Exception: …".
      define(error, 'name', 'Exception');
      return error;
    },
    compileTemplate(body) {
      // Sloppy-mode Function: templates resolve names against the template's properties (`with`)
      // and then the script's global scope, as Apps Script's scriptlets do.
      return new Function('__templateVariables', '__print', '__printEscaped', body);
    },
  };
});
