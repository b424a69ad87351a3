/**
 * Reading every equipment type (`equipmenttypes.list` has no paging: one call holds them all).
 *
 * Validation goes part by part: a type's own fields, then each metafield and each schedule on its
 * own. A malformed schedule is reported as a rejected record and leaves its type and the type's
 * other schedules in the import, rather than taking the whole type down with it. Values the
 * contract allows but the add-on cannot use (an unknown timing, a frequency of 0) are not rejected
 * here: they reach the sheet as sent and the inspection rules mark them.
 */
import * as z from 'zod/mini';
import type { ServiceClient } from './client';
import {
  type EquipmentType,
  equipmentTypeSchema,
  equipmentTypesSchema,
  type Metafield,
  metafieldSchema,
  type RejectedRecord,
  type InspectionSchedule,
  scheduleSchema,
  validateEach,
} from './schemas';

export const EQUIPMENT_TYPES_METHOD = 'equipmenttypes.list';

/** A type with its metafields and schedules still unchecked; they are validated one by one. */
const equipmentTypeShellSchema = z.extend(equipmentTypeSchema, {
  metafields: z.array(z.unknown()),
  schedules: z.array(z.unknown()),
});

export interface EquipmentTypesResult {
  /** In service order, each holding only its valid metafields and schedules. */
  types: EquipmentType[];
  rejected: RejectedRecord[];
}

export function fetchEquipmentTypes(client: ServiceClient): EquipmentTypesResult {
  const response = client.call(EQUIPMENT_TYPES_METHOD, {}, equipmentTypesSchema);
  return validateEquipmentTypes(response.equipmenttypes);
}

export function validateEquipmentTypes(items: readonly unknown[]): EquipmentTypesResult {
  const shells = validateEach(items, equipmentTypeShellSchema, (index) => `equipment type #${index + 1}`);
  const rejected = [...shells.rejected];
  const types = shells.records.map((shell): EquipmentType => {
    const where = `equipment type ${shell.id}`;
    const metafields = validateEach<Metafield>(
      shell.metafields,
      metafieldSchema,
      (index) => `${where}, metafield #${index + 1}`,
    );
    const schedules = validateEach<InspectionSchedule>(
      shell.schedules,
      scheduleSchema,
      (index) => `${where}, schedule #${index + 1}`,
    );
    rejected.push(...metafields.rejected, ...schedules.rejected);
    return { ...shell, metafields: metafields.records, schedules: schedules.records };
  });
  return { types, rejected };
}
