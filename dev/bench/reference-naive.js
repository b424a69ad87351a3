/**
 * Benchmark reference, not part of the add-on, kept as context: what the usual copy-paste import
 * script does. The service's default page size (100), pages read one after another, one appendRow
 * per record (each user's name looked up once, which is as far as such scripts go). `npm run bench`
 * runs it (with reference-service.js) in the emulator against the same sample service and data as
 * the add-on.
 */
/* global SpreadsheetApp, serviceSettings, callService, userNames, completionRow, SHEET_NAME, HEADER */

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the entry point, run by name
function importCompletedTrainings() {
  var service = serviceSettings();
  var nameOf = userNames(service);
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = spreadsheet.getSheetByName(SHEET_NAME) || spreadsheet.insertSheet(SHEET_NAME);
  sheet.clear();
  sheet.appendRow(HEADER);
  for (var page = 1, lastPage = 1; page <= lastPage; page++) {
    var answer = callService(service, 'completedtrainings.list', { page: page });
    answer.completedtrainings.forEach(function (record) {
      sheet.appendRow(completionRow(record, nameOf));
    });
    lastPage = answer.paging.last_page;
  }
}
