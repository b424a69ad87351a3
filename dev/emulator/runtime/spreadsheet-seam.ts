/**
 * The one place the runtime touches the Spreadsheet service (dev/emulator/spreadsheet, written
 * alongside it): its factory, its store of documents, and the menus its Ui recorded.
 */
import {
  type CloudProjectApi,
  createSpreadsheetService,
  SheetsApiQuotas,
  type MenuEntry,
  type RecordedMenu,
  SPREADSHEET_SERVICE_CLASSES,
  UnknownFunctionError,
  type WorkbookStore,
} from '../spreadsheet';

export { type CloudProjectApi, createSpreadsheetService, SheetsApiQuotas, UnknownFunctionError };

/** Whether calls of this class go to the Sheets backend (and so cost a round trip on Google). */
export function isSpreadsheetServiceClass(className: string): boolean {
  return SPREADSHEET_SERVICE_CLASSES.has(className);
}
export type { WorkbookStore };

export interface MenuItemFound {
  caption: string;
  functionName: string;
}

/**
 * The item at `path` (captions from the menu's title down): the add-on menu is titled with the
 * add-on's name, as Sheets shows it under Extensions.
 */
export function findMenuItem(
  menus: readonly RecordedMenu[],
  addOnName: string,
  path: readonly string[],
): MenuItemFound | undefined {
  const [title, ...captions] = path;
  const menu = menus.find((candidate) => (candidate.caption ?? addOnName) === title);
  let entries: readonly MenuEntry[] = menu ? menu.entries : [];
  for (const [index, caption] of captions.entries()) {
    const entry = entries.find(
      (candidate) => candidate.kind !== 'separator' && candidate.caption === caption,
    );
    if (!entry || entry.kind === 'separator') return undefined;
    if (index === captions.length - 1) return entry.kind === 'item' ? entry : undefined;
    if (entry.kind !== 'submenu') return undefined;
    entries = entry.entries;
  }
  return undefined;
}

/** Every clickable path, for an error message that helps. */
export function menuPaths(menus: readonly RecordedMenu[], addOnName: string): string[][] {
  const paths: string[][] = [];
  const walk = (entries: readonly MenuEntry[], prefix: string[]) => {
    for (const entry of entries) {
      if (entry.kind === 'item') paths.push([...prefix, entry.caption]);
      if (entry.kind === 'submenu') walk(entry.entries, [...prefix, entry.caption]);
    }
  };
  for (const menu of menus) walk(menu.entries, [menu.caption ?? addOnName]);
  return paths;
}
