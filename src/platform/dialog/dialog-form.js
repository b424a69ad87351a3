/**
 * What every Safety Sync dialog does alike: one status line (role="status") for progress and
 * outcomes, buttons that wait while the server works, and errors shown next to the field they
 * concern. `options`: the status element's id, the ids of the buttons, the ids of the fields (each
 * with an element "<id>-error" for its message), and the field an unknown field name falls back to.
 */
/* global google -- the client side of google.script.run, present in every Apps Script dialog */
function dialogForm(options) {
  var statusLine = document.getElementById(options.status);
  var buttons = options.buttons.map(function (id) {
    return document.getElementById(id);
  });

  function show(message, kind) {
    statusLine.textContent = message;
    statusLine.className = kind ? 'status ' + kind : 'status';
  }

  function setButtonsDisabled(disabled) {
    buttons.forEach(function (button) {
      button.disabled = disabled;
    });
  }

  function fail(error) {
    setButtonsDisabled(false);
    show(error && error.message ? error.message : String(error), 'error');
  }

  function showFieldError(field, message) {
    var input = document.getElementById(field) || document.getElementById(options.fallbackField);
    document.getElementById(input.id + '-error').textContent = message;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }

  return {
    show: show,
    fail: fail,
    /**
     * A server call: while it runs the buttons wait and the status says `message`; its answer goes
     * to `done` once they are back, a failure to the status line. Returns google.script.run, ready
     * for the server function: dialog.call('Saving…', render).saveSettings(values).
     */
    call: function (message, done) {
      setButtonsDisabled(true);
      show(message);
      return google.script.run
        .withSuccessHandler(function (answer) {
          setButtonsDisabled(false);
          done(answer);
        })
        .withFailureHandler(fail);
    },
    clearFieldErrors: function () {
      options.fields.forEach(function (id) {
        document.getElementById(id + '-error').textContent = '';
        document.getElementById(id).removeAttribute('aria-invalid');
      });
    },
    /** The server refused a field: its message next to it, and `summary` in the status line. */
    refuse: function (outcome, summary) {
      showFieldError(outcome.field, outcome.message);
      show(summary, 'error');
    },
  };
}
