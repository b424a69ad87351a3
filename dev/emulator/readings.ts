/**
 * What Google does not document but the add-on relies on: one named switch per behaviour, each with
 * both readings. The default is the stricter reading (the one under which the add-on has more to
 * survive) unless the calibration answer measured on Google (dev/calibration/google-answer.json,
 * checked in by a deployer who ran `npm run calibrate`) settled it. The add-on must work under every
 * reading: test/emulator/google-readings-matrix.test.ts runs its main paths under each.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';

import { type Calibration, parseCalibration } from './runtime/cost-model';
import { instantOfWallTime } from './runtime/time-zones';

export interface GoogleReadings {
  /**
   * Whether the Spreadsheet service, in the same execution, shows a tab the Sheets API has just
   * added. Not documented: the advanced Sheets service guide says only that it gives access to the
   * Sheets API; how the Spreadsheet service's view catches up is not stated. Probed by runCalibration
   * (spreadsheetServiceSeesApiTab). Stricter: false (the tab is there only from the next execution).
   */
  spreadsheetServiceSeesApiTab: boolean;
  /**
   * Whether `ScriptApp.getUserTriggers(spreadsheet)` lists the user's time-driven triggers made in
   * that spreadsheet. Its reference says only "Gets all installable triggers owned by this user in
   * the given spreadsheet, for this script or add-on only"; a time-driven trigger has no source
   * spreadsheet (`getTriggerSourceId()` is null). Probed by runCalibration
   * (userTriggersListClockTrigger). Stricter: false (only `getProjectTriggers()` lists them).
   */
  userTriggersListClockTriggers: boolean;
  /**
   * Whether a custom function can read the document stores (`PropertiesService.getDocumentProperties`,
   * `CacheService.getDocumentCache`). The custom functions guide says of Properties and Cache only
   * "Works, but not particularly useful in custom functions", naming no store. Probed by
   * runCalibration (documentStoresInCustomFunction). Stricter: false (both answer null there).
   */
  documentStoresInCustomFunction: boolean;
  /**
   * The zone a date cell is read in when it becomes a custom function's `Date` argument: the
   * spreadsheet's (its midnight is the instant) or the script's. The custom functions guide says
   * only that dates arrive as JavaScript Date objects. Probed by runCalibration
   * (customFunctionDateArgument). Stricter: 'script' (the add-on must not take the instant for the
   * spreadsheet's midnight).
   */
  customFunctionDateZone: 'spreadsheet' | 'script';
  /**
   * Whether developer metadata can be read in AuthMode.LIMITED (a simple trigger's onOpen). The
   * authorization guide says LIMITED may touch the bound document, not whether that includes its
   * developer metadata.
   * Probed by runCalibration (developerMetadataInLimited, from its onOpen). Stricter: false ("You do
   * not have permission to call getDeveloperMetadata").
   */
  developerMetadataInLimited: boolean;
  /**
   * What CacheService's 100 KB limit counts in `putAll`: each value ("The maximum amount of data that
   * can be stored per key is 100KB", the Cache reference) or the whole call's values together: putAll's
   * reference does not say. Probed by runCalibration (cachePutAllLimit). Stricter: 'total' (refused
   * with "Argument too large: value", the message of a value over the limit).
   */
  cachePutAllLimit: 'total' | 'per-entry';
  /**
   * What a dialog's success handler receives when the server function returns a value google.script.run
   * cannot carry (a Date, a function): its reference says only that return values have "the same
   * restrictions as parameter types" (and an illegal parameter fails); users report the success
   * handler receiving null.
   * Probed by runCalibration (unserialisableReturn, through its dialog). Stricter: 'failure' (the
   * failure handler runs with "Failed due to illegal value in property: …").
   */
  unserialisableReturn: 'null' | 'failure';
  /**
   * Whether `SpreadsheetApp.openById` opens a spreadsheet in the Drive trash (Drive keeps it 30 days,
   * and its owner may restore it until then). Documented only for a file that is gone or no longer
   * shared: "Document <id> is missing (perhaps it was deleted, or you don't have read access?)"; the
   * openById reference says nothing of the trash. Probed by runCalibration
   * (openByIdOfDeletedSpreadsheet, of a spreadsheet the deployer put in the trash). Stricter: false
   * (missing, for openById and for every object of it, exactly like a deleted file, until restored).
   */
  trashedSpreadsheetOpens: boolean;
  /**
   * Whether `;` also separates a formula's arguments in a locale that writes decimals with a point
   * (en_US, en_GB), as `,` does there. Known: where decimals are written with a comma (de_DE, fr_FR,
   * …) only `;` separates them and `,` is the decimal mark (Sheets help, "Switch between locales").
   * Not documented for a point locale: a user reported in 2019 "Google now accepts semicolons in all
   * locales" (github.com/mricon/ingress-fieldplan, issue 5). Probed by runCalibration
   * (semicolonArgumentsInEnUs: `=HYPERLINK("https://example.com";"x")` in an en_US spreadsheet shows
   * x or #ERROR!). Stricter: false (a formula with `;` there is a parse error, #ERROR!).
   */
  semicolonArgumentsInEveryLocale: boolean;
}

export type GoogleReadingName = keyof GoogleReadings;

