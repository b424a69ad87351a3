/**
 * Escaping for HTML text and quoted attribute values, used by HtmlService's `<?= ?>` scriptlets and
 * by the workbook snapshot (cell contents are user data). Google's `<?= ?>` is context-aware (inside
 * <script> it writes a JavaScript literal); this one is not, so dialogs pass data to client scripts
 * through google.script.run.
 */
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}
