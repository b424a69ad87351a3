/**
 * The "Exemptions" tab, the user's own: a row per person × training that does not apply to that
 * person ("N/A"), with the reason, which an audit asks for. An exempted pair leaves the compliance
 * figures and the expiring list, shows "Exempt" on the matrix, and is counted on its own on the
 * Overview, so that what was excused stays in sight. The rows stay as typed across every refresh;
 * one naming a person or a training the tabs do not show (yet) is kept and applies once they do.
 */
import { UnreadableTab } from '../platform/problem-lists';
import { isBlankCell, quoteCell } from '../sheets/input-tab';
import { pairKey } from './completions-tab';

export const EXEMPTIONS_SHEET = 'Exemptions';

export const EXEMPTION_HEADERS = {
  userId: 'User ID',
  trainingId: 'Training ID',
  reason: 'Reason',
} as const;
type ExemptionField = keyof typeof EXEMPTION_HEADERS;

function text(value: unknown): string {
  return isBlankCell(value) ? '' : String(value).trim();
}

/**
 * The exempted pairs (by pairKey) with their reasons, as the tab holds them (values titles first;
 * [] for no tab). Throws UnreadableTab for a row that lacks its person, its training or its reason.
 */
export function readExemptions(values: readonly (readonly unknown[])[]): Map<string, string> {
  const header = (values[0] ?? []).map(text);
  const columnOf = (field: ExemptionField) => header.indexOf(EXEMPTION_HEADERS[field]);
  const exemptions = new Map<string, string>();
  const problems: string[] = [];
  values.slice(1).forEach((row, index) => {
    const cell = (field: ExemptionField) => {
      const column = columnOf(field);
      return column < 0 ? '' : row[column];
    };
    const fields = Object.keys(EXEMPTION_HEADERS) as ExemptionField[];
    if (fields.every((field) => isBlankCell(cell(field)))) return;
    const empty = fields.filter((field) => text(cell(field)) === '');
    if (empty.length > 0) {
      const titles = empty.map((field) => `"${EXEMPTION_HEADERS[field]}"`).join(' and ');
      problems.push(
        `row ${index + 2}: ${titles} ${empty.length === 1 ? 'is' : 'are'} empty beside ${quoteCell(
          cell(fields.find((field) => !empty.includes(field))!),
        )}; an exemption names the person, the training and why`,
      );
      return;
    }
    exemptions.set(pairKey(text(cell('userId')), text(cell('trainingId'))), text(cell('reason')));
  });
  if (problems.length > 0) throw new UnreadableTab(EXEMPTIONS_SHEET, problems, 'row');
  return exemptions;
}
