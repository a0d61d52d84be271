import type { FlatField } from './flattenJson';
import type { FieldChange } from './diffTypes';

export type { FieldChange };

/** Longest string value carried in a field change; the rest is cut with an ellipsis (the detail pane shows all). */
export const MAX_FIELD_TEXT = 2000;
/** Most field changes listed for one pair of events. */
export const MAX_FIELD_CHANGES = 200;

function shown(v: FlatField['value']): FlatField['value'] {
  return typeof v === 'string' && v.length > MAX_FIELD_TEXT ? v.slice(0, MAX_FIELD_TEXT) + '…' : v;
}

/**
 * The leaves that differ between two flattened events, in the order of `a`'s fields then `b`'s new ones.
 * Returns at most {@link MAX_FIELD_CHANGES} entries and how many more there were.
 */
export function diffFields(a: readonly FlatField[], b: readonly FlatField[]): { fields: FieldChange[]; omitted: number } {
  const bByPath = new Map<string, FlatField['value']>();
  for (const f of b) bByPath.set(f.path, f.value);
  const fields: FieldChange[] = [];
  let count = 0;
  const add = (c: FieldChange): void => {
    if (count++ < MAX_FIELD_CHANGES) fields.push(c);
  };
  const seen = new Set<string>();
  for (const f of a) {
    seen.add(f.path);
    if (!bByPath.has(f.path)) add({ path: f.path, a: shown(f.value) });
    else {
      const bv = bByPath.get(f.path)!;
      if (bv !== f.value) add({ path: f.path, a: shown(f.value), b: shown(bv) });
    }
  }
  for (const f of b) if (!seen.has(f.path)) add({ path: f.path, b: shown(f.value) });
  return { fields, omitted: Math.max(0, count - MAX_FIELD_CHANGES) };
}
