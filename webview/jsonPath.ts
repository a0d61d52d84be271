/** JSON paths as a reader writes them (`message.content[0].text`, `attrs["http.status"]`). Pure. */

/** The path of a value inside an event; the event itself is `$`. */
export function jsonPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '$';
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(p)) out += out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}
