/**
 * What a dialog's server function answers when the user must correct a field: the field, and a
 * sentence saying how. Save settings, Test connection and Save schedule answer alike, so every
 * dialog shows such an answer the same way (next to the field, see dialog.refuse).
 */
export interface FieldRefusal<Field extends string> {
  ok: false;
  field: Field;
  message: string;
}

/** A server function's answer: done (with what it returns), or a field to correct. */
export type FieldOutcome<Field extends string, Done extends object> =
  ({ ok: true } & Done) | FieldRefusal<Field>;

/** Thrown where a field is checked; the server function answers it as a FieldRefusal. */
export class FieldRefusedError<Field extends string = string> extends Error {
  constructor(
    readonly field: Field,
    message: string,
  ) {
    super(message);
    this.name = 'FieldRefusedError';
  }
}

export function refuseField<Field extends string>(field: Field, message: string): FieldRefusal<Field> {
  return { ok: false, field, message };
}

/** The refusal an error carries, or null when the error is something else. */
export function refusalOf<Field extends string>(error: unknown): FieldRefusal<Field> | null {
  return error instanceof FieldRefusedError ? refuseField(error.field as Field, error.message) : null;
}

/**
 * A whole-number field as typed: its value, `fallback` when left empty, or a refusal next to it
 * saying the range.
 */
export function wholeNumberField<Field extends string>(
  field: Field,
  value: unknown,
  range: { min: number; max: number },
  fallback: number,
): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < range.min || number > range.max) {
    throw new FieldRefusedError(field, `Enter a whole number from ${range.min} to ${range.max}.`);
  }
  return number;
}
