/**
 * The header and the filter's kinds and values, as the viewer sends them with a model. On open they are computed
 * at once. While a big trace grows (live tail), they walk every event (the summary's usage rollups, tool pairing
 * and time range: seconds at a million events), so an append shows its rows first, with the header it had plus
 * the new counts and the new events' kinds and values, and the whole header follows in a `header` message once the
 * thread is free. Refreshes are coalesced and spaced by their own cost, so a trace written to every few
 * milliseconds cannot keep the extension host busy with headers.
 */
import type { TraceModel } from '../core/loadTrace';
import type { HeaderInfo, HostMessage } from '../protocol';
import { MALFORMED_KIND, headerOf, kindsOf } from './sessionModelInfo';
import { filterValuesOf, MAX_FILTER_VALUES } from './sessionFilter';

/** What an init message carries about the trace besides its rows. */
export interface HeaderFacts {
  header: HeaderInfo;
  kinds: string[];
  filterValues: Record<string, string[]>;
}

/** Least wait before a deferred refresh, and how many times its own last cost it waits at least. */
const MIN_DELAY_MS = 150;
const COST_FACTOR = 2;

/** See the file comment. */
export class SessionHeader {
  private shown: (HeaderFacts & { events: number }) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastCostMs = 0;

  constructor(
    private readonly current: () => { model: TraceModel; version: number } | null,
    private readonly post: (m: HostMessage) => void,
  ) {}

  /**
   * The facts for the init message of `model`. `appended`: the model is the previous one plus events read from
   * the file's new bytes; then the header is the one last shown with the new counts, and the full one follows.
   */
  facts(model: TraceModel, appended: boolean): HeaderFacts {
    const prev = this.shown;
    if (!appended || !prev || prev.events > model.events.size) return this.computed(model);
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
    const header: HeaderInfo = { ...prev.header, events: t.size, lines: model.lineCount, malformedLines: model.malformed.length, fileSize: model.fileSize };
    this.shown = { header, kinds: kindList, filterValues: Object.fromEntries(Object.entries(values).map(([k, s]) => [k, [...s].sort()])), events: t.size };
    this.schedule();
    return this.shown;
  }

  /** Stops a pending refresh (the viewer closed). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private computed(model: TraceModel): HeaderFacts {
    const t = performance.now();
    const facts = { header: headerOf(model), kinds: kindsOf(model), filterValues: filterValuesOf(model) };
    this.lastCostMs = performance.now() - t;
    this.shown = { ...facts, events: model.events.size };
    return facts;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const now = this.current();
      if (!now) return;
      const facts = this.computed(now.model);
      this.post({ type: 'header', modelVersion: now.version, ...facts });
    }, Math.max(MIN_DELAY_MS, COST_FACTOR * this.lastCostMs));
  }
}
