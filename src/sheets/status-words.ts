/**
 * The status words a manager looks for first, shared by the equipment and training tabs, and their
 * colours: "Expired" red and "Expiring" amber wherever a Status column shows them, so both read alike.
 * Compliance figures are coloured by one set of thresholds wherever they are shown.
 */
import type { StatusColour } from './conditional-formats';

export const ExpiryStatus = {
  expired: 'Expired',
  expiring: 'Expiring',
} as const;
export type ExpiryStatus = (typeof ExpiryStatus)[keyof typeof ExpiryStatus];

export const STATUS_COLOURS: readonly StatusColour[] = [
  { text: ExpiryStatus.expired, background: '#f4cccc', fontColor: '#990000' },
  { text: ExpiryStatus.expiring, background: '#fce8b2', fontColor: '#7f6000' },
];

/**
 * Compliance colours, the highest band first: a share of at least `atLeast` takes its colour. The
 * same thresholds on the Training matrix and the Overview.
 */
export const COMPLIANCE_BANDS: readonly { atLeast: number; background: string; inWords: string }[] = [
  { atLeast: 0.95, background: '#d9ead3', inWords: 'green at 95% or more' },
  { atLeast: 0.8, background: '#fce8b2', inWords: 'amber from 80%' },
  { atLeast: 0, background: '#f4cccc', inWords: 'red below 80%' },
];

/**
 * The compliance figures of `ranges` coloured by the bands: conditional format rules, the highest
 * band first, as Sheets applies the first rule that matches. A figure with nothing to count is
 * words or empty, which no number rule matches.
 */
export function complianceRules(
  ranges: GoogleAppsScript.Spreadsheet.Range[],
): GoogleAppsScript.Spreadsheet.ConditionalFormatRule[] {
  return COMPLIANCE_BANDS.map((band, index) => {
    const above = COMPLIANCE_BANDS[index - 1];
    return SpreadsheetApp.newConditionalFormatRule()
      .whenNumberBetween(band.atLeast, above ? above.atLeast : 1)
      .setBackground(band.background)
      .setRanges(ranges)
      .build();
  });
}

/** The thresholds in one sentence, for a note beside the figures. */
export const COMPLIANCE_BANDS_NOTE = `Compliance: ${COMPLIANCE_BANDS.map((band) => band.inWords).join(', ')}.`;
