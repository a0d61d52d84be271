/** What a key does in the event tree, as a pure function of the focused row (unit-tested in Node). */
import type { RowData } from '../src/protocol';

export type KeyAction =
  | { action: 'move'; row: number }
  | { action: 'toggle'; expand: boolean }
  | { action: 'parent' }
  | { action: 'select' };

/**
 * ↑ ↓ Home End PageUp PageDown move the focus; → expands, or steps into an expanded row's first child;
 * ← collapses, or goes to the parent; Enter and Space select. Null for keys the tree does not handle.
 * With nothing selected (`selected` false), the first ↓ or ↑ selects the focused row itself (row 1 of a tree just
 * opened), not the one past it.
 */
export function keyTarget(key: string, focus: number, total: number, page: number, row: Pick<RowData, 'hasChildren' | 'expanded' | 'parent'> | null, selected = true): KeyAction | null {
  if (total === 0) return null;
  const clamp = (r: number): KeyAction => ({ action: 'move', row: Math.max(0, Math.min(total - 1, r)) });
  if (!selected && (key === 'ArrowDown' || key === 'ArrowUp')) return clamp(focus);
  switch (key) {
    case 'ArrowDown':
      return clamp(focus + 1);
    case 'ArrowUp':
      return clamp(focus - 1);
    case 'Home':
      return clamp(0);
    case 'End':
      return clamp(total - 1);
    case 'PageDown':
      return clamp(focus + page);
    case 'PageUp':
      return clamp(focus - page);
    case 'ArrowRight':
      if (!row || !row.hasChildren) return null;
      return row.expanded ? clamp(focus + 1) : { action: 'toggle', expand: true };
    case 'ArrowLeft':
      if (!row) return null;
      if (row.hasChildren && row.expanded) return { action: 'toggle', expand: false };
      return row.parent >= 0 ? { action: 'parent' } : null;
    case 'Enter':
    case ' ':
      return row ? { action: 'select' } : null;
    default:
      return null;
  }
}
