/**
 * Small JSON state that belongs to one spreadsheet and must be readable by every run that works on
 * it: import options, an import's cursor, the refresh schedule, the run lease. It lives in the
 * spreadsheet's developer metadata (visible to this project only), not in document properties:
 * a time-driven trigger has no active document, so PropertiesService.getDocumentProperties() is
 * null there, while a spreadsheet opened by id still has its metadata.
 *
 * Developer metadata is not a place for secrets (viewers of the document can reach it through the
 * Sheets API): no token is ever kept here.
 */

/** Each key is one metadata item, so that runs writing different keys never overwrite each other. */
function findItem(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  key: string,
): GoogleAppsScript.Spreadsheet.DeveloperMetadata | null {
  const visibility = SpreadsheetApp.DeveloperMetadataVisibility.PROJECT;
  for (const item of spreadsheet.getDeveloperMetadata()) {
    if (item.getKey() === key && item.getVisibility() === visibility) return item;
  }
  return null;
}

export function readDocumentState<T>(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  key: string,
): T | null {
  const value = findItem(spreadsheet, key)?.getValue();
  if (!value) return null;
  try {
    return JSON.parse(value) as T;
  } catch {
    return null;
  }
}

export function writeDocumentState(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  key: string,
  value: unknown,
): void {
  const json = JSON.stringify(value);
  const item = findItem(spreadsheet, key);
  if (item) item.setValue(json);
  else spreadsheet.addDeveloperMetadata(key, json, SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
}

export function deleteDocumentState(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  key: string,
): void {
  findItem(spreadsheet, key)?.remove();
}
