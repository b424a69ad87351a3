/**
 * Small JSON state that belongs to one spreadsheet and must be readable by every run that works on
 * it: import options, an import's cursor, the refresh schedule. It lives in the
 * spreadsheet's developer metadata (visible to this project only), not in document properties:
 * a time-driven trigger has no active document, so PropertiesService.getDocumentProperties() is
 * null there, while a spreadsheet opened by id still has its metadata.
 *
 * Developer metadata is not a place for secrets (viewers of the document can reach it through the
 * Sheets API): no token is ever kept here.
 *
 * Finding an item is a read of the spreadsheet, and Apps Script commits every buffered write before
 * a read (0.3–0.8 s each on Google). So a run reads the whole state once, when it takes the run
 * lease, and writes through the items it found: a DocumentState written after the run's tabs costs
 * no commit of its own.
 */

/** What reads the state takes: the state a run holds (read once), or the spreadsheet. */
export type StateOrSpreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet | DocumentState;

/** Each key is one metadata item, so that runs writing different keys never overwrite each other. */
interface Entry {
  /** Read when first asked for (each value is a call): undefined until then. */
  value?: string;
  /** Null for an item this view added: Apps Script returns no handle to it. */
  item: GoogleAppsScript.Spreadsheet.DeveloperMetadata | null;
}

export class DocumentState {
  readonly #spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet;
  readonly #entries: Map<string, Entry>;

  private constructor(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet, entries: Map<string, Entry>) {
    this.#spreadsheet = spreadsheet;
    this.#entries = entries;
  }

  /** The state as the spreadsheet holds it now: one read of its developer metadata. */
  static read(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): DocumentState {
    return new DocumentState(spreadsheet, readEntries(spreadsheet));
  }

  /** The state a run already holds, or the spreadsheet's read now. */
  static of(source: StateOrSpreadsheet): DocumentState {
    return source instanceof DocumentState ? source : DocumentState.read(source);
  }

  get<T>(key: string): T | null {
    const entry = this.#entries.get(key);
    if (entry && entry.value === undefined) entry.value = entry.item?.getValue() ?? '';
    const value = entry?.value;
    if (!value) return null;
    try {
      return JSON.parse(value) as T;
    } catch {
      return null;
    }
  }

  /** Writes without reading, unless this view added the key itself and must find its item. */
  set(key: string, value: unknown): void {
    const json = JSON.stringify(value);
    const item = this.#itemOf(key);
    if (item) item.setValue(json);
    else {
      this.#spreadsheet.addDeveloperMetadata(key, json, SpreadsheetApp.DeveloperMetadataVisibility.PROJECT);
    }
    this.#entries.set(key, { value: json, item });
  }

  delete(key: string): void {
    this.#itemOf(key)?.remove();
    this.#entries.delete(key);
  }

  #itemOf(key: string): GoogleAppsScript.Spreadsheet.DeveloperMetadata | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    return entry.item ?? readEntries(this.#spreadsheet).get(key)?.item ?? null;
  }
}

function readEntries(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): Map<string, Entry> {
  const visibility = SpreadsheetApp.DeveloperMetadataVisibility.PROJECT;
  const entries = new Map<string, Entry>();
  for (const item of spreadsheet.getDeveloperMetadata()) {
    const key = item.getKey();
    if (!entries.has(key) && item.getVisibility() === visibility) entries.set(key, { item });
  }
  return entries;
}

/** One key, read on its own: for what runs outside a run (dialogs, menus, custom functions). */
export function readDocumentState<T>(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  key: string,
): T | null {
  return DocumentState.read(spreadsheet).get<T>(key);
}

export function writeDocumentState(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  key: string,
  value: unknown,
): void {
  DocumentState.read(spreadsheet).set(key, value);
}

export function deleteDocumentState(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  key: string,
): void {
  DocumentState.read(spreadsheet).delete(key);
}
