// Bundled on its own by bundle.test.ts with the add-on's build options, to run zod in a bare context.
import { completionSchema } from '../../src/api/schemas';

export function parseCompletion(value: unknown): { success: boolean; userId?: string } {
  const result = completionSchema.safeParse(value);
  return result.success ? { success: true, userId: result.data.user_id } : { success: false };
}
