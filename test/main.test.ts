/**
 * The built add-on's entry points in the contexts Apps Script runs them in: onOpen in every auth
 * mode, a menu click, and menu functions typed into a cell (refused: no UI, no writes there).
 */
import { createEmulator, loadDist } from '../dev/emulator';
import { MENU_ITEMS } from '../src/menu';
import { DIST_DIR } from './support/addon-harness';

const MENU_CAPTIONS = MENU_ITEMS.flatMap((item) => (item ? [item.caption] : []));

function freshSpreadsheet() {
  const emulator = createEmulator(loadDist(DIST_DIR));
  const id = emulator.createSpreadsheet({ name: 'Safety' });
  const workbook = emulator.workbooks.get(id)!;
  return { emulator, id, workbook };
}

function addOnMenuCaptions(workbook: ReturnType<typeof freshSpreadsheet>['workbook']): string[] {
  const menu = workbook.ui.menus.find((shown) => shown.caption === null);
  return (menu?.entries ?? []).flatMap((entry) => (entry.kind === 'item' ? [entry.caption] : []));
}

test.each(['NONE', 'LIMITED', 'FULL'] as const)('onOpen in AuthMode.%s builds the whole menu', (authMode) => {
  const { emulator, id, workbook } = freshSpreadsheet();
  expect(() => emulator.onOpen(id, { authMode })).not.toThrow();
  // A spreadsheet never refreshed has no "Last refreshed" status line yet.
  expect(addOnMenuCaptions(workbook)).toEqual(MENU_CAPTIONS);
});

test('a menu click runs its function: Settings… opens the settings dialog', () => {
  const { emulator, id, workbook } = freshSpreadsheet();
  emulator.onOpen(id);
  emulator.clickMenu(id, 'Safety Sync', 'Settings…');
  expect(workbook.ui.dialogs.map((dialog) => [dialog.kind, dialog.title])).toEqual([
    ['modal', 'Safety Sync settings'],
  ]);
});

test.each(MENU_ITEMS.flatMap((item) => (item ? [item] : [])))(
  '$functionName typed into a cell is refused and changes nothing',
  ({ functionName }) => {
    const { emulator, id, workbook } = freshSpreadsheet();
    const result = emulator.customFunction(id, functionName, []);
    expect(result).toEqual({ error: expect.stringMatching(/can only be used from the Safety Sync menu/) });
    expect(workbook.sheetNames).toEqual(['Sheet1']);
    expect(workbook.ui.dialogs).toEqual([]);
    expect(emulator.urlFetch.requests).toEqual([]);
  },
);
