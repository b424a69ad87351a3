/**
 * The script-visible Ui of a spreadsheet (SpreadsheetApp.getUi()): menus, alerts, prompts, dialogs and
 * sidebars, all recorded on the document's UiRecorder; answers come from the answers a test scripted.
 */
import { strict } from '../core';
import { requireString, signatureMismatch } from './arguments';
import { BUTTON_SETS, isMemberOf } from './script-enums';
import type { ServiceEnv } from './service-env';
import type { ButtonSetName, MenuEntry, UiRecorder } from './ui-recorder';

type Ui = GoogleAppsScript.Base.Ui;
type Menu = GoogleAppsScript.Base.Menu;
type Button = GoogleAppsScript.Base.Button;
type PromptResponse = GoogleAppsScript.Base.PromptResponse;
type HtmlOutput = GoogleAppsScript.HTML.HtmlOutput;

export function exposeUi(env: ServiceEnv, recorder: UiRecorder): Ui {
  return new UiApi(env, recorder) as unknown as Ui;
}

/** A menu being built; submenus are resolved when the top-level menu is added to the UI. */
interface MenuDraft {
  caption: string | null;
  entries: (
    | { kind: 'item'; caption: string; functionName: string }
    | { kind: 'separator' }
    | { kind: 'submenu'; menu: MenuDraft }
  )[];
}

const menuDrafts = new WeakMap<object, MenuDraft>();

function resolveEntries(draft: MenuDraft): MenuEntry[] {
  return draft.entries.map((entry) =>
    entry.kind === 'submenu'
      ? { kind: 'submenu', caption: entry.menu.caption ?? '', entries: resolveEntries(entry.menu) }
      : { ...entry },
  );
}

/** Whether `menu` is `target` or has it among its submenus: adding it would make a cycle. */
function containsMenu(menu: MenuDraft, target: MenuDraft): boolean {
  return (
    menu === target ||
    menu.entries.some((entry) => entry.kind === 'submenu' && containsMenu(entry.menu, target))
  );
}

/** alert/prompt take (message), (message, buttons) or (title, message, buttons). */
function dialogArguments(
  method: string,
  args: unknown[],
): { title: string | null; message: string; buttons: ButtonSetName } {
  const [first, second, third] = args;
  if (args.length === 1 && typeof first === 'string') return { title: null, message: first, buttons: 'OK' };
  if (args.length === 2 && typeof first === 'string' && isMemberOf(BUTTON_SETS, second)) {
    return { title: null, message: first, buttons: second };
  }
  if (
    args.length === 3 &&
    typeof first === 'string' &&
    typeof second === 'string' &&
    isMemberOf(BUTTON_SETS, third)
  ) {
    return { title: first, message: second, buttons: third };
  }
  throw signatureMismatch(`Ui.${method}`, args);
}

class UiApi implements Pick<
  Ui,
  | 'Button'
  | 'ButtonSet'
  | 'alert'
  | 'prompt'
  | 'createMenu'
  | 'createAddonMenu'
  | 'showModalDialog'
  | 'showModelessDialog'
  | 'showSidebar'
