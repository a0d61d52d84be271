/**
 * The header and the filter's kinds and values a session sends with a model. A small model's come with `init`.
 * A large one's totals (runs, tokens, cost, tool calls: a summary that walks every event, about a second at a
 * million events) would hold back the rows the webview asks for right after `init`, so `init` carries the facts
 * that need no summary (`counting`) and the full header follows once the webview says it drew the first rows
 * (`rowsShown`): counted as soon as the rows message was posted, the count held that message back in the extension
 * host (on a 1M-event trace in the workbench, the rows came up about 0.3 s later).
 * While a trace grows (live tail), an append is shown with the header last sent plus the new counts, kinds and
 * filter values (read from the new events only), and the whole header follows, refreshes coalesced and spaced by
 * twice their own cost, so a writer that appends every few milliseconds cannot keep the extension host busy with
 * headers. vscode-free (the HTML report runs it too).
 */
import type { TraceModel } from '../core/loadTrace';
import type { HeaderInfo, HostMessage } from '../protocol';
import { cachedHeaderOf, headerOf, kindsOf, MALFORMED_KIND, quickHeaderOf, sessionHeaderOf } from './sessionModelInfo';
import { filterValuesOf, MAX_FILTER_VALUES } from './sessionFilter';

/** Models with more events than this get their totals after their first rows. */
export const COUNT_AFTER_ROWS_ABOVE = 100_000;
/** When no rows are asked for (a panel in the background), the totals are counted after this long anyway. */
const COUNT_ANYWAY_MS = 1000;
/** Least wait before an append's header refresh, and how many times its own last cost it waits at least. */
const APPEND_DELAY_MS = 150;
const APPEND_COST_FACTOR = 2;

/** What an init message carries about the trace besides its rows. */
export interface HeaderFacts {
  header: HeaderInfo;
  kinds: string[];
  filterValues: Record<string, string[]>;
}

/** What the header needs from its session. */
export interface SessionHeaderDeps {
  model(): TraceModel | null;
  modelVersion(): number;
  post(msg: HostMessage): void;
}

/** See the file comment. */
export class SessionHeader {
  private pending: TraceModel | null = null;
  /** The pending header is an append's: counted when its spacing has passed, not as soon as rows went out. */
  private spaced = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private shown: (HeaderFacts & { events: number }) | null = null;
  private lastCostMs = 0;
  private disposed = false;

  constructor(
    private readonly deps: SessionHeaderDeps,
    private readonly countAfterRowsAbove = COUNT_AFTER_ROWS_ABOVE,
  ) {}

  /**
   * The facts to send with `init` for `model`. `appended`: the model is the one shown plus events read from the
   * file's new bytes. A large model not counted yet gets the quick header (`counting`).
   */
  forInit(model: TraceModel, appended = false): HeaderFacts {
    const known = cachedHeaderOf(model);
    const prev = this.shown;
    if (appended && !known && prev && prev.events <= model.events.size) return this.remember(this.grown(prev, model), model);
    const rest = { kinds: kindsOf(model), filterValues: filterValuesOf(model) };
    if (known || model.events.size <= this.countAfterRowsAbove) {
      this.cancel();
      const facts = this.remember({ header: known ?? this.counted(model), ...rest }, model);
      this.addSession(model);
      return facts;
    }
    this.pending = model;
    this.spaced = false;
    this.schedule(COUNT_ANYWAY_MS);
    return this.remember({ header: quickHeaderOf(model), ...rest }, model);
  }

  /** The webview drew the first rows of the model shown: its pending totals are counted next. */
  afterRows(): void {
    if (this.pending && !this.spaced) this.schedule(0);
  }

  /** Stops a pending count (the viewer closed). */
  dispose(): void {
    this.disposed = true;
    this.cancel();
  }

  /** The facts last shown, with the counts of `model` and the kinds and values of its new events. */
  private grown(prev: HeaderFacts & { events: number }, model: TraceModel): HeaderFacts {
    const t = model.events;
    const kinds = new Set(prev.kinds.filter((k) => k !== MALFORMED_KIND));
    const values = Object.fromEntries(Object.entries(prev.filterValues).map(([k, v]) => [k, new Set(v)]));
    const add = (key: string, v: string | null) => {
      const set = (values[key] ??= new Set());
      if (v !== null && set.size < MAX_FILTER_VALUES) set.add(v);
    };
    for (let i = prev.events; i < t.size; i++) {
      kinds.add(t.kindOf(i));
      add('tool', t.toolOf(i));
      add('model', t.modelOf(i));
      add('category', t.categoryOf(i));
      add('group', t.groupOf(i));
    }
    const kindList = [...kinds].sort();
    if (model.malformed.length > 0) kindList.push(MALFORMED_KIND);
    // Spaced by the cost of the last count; appends meanwhile make the same refresh count their newer model.
    this.pending = model;
    if (!this.spaced || this.timer === undefined) {
      this.spaced = true;
      this.schedule(Math.max(APPEND_DELAY_MS, APPEND_COST_FACTOR * this.lastCostMs));
    }
    return {
      header: { ...prev.header, events: t.size, lines: model.lineCount, malformedLines: model.malformed.length, fileSize: model.fileSize },
      kinds: kindList,
      filterValues: Object.fromEntries(Object.entries(values).map(([k, s]) => [k, [...s].sort()])),
    };
  }

  private remember(facts: HeaderFacts, model: TraceModel): HeaderFacts {
    this.shown = { ...facts, events: model.events.size };
    return facts;
  }

  private counted(model: TraceModel): HeaderInfo {
    const t = performance.now();
    const header = headerOf(model);
    this.lastCostMs = performance.now() - t;
    return header;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), ms);
  }

  private cancel(): void {
    this.pending = null;
    this.spaced = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    const model = this.pending;
    const spaced = this.spaced;
    this.cancel();
    // A newer model replaced it meanwhile: its own init said what to count.
    if (!model || model !== this.deps.model()) return;
    const header = this.counted(model);
    // After appends, the kinds and values read from the new events only are replaced by the whole trace's.
    const facts = { header, kinds: spaced || !this.shown ? kindsOf(model) : this.shown.kinds, filterValues: spaced || !this.shown ? filterValuesOf(model) : this.shown.filterValues };
    this.remember(facts, model);
    this.deps.post({ type: 'header', modelVersion: this.deps.modelVersion(), ...facts });
    this.addSession(model);
  }

  /**
   * When the file is the main file of a session with other files (Claude Code subagents), reads them (once per
   * model) and sends the header again with the session's tokens, tool calls and cost. A model replaced meanwhile
   * is left alone; a file that cannot be read is named in the header's usage, never an error of the view.
   */
  private addSession(model: TraceModel): void {
    if (this.disposed) return;
    sessionHeaderOf(model).then((header) => {
      if (!header || this.disposed || model !== this.deps.model() || !this.shown) return;
      const facts = { header, kinds: this.shown.kinds, filterValues: this.shown.filterValues };
      this.remember(facts, model);
      this.deps.post({ type: 'header', modelVersion: this.deps.modelVersion(), ...facts });
    }, () => undefined);
  }
}
