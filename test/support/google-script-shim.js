/* global window, HTMLFormElement, Node */
/**
 * google.script.run and google.script.host as a dialog served by HtmlService sees them, for the
 * browser tests: it runs in the page before the dialog's own script. Calls are asynchronous and go
 * to the test process (window.__safetySyncServer, a Playwright binding), which calls the real server
 * function of dist/Code.js in the emulator, with google.script.run's rules for what may cross:
 * the emulator refuses Dates and other illegal values as Google does; functions and DOM nodes
 * (which never reach the server) are refused here, with the same message. A form element passed as
 * the only argument becomes an object of its fields, as Google does.
 *
 * The server function names come in as `serverFunctions` (those of dist/Code.js): like Google's
 * client, the runner has a method for each, and no other.
 */
(function installGoogleScript(serverFunctions) {
  function illegalPath(value, path) {
    if (typeof value === 'function' || (typeof Node !== 'undefined' && value instanceof Node)) return path;
    if (value && typeof value === 'object') {
      for (var key of Object.keys(value)) {
        var found = illegalPath(value[key], key);
        if (found !== null) return found;
      }
    }
    return null;
  }

  function formFields(form) {
    var fields = {};
    for (var element of form.elements) {
      if (!element.name || element.disabled) continue;
      if ((element.type === 'checkbox' || element.type === 'radio') && !element.checked) continue;
      fields[element.name] = element.value;
    }
    return fields;
  }

  function deliver(handler, value, userObject) {
    if (handler) handler(value, userObject);
  }

  function runner(onSuccess, onFailure, userObject) {
    var run = {
      withSuccessHandler: function (handler) {
        return runner(handler, onFailure, userObject);
      },
      withFailureHandler: function (handler) {
        return runner(onSuccess, handler, userObject);
      },
      withUserObject: function (object) {
        return runner(onSuccess, onFailure, object);
      },
    };
    serverFunctions.forEach(function (name) {
      run[name] = function () {
        var args = Array.prototype.slice.call(arguments);
        if (args.length === 1 && args[0] instanceof HTMLFormElement) args = [formFields(args[0])];
        for (var index = 0; index < args.length; index++) {
          var path = illegalPath(args[index], String(index));
          if (path !== null) {
            var refused = new Error('Failed due to illegal value in property: ' + path);
            window.setTimeout(function () {
              deliver(onFailure, refused, userObject);
            }, 0);
            return;
          }
        }
        window.__safetySyncServer(name, args).then(function (answer) {
          if (answer.ok) {
            deliver(onSuccess, answer.value, userObject);
            return;
          }
          var error = new Error(answer.message);
          error.name = answer.name;
          deliver(onFailure, error, userObject);
        });
      };
    });
    return run;
  }

  window.google = {
    script: {
      run: runner(null, null, undefined),
      host: {
        origin: 'https://docs.google.com',
        close: function () {
          window.__safetySyncHost('close');
        },
        setHeight: function (height) {
          window.__safetySyncHost('setHeight', height);
        },
        setWidth: function (width) {
          window.__safetySyncHost('setWidth', width);
        },
        editor: {
          focus: function () {
            window.__safetySyncHost('focusEditor');
          },
        },
      },
    },
  };
})(window.__safetySyncServerFunctions);
