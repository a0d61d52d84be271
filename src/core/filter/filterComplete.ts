/**
 * Completions for the filter box: field names where a term starts, and the trace's own values (kinds,
 * tools, models, statuses) after `field:`. Pure, so the webview computes them as the user types.
 */
import { FILTER_FIELDS, STATUS_VALUES, type FilterField } from './filterFields';
import { filterValue } from './rowFilterExpr';

/** Values the trace has, by field name (`kind`, `tool`, `model`, `category`, `group`). */
export type FilterValues = Partial<Record<string, readonly string[]>>;

/** One suggestion: `insert` replaces the text from `from` to `to`. */
export interface FilterCompletion {
  label: string;
  insert: string;
  detail: string;
}

/** Suggestions for the cursor position, and the range they replace. */
export interface FilterCompletions {
  from: number;
  to: number;
  items: FilterCompletion[];
}

const MAX_ITEMS = 50;

/** Completions at `cursor` (a 0-based offset into `text`). */
export function filterCompletions(text: string, cursor: number, values: FilterValues): FilterCompletions {
  let start = cursor;
  while (start > 0 && !/[\s(]/.test(text[start - 1])) start--;
  let end = cursor;
  while (end < text.length && !/[\s)]/.test(text[end])) end++;
  if (text[start] === '-') start++;
  const word = text.slice(start, cursor);
  const m = /^([A-Za-z_]+)(:|=)(.*)$/s.exec(word);
  if (!m) return { from: start, to: end, items: fieldItems(word) };
  const field = FILTER_FIELDS.find((f) => f.name === m[1].toLowerCase());
  if (!field) return { from: start, to: end, items: [] };
  // After a comma, complete the last alternative only (kind:a,b|).
  const valueStart = start + m[1].length + m[2].length;
  const comma = m[3].lastIndexOf(',');
  const from = comma >= 0 ? valueStart + comma + 1 : valueStart;
  const prefix = text.slice(from, cursor).replace(/^"/, '').toLowerCase();
  return { from, to: end, items: valueItems(field, values, prefix) };
}

function fieldItems(prefix: string): FilterCompletion[] {
  const p = prefix.toLowerCase();
  return FILTER_FIELDS.filter((f) => f.name.startsWith(p)).map((f) => ({
    label: f.name,
    insert: f.type === 'number' ? `${f.name}>` : `${f.name}:`,
    detail: f.doc,
  }));
}

function valueItems(field: FilterField, values: FilterValues, prefix: string): FilterCompletion[] {
  const list: { value: string; doc: string }[] =
    field.type === 'status' ? [...STATUS_VALUES] : (values[field.name] ?? []).map((v) => ({ value: v, doc: field.name }));
  const starts = list.filter((v) => v.value.toLowerCase().startsWith(prefix));
  const contains = list.filter((v) => !v.value.toLowerCase().startsWith(prefix) && v.value.toLowerCase().includes(prefix));
  return [...starts, ...contains].slice(0, MAX_ITEMS).map((v) => ({ label: v.value, insert: filterValue(v.value), detail: v.doc }));
}
