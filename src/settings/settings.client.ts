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
  'notifyPersonalData',
  'notifyMaxPerRun',
  'notifySharePercent',
  'notifyEscalationDays',
] as const;
type FieldId = (typeof FIELDS)[number];

const dialog = dialogForm({
  status: 'status',
  buttons: [
    'save',
    'test',
    'remove-token',
    'schedule',
    'digest-schedule',
    'close',
    'confirm-proposal',
    'discard-proposal',
    'confirm-managers',
  ],
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
  return {
    ...form,
    notifyTopics,
    notifyAllowOutside: input('notifyAllowOutside').checked,
    notifyTeams: input('notifyTeams').checked,
  };
}

/**
 * Why the saved digest will not go out, or null when it will (or is off): only the scheduled
 * refresh sends it. Told of what is saved, so that Schedule refresh…, which replaces this dialog,
 * loses no choice left unsaved.
 */
function digestWarning(settings: SettingsView): string | null {
  if (settings.notifications.frequency === 'off' || settings.scheduledRefresh === 'running') return null;
  return settings.scheduledRefresh === 'paused'
    ? 'Nothing will be sent while the scheduled refresh is paused: choose Schedule refresh… and save the schedule again to resume it.'
    : 'Nothing will be sent until a refresh is scheduled for this spreadsheet: choose Schedule refresh… to schedule one.';
}

function paragraph(text: string, className = 'hint'): HTMLParagraphElement {
  const line = document.createElement('p');
  line.textContent = text;
  line.className = className;
  return line;
}

/** Who decides, for everyone; for the schedule's owner, what others changed, to confirm or discard. */
function renderSharing(sharing: SettingsView['sharing']): void {
  const notes = byId('sharing-notes');
  notes.textContent = '';
  sharing.notes.forEach((note) => notes.appendChild(paragraph(note)));
  byId('notifyAllowOutside-label').textContent = sharing.ownerDomain
    ? `Allow mail to addresses outside ${sharing.ownerDomain} (the schedule owner's domain)`
    : "Allow mail to addresses outside the schedule owner's domain";
  byId('mail-quota').textContent =
    sharing.mailQuotaLeft === null
      ? ''
      : `Your e-mail quota has ${sharing.mailQuotaLeft} recipients left today; a run spends at most the share above.`;
  const panel = byId('proposal');
  const proposal = sharing.proposal;
  panel.hidden = proposal === null;
  if (!proposal) return;
  const changes = byId('proposal-changes');
  changes.textContent = '';
  proposal.changes.forEach((change) => {
    const item = document.createElement('li');
    const when = change.changedAt ? ` on ${change.changedAt}` : '';
    item.textContent = `${change.proposed} (changed by ${change.changedBy}${when}; your runs use: ${change.confirmed})`;
    changes.appendChild(item);
  });
  const addresses = byId('proposal-addresses');
  addresses.hidden = proposal.newAddresses.length === 0;
  addresses.querySelectorAll('label').forEach((label) => label.remove());
  proposal.newAddresses.forEach(({ address, allowed }) => {
    const label = document.createElement('label');
    label.className = 'checkbox';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = 'confirmAddress';
    box.value = address;
    // Each address is confirmed one by one; one the owner's domain rule refuses cannot be ticked.
    box.disabled = !allowed;
    const text = document.createElement('span');
    text.textContent = allowed
      ? address
      : `${address} (outside ${sharing.ownerDomain ?? 'your domain'}: not allowed)`;
    label.append(box, text);
    addresses.appendChild(label);
  });
}

/** The manager addresses the owner was shown and may confirm: what "Confirm all" confirms. */
let managersToConfirm: string[] = [];

/** Team digests: how many manager addresses on People wait for the owner, and for the owner which. */
function renderManagers(sharing: SettingsView['sharing']): void {
  const managers = sharing.managers;
  byId('managers').hidden = managers === null;
  const button = byId('confirm-managers');
  managersToConfirm = [];
  button.hidden = true;
  if (!managers) return;
  const owner = sharing.scheduleOwner || "the schedule's owner";
  let text: string;
  if (managers.problem) {
    text = `Team digests cannot read the People tab: ${managers.problem}`;
  } else if (managers.waiting === null) {
    text = `The People tab gives ${managers.onPeople} manager addresses; each receives its team's items once ${owner} confirms it.`;
  } else if (managers.waiting.length === 0) {
    text = `All ${managers.onPeople} manager addresses on the People tab are confirmed.`;
  } else {
    managersToConfirm = managers.waiting
      .filter((address) => address.allowed)
      .map((address) => address.address);
    const listed = managers.waiting.map(({ address, allowed }) =>
      allowed ? address : `${address} (outside ${sharing.ownerDomain ?? 'your domain'}: not allowed)`,
    );
    text = `${managers.waiting.length} of ${managers.onPeople} manager addresses on the People tab wait for you to confirm them, and receive nothing until you do: ${listed.join(', ')}.`;
    button.hidden = managersToConfirm.length === 0;
  }
  byId('managers-text').textContent = text;
}

function tickedAddresses(): string[] {
  return Array.from(document.querySelectorAll<HTMLInputElement>('input[name="confirmAddress"]'))
    .filter((box) => box.checked)
    .map((box) => box.value);
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
  byId<HTMLSelectElement>('notifyPersonalData').value = notifications.personalData;
  input('notifyAllowOutside').checked = notifications.allowOutsideDomain;
  input('notifyMaxPerRun').value = String(notifications.mailShare.maxRecipientsPerRun);
  input('notifySharePercent').value = String(notifications.mailShare.percentOfRemaining);
  input('notifyTeams').checked = notifications.teamDigests;
  input('notifyEscalationDays').value =
    notifications.escalationDays > 0 ? String(notifications.escalationDays) : '';
  renderSharing(settings.sharing);
  renderManagers(settings.sharing);
  const warning = digestWarning(settings);
  byId('digest-warning-text').textContent = warning ?? '';
  byId('digest-warning').hidden = warning === null;
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
        const owner = outcome.settings.sharing.scheduleOwner || "the schedule's owner";
        const saved = outcome.savedAsProposal
          ? `Saved as a proposal: ${owner}'s scheduled refresh uses it once ${owner} confirms it.`
          : 'Saved.';
        const warning = digestWarning(outcome.settings);
        dialog.show(warning ? `${saved} ${warning}` : saved, warning ? 'warning' : 'ok');
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

byId('confirm-proposal').addEventListener('click', () => {
  dialog
    .call('Confirming…', (settings: SettingsView) => {
      render(settings);
      dialog.show('Confirmed: your scheduled refresh uses these settings from its next run.', 'ok');
    })
    .confirmSettings(tickedAddresses());
});

byId('confirm-managers').addEventListener('click', () => {
  dialog
    .call('Confirming the manager addresses…', (settings: SettingsView) => {
      render(settings);
      dialog.show(
        'Confirmed: each of these managers receives their team digest from the next digest on.',
        'ok',
      );
    })
    .confirmManagers(managersToConfirm);
});

byId('discard-proposal').addEventListener('click', () => {
  dialog
    .call('Putting your settings back…', (settings: SettingsView) => {
      render(settings);
      dialog.show('Discarded: the settings are back to what you confirmed.', 'ok');
    })
    .discardSettings();
});

function openSchedule(): void {
  // The schedule dialog replaces this one: nothing to do with the answer.
  dialog.call('Opening the schedule…', () => {}).showScheduleDialog();
}
byId('schedule').addEventListener('click', openSchedule);
byId('digest-schedule').addEventListener('click', openSchedule);

byId('close').addEventListener('click', () => {
  google.script.host.close();
});