/** The stricter reading of each behaviour. */
export const STRICTER_READINGS: Readonly<GoogleReadings> = Object.freeze({
  spreadsheetServiceSeesApiTab: false,
  userTriggersListClockTriggers: false,
  documentStoresInCustomFunction: false,
  customFunctionDateZone: 'script',
  developerMetadataInLimited: false,
  cachePutAllLimit: 'total',
  unserialisableReturn: 'failure',
  trashedSpreadsheetOpens: false,
  semicolonArgumentsInEveryLocale: false,
});

/** The other reading of each behaviour, for a test that flips one switch at a time. */
export const LOOSER_READINGS: Readonly<GoogleReadings> = Object.freeze({
  spreadsheetServiceSeesApiTab: true,
  userTriggersListClockTriggers: true,
  documentStoresInCustomFunction: true,
  customFunctionDateZone: 'spreadsheet',
  developerMetadataInLimited: true,
  cachePutAllLimit: 'per-entry',
  unserialisableReturn: 'null',
  trashedSpreadsheetOpens: true,
  semicolonArgumentsInEveryLocale: true,
});

export const READING_NAMES = Object.keys(STRICTER_READINGS) as GoogleReadingName[];

/** Where `npm run calibrate -- --answer FILE` records what Google answered, to be checked in. */
export const GOOGLE_ANSWER_FILE = path.join(__dirname, '..', 'calibration', 'google-answer.json');

/** The calibration answer with what `npm run calibrate` stamps on it. */
const answerStamps = z.object({
  /** The day it was recorded (YYYY-MM-DD). */
  recordedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  accountKind: z.enum(['consumer', 'workspace']),
});

export type GoogleAnswer = Calibration & z.infer<typeof answerStamps>;

/** Reads an answer file; says what is wrong with one that is not. */
export function parseGoogleAnswer(text: string, source: string): GoogleAnswer {
  const calibration = parseCalibration(text, source);
  const stamps = answerStamps.safeParse(JSON.parse(text));
  if (!stamps.success)
    throw new Error(
      `${source} has no recordedOn and accountKind: record it with npm run calibrate -- --answer.`,
    );
  return { ...calibration, ...stamps.data };
}

/** The checked-in answer, or null when none is. */
export function checkedInAnswer(file = GOOGLE_ANSWER_FILE): GoogleAnswer | null {
  return fs.existsSync(file) ? parseGoogleAnswer(fs.readFileSync(file, 'utf8'), file) : null;
}

/** The instant a date cell of 2024-01-15 (the probe's) is at midnight in the zone. */
function probeMidnight(timeZone: string): number | null {
  try {
    return instantOfWallTime(timeZone, Date.UTC(2024, 0, 15));
  } catch {
    return null;
  }
}

/**
 * The readings the calibration's probes settled (runCalibration's behaviours); a behaviour a probe
 * did not settle (it did not run, or answered something unforeseen) is left out.
 */
export function readingsFromCalibration(calibration: Calibration): Partial<GoogleReadings> {
  const seen = calibration.behaviours;
  const settled: Partial<GoogleReadings> = {};
  if (typeof seen.spreadsheetServiceSeesApiTab === 'boolean')
    settled.spreadsheetServiceSeesApiTab = seen.spreadsheetServiceSeesApiTab;
  if (typeof seen.userTriggersListClockTrigger === 'boolean')
    settled.userTriggersListClockTriggers = seen.userTriggersListClockTrigger;
  const stores = seen.documentStoresInCustomFunction;
  if (typeof stores === 'string' && /^document properties: .+; document cache: .+$/.test(stores))
    settled.documentStoresInCustomFunction = stores === 'document properties: works; document cache: works';
  const date = /^(\S+) \(script time zone (\S+), spreadsheet time zone (\S+)\)$/.exec(
    String(seen.customFunctionDateArgument),
  );
  if (date) {
    const instant = Date.parse(date[1]!);
    const [script, spreadsheet] = [probeMidnight(date[2]!), probeMidnight(date[3]!)];
    if (script !== spreadsheet && instant === spreadsheet) settled.customFunctionDateZone = 'spreadsheet';
    if (script !== spreadsheet && instant === script) settled.customFunctionDateZone = 'script';
  }
  const metadata = seen.developerMetadataInLimited;
  if (metadata === 'readable') settled.developerMetadataInLimited = true;
  if (typeof metadata === 'string' && /permission/i.test(metadata))
    settled.developerMetadataInLimited = false;
  if (seen.cachePutAllLimit === 'total' || seen.cachePutAllLimit === 'per-entry')
    settled.cachePutAllLimit = seen.cachePutAllLimit;
  const returned = seen.unserialisableReturn;
  if (returned === 'null') settled.unserialisableReturn = 'null';
  if (typeof returned === 'string' && returned.startsWith('failure: '))
    settled.unserialisableReturn = 'failure';
  const trashed = seen.openByIdOfDeletedSpreadsheet;
  if (trashed === 'opened') settled.trashedSpreadsheetOpens = true;
  if (typeof trashed === 'string' && / is missing /.test(trashed)) settled.trashedSpreadsheetOpens = false;
  const semicolons = seen.semicolonArgumentsInEnUs;
  if (semicolons === 'accepted') settled.semicolonArgumentsInEveryLocale = true;
  if (semicolons === 'parse error') settled.semicolonArgumentsInEveryLocale = false;
  return settled;
}

/**
 * The emulator's readings when a test names none: what the checked-in answer settled; otherwise the
 * stricter of each.
 */
export function defaultReadings(answer = checkedInAnswer()): GoogleReadings {
  return { ...STRICTER_READINGS, ...(answer && readingsFromCalibration(answer)) };
}
