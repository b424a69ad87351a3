/**
 * Benchmark reference, not part of the add-on: what an Apps Script expert writes to import every
 * completed training. The competent reference's read (page 1, then every other page and every
 * user's name in fetchAll batches), then the table written through the Sheets advanced service
 * (Values.update, RAW), which Google prices at a fraction of setValues' cost per cell, in requests of
 * at most 2 MB. `npm run bench` runs it (with reference-service.js) in the emulator against the same
 * sample service and data as the add-on, and reports the add-on against it.
 */
/* global SpreadsheetApp, Sheets, serviceSettings, readEverythingAtOnce, completionTable, emptiedSheetWithRows, SHEET_NAME */

/** Google's recommended largest Sheets API request, less room for the request's own fields. */
var MAX_REQUEST_BYTES = 2 * 1024 * 1024 - 1024;

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the entry point, run by name
function importCompletedTrainings() {
  var everything = readEverythingAtOnce(serviceSettings());
  var table = completionTable(everything.records, everything.nameOf);
  emptiedSheetWithRows(table.length);
  // The API writes to the spreadsheet as Google holds it: the tab, its rows and its clearing must be
  // committed first (the API refuses a range beyond the committed grid, and Apps Script would send
  // its buffered clearing after the API's values).
  SpreadsheetApp.flush();
  var spreadsheetId = SpreadsheetApp.getActiveSpreadsheet().getId();
  var quotedName = "'" + SHEET_NAME.replace(/'/g, "''") + "'";
  requestSizedRuns(table).forEach(function (run) {
    Sheets.Spreadsheets.Values.update({ values: run.rows }, spreadsheetId, quotedName + '!A' + run.firstRow, {
      valueInputOption: 'RAW',
    });
  });
}

/** The table cut into runs of consecutive rows whose JSON fits in one request; firstRow counts from 1. */
function requestSizedRuns(table) {
  var runs = [];
  var run = { firstRow: 1, rows: [] };
  var bytes = 0;
  table.forEach(function (row, index) {
    var rowBytes = utf8Bytes(JSON.stringify(row)) + 1;
    if (run.rows.length > 0 && bytes + rowBytes > MAX_REQUEST_BYTES) {
      runs.push(run);
      run = { firstRow: index + 1, rows: [] };
      bytes = 0;
    }
    run.rows.push(row);
    bytes += rowBytes;
  });
  runs.push(run);
  return runs;
}

/** Bytes of `text` in UTF-8, as the request body carries it: each escaped byte counted as one. */
function utf8Bytes(text) {
  return encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, '#').length;
}
