/**
 * What the user would have seen in a document's UI: menus, alerts, prompts, dialogs, sidebars and
 * toasts, in order. Tests read it, and script the user's answers to alerts and prompts in advance.
 */

export type ButtonName = 'OK' | 'CANCEL' | 'YES' | 'NO' | 'CLOSE';
export type ButtonSetName = 'OK' | 'OK_CANCEL' | 'YES_NO' | 'YES_NO_CANCEL';

export const BUTTONS_OF_SET: Readonly<Record<ButtonSetName, readonly ButtonName[]>> = {
  OK: ['OK'],
  OK_CANCEL: ['OK', 'CANCEL'],
  YES_NO: ['YES', 'NO'],
  YES_NO_CANCEL: ['YES', 'NO', 'CANCEL'],
};

export type MenuEntry =
  | { kind: 'item'; caption: string; functionName: string }
  | { kind: 'separator' }
  | { kind: 'submenu'; caption: string; entries: MenuEntry[] };

export interface RecordedMenu {
  /** Null for the add-on menu (Sheets titles it with the add-on's name). */
  caption: string | null;
  entries: MenuEntry[];
}

export interface ScriptedAnswer {
  button: ButtonName;
  /** Only for prompts: what the user typed. */
  text?: string;
}

export interface RecordedDialogBox {
  kind: 'alert' | 'prompt';
  title: string | null;
  message: string;
  buttons: ButtonSetName;
  answer: ScriptedAnswer;
}

export interface RecordedDialog {
  kind: 'modal' | 'modeless' | 'sidebar';
  /** The HtmlOutput exactly as the script passed it. */
  output: unknown;
  /** The title argument; null for sidebars (their title is the HtmlOutput's). */
  title: string | null;
}

export interface RecordedToast {
  message: string;
  title: string;
  timeoutSeconds: number | null;
}

export class UiRecorder {
  readonly menus: RecordedMenu[] = [];
  readonly alerts: RecordedDialogBox[] = [];
  readonly prompts: RecordedDialogBox[] = [];
  readonly dialogs: RecordedDialog[] = [];
  readonly toasts: RecordedToast[] = [];
  #answers: ScriptedAnswer[] = [];

  /** The user's next answer to an alert or prompt, in the order they will be shown. */
  answerNext(answer: ScriptedAnswer): void {
    this.#answers.push({ ...answer });
  }

  /** Answers scripted but not yet used: a test can assert that every expected dialog was shown. */
  pendingAnswers(): number {
    return this.#answers.length;
  }

  /** A top-level menu's item (searched in submenus too) by caption. */
  findMenuItem(caption: string): { caption: string; functionName: string } | undefined {
    const search = (entries: MenuEntry[]): { caption: string; functionName: string } | undefined => {
      for (const entry of entries) {
        if (entry.kind === 'item' && entry.caption === caption) return entry;
        if (entry.kind === 'submenu') {
          const found = search(entry.entries);
          if (found) return found;
        }
      }
      return undefined;
    };
    for (const menu of this.menus) {
      const found = search(menu.entries);
      if (found) return found;
    }
    return undefined;
  }

  recordMenu(menu: RecordedMenu): void {
    const existing = this.menus.findIndex((shown) => shown.caption === menu.caption);
    if (existing === -1) this.menus.push(menu);
    else this.menus[existing] = menu;
  }

  /**
   * The scripted answer, or the user closing the box when none is left: OK for an alert that has an OK
   * button, CANCEL for a prompt that has a Cancel button, otherwise CLOSE (the title bar's ×).
   */
  answer(kind: 'alert' | 'prompt', buttons: ButtonSetName): ScriptedAnswer {
    const offered = BUTTONS_OF_SET[buttons];
    const scripted = this.#answers.shift();
    if (scripted) {
      if (scripted.button !== 'CLOSE' && !offered.includes(scripted.button)) {
        throw new Error(
          `Scripted answer ${scripted.button} is not a button of the ${kind} shown (${buttons}).`,
        );
      }
      if (kind === 'alert' && scripted.text !== undefined) {
        throw new Error('A scripted answer with text was given to an alert, which has no text field.');
      }
      return kind === 'prompt'
        ? { button: scripted.button, text: scripted.text ?? '' }
        : { button: scripted.button };
    }
    const fallback: ButtonName = kind === 'alert' ? 'OK' : 'CANCEL';
    const button = offered.includes(fallback) ? fallback : 'CLOSE';
    return kind === 'prompt' ? { button, text: '' } : { button };
  }
}
