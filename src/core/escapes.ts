/**
 * Text escaped for where it is written, one implementation each: HTML (the report page, the webview's page,
 * Markdown's `<details>` summaries) and JSON string literals (finding text inside raw JSON lines). Pure and
 * import-free, so any room may import it, the webview included (by adding it to WEBVIEW_VALUE_MODULES).
 */

/** Escapes text for HTML element content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The text as it appears inside a JSON string literal. */
export function jsonEscaped(q: string): string {
  return JSON.stringify(q).slice(1, -1);
}

/** The text as an ASCII-only JSON writer (Python's json.dumps) escapes it. */
export function asciiEscaped(q: string): string {
  return jsonEscaped(q).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}
