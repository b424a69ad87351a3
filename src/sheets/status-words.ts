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

/** The background of a compliance share (0–1); null when nothing is counted. */
export function complianceBackground(share: number | null): string | null {
  if (share === null) return null;
  return COMPLIANCE_BANDS.find((band) => share >= band.atLeast)!.background;
}

/** The thresholds in one sentence, for a note beside the figures. */
export const COMPLIANCE_BANDS_NOTE = `Compliance: ${COMPLIANCE_BANDS.map((band) => band.inWords).join(', ')}.`;
