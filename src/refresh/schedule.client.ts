/** The Schedule refresh dialog's script (schedule.html): bundled into the page by dev/build.ts. */
import { byId, dialogForm } from '../platform/dialog/dialog-form.client';
import type { ScheduleSaveOutcome, ScheduleView } from './schedule-dialog';
import type { FrequencyOption, ScheduleOption } from './schedule-frequency';

const every = byId<HTMLSelectElement>('every');
const atHour = byId<HTMLSelectElement>('atHour');
const monthDay = byId<HTMLSelectElement>('monthDay');
const dialog = dialogForm({
  status: 'progress',
  buttons: ['save', 'remove', 'close'],
  fields: ['every', 'monthDay', 'atHour'],
  fallbackField: 'every',
});
/** The choices "How often" offers, as the server last sent them. */
let frequencies: FrequencyOption[] = [];

/** Fills a list once: its options come from the server and do not change while the dialog is open. */
function fill(select: HTMLSelectElement, options: ScheduleOption[]): void {
  if (select.options.length > 0) return;
  for (const { value, label } of options) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    select.appendChild(option);
  }
}

/** Only the fields the chosen frequency uses can be changed. */
function followChoice(): void {
  const uses = frequencies.find((option) => option.value === every.value)?.uses ?? [];
  atHour.disabled = !uses.includes('atHour');
  monthDay.disabled = !uses.includes('monthDay');
}

function paragraph(text: string, className: string): HTMLParagraphElement {
  const p = document.createElement('p');
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

function render(schedule: ScheduleView): void {
  frequencies = schedule.options.every;
  fill(every, frequencies);
  fill(atHour, schedule.options.atHour);
  fill(monthDay, schedule.options.monthDay);
  every.value = schedule.every;
  atHour.value = String(schedule.atHour);
  monthDay.value = schedule.monthDay;
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
    .saveSchedule({ every: every.value, atHour: atHour.value, monthDay: monthDay.value });
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
