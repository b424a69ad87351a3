/**
 * What every Safety Sync dialog does alike: one status line (role="status") for progress and
 * outcomes, buttons that wait while the server works, and errors shown next to the field they
 * concern. Bundled by dev/build.ts into each dialog's page with that dialog's own script.
 */
import type { ServerRunner } from './google-script.client';

export interface DialogFormOptions {
  /** The status line's id. */
  status: string;
  /** The buttons that wait while the server works. */
  buttons: string[];
  /** The fields' ids, each with an element "<id>-error" for its message. */
  fields: readonly string[];
  /** Where a refusal naming an unknown field is shown. */
  fallbackField?: string;
}

/** A field the server refused, with why. */
export interface FieldRefusal {
  field: string;
  message: string;
}

/** How the status line reads: done, done but with something to act on, or failed. */
export type StatusKind = 'ok' | 'warning' | 'error';

export interface DialogForm {
  show(message: string, kind?: StatusKind): void;
  fail(error: Error): void;
  /**
   * A server call: while it runs the buttons wait and the status says `message`; its answer goes
   * to `done` once they are back, a failure to the status line. Returns google.script.run, ready
   * for the server function: dialog.call('Saving…', render).saveSettings(values).
   */
  call<Result>(message: string, done: (result: Result) => void): ServerRunner<Result>;
  clearFieldErrors(): void;
  /** The server refused a field: its message next to it, and `summary` in the status line. */
  refuse(refusal: FieldRefusal, summary: string): void;
}

/** The element with this id; the page's own markup guarantees it is there and of this kind. */
export function byId<Element extends HTMLElement = HTMLElement>(id: string): Element {
  return document.getElementById(id) as Element;
}

export function dialogForm(options: DialogFormOptions): DialogForm {
  const statusLine = byId(options.status);
  const buttons = options.buttons.map((id) => byId<HTMLButtonElement>(id));

  function show(message: string, kind?: StatusKind): void {
    statusLine.textContent = message;
    statusLine.className = kind ? 'status ' + kind : 'status';
  }

  function setButtonsDisabled(disabled: boolean): void {
    buttons.forEach((button) => {
      button.disabled = disabled;
    });
  }

  function fail(error: Error): void {
    setButtonsDisabled(false);
    show(error && error.message ? error.message : String(error), 'error');
  }

  function showFieldError(field: string, message: string): void {
    const input = document.getElementById(field) || byId(options.fallbackField ?? '');
    // A field in a collapsed section (Advanced) is opened to, or its message would go unseen.
    const section = input.closest('details');
    if (section) section.open = true;
    byId(input.id + '-error').textContent = message;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }

  return {
    show,
    fail,
    call<Result>(message: string, done: (result: Result) => void): ServerRunner<Result> {
      setButtonsDisabled(true);
      show(message);
      return google.script.run
        .withSuccessHandler((answer: Result) => {
          setButtonsDisabled(false);
          done(answer);
        })
        .withFailureHandler(fail);
    },
    clearFieldErrors() {
      options.fields.forEach((id) => {
        byId(id + '-error').textContent = '';
        byId(id).removeAttribute('aria-invalid');
      });
    },
    refuse(refusal, summary) {
      showFieldError(refusal.field, refusal.message);
      show(summary, 'error');
    },
  };
}
