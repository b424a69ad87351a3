/**
 * The services an Apps Script project sees as globals, as the tests state them (independently of
 * the emulator's own list, which they check).
 */
export const APPS_SCRIPT_GLOBALS = [
  'SpreadsheetApp',
  'UrlFetchApp',
  'MailApp',
  'PropertiesService',
  'CacheService',
  'LockService',
  'ScriptApp',
  'HtmlService',
  'Utilities',
  'Session',
  'Logger',
  'console',
];
