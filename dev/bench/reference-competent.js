/**
 * Benchmark reference, not part of the add-on: what a competent Apps Script developer writes to
 * import every completed training. Page 1, then every other page in fetchAll batches (100 requests
 * at most in each) and every user's name likewise, then the whole table in one setValues, its text
 * kept as text. `npm run bench` runs it (with reference-service.js) in the emulator against the same
 * sample service and data as the add-on, and reports the add-on against it.
 */
/* global serviceSettings, readEverythingAtOnce, completionTable, writeTableWithSetValues */

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the entry point, run by name
function importCompletedTrainings() {
  var everything = readEverythingAtOnce(serviceSettings());
  var table = completionTable(everything.records, everything.nameOf).map(function (row) {
    return row.map(keptAsText);
  });
  writeTableWithSetValues(table);
}

/**
 * setValues reads a string as if it were typed: a name such as "=HYPERLINK(…)" or "-Minus" would
 * become a formula, an id such as "00042" the number 42. A leading apostrophe keeps it the text it
 * is (the cell shows it without the apostrophe); it costs nothing more on Google's side.
 */
function keptAsText(value) {
  return typeof value === 'string' && value !== '' ? "'" + value : value;
}
