/**
 * The completions filter as the user types it, in the import dialog and in Settings alike. Ids are
 * opaque strings: "  u 7 " with its spaces, "007" with its zeros and "a=b" are ids as the service
 * has them, so nothing is trimmed, folded or numbered. An empty field means every user (or every
 * training). A field of only spaces is refused: it looks empty, yet would ask the service for an id
 * that cannot be meant (the API layer refuses to send one, see checkFilter).
 */
import { checkFilter, type CompletionsFilter } from '../../api/completions-contract';
import { FieldRefusedError } from '../../platform/field-refusal';

/** The filter's fields, named alike in both dialogs. */
export interface FilterForm {
  userId?: string;
  trainingId?: string;
}

export type FilterField = keyof FilterForm;

const FILTER_MEMBER = { userId: 'user_id', trainingId: 'training_id' } as const;

const ONLY_SPACES: Record<FilterField, string> = {
  userId:
    "This is only spaces. Type the user ID exactly as the service has it, or leave the field empty for every user's completions.",
  trainingId:
    'This is only spaces. Type the training ID exactly as the service has it, or leave the field empty for the completions of every training.',
};

/** The filter exactly as typed; throws a FieldRefusedError naming the field to correct. */
export function filterAsTyped(form: FilterForm): CompletionsFilter {
  const filter: CompletionsFilter = {};
  for (const field of ['userId', 'trainingId'] as const) {
    const typed = form[field];
    if (typed === undefined || typed === '') continue;
    if (typed.trim() === '') throw new FieldRefusedError<FilterField>(field, ONLY_SPACES[field]);
    filter[FILTER_MEMBER[field]] = typed;
  }
  return checkFilter(filter);
}
