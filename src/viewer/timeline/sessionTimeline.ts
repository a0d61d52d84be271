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
import { buildTimeline, Timeline, timelineDensity, timelineSlice } from './timelineData';
import type { RequestTimelineMessage, StatisticsData } from '../../protocol/timeline';

/** Most bars one answer carries, whatever the webview asks. */
export const MAX_TIMELINE_PAGE = 20_000;

/** See the file comment. */
export class SessionTimeline {
  private built: { model: TraceModel; tl: Timeline } | null = null;

  constructor(private readonly model: () => TraceModel | null, private readonly modelVersion: () => number, private readonly post: (m: HostMessage) => void) {}

  private timeline(model: TraceModel): Timeline {
    if (this.built?.model !== model) this.built = { model, tl: buildTimeline(model) };
    return this.built.tl;
  }

  /** Answers a `requestTimeline`: the asked page, or the page around `node`'s bar. */
  request(msg: RequestTimelineMessage): void {
    const model = this.model();
    if (!model) return;
    const tl = this.timeline(model);
    const count = Math.min(msg.count, MAX_TIMELINE_PAGE);
    const bar = msg.node !== undefined && msg.node !== null && msg.node >= 0 && msg.node < tl.barOf.length ? tl.barOf[msg.node] : -1;
    const start = bar >= 0 ? Math.max(0, bar - Math.floor(count / 2)) : msg.start;
    const density = msg.density ? timelineDensity(tl, Math.min(msg.density, 4096)) : null;
    this.post({ type: 'timeline', requestId: msg.requestId, modelVersion: this.modelVersion(), slice: timelineSlice(model, tl, start, count), focus: bar >= 0 ? bar : null, density });
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
