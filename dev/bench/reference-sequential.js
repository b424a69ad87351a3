/**
 * Benchmark reference, not part of the add-on: how a careful hand-written Apps Script imports every
 * completed training. Pages of 1,000 (the service's maximum) read one after another, each user's
 * name looked up once, then the whole table written with one setValues. `npm run bench` runs it
 * (with reference-service.js) in the emulator against the same sample service and data as the add-on.
 */
/* global SpreadsheetApp, serviceSettings, callService, userNames, completionRow, SHEET_NAME, HEADER */

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the entry point, run by name
function importCompletedTrainings() {
  var service = serviceSettings();
  var records = [];
  for (var page = 1, lastPage = 1; page <= lastPage; page++) {
    var answer = callService(service, 'completedtrainings.list', { limit: 1000, page: page });
    Array.prototype.push.apply(records, answer.completedtrainings);
    lastPage = answer.paging.last_page;
  }
  var nameOf = userNames(service);
  var table = [HEADER].concat(
    records.map(function (record) {
      return completionRow(record, nameOf);
    }),
  );
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = spreadsheet.getSheetByName(SHEET_NAME) || spreadsheet.insertSheet(SHEET_NAME);
  sheet.clearContents();
  // A range beyond the sheet's last row does not exist: make room first.
  var missingRows = table.length - sheet.getMaxRows();
  if (missingRows > 0) sheet.insertRowsAfter(sheet.getMaxRows(), missingRows);
  sheet.getRange(1, 1, table.length, HEADER.length).setValues(table);
}
