/**
 * What every Safety Sync dialog does alike: one status line (role="status") for progress and
 * outcomes, buttons that wait while the server works, and errors shown next to the field they
 * concern. `options`: the status element's id, the ids of the buttons, the ids of the fields (each
 * with an element "<id>-error" for its message), and the field an unknown field name falls back to.
 */
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

  return {
    show: show,
    /** While the server works: the buttons wait, and the status says what is happening. */
    busy: function (message) {
      setButtonsDisabled(true);
      show(message);
    },
    idle: function () {
      setButtonsDisabled(false);
    },
    fail: function (error) {
      setButtonsDisabled(false);
      show(error && error.message ? error.message : String(error), 'error');
    },
    clearFieldErrors: function () {
      options.fields.forEach(function (id) {
        document.getElementById(id + '-error').textContent = '';
        document.getElementById(id).removeAttribute('aria-invalid');
      });
    },
    showFieldError: function (field, message) {
      var input = document.getElementById(field) || document.getElementById(options.fallbackField);
      document.getElementById(input.id + '-error').textContent = message;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    },
  };
}
