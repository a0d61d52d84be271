/**
 * The viewer's older filter controls (a kinds list and a status choice) written in the filter language, so
 * one evaluator serves both and a filter saved before the language existed still restores.
 */

/** The controls' status choice: `problems` = warnings and errors, `errors` = errors only. */
export type StatusChoice = 'all' | 'problems' | 'errors';

/** Quotes a value when the bare form would not read back as the same single value. */
export function filterValue(v: string): string {
  return /^[^\s"(),*?]+$/.test(v) && !/^(and|or|not)$/i.test(v) ? v : `"${v.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The expression for kinds (empty = all), a status choice and the typed expression, joined with "and"
 * (each part in parentheses so an "or" inside stays inside); '' when nothing filters.
 */
export function rowFilterExpression(kinds: readonly string[], status: StatusChoice, typed = ''): string {
  const parts: string[] = [];
  if (kinds.length > 0) parts.push(kinds.map((k) => `kind:${filterValue(k)}`).join(' or '));
  if (status === 'problems') parts.push('status:problems');
  else if (status === 'errors') parts.push('status:error');
  if (typed.trim() !== '') parts.push(typed);
  return parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(' ');
}
