/**
 * Which branches of a viewer are open, kept by line so it survives new models (a quick first look replaced
 * by the full read, appends, rewrites) and can be persisted in the webview's state. Until the user expands
 * or collapses something, every new model gets the default: fully expanded when small, top level otherwise.
 * vscode-free.
 */
import type { TraceModel } from '../core/loadTrace';
import type { PersistedViewState } from '../protocol';
import { RowProjection } from './rowModel';
import { nodeAtPlace, placeOfNode } from './traceRows';

/** Persisted expansion is dropped beyond this many expanded events (the webview state stays small). */
const MAX_PERSISTED_EXPANDED = 5000;

interface Expansion {
  /** The user changed the expansion; otherwise the default applies. */
  touched: boolean;
  /** "Expand All" was the last change. */
  all: boolean;
  /** Expanded events by line (when touched and not all). */
  lines: number[];
  /**
   * Untouched, but the branches a quick first look showed open (by line): the full model keeps them open on
   * top of its own default, so finishing the index does not collapse what the user was reading.
   */
  carried?: number[];
}

/** See the file comment. */
export class SessionExpansion {
  private state: Expansion = { touched: false, all: false, lines: [] };

  constructor(private readonly expandAllMaxEvents: number) {}

  /** The user expanded or collapsed something (`all`: with Expand All). */
  touch(all = false): void {
    this.state = { touched: true, all, lines: [] };
  }

  /** Branches were only opened (a reveal): an "all expanded" view stays one. */
  opened(): void {
    this.state = { ...this.state, touched: true };
  }

  /** Takes the persisted state of a restored editor. */
  restore(s: PersistedViewState): void {
    if (s.expandedAll) this.state = { touched: true, all: true, lines: [] };
    else if (s.expandedLines) this.state = { touched: true, all: false, lines: s.expandedLines };
  }

  /** Records the open branches of the current projection by line, before it is replaced. */
  capture(model: TraceModel, rows: RowProjection): void {
    if (!this.state.touched && model.partial) this.state = { ...this.state, carried: placesOf(model, rows.expandedNodes()) };
    if (!this.state.touched || this.state.all) return;
    this.state = { touched: true, all: false, lines: placesOf(model, rows.expandedNodes()) };
  }

  /** Opens the branches of a fresh projection: the captured or restored ones, or the default. */
  apply(model: TraceModel, rows: RowProjection): void {
    const s = this.state;
    if (s.touched && s.all) rows.expandAll();
    else if (s.touched) rows.setExpandedNodes(nodesAt(model, s.lines));
    else {
      if (model.events.size <= this.expandAllMaxEvents) rows.expandAll();
      else {
        rows.expandToDepth(1);
        if (s.carried) rows.setExpandedNodes([...rows.expandedNodes(), ...nodesAt(model, s.carried)]);
      }
      // A fork's copy of its origin's history is shown collapsed under its first line: it was read in the origin.
      const inherited = model.origin?.inherited;
      if (inherited && inherited.first < model.events.size) rows.toggle(inherited.first, false);
    }
    this.state = { touched: s.touched, all: s.all, lines: [] };
  }

  /** What the webview may persist: expanded lines when few enough, or "all". */
  persistable(model: TraceModel, rows: RowProjection): { lines: number[] | null; all: boolean } {
    if (!this.state.touched) return { lines: null, all: false };
    if (this.state.all) return { lines: null, all: true };
    const nodes = rows.expandedNodes();
    if (nodes.length > MAX_PERSISTED_EXPANDED) return { lines: null, all: false };
    return { lines: placesOf(model, nodes), all: false };
  }
}

/** Where the nodes are (their lines; for a session part's events, placeOfNode's places), skipping those that have none. */
function placesOf(model: TraceModel, nodes: readonly number[]): number[] {
  const out: number[] = [];
  for (const i of nodes) {
    const p = placeOfNode(model, i);
    if (p !== null) out.push(p);
  }
  return out;
}

/** The events at `lines` (first event of each line, or placeOfNode's places), skipping those that hold none. */
function nodesAt(model: TraceModel, lines: readonly number[]): number[] {
  const nodes: number[] = [];
  for (const l of lines) {
    const n = nodeAtPlace(model, l);
    if (n !== null && n >= 0) nodes.push(n);
  }
  return nodes;
}
