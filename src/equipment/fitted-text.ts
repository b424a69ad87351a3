/**
 * Equipment types with every text the service sent cut to fit a cell (src/sheets/cell-text.ts), and
 * the cuts to report. Texts are fitted here, before any table is built, because the same title or
 * name lands on several tabs, inside link formulas too: each is cut once, the same way everywhere,
 * and reported once. What the tables derive from them (notes, statuses, keys) is fitted with the
 * tables themselves.
 */
import type { EquipmentType } from '../api/schemas';
import { CELL_TEXT_LIMIT, fitText, recordName, type TextCut } from '../sheets/cell-text';
import { EQUIPMENT_TYPES_SHEET, METAFIELDS_SHEET, SCHEDULES_SHEET } from './tables';

/** A link's formula takes under 100 characters around its label (the label's quotes are counted double). */
const LINK_LABEL_ROOM = CELL_TEXT_LIMIT - 100;

export function typeRecord(typeId: string): string {
  return recordName('Equipment type ID', typeId);
}

export function partRecord(typeId: string, header: string, id: string): string {
  return `${typeRecord(typeId)}, ${recordName(header, id)}`;
}

export function fitEquipmentText(types: readonly EquipmentType[]): {
  types: EquipmentType[];
  cuts: TextCut[];
} {
  const cuts: TextCut[] = [];
  /** `linkLabel`: the text is also the label of an in-sheet link, inside its formula. */
  const fit = (tab: string, record: string, field: string, text: string, linkLabel = false) => {
    const fitted = linkLabel ? fitText(text, LINK_LABEL_ROOM, true) : fitText(text);
    if (fitted !== text) cuts.push({ tab, record, field, length: text.length });
    return fitted;
  };
  const fitted = types.map((type): EquipmentType => {
    const record = typeRecord(type.id);
    return {
      ...type,
      id: fit(EQUIPMENT_TYPES_SHEET, record, 'Equipment type ID', type.id),
      title: fit(EQUIPMENT_TYPES_SHEET, record, 'Title', type.title, true),
      metafields: type.metafields.map((metafield) => {
        const where = partRecord(type.id, 'Metafield ID', metafield.id);
        return {
          ...metafield,
          id: fit(METAFIELDS_SHEET, where, 'Metafield ID', metafield.id),
          name: fit(METAFIELDS_SHEET, where, 'Name', metafield.name),
          type: fit(METAFIELDS_SHEET, where, 'Type', metafield.type),
        };
      }),
      schedules: type.schedules.map((schedule) => {
        const where = partRecord(type.id, 'Schedule ID', schedule.id);
        return {
          ...schedule,
          id: fit(SCHEDULES_SHEET, where, 'Schedule ID', schedule.id),
          name: fit(SCHEDULES_SHEET, where, 'Name', schedule.name, true),
          instructions: fit(SCHEDULES_SHEET, where, 'Instructions', schedule.instructions),
          trigger: {
            ...schedule.trigger,
            type: fit(SCHEDULES_SHEET, where, 'Trigger type', schedule.trigger.type),
            timing: fit(SCHEDULES_SHEET, where, 'Timing', schedule.trigger.timing),
          },
        };
      }),
    };
  });
  return { types: fitted, cuts };
}
