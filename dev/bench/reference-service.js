/**
 * Benchmark reference code, not part of the add-on: what the reference import scripts share, as a
 * second file of the same Apps Script project (all files of a project share one global scope; the
 * bench loads this one with each reference). The service's base URL and token come from the script
 * properties SERVICE_URL and SERVICE_TOKEN.
 */
/* global PropertiesService, SpreadsheetApp, UrlFetchApp */
/* eslint-disable @typescript-eslint/no-unused-vars -- used by the reference script loaded with this file */

var SHEET_NAME = 'Completed trainings';
var HEADER = [
  'User ID',
  'User name',
  'Training ID',
  'Completion date',
  'Special expiration date',
  'Instructor ID',
  'Instructor name',
  'Group training ID',
  'Created',
];
/** The largest page the service serves. */
var PAGE_SIZE = 1000;
/**
 * The most requests sent in one fetchAll. Apps Script documents no limit, but a careful script keeps
 * a batch manageable: one request that fails throws away the answers of the whole batch, and every
 * answer of it is held at once (100 pages of 1,000 records are about 10 MB).
 */
var FETCH_ALL_REQUESTS = 100;

function serviceSettings() {
  var properties = PropertiesService.getScriptProperties();
  return { url: properties.getProperty('SERVICE_URL'), token: properties.getProperty('SERVICE_TOKEN') };
}

function methodUrl(service, method) {
  return service.url + '/v1/' + method;
}

/** The options of one POST with the token in the JSON body. */
function postOptions(service, params) {
  var request = { token: service.token };
  for (var name in params) request[name] = params[name];
  return { method: 'post', contentType: 'application/json', payload: JSON.stringify(request) };
}

/** The service's answer, unless it is an error other than the `tolerated` ones: that stops the import. */
function checkedAnswer(method, response, tolerated) {
  var answer = JSON.parse(response.getContentText());
  if (!answer.ok && (tolerated || []).indexOf(answer.error) === -1) {
    throw new Error(method + ' failed: ' + answer.error + ' ' + (answer.description || ''));
  }
  return answer;
}

/** One request, answered before the script goes on. */
function callService(service, method, params, tolerated) {
  var response = UrlFetchApp.fetch(methodUrl(service, method), postOptions(service, params));
  return checkedAnswer(method, response, tolerated);
}

/**
 * The answers to `calls` ({ method, params, tolerated }), in their order: FETCH_ALL_REQUESTS at a
 * time in one fetchAll each, so that the service answers them side by side.
 */
function fetchAllJson(service, calls) {
  var answers = [];
  for (var first = 0; first < calls.length; first += FETCH_ALL_REQUESTS) {
    var batch = calls.slice(first, first + FETCH_ALL_REQUESTS);
    var responses = UrlFetchApp.fetchAll(
      batch.map(function (call) {
        var request = postOptions(service, call.params);
        request.url = methodUrl(service, call.method);
        return request;
      }),
    );
    responses.forEach(function (response, index) {
      answers.push(checkedAnswer(batch[index].method, response, batch[index].tolerated));
    });
  }
  return answers;
}

/** Names by user id, each asked of the service once, when first needed (an unknown id gets an empty name). */
function userNames(service) {
  var names = {};
  return function nameOf(id) {
    if (!(id in names)) {
      var answer = callService(service, 'users.info', { user: id }, ['content_not_found']);
      names[id] = answer.ok ? answer.user.name : '';
    }
    return names[id];
  };
}

/**
 * Every completion and the name of every user they mention, read with as few waits as a script can
 * manage: page 1 (its paging says how many pages follow), every other page at once, then every
 * distinct user and instructor id at once. An unknown id, or none, gets an empty name.
 */
function readEverythingAtOnce(service) {
  var firstPage = callService(service, 'completedtrainings.list', { limit: PAGE_SIZE, page: 1 });
  var laterPages = [];
  for (var page = 2; page <= firstPage.paging.last_page; page++) {
    laterPages.push({ method: 'completedtrainings.list', params: { limit: PAGE_SIZE, page: page } });
  }
  var records = firstPage.completedtrainings.slice();
  fetchAllJson(service, laterPages).forEach(function (answer) {
    Array.prototype.push.apply(records, answer.completedtrainings);
  });

  var names = Object.create(null);
  var userIds = [];
  records.forEach(function (record) {
    [record.user_id, record.instructor_id].forEach(function (id) {
      if (id && !(id in names)) {
        names[id] = '';
        userIds.push(id);
      }
    });
  });
  var lookups = userIds.map(function (id) {
    return { method: 'users.info', params: { user: id }, tolerated: ['content_not_found'] };
  });
  fetchAllJson(service, lookups).forEach(function (answer, index) {
    if (answer.ok) names[userIds[index]] = answer.user.name;
  });
  return {
    records: records,
    nameOf: function (id) {
      return names[id] || '';
    },
  };
}

/** A completion as a row under HEADER. */
function completionRow(record, nameOf) {
  return [
    record.user_id,
    nameOf(record.user_id),
    record.training_id,
    record.dateNumber,
    record.specialExpirationDateNumber || '',
    record.instructor_id,
    nameOf(record.instructor_id),
    record.groupTraining_id,
    record.created,
  ];
}

/** HEADER and a row per completion. */
function completionTable(records, nameOf) {
  return [HEADER].concat(
    records.map(function (record) {
      return completionRow(record, nameOf);
    }),
  );
}

/** The tab, emptied, with at least `rows` rows. */
function emptiedSheetWithRows(rows) {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = spreadsheet.getSheetByName(SHEET_NAME) || spreadsheet.insertSheet(SHEET_NAME);
  sheet.clearContents();
  // A range beyond the sheet's last row does not exist: make room first.
  var missingRows = rows - sheet.getMaxRows();
  if (missingRows > 0) sheet.insertRowsAfter(sheet.getMaxRows(), missingRows);
  return sheet;
}

/** The whole table in one setValues. */
function writeTableWithSetValues(table) {
  emptiedSheetWithRows(table.length).getRange(1, 1, table.length, HEADER.length).setValues(table);
}
