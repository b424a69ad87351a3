/** The Settings dialog's script (settings.html): bundled into the page by dev/build.ts. */
import { byId, dialogForm } from '../platform/dialog/dialog-form.client';
import type { SaveOutcome, SettingsForm, SettingsView } from './settings-dialog';
import type { ConnectionTestResult } from './connection-test';

const FIELDS = [
  'baseUrl',
  'token',
  'userId',
  'trainingId',
  'batchSize',
  'overlapDays',
  'horizonDays',
  'trainingExpiringDays',
  'formulaCacheSeconds',
  'notifyRecipients',
  'notifyFrequency',
] as const;
type FieldId = (typeof FIELDS)[number];

const dialog = dialogForm({
  status: 'status',
  buttons: ['save', 'test', 'remove-token', 'schedule', 'close'],
  fields: FIELDS,
  fallbackField: 'baseUrl',
});

function input(id: string): HTMLInputElement {
  return byId<HTMLInputElement>(id);
}

function topicBoxes(): HTMLInputElement[] {
  return Array.from(document.querySelectorAll<HTMLInputElement>('input[name="notifyTopics"]'));
}

function formValues(): SettingsForm {
  const form = {} as Record<FieldId, string>;
  FIELDS.forEach((id) => {
    form[id] = input(id).value;
  });
  const notifyTopics = topicBoxes()
    .filter((box) => box.checked)
    .map((box) => box.value);
  return { ...form, notifyTopics };
}

function render(settings: SettingsView): void {
  input('baseUrl').value = settings.baseUrl;
  input('token').value = '';
  byId('token-status').textContent = 'Token: ' + settings.tokenStatus + '. Leave empty to keep it.';
  const options = settings.importOptions;
  input('userId').value = options.completionsFilter.user_id || '';
  input('trainingId').value = options.completionsFilter.training_id || '';
  input('batchSize').value = String(options.batchSize);
  input('overlapDays').value = String(options.overlapDays);
  input('horizonDays').value = String(options.horizonDays);
  input('trainingExpiringDays').value = String(options.trainingExpiringDays);
  input('formulaCacheSeconds').value = String(options.formulaCacheSeconds);
  input('formulaAccess').checked = settings.formulaAccess;
  const lends = byId('formulaLends');
  lends.textContent = settings.formulaLends.length
    ? 'Your token is lent to formulas in: ' +
      settings.formulaLends.map((lend) => lend.spreadsheetName).join(', ')
    : '';
  lends.hidden = settings.formulaLends.length === 0;
  const notifications = settings.notifications;
  input('notifyRecipients').value = notifications.recipients.join(', ');
  byId<HTMLSelectElement>('notifyFrequency').value = notifications.frequency;
  topicBoxes().forEach((box) => {
    box.checked = (notifications.topics as string[]).includes(box.value);
  });
  const state = byId('refresh-state');
  state.textContent = '';
  settings.refreshStatus.forEach((sentence, index) => {
    const line = document.createElement('p');
    line.textContent = sentence;
    line.className = settings.refreshStale && index > 0 ? 'warning' : 'hint';
    state.appendChild(line);
  });
}

dialog
  .call('Loading your settings…', (settings: SettingsView) => {
    dialog.show('');
    render(settings);
  })
  .getSettings();

byId('settings-form').addEventListener('submit', (event) => {
  event.preventDefault();
  dialog.clearFieldErrors();
  dialog
    .call('Saving…', (outcome: SaveOutcome) => {
      if (outcome.ok) {
        render(outcome.settings);
        dialog.show('Saved.', 'ok');
      } else {
        dialog.refuse(outcome, 'Nothing was saved: correct the field marked in red.');
      }
    })
    .saveSettings(formValues());
});

byId('test').addEventListener('click', () => {
  dialog.clearFieldErrors();
  dialog
    .call('Testing the connection…', (result: ConnectionTestResult) => {
      if (result.ok) {
        dialog.show(result.message, 'ok');
      } else {
        dialog.refuse(
          result,
          'The connection test failed: see the message next to the field. Nothing was saved.',
        );
      }
    })
    .testConnection(formValues());
});

byId('remove-token').addEventListener('click', () => {
  dialog.clearFieldErrors();
  dialog
    .call('Removing your token…', (settings: SettingsView) => {
      render(settings);
      dialog.show('Token removed.', 'ok');
    })
    .removeToken();
});

const formulaAccess = input('formulaAccess');
formulaAccess.addEventListener('change', () => {
  const enabled = formulaAccess.checked;
  formulaAccess.disabled = true;
  google.script.run
    .withSuccessHandler((settings: SettingsView) => {
      formulaAccess.disabled = false;
      render(settings);
      dialog.show(
        enabled
          ? 'Formulas in this spreadsheet now use your token.'
          : 'Formulas in this spreadsheet no longer use a token.',
        'ok',
      );
    })
    .withFailureHandler((error) => {
      formulaAccess.disabled = false;
      formulaAccess.checked = !enabled;
      dialog.fail(error);
    })
    .setFormulaAccess(enabled);
});

byId('schedule').addEventListener('click', () => {
  // The schedule dialog replaces this one: nothing to do with the answer.
  dialog.call('Opening the schedule…', () => {}).showScheduleDialog();
});

byId('close').addEventListener('click', () => {
  google.script.host.close();
});