> {
  readonly Button: typeof GoogleAppsScript.Base.Button;
  readonly ButtonSet: typeof GoogleAppsScript.Base.ButtonSet;
  readonly #env: ServiceEnv;
  readonly #recorder: UiRecorder;

  constructor(env: ServiceEnv, recorder: UiRecorder) {
    this.Button = env.enums.Button;
    this.ButtonSet = env.enums.ButtonSet;
    this.#env = env;
    this.#recorder = recorder;
    return strict('Ui', this, env.counter);
  }

  alert(...args: unknown[]): Button {
    this.#env.access.dialogs();
    const { title, message, buttons } = dialogArguments('alert', args);
    const answer = this.#recorder.answer('alert', buttons);
    this.#recorder.alerts.push({ kind: 'alert', title, message, buttons, answer });
    return answer.button as unknown as Button;
  }

  prompt(...args: unknown[]): PromptResponse {
    this.#env.access.dialogs();
    const { title, message, buttons } = dialogArguments('prompt', args);
    const answer = this.#recorder.answer('prompt', buttons);
    this.#recorder.prompts.push({ kind: 'prompt', title, message, buttons, answer });
    const response = {
      getResponseText: (): string => answer.text ?? '',
      getSelectedButton: (): Button => answer.button as unknown as Button,
    } satisfies PromptResponse;
    return strict('PromptResponse', response, this.#env.counter);
  }

  createMenu(caption: string): Menu {
    this.#env.access.ui();
    requireString('Ui.createMenu', [caption], caption);
    return new MenuApi(this.#env, this.#recorder, { caption, entries: [] }) as unknown as Menu;
  }

  createAddonMenu(): Menu {
    this.#env.access.ui();
    return new MenuApi(this.#env, this.#recorder, { caption: null, entries: [] }) as unknown as Menu;
  }

  #show(kind: 'modal' | 'modeless' | 'sidebar', args: unknown[], output: unknown, title: unknown): void {
    this.#env.access.dialogs();
    const method = { modal: 'showModalDialog', modeless: 'showModelessDialog', sidebar: 'showSidebar' }[kind];
    if (typeof output !== 'object' || output === null) throw signatureMismatch(`Ui.${method}`, args);
    if (kind !== 'sidebar') requireString(`Ui.${method}`, args, title);
    this.#recorder.dialogs.push({ kind, output, title: kind === 'sidebar' ? null : (title as string) });
  }

  showModalDialog(userInterface: HtmlOutput, title: string): void {
    this.#show('modal', [userInterface, title], userInterface, title);
  }

  showModelessDialog(userInterface: HtmlOutput, title: string): void {
    this.#show('modeless', [userInterface, title], userInterface, title);
  }

  showSidebar(userInterface: HtmlOutput): void {
    this.#show('sidebar', [userInterface], userInterface, undefined);
  }
}

class MenuApi implements Pick<Menu, 'addItem' | 'addSeparator' | 'addSubMenu' | 'addToUi'> {
  readonly #env: ServiceEnv;
  readonly #recorder: UiRecorder;
  readonly #draft: MenuDraft;
  readonly #self: MenuApi;

  constructor(env: ServiceEnv, recorder: UiRecorder, draft: MenuDraft) {
    this.#env = env;
    this.#recorder = recorder;
    this.#draft = draft;
    this.#self = strict('Menu', this, env.counter);
    menuDrafts.set(this.#self, draft);
    return this.#self;
  }

  get #public(): Menu {
    return this.#self as unknown as Menu;
  }

  /** The function name must be a plain (possibly dotted) identifier: Sheets calls it by name. */
  addItem(caption: string, functionName: string): Menu {
    this.#env.access.ui();
    requireString('Menu.addItem', [caption, functionName], caption);
    requireString('Menu.addItem', [caption, functionName], functionName);
    if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(functionName)) {
      throw signatureMismatch('Menu.addItem', [caption, functionName]);
    }
    this.#draft.entries.push({ kind: 'item', caption, functionName });
    return this.#public;
  }

  addSeparator(): Menu {
    this.#env.access.ui();
    this.#draft.entries.push({ kind: 'separator' });
    return this.#public;
  }

  addSubMenu(menu: Menu): Menu {
    this.#env.access.ui();
    const submenu = typeof menu === 'object' && menu !== null ? menuDrafts.get(menu) : undefined;
    if (!submenu || submenu.caption === null || containsMenu(submenu, this.#draft)) {
      throw signatureMismatch('Menu.addSubMenu', [menu]);
    }
    this.#draft.entries.push({ kind: 'submenu', menu: submenu });
    return this.#public;
  }

  addToUi(): void {
    this.#env.access.ui();
    this.#recorder.recordMenu({ caption: this.#draft.caption, entries: resolveEntries(this.#draft) });
  }
}
