/** The Schedule refresh dialog's script (schedule.html): bundled into the page by dev/build.ts. */
import { byId, dialogForm } from '../platform/dialog/dialog-form.client';
import type { ScheduleSaveOutcome, ScheduleView } from './schedule-dialog';

const every = byId<HTMLSelectElement>('every');
const atHour = byId<HTMLSelectElement>('atHour');
const dialog = dialogForm({
  status: 'progress',
  buttons: ['save', 'remove', 'close'],
  fields: ['every', 'atHour'],
  fallbackField: 'every',
});
for (let hour = 0; hour < 24; hour++) {
  const option = document.createElement('option');
  option.value = String(hour);
  option.textContent = (hour < 10 ? '0' : '') + hour + ':00';
  atHour.appendChild(option);
}

function followChoice(): void {
  atHour.disabled = every.value !== 'daily';
}

function paragraph(text: string, className: string): HTMLParagraphElement {
  const p = document.createElement('p');
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

function render(schedule: ScheduleView): void {
  every.value = schedule.every;
  atHour.value = String(schedule.atHour);
  byId('time-zone').textContent = schedule.timeZone;
  followChoice();
  const owner = schedule.ownedByYou
    ? 'you' + (schedule.owner ? ' (' + schedule.owner + ')' : '')
    : schedule.owner || 'another editor';
  let ownerLine = 'No scheduled refresh.';
  if (schedule.paused) ownerLine = 'Paused: the schedule set up by ' + owner + ' stopped itself.';
  else if (schedule.scheduled) ownerLine = 'Scheduled by ' + owner + '.';
  byId('owner-line').textContent = ownerLine;
  const lines = byId('status-lines');
  lines.textContent = '';
  schedule.status.forEach((sentence, index) => {
    lines.appendChild(paragraph(sentence, index > 0 && (schedule.stale || schedule.paused) ? 'warning' : ''));
  });
  byId('state').className = schedule.stale || schedule.paused ? 'stale' : '';
  byId('last-run').textContent = schedule.lastRun
    ? 'Last scheduled run: ' + schedule.lastRun + '. ' + schedule.lastRunSummary
    : '';
  byId('remove').hidden = !schedule.scheduled;
}

every.addEventListener('change', followChoice);

dialog
  .call('Loading…', (schedule: ScheduleView) => {
    dialog.show('');
    render(schedule);
  })
  .getSchedule();

byId('schedule-form').addEventListener('submit', (event) => {
  event.preventDefault();
  dialog.clearFieldErrors();
  dialog
    .call('Saving the schedule…', (outcome: ScheduleSaveOutcome) => {
      if (outcome.ok) {
        render(outcome.schedule);
        dialog.show(
          outcome.schedule.scheduled ? 'Saved: the schedule is on.' : 'Saved: no scheduled refresh.',
          'ok',
        );
      } else {
        dialog.refuse(outcome, 'Nothing was changed: see the message next to the field.');
      }
    })
    .saveSchedule({ every: every.value, atHour: atHour.value });
});

byId('remove').addEventListener('click', () => {
  dialog.clearFieldErrors();
  dialog
    .call('Removing the schedule…', (schedule: ScheduleView) => {
      render(schedule);
      dialog.show('The scheduled refresh is removed.', 'ok');
    })
    .removeSchedule();
});

byId('close').addEventListener('click', () => {
  google.script.host.close();
});
