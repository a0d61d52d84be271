/** `tree --json`, and `tree --filter`: the matching events and their ancestors, so what is kept still reads as a tree. */
import type { TraceModel } from '../core/loadTrace';

/** One node of `tree --json`. */
export interface TreeNodeJson {
  line: number;
  id: string | null;
  kind: string;
  parentLine: number | null;
  label: string;
  /** Position of this node in `nodes` (added after the fields above, which stay as they were). */
  index: number;
  /** Position of the parent node in `nodes`, or null for a root. */
  parentIndex: number | null;
  /** The parent id the event names in the file (its recorded link, kept where the tree nests it elsewhere), or null. */
  parentId: string | null;
}

/** A node of `tree --json --filter`: the fields of `tree --json` plus whether the event itself matched. */
export type FilteredNodeJson = TreeNodeJson & { matched: boolean };

/** Event `i` as a node at position `index`, its parent's position left for the caller to set. */
function nodeJson(model: TraceModel, i: number, index: number, parentIndex: number | null): TreeNodeJson {
  const t = model.events;
  const p = t.parent(i);
  return {
    line: t.lineOf(i), id: t.id(i), kind: t.kindOf(i), parentLine: p >= 0 ? t.lineOf(p) : null, label: t.labelOf(i),
    index, parentIndex, parentId: t.parentId(i),
  };
}

/** The `tree --json` document for a model. */
export function treeJson(model: TraceModel): { format: string; nodes: TreeNodeJson[]; diagnostics: unknown[] } {
  const nodes: TreeNodeJson[] = [];
  for (let i = 0; i < model.events.size; i++) {
    const p = model.events.parent(i);
    nodes.push(nodeJson(model, i, i, p >= 0 ? p : null));
  }
  return { format: model.format, nodes, diagnostics: model.diagnostics };
}

/** 1 for every event that matches or has a matching descendant. */
export function treeKeep(model: TraceModel, matches: (i: number) => boolean): Uint8Array {
  const t = model.events;
  const keep = new Uint8Array(t.size);
  for (let i = 0; i < t.size; i++) {
    if (!matches(i)) continue;
    // Walk up until an ancestor already kept: each event is marked once, so this is linear overall.
    for (let a = i; a >= 0 && keep[a] === 0; a = model.events.parent(a)) keep[a] = 1;
  }
  return keep;
}

/** The `tree --json --filter` document: kept nodes in file order, indices renumbered among them. */
export function filteredTreeJson(
  model: TraceModel,
  keep: Uint8Array,
  matches: (i: number) => boolean,
  expression: string,
): { format: string; nodes: FilteredNodeJson[]; diagnostics: unknown[]; filter: { expression: string; matched: number; of: number } } {
  const t = model.events;
  const position = new Int32Array(t.size).fill(-1);
  const nodes: FilteredNodeJson[] = [];
  const kept: number[] = [];
  let matched = 0;
  for (let i = 0; i < t.size; i++) {
    if (keep[i] === 0) continue;
    const m = matches(i);
    if (m) matched++;
    position[i] = nodes.length;
    kept.push(i);
    nodes.push({ ...nodeJson(model, i, nodes.length, null), matched: m });
  }
  // Parents may come after their children in file order (spans of an OTLP export), so link in a second pass.
  for (const n of nodes) {
    const p = t.parent(kept[n.index]);
    n.parentIndex = p >= 0 && position[p] >= 0 ? position[p] : null;
  }
  return { format: model.format, nodes, diagnostics: model.diagnostics, filter: { expression, matched, of: t.size } };
}
