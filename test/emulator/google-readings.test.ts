/**
 * Each behaviour Google does not document is a switch of the emulator with both readings
 * (dev/emulator/readings.ts): a script sees one reading or the other, as it would on Google.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Emulator, type GoogleReadings, LOOSER_READINGS, STRICTER_READINGS } from '../../dev/emulator';
import { emulate } from './fixtures/script-emulator';

/** Etc/UTC, the Sheets advanced service and the scopes these scripts use. */
const MANIFEST = fs.readFileSync(path.join(__dirname, '../../dev/calibration/appsscript.json'), 'utf8');

const SCRIPT = `
  function addTabThroughApi(title) {
    var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    Sheets.Spreadsheets.batchUpdate({ requests: [{ addSheet: { properties: { title: title } } }] }, spreadsheet.getId());
    return spreadsheet.getSheetByName(title) !== null;
  }
  function serviceShows(title) { return SpreadsheetApp.getActiveSpreadsheet().getSheetByName(title) !== null; }
  function userTriggerCount() {
    ScriptApp.newTrigger('refresh').timeBased().everyHours(1).create();
    return ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).length;
  }
  function refresh() {}
  /** @customfunction */
  function STORES() {
    return [PropertiesService.getDocumentProperties() !== null, CacheService.getDocumentCache() !== null].join();
  }
  /** @customfunction */
  function INSTANT(date) { return date.toISOString(); }
  function metadataCount() { return SpreadsheetApp.getActiveSpreadsheet().getDeveloperMetadata().length; }
  function putTwoLargeValues() {
    var large = new Array(60 * 1024 + 1).join('x');
    CacheService.getScriptCache().putAll({ a: large, b: large }, 60);
    return CacheService.getScriptCache().get('b').length;
  }
  function giveDate() { return { at: new Date(0) }; }
  function nameOf(id) { return SpreadsheetApp.openById(id).getName(); }
  function writeThroughApi(id) {
    Sheets.Spreadsheets.Values.update({ values: [['x']] }, id, 'Sheet1!A1', { valueInputOption: 'RAW' });
    return 'written';
  }
  function semicolonLinkShows() {
    var cell = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1');
    cell.setValue('=HYPERLINK("https://example.com";"x")');
    return cell.getValues()[0][0];
  }
`;

function emulatorReading(readings: Partial<GoogleReadings>): { emulator: Emulator; id: string } {
  const emulator = emulate(SCRIPT, { files: { 'appsscript.json': MANIFEST }, readings });
  return { emulator, id: emulator.createSpreadsheet({ timeZone: 'America/New_York' }) };
}

/** What a script observes of each behaviour, under the given readings. */
const OBSERVE: { [name in keyof GoogleReadings]: (readings: Partial<GoogleReadings>) => unknown } = {
  spreadsheetServiceSeesApiTab(readings) {
    const { emulator, id } = emulatorReading(readings);
    return {
      sameExecution: emulator.run('addTabThroughApi', ['From the API'], { spreadsheetId: id }),
      nextExecution: emulator.run('serviceShows', ['From the API'], { spreadsheetId: id }),
    };
  },
  userTriggersListClockTriggers(readings) {
    const { emulator, id } = emulatorReading(readings);
    return emulator.run('userTriggerCount', [], { spreadsheetId: id });
  },
  documentStoresInCustomFunction(readings) {
    const { emulator, id } = emulatorReading(readings);
    return emulator.customFunction(id, 'STORES');
  },
  customFunctionDateZone(readings) {
    const { emulator, id } = emulatorReading(readings);
    const workbook = emulator.workbooks.get(id)!;
    workbook.typeValues('Sheet1!A1:B1', [['2024-09-01', '=INSTANT(A1)']]);
    workbook.recalculate();
    return workbook.sheet('Sheet1').values('B1')[0]![0];
  },
  developerMetadataInLimited(readings) {
    const { emulator, id } = emulatorReading(readings);
    try {
      return emulator.run('metadataCount', [], {
        kind: 'simple-trigger',
        authMode: 'LIMITED',
        spreadsheetId: id,
      });
    } catch (error) {
      return (error as Error).message;
    }
  },
  cachePutAllLimit(readings) {
    const { emulator } = emulatorReading(readings);
    try {
      return emulator.run('putTwoLargeValues');
    } catch (error) {
      return (error as Error).message;
    }
  },
  unserialisableReturn(readings) {
    const { emulator, id } = emulatorReading(readings);
    try {
      return { success: emulator.callServer(id, 'giveDate') };
    } catch (error) {
      return { failure: (error as Error).message };
    }
  },
  trashedSpreadsheetOpens(readings) {
    const { emulator } = emulatorReading(readings);
    const trashed = emulator.createSpreadsheet({ name: 'In the trash' });
    emulator.workbooks.trash(trashed);
    const seen = (name: string) => {
      try {
        return emulator.run(name, [trashed]);
      } catch (error) {
        return (error as Error).message.replace(trashed, 'ID');
      }
    };
    return { service: seen('nameOf'), api: seen('writeThroughApi') };
  },
  semicolonArgumentsInEveryLocale(readings) {
    // en_GB, the emulator's default locale: it writes decimals with a point.
    const { emulator, id } = emulatorReading(readings);
    return emulator.run('semicolonLinkShows', [], { spreadsheetId: id });
  },
};

const SEEN: { [name in keyof GoogleReadings]: { stricter: unknown; looser: unknown } } = {
  spreadsheetServiceSeesApiTab: {
    stricter: { sameExecution: false, nextExecution: true },
    looser: { sameExecution: true, nextExecution: true },
  },
  userTriggersListClockTriggers: { stricter: 0, looser: 1 },
  documentStoresInCustomFunction: { stricter: { value: 'false,false' }, looser: { value: 'true,true' } },
  // Midnight of 1 September in New York is 04:00 UTC; the script's zone is Etc/UTC.
  customFunctionDateZone: { stricter: '2024-09-01T00:00:00.000Z', looser: '2024-09-01T04:00:00.000Z' },
  developerMetadataInLimited: {
    stricter: 'You do not have permission to call getDeveloperMetadata',
    looser: 0,
  },
  cachePutAllLimit: { stricter: 'Argument too large: value', looser: 60 * 1024 },
  unserialisableReturn: {
    stricter: { failure: 'Failed due to illegal value in property: at' },
    looser: { success: null },
  },
  trashedSpreadsheetOpens: {
    stricter: {
      service: "Document ID is missing (perhaps it was deleted, or you don't have read access?)",
      api: 'API call to sheets.spreadsheets.values.update failed with error: Requested entity was not found.',
    },
    looser: { service: 'In the trash', api: 'written' },
  },
  semicolonArgumentsInEveryLocale: { stricter: '#ERROR!', looser: 'x' },
};

test.each(Object.keys(OBSERVE) as Array<keyof GoogleReadings>)('%s: a script sees either reading', (name) => {
  const observe = OBSERVE[name];
  expect({
    stricter: observe({ [name]: STRICTER_READINGS[name] }),
    looser: observe({ [name]: LOOSER_READINGS[name] }),
  }).toEqual(SEEN[name]);
});
