/**
 * The Outline of a trace opened as text: its events as nested symbols (sessions, turns, model steps, tool calls),
 * named as the viewer's tree names them, each spanning its line to the last line of its subtree. Made from the loaded
 * model (the viewer's, or the model cache's one read), not from the text. Events of a session's other files
 * (subagents read with it) are left out: their lines are in those files. vscode-free.
 */
import type { EventCategory } from '../core/model';
import type { TraceModel } from '../core/traceModel';

/** One symbol. Lines are 1-based. */
export interface OutlineSymbol {
  name: string;
  /** The event's kind, shown beside the name. */
  detail: string;
  category: EventCategory;
  line: number;
  /** The first line of its subtree (a child shown under it may sit on an earlier line). */
  firstLine: number;
  /** The last line of its subtree (its own line when it has no children). */
  endLine: number;
  children: OutlineSymbol[];
}

/** Symbols at most: a trace of a million events still gets a usable outline of its first ones, fast. */
export const MAX_OUTLINE_SYMBOLS = 5000;

/** The outline of the main file's events; see the file comment. */
export function outlineOf(model: TraceModel, max = MAX_OUTLINE_SYMBOLS): OutlineSymbol[] {
  const t = model.events;
  let budget = max;
  const build = (i: number): OutlineSymbol | null => {
    if (budget <= 0 || t.partOf(i) !== 0) return null;
    budget--;
    const line = t.lineOf(i);
    const label = t.labelOf(i);
    const sym: OutlineSymbol = { name: label.trim() || t.kindOf(i), detail: t.kindOf(i), category: t.categoryOf(i), line, firstLine: line, endLine: line, children: [] };
    for (const c of model.tree.children(i)) {
      const child = build(c);
      if (!child) continue;
      sym.children.push(child);
      sym.endLine = Math.max(sym.endLine, child.endLine);
      sym.firstLine = Math.min(sym.firstLine, child.firstLine);
    }
    return sym;
  };
  const out: OutlineSymbol[] = [];
  for (const r of model.tree.roots) {
    const s = build(r);
    if (s) out.push(s);
  }
  return out;
}
