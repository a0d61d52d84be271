/**
 * The host side of the Timeline and Statistics tabs: builds the timeline once per model (on first request, so a
 * user who never opens the tab pays nothing) and answers slices of it.
 */
import type { TraceModel } from '../../core/traceModel';
import { usageRollupOf } from '../../core/usage/rollup';
import { contextSeries, contextSplit } from '../../core/usage/contextSplit';
import { modelRates } from '../../core/usage/modelRates';
import { runStatistics } from '../../core/usage/runStatistics';
import { usageReport, UsageReport } from '../../core/usage/usageReport';
import { sessionUsage } from '../../core/sessionUsage';
import type { HostMessage } from '../../protocol';
import { viewerPricing } from '../pricing';
import { buildTimeline, Timeline, timelineDensity, TimelineRows, timelineRows, timelineSlice } from './timelineData';
import type { RequestTimelineMessage, StatisticsData } from '../../protocol/timeline';

/** Most bars one answer carries, whatever the webview asks. */
export const MAX_TIMELINE_PAGE = 20_000;

/** See the file comment. */
export class SessionTimeline {
  private built: { model: TraceModel; tl: Timeline } | null = null;
  /** The rows last shown, with what they were made for (the filter and the collapsed bars). */
  private rows: { tl: Timeline; keep: ((event: number) => boolean) | null; collapsed: string; rows: TimelineRows } | null = null;
  private keep: ((event: number) => boolean) | null = null;
  /** Whether the webview has asked for the timeline of this model (then a filter change resets it). */
  private asked = false;

  constructor(private readonly model: () => TraceModel | null, private readonly modelVersion: () => number, private readonly post: (m: HostMessage) => void) {}

  private timeline(model: TraceModel): Timeline {
    if (this.built?.model !== model) (this.built = { model, tl: buildTimeline(model) }), (this.asked = false);
    return this.built.tl;
  }

  /** The viewer's filter (the events it keeps; null: none): hidden bars are not rows. */
  setFilter(keep: ((event: number) => boolean) | null): void {
    if (keep === this.keep) return;
    this.keep = keep;
    if (this.asked && this.built?.model === this.model()) this.post({ type: 'timelineReset', modelVersion: this.modelVersion() });
  }

  private rowsOf(tl: Timeline, collapsed: ReadonlySet<number>): TimelineRows {
    const key = [...collapsed].sort((a, b) => a - b).join(',');
    const r = this.rows;
    if (r && r.tl === tl && r.keep === this.keep && r.collapsed === key) return r.rows;
    const rows = timelineRows(tl, this.keep, collapsed);
    this.rows = { tl, keep: this.keep, collapsed: key, rows };
    return rows;
  }

  /** Answers a `requestTimeline`: the asked page, or the page around `node`'s row. */
  request(msg: RequestTimelineMessage): void {
    const model = this.model();
    if (!model) return;
    const tl = this.timeline(model);
    this.asked = true;
    const collapsed = new Set(msg.collapsed ?? []);
    const rows = this.rowsOf(tl, collapsed);
    const count = Math.min(msg.count, MAX_TIMELINE_PAGE);
    const bar = msg.node !== undefined && msg.node !== null && msg.node >= 0 && msg.node < tl.barOf.length ? tl.barOf[msg.node] : -1;
    const row = bar >= 0 ? rows.rowOf[bar] : -1;
    const start = row >= 0 ? Math.max(0, row - Math.floor(count / 2)) : msg.start;
    const density = msg.density ? timelineDensity(tl, Math.min(msg.density, 4096)) : null;
    this.post({ type: 'timeline', requestId: msg.requestId, modelVersion: this.modelVersion(), slice: timelineSlice(model, tl, start, count, rows, collapsed, viewerPricing()), focus: row >= 0 ? row : null, density });
  }

  /** Answers a `requestStatistics` with the run statistics at the user's prices. */
  statistics(): void {
    const model = this.model();
    if (!model) return;
    const version = this.modelVersion();
    const prices = viewerPricing();
    const report = usageReport(model, prices, usageRollupOf(model));
    this.post({ type: 'statistics', modelVersion: version, stats: statisticsOf(model, report) });
    // A session with other files (Claude Code subagents): the same again with theirs counted in, once they are read.
    void sessionUsage(model, { prices, report }).then((session) => {
      if (session === report || model !== this.model() || version !== this.modelVersion()) return;
      this.post({ type: 'statistics', modelVersion: version, stats: statisticsOf(model, session) });
    }, () => undefined);
  }
}

/** The setting users add prices in (package.json `contributes.configuration`). */
export const PRICING_SETTING = 'agentTrace.pricing';

/** The run statistics with the usage report's per-model and per-tool totals, each row with an event to jump to. */
export function statisticsOf(model: TraceModel, given?: UsageReport): StatisticsData {
  const prices = viewerPricing();
  const rollup = usageRollupOf(model);
  const report = given ?? usageReport(model, prices, rollup);
  const rates = modelRates(model, rollup, prices);
  const firstModel = new Map<string, number>();
  const firstTool = new Map<string, number>();
  for (let i = 0; i < model.events.size; i++) {
    const m = model.events.modelOf(i);
    const tool = model.events.toolOf(i);
    if (m !== null && !firstModel.has(m)) firstModel.set(m, i);
    if (tool !== null && !firstTool.has(tool)) firstTool.set(tool, i);
  }
  return {
    ...runStatistics(model, prices, 10, rollup),
    byModel: report.byModel.map((m) => {
      const unpriced = report.unpriced.find((u) => u.model === m.model) ?? null;
      const r = rates.get(m.model) ?? { cacheWrite1hTokens: null, price: null, unpricedShare: null };
      return {
        model: m.model, calls: m.calls, inputTokens: m.inputTokens, outputTokens: m.outputTokens, costUsd: m.costUsd, retries: m.retries, first: firstModel.get(m.model) ?? -1,
        cacheReadTokens: m.cacheReadTokens, cacheWriteTokens: m.cacheWriteTokens, reasoningTokens: m.reasoningTokens, costSource: m.costSource,
        unpricedReason: unpriced?.reason ?? null,
        // A cost the trace records for the model (or the run) prices all its tokens: the report's word wins.
        ...r, unpricedShare: unpriced ? r.unpricedShare : r.unpricedShare === null ? null : 0,
      };
    }),
    priced: report.priced,
    priceSource: report.priceSource,
    pricingSetting: PRICING_SETTING,
    context: contextSeries(contextSplit(model, rollup)),
    byTool: report.byTool.map((t) => ({ tool: t.tool, calls: t.calls, errors: t.errors, retries: t.retries, durationMs: t.durationMs, first: firstTool.get(t.tool) ?? -1 })),
    retries: report.retries,
    ...(report.explain.files.length > 1
      ? {
        session: {
          files: report.explain.files.map((f) => ({
            name: f.file.replace(/\\/g, '/').split('/').pop() ?? f.file, role: f.role, title: f.title ?? null, records: f.records,
            inputTokens: f.inputTokens, outputTokens: f.outputTokens, costUsd: f.costUsd, costCoversSession: f.costCoversSession === true, error: f.error ?? null,
          })),
          cost: report.explain.cost,
          notes: report.explain.notes,
        },
      }
      : {}),
  };
}
