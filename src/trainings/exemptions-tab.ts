/**
 * The "Exemptions" tab on the sheet: the user's own, every row and cell (sheets/user-tab.ts), with
 * the ids typed as text.
 */
import type { FoundTab } from '../platform/addon-tabs';
import { planUserTab, type UserTabPlan } from '../sheets/user-tab';
import { EXEMPTION_HEADERS, readExemptions } from './exemptions';

const EXEMPTIONS_NOTE =
  'You fill this in, a row per person and training that does not apply to them: their User ID and ' +
  'the Training ID (as on People and Trainings) and the Reason (an audit asks why). An exempted ' +
  'training shows "Exempt" on the Training matrix, leaves the compliance figures and Expiring ' +
  'trainings, and is counted on its own on the Overview.';

export interface ExemptionsTabPlan extends Omit<UserTabPlan, 'values'> {
  /** The exempted pairs (pairKey) and their reasons. */
  exemptions: Map<string, string>;
}

/** Reads the tab before any write; throws UnreadableTab for a row it cannot read. */
export function planExemptionsTab(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  found: FoundTab,
  sheetName: string,
): ExemptionsTabPlan {
  const { values, ...plan } = planUserTab(spreadsheet, found, sheetName, {
    titles: Object.values(EXEMPTION_HEADERS),
    note: EXEMPTIONS_NOTE,
    textColumns: [EXEMPTION_HEADERS.userId, EXEMPTION_HEADERS.trainingId],
  });
  return { ...plan, exemptions: readExemptions(values) };
}
