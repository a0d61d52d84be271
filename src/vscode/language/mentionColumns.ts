// vscode-free, so it is unit-tested in Node.

/**
 * The columns of `id`'s first mention as a JSON string value in a trace line (inside the quotes), or null.
 * The References view previews the text around a location's range: a range on the id shows
 * `"parent_id":"evt_…"` instead of the start of the line, `{"event_type":…`.
 */
export function idMentionColumns(text: string, id: string): { start: number; end: number } | null {
  const quoted = JSON.stringify(id);
  const at = text.indexOf(quoted);
  return at < 0 ? null : { start: at + 1, end: at + quoted.length - 1 };
}
