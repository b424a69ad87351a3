/** The Import completed trainings dialog's script (import-completions.html): bundled into the page by dev/build.ts. */
import { byId, dialogForm } from '../../platform/dialog/dialog-form.client';
import type { ImportStepResult } from './actions';
import type { CompletionsFilter } from '../../api/completions-contract';

const userId = byId<HTMLInputElement>('userId');
const trainingId = byId<HTMLInputElement>('trainingId');
const dialog = dialogForm({ status: 'status', buttons: ['import'], fields: ['userId', 'trainingId'] });

function finish(result: ImportStepResult): void {
  if (result.refusal) dialog.refuse(result.refusal, result.summary);
  else if (result.done) dialog.show(result.summary);
  else dialog.call(result.summary + ' Continuing…', finish).continueCompletionsImport();
}

google.script.run
  .withSuccessHandler((filter: CompletionsFilter) => {
    userId.value = filter.user_id || '';
    trainingId.value = filter.training_id || '';
  })
  .getCompletionsFilter();

byId('import-form').addEventListener('submit', (event) => {
  event.preventDefault();
  dialog.clearFieldErrors();
  dialog
    .call('Importing… this can take a minute for large organisations.', finish)
    .startCompletionsImport({ user_id: userId.value, training_id: trainingId.value });
});
byId('close').addEventListener('click', () => {
  google.script.host.close();
});
