/** The document UI: menus recorded as a tree, alerts and prompts answered by scripted answers, dialogs, toasts. */
import { createTestSpreadsheetService } from '../../dev/emulator/spreadsheet/testing';

function setup() {
  const service = createTestSpreadsheetService();
  const id = service.workbooks.create({ name: 'UI' });
  service.context.activeSpreadsheetId = id;
  return { ...service, id, ui: service.SpreadsheetApp.getUi(), recorder: service.workbooks.get(id)!.ui };
}

describe('menus', () => {
  it('records a tree of items, separators and submenus', () => {
    const { ui, recorder } = setup();
    ui.createMenu('Safety Sync')
      .addItem('Import completed trainings…', 'importCompletions')
      .addSeparator()
      .addSubMenu(ui.createMenu('Advanced').addItem('Schedule refresh…', 'scheduleRefresh'))
      .addToUi();
    expect(recorder.menus).toEqual([
      {
        caption: 'Safety Sync',
        entries: [
          { kind: 'item', caption: 'Import completed trainings…', functionName: 'importCompletions' },
          { kind: 'separator' },
          {
            kind: 'submenu',
            caption: 'Advanced',
            entries: [{ kind: 'item', caption: 'Schedule refresh…', functionName: 'scheduleRefresh' }],
          },
        ],
      },
    ]);
    expect(recorder.findMenuItem('Schedule refresh…')).toEqual({
      kind: 'item',
      caption: 'Schedule refresh…',
      functionName: 'scheduleRefresh',
    });
  });

  it('replaces a menu added again under the same caption (each onOpen rebuilds it)', () => {
    const { ui, recorder } = setup();
    ui.createAddonMenu().addItem('One', 'one').addToUi();
    ui.createAddonMenu().addItem('Two', 'two').addToUi();
    expect(recorder.menus).toEqual([
      { caption: null, entries: [{ kind: 'item', caption: 'Two', functionName: 'two' }] },
    ]);
  });

  it('refuses function names that are not identifiers, and menus inside themselves', () => {
    const { ui } = setup();
    expect(() => ui.createMenu('M').addItem('Run', 'run()')).toThrow("don't match the method signature");
    const menu = ui.createMenu('M');
    expect(() => menu.addSubMenu(menu)).toThrow("don't match the method signature");
  });
});

describe('alerts and prompts', () => {
  it('answer OK to an alert and CANCEL to a prompt by default, and record them', () => {
    const { ui, recorder } = setup();
    expect(ui.alert('Done')).toBe(ui.Button.OK);
    const response = ui.prompt('Token', 'Paste your token', ui.ButtonSet.OK_CANCEL);
    expect(response.getSelectedButton()).toBe(ui.Button.CANCEL);
    expect(response.getResponseText()).toBe('');
    expect(recorder.alerts).toEqual([
      { kind: 'alert', title: null, message: 'Done', buttons: 'OK', answer: { button: 'OK' } },
    ]);
    expect(recorder.prompts).toEqual([
      {
        kind: 'prompt',
        title: 'Token',
        message: 'Paste your token',
        buttons: 'OK_CANCEL',
        answer: { button: 'CANCEL', text: '' },
      },
    ]);
  });

  it('the user closes a box that offers neither default button', () => {
    const { ui } = setup();
    expect(ui.alert('Continue?', ui.ButtonSet.YES_NO)).toBe(ui.Button.CLOSE);
    expect(ui.prompt('Name?').getSelectedButton()).toBe(ui.Button.CLOSE);
  });

  it('use scripted answers in order', () => {
    const { ui, recorder } = setup();
    recorder.answerNext({ button: 'YES' });
    recorder.answerNext({ button: 'OK', text: 'abc' });
    expect(ui.alert('Replace?', 'Replace the tab?', ui.ButtonSet.YES_NO)).toBe(ui.Button.YES);
    const response = ui.prompt('Token', ui.ButtonSet.OK_CANCEL);
    expect([response.getSelectedButton(), response.getResponseText()]).toEqual([ui.Button.OK, 'abc']);
    expect(recorder.pendingAnswers()).toBe(0);
  });

  it('refuse a scripted answer the dialog cannot give', () => {
    const { ui, recorder } = setup();
    recorder.answerNext({ button: 'YES' });
    expect(() => ui.alert('Only OK')).toThrow('Scripted answer YES is not a button of the alert shown (OK).');
    recorder.answerNext({ button: 'OK', text: 'typed' });
    expect(() => ui.alert('No field')).toThrow('has no text field');
  });

  it('refuse arguments that match no signature', () => {
    const { ui } = setup();
    expect(() => ui.alert('a', 'b' as never)).toThrow("don't match the method signature");
    expect(() => ui.alert(42 as never)).toThrow("don't match the method signature");
  });

  it('expose the button enums strictly', () => {
    const { ui } = setup();
    expect(String(ui.ButtonSet.YES_NO_CANCEL)).toBe('YES_NO_CANCEL');
    expect(() => (ui.Button as unknown as Record<string, unknown>).MAYBE).toThrow(
      'not emulated: Button.MAYBE',
    );
  });
});

describe('dialogs, sidebars and toasts', () => {
  it('records the HtmlOutput as given, with the title', () => {
    const { ui, recorder } = setup();
    const output = { getContent: () => '<p>Settings</p>' };
    ui.showModalDialog(output as never, 'Settings');
    ui.showModelessDialog(output as never, 'Progress');
    ui.showSidebar(output as never);
    expect(recorder.dialogs).toEqual([
      { kind: 'modal', output, title: 'Settings' },
      { kind: 'modeless', output, title: 'Progress' },
      { kind: 'sidebar', output, title: null },
    ]);
    expect(recorder.dialogs[0]!.output).toBe(output);
    expect(() => ui.showModalDialog(output as never, undefined as never)).toThrow(
      "don't match the method signature",
    );
  });

  it('records toasts with title and timeout', () => {
    const { SpreadsheetApp, recorder } = setup();
    const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
    spreadsheet.toast('Imported 120 rows');
    spreadsheet.toast('Imported', 'Safety Sync', 10);
    expect(recorder.toasts).toEqual([
      { message: 'Imported 120 rows', title: '', timeoutSeconds: null },
      { message: 'Imported', title: 'Safety Sync', timeoutSeconds: 10 },
    ]);
  });

  it('counts UI calls like any other service call', () => {
    const { ui, counter } = setup();
    counter.reset();
    ui.createMenu('M').addItem('a', 'a').addToUi();
    expect(counter.snapshot()).toEqual({ 'Menu.addItem': 1, 'Menu.addToUi': 1, 'Ui.createMenu': 1 });
  });
});
