/**
 * The service's resources as zod schemas; the TypeScript types are inferred from them. Unknown
 * fields are tolerated (the service may add some); a record of the wrong shape is rejected
 * record by record so the caller can count and report it instead of losing the whole page.
 */
// zod/mini: the tree-shakable form of zod, a few dozen KB of the bundle instead of several hundred
// (every custom-function call and menu click loads the whole script on Google's side).
import * as z from 'zod/mini';
// Named imports from zod's core keep the bundle tree-shaken (z.core.… would pull in all of it).
import { $constructor, $ZodObjectJIT, type $ZodShape } from 'zod/v4/core';
import { fromDateNumber } from '../lib/dates';

const integer = z.number().check(z.int());
/** A date number in the form YYYYMMDD that names a real calendar day. */
const dateNumber = z.number().check(
  z.int(),
  z.refine((value) => fromDateNumber(value) !== null, 'not a calendar date (YYYYMMDD)'),
);

export const envelopeSchema = z.object({
  ok: z.boolean(),
  error: z.optional(z.string()),
  description: z.optional(z.string()),
});

/**
 * zod/mini's z.object, but parsed by the compiled parser that full zod uses: zod/mini leaves it
 * out for pages whose content security policy forbids `new Function`. Apps Script allows it, and a
 * full import validates every completion (100,000 of them in a large import) about four times
 * faster this way. Where code generation is refused, zod falls back to the interpreted parser.
 */
const miniType: $constructor<z.ZodMiniType> = z.ZodMiniType;
const CompiledObject = $constructor('CompiledObject', (inst: z.ZodMiniObject, def) => {
  $ZodObjectJIT.init(inst, def);
  miniType.init(inst, def);
});

function compiledObject<Shape extends $ZodShape>(shape: Shape): z.ZodMiniObject<Shape> {
  return new CompiledObject({ type: 'object', shape }) as unknown as z.ZodMiniObject<Shape>;
}

export const completionSchema = compiledObject({
  user_id: z.string(),
  training_id: z.string(),
  created: integer,
  dateNumber,
  // Optional decoration: a value that is not a calendar date leaves its cell empty and is reported
  // (trainings/completions/table.ts), instead of costing the whole record.
  specialExpirationDateNumber: z.optional(z.number()),
  instructor_id: z.string(),
  groupTraining_id: z.string(),
});
export type Completion = z.infer<typeof completionSchema>;

export const metafieldSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  list_id: z.optional(integer),
});
export type Metafield = z.infer<typeof metafieldSchema>;

/**
 * Trigger fields stay loosely typed on purpose: an unknown timing or a missing frequency is a
 * schedule the sheet shows as "Unsupported schedule", not a record to reject.
 */
export const triggerSchema = z.object({
  type: z.string(),
  timing: z.string(),
  timingDateNumber: z.optional(integer),
  expiringPeriodInDays: z.optional(integer),
  frequencyInDays: z.optional(integer),
});
export type ScheduleTrigger = z.infer<typeof triggerSchema>;

export const scheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  form_id: z.optional(integer),
  instructions: z.string(),
  doRequireAttachments: z.boolean(),
  trigger: triggerSchema,
});
export type InspectionSchedule = z.infer<typeof scheduleSchema>;

export const equipmentTypeSchema = z.object({
  id: z.string(),
  title: z.string(),
  created: integer,
  metafields: z.array(metafieldSchema),
  schedules: z.array(scheduleSchema),
});
export type EquipmentType = z.infer<typeof equipmentTypeSchema>;

export const userSchema = z.object({ id: z.string(), name: z.string() });
export type User = z.infer<typeof userSchema>;

/** Lists are read as arrays of unknown items; each item is validated on its own. */
export const completionsPageSchema = z.object({
  completedtrainings: z.array(z.unknown()),
  paging: z.object({
    last_page: z.number().check(z.int(), z.nonnegative()),
    total: z.optional(z.number().check(z.int(), z.nonnegative())),
  }),
});
export type CompletionsPage = z.infer<typeof completionsPageSchema>;
export const equipmentTypesSchema = z.object({ equipmenttypes: z.array(z.unknown()) });
export const userInfoSchema = z.object({ user: userSchema });
export type UserInfo = z.infer<typeof userInfoSchema>;

/** A record the service sent that does not have the contract's shape: where it was, and why. */
export interface RejectedRecord {
  source: string;
  problem: string;
}

export interface Validated<T> {
  records: T[];
  rejected: RejectedRecord[];
}

export function validateEach<T>(
  items: readonly unknown[],
  schema: z.ZodMiniType<T>,
  source: (index: number) => string,
): Validated<T> {
  const records: T[] = [];
  const rejected: RejectedRecord[] = [];
  items.forEach((item, index) => {
    const result = schema.safeParse(item);
    if (result.success) records.push(result.data);
    else rejected.push({ source: source(index), problem: describeIssues(result.error) });
  });
  return { records, rejected };
}

export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`)
    .join('; ');
}
