/**
 * Benchmark reference, not part of the add-on, kept as context: how a careful hand-written Apps
 * Script that waits for every answer imports every completed training. Pages of 1,000 (the service's
 * maximum) read one after another, each user's name looked up once, then the whole table written
 * with one setValues. `npm run bench` runs it (with reference-service.js) in the emulator against the
 * same sample service and data as the add-on.
 */
/* global serviceSettings, callService, userNames, completionTable, writeTableWithSetValues, PAGE_SIZE */

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the entry point, run by name
function importCompletedTrainings() {
  var service = serviceSettings();
  var records = [];
  for (var page = 1, lastPage = 1; page <= lastPage; page++) {
    var answer = callService(service, 'completedtrainings.list', { limit: PAGE_SIZE, page: page });
    Array.prototype.push.apply(records, answer.completedtrainings);
    lastPage = answer.paging.last_page;
  }
  writeTableWithSetValues(completionTable(records, userNames(service)));
}
