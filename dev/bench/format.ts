/** How the bench writes numbers, the same in every table and target. */

export const DASH = '–';

export const count = (value: number): string => value.toLocaleString('en-US');

/** A ratio: two decimals below 10×, one above. */
export const times = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)}×`;

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

export const milliseconds = (ms: number): string => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

export const kilobytes = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;

export const megabytes = (mb: number): string => `${mb.toFixed(0)} MB`;
