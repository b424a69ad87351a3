/**
 * The "Requirements" tab on the sheet: the user's own, every row and cell (sheets/user-tab.ts), with
 * a dropdown of what a row may apply to, and the Value and Training ID columns typed as text.
 */
import type { FoundTab } from '../platform/addon-tabs';
import { planUserTab, type UserTabPlan } from '../sheets/user-tab';
import { APPLIES_TO, readRequirements, REQUIREMENT_HEADERS, type Requirement } from './requirements';

/** On every title of Requirements. */
const REQUIREMENTS_NOTE =
  'You fill this in, a row per requirement: Applies to (Everyone, Role, Site or Department), its Value ' +
  '(the role, site or department as on the People tab; empty for Everyone), the Training ID (as on ' +
  'the Trainings tab) and, for new starters, within how many days of their start date (empty: from ' +
  'the start). While this tab lists nothing, Required on the Trainings tab means everyone, as before.';

const APPLIES_TO_HELP = 'Applies to: Everyone, Role, Site or Department (the Value column says which one).';

export interface RequirementsTabPlan extends Omit<UserTabPlan, 'values'> {
  requirements: Requirement[];
}

/** Reads the tab before any write; throws UnreadableTab for a row it cannot read. */
export function planRequirementsTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  found: FoundTab,
  sheetName: string,
): RequirementsTabPlan {
  const { values, ...plan } = planUserTab(spreadsheet, found, sheetName, {
    titles: Object.values(REQUIREMENT_HEADERS),
    note: REQUIREMENTS_NOTE,
    textColumns: [REQUIREMENT_HEADERS.value, REQUIREMENT_HEADERS.trainingId],
    dropdown: {
      title: REQUIREMENT_HEADERS.appliesTo,
      values: Object.values(APPLIES_TO),
      help: APPLIES_TO_HELP,
    },
  });
  return { ...plan, requirements: readRequirements(values) };
}
