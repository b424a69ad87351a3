/**
 * Benchmark reference code, not part of the add-on: what both reference import scripts share, as a
 * second file of the same Apps Script project (all files of a project share one global scope; the
 * bench loads this one with each reference). The service's base URL and token come from the script
 * properties SERVICE_URL and SERVICE_TOKEN.
 */
/* global PropertiesService, UrlFetchApp */
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

function serviceSettings() {
  var properties = PropertiesService.getScriptProperties();
  return { url: properties.getProperty('SERVICE_URL'), token: properties.getProperty('SERVICE_TOKEN') };
}

/** One POST with the token in the JSON body; any error but the `tolerated` ones stops the import. */
function callService(service, method, params, tolerated) {
  var request = { token: service.token };
  for (var name in params) request[name] = params[name];
  var response = UrlFetchApp.fetch(service.url + '/v1/' + method, {
    method: 'post',
    contentType: 'application/json',
    payload: JSON.stringify(request),
  });
  var answer = JSON.parse(response.getContentText());
  if (!answer.ok && (tolerated || []).indexOf(answer.error) === -1) {
    throw new Error(method + ' failed: ' + answer.error + ' ' + (answer.description || ''));
  }
  return answer;
}

/** Names by user id, each asked of the service once (an unknown id gets an empty name). */
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
