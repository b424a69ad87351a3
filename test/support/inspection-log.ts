/**
 * The Inspection log as the tests read it: its titles as a manager sees them, and the schedules it
 * logs, as the schedules tab shows them (the tests' own view, sharing no code with the add-on).
 */
import type { AddonHarness } from './addon-harness';
import { rows, SCHEDULES_TAB, tab } from './equipment-tabs';

export const LOG_TAB = 'Inspection log';

export const LOG_TITLES = [
  'Equipment type',
  'Type ID',
  'Schedule',
  'Schedule ID',
  'Inspected on',
  'Seen at',
  'Seen by',
  'Seen in',
];

export interface LoggedSchedule {
  typeId: string;
  typeTitle: string;
  id: string;
  name: string;
}

/** Each schedule on the schedules tab, in its order: its type's id and title, its id and name. */
export function schedulesOnTab(harness: AddonHarness): LoggedSchedule[] {
  return rows(tab(harness, SCHEDULES_TAB), 'A', 'D').map(([typeId, typeTitle, id, name]) => ({
    typeId: typeId!,
    typeTitle: typeTitle!,
    id: id!,
    name: name!,
  }));
}
