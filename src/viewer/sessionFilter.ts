/**
 * The viewer's row filter in the filter language: the old kinds/status controls and the typed expression
 * become one expression (rowFilterExpr.ts), evaluated by the core. `text:` terms need the file's lines, so
 * they are looked up in the background (one streaming pass, cancelled by the next filter or model) and the
 * rows are filtered again when the lookup is done. vscode-free.
 */
import type { TraceModel } from '../core/loadTrace';
import type { Severity } from '../core/model';
import { compileFilter, type CompiledFilter } from '../core/filter/filterCompile';
import { matchFilter, textHits, type TextHits } from '../core/filter/filterModel';
import { rowFilterExpression } from '../core/filter/rowFilterExpr';
import type { RowFilter } from '../protocol';

/** What the rows are filtered by: a predicate over events and whether malformed lines pass; null = none. */
export interface RowPredicate {
  events: (i: number) => boolean;
  malformedPass: boolean;
}

/** The one expression a row filter stands for. */
export function rowFilterSource(f: RowFilter): string {
  return rowFilterExpression(f.kinds, f.status, f.expr ?? '');
}

/** The compiled filter, or null when nothing filters or the typed part does not read (the webview shows why). */
export function compileRowFilter(f: RowFilter): CompiledFilter | null {
  try {
    return compileFilter(rowFilterSource(f));
  } catch {
    return f.expr ? compileRowFilter({ ...f, expr: '' }) : null;
  }
}

/** See the file comment. */
export class SessionFilter {
  private hits: { model: TraceModel; key: string; hits: TextHits } | null = null;
  private pending: string | null = null;
  private token = 0;

  /** `onTextReady` is called when a background text lookup finished and the rows should be filtered again. */
  constructor(private readonly onTextReady: () => void) {}

  /** The predicate for `f` on `model`; text terms count as not found until their lookup is done. */
  predicate(model: TraceModel, f: RowFilter, badgeOfLine: (line: number, part?: number) => Severity | undefined): RowPredicate | null {
    const compiled = compileRowFilter(f);
    if (!compiled) return null;
    const key = compiled.needles.join('\u0000');
    let hits = this.hits && this.hits.model === model && this.hits.key === key ? this.hits.hits : null;
    if (!hits) {
      if (compiled.needles.length > 0) this.lookUp(model, compiled.needles, key);
      hits = emptyHits(model, compiled.needles.length);
    }
    const m = matchFilter(model, compiled, hits, badgeOfLine);
    let malformedPass = false;
    for (let k = 0; k < model.malformed.length && !malformedPass; k++) malformedPass = m.malformed(k);
    return { events: m.events, malformedPass };
  }

  private lookUp(model: TraceModel, needles: string[], key: string): void {
    if (this.pending === key) return;
    this.pending = key;
    const token = ++this.token;
    void textHits(model, needles, { isCancelled: () => token !== this.token }).then(
      (hits) => {
        if (token !== this.token) return;
        this.pending = null;
        this.hits = { model, key, hits };
        this.onTextReady();
      },
      () => {
        if (token === this.token) this.pending = null;
      },
    );
  }
}

/** Distinct values kept per field for the completions. */
export const MAX_FILTER_VALUES = 500;
const values = new WeakMap<TraceModel, Record<string, string[]>>();

/** Distinct tools, models, categories and groups of the trace (at most 500 each), for completions. */
export function filterValuesOf(model: TraceModel): Record<string, string[]> {
  const known = values.get(model);
  if (known) return known;
  const t = model.events;
  // The first MAX_FILTER_VALUES of each, read from the columns' arrays (not a string per event and column).
  const out: Record<string, string[]> = {
    tool: t.distinctNames('tool', MAX_FILTER_VALUES).sort(),
    model: t.distinctNames('model', MAX_FILTER_VALUES).sort(),
    category: t.distinctCategories(MAX_FILTER_VALUES).sort(),
    group: t.distinctNames('group', MAX_FILTER_VALUES).sort(),
  };
  values.set(model, out);
  return out;
}

function emptyHits(model: TraceModel, n: number): TextHits {
  return {
    events: Array.from({ length: n }, () => new Uint8Array(model.events.size)),
    malformed: Array.from({ length: n }, () => new Uint8Array(model.malformed.length)),
  };
}
