/**
 * The status words a manager looks for first, shared by the equipment and training tabs, and their
 * colours: "Expired" red and "Expiring" amber wherever a Status column shows them, so both read alike.
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
