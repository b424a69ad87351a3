/** Cell contents are user data: everything that reaches the snapshot's HTML goes through here. */

export { escapeHtml } from '../html-escape';

/** Only web and mail links leave the snapshot; anything else (javascript:, data:) is shown, not linked. */
export function isSafeExternalUrl(url: string): boolean {
  return /^(https?:|mailto:)/i.test(url.trim());
}
