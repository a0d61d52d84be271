import { TraceModel } from './loadTrace';
import type { WatchRead } from './sessionUsage';
import { EVENT_STATUSES, FormatName } from './model';
import { CODES_BLOCK } from './numberColumn';
import { linkChildren } from './tree';
import { ModelPrice } from './usage/prices';
import { UsageRollup, usageRollupOf } from './usage/rollup';
import { toolCallsOf } from './usage/toolStats';
import { UsageReport, usageReport } from './usage/usageReport';
import { sessionUsageCells, sessionUsage } from './sessionUsage';
import type { UsageCell } from './usage/usageCells';
import { formatModule } from './formats';

const ERROR = EVENT_STATUSES.indexOf('error');
const WARNING = EVENT_STATUSES.indexOf('warning');

/** The facts `agent-trace summary` and the viewer's header show. */
export interface TraceSummary {
  file: string;
  format: FormatName;
  confidence: number;
  detectedBy: string;
  /** The format's dialect (e.g. codex `rollout` or `exec-json`), when the detector named one. */
  dialect?: string;
  events: number;
  lines: number;
  blankLines: number;
  malformedLines: number;
  /** Distinct runs or sessions. */
  groups: string[];
  /** Events whose recorded link names no parent of the file (the tree's roots, unless the format nests by display parents). */
  roots: number;
  startTime: string | null;
  endTime: string | null;
  durationMs: number | null;
  totals: {
    inputTokens: number | null;
    outputTokens: number | null;
    toolCalls: number;
    errors: number;
    warnings: number;
    [name: string]: number | null;
  };
  kinds: Record<string, number>;
  diagnostics: number;
  /** Tokens and cost by model and tool, with scope, completeness and the priced share (core/usage). */
  usage: UsageReport;
  /** The session this file was forked from, when it is a fork (absent otherwise). */
  origin?: SummaryOrigin;
}

/** `summary --json`'s `origin`: the session a fork continues, what of its history the file holds, and its file. */
export interface SummaryOrigin {
  relation: 'fork';
  /** The origin's session id, null when the file copies a history without naming its session. */
  sessionId: string | null;
  /** Events whose lines copy the origin's history (shown under the first of them), 0 when the file only refers to it. */
  inheritedEvents: number;
  /** The first and last line of those copies, null when there are none. */
  inheritedLines: { first: number; last: number } | null;
  /** The origin's lines the fork starts from end before this ordinal (Codex), null when the file does not say. */
  upToOrdinal: number | null;
  /** The origin's file where the writer keeps it beside this one ({@link sessionSummaryOrigin}), else null. */
  file: string | null;
}

/** The summary's origin of a fork, without its file (known only after a look beside it). */
function summaryOrigin(model: TraceModel): SummaryOrigin | undefined {
  const o = model.origin;
  if (!o) return undefined;
  const inh = o.inherited;
  return { relation: o.relation, sessionId: o.sessionId, inheritedEvents: inh?.events ?? 0, inheritedLines: inh ? { first: inh.firstLine, last: inh.lastLine } : null, upToOrdinal: o.upToOrdinal, file: null };
}

/** A session id that can name a file: letters, digits, `-` and `_` (never a path). */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The summary's origin of a fork with its file, when the writer keeps it beside this one; undefined for no fork. */
export async function sessionSummaryOrigin(model: TraceModel): Promise<SummaryOrigin | undefined> {
  const o = summaryOrigin(model);
  if (!o || o.sessionId === null || !PLAIN_ID.test(o.sessionId)) return o;
  const find = formatModule(model.format).originFile;
  return { ...o, file: find ? await find(model.path, o.sessionId).catch(() => null) : null };
}

/** Options for {@link summarize}. */
export interface SummaryOptions {
  /** The user's prices (`agentTrace.pricing`, `--pricing`), looked up before the bundled table. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** A filter (`--filter`): only the events it keeps are counted, and totals come from those events. */
  include?: (i: number) => boolean;
  /** The model's usage rollup when the caller has it already (the diff): spares a second pass over the events. */
  rollup?: UsageRollup;
  /** Sees the read of each of the session's other files (core/sessionUsage.ts). */
  watchRead?: WatchRead;
}

/**
 * Computes the summary of a loaded trace in one pass over the event table. With `options.include`, only the
 * events it keeps are counted, and totals come from those events rather than the format's own totals.
 */
export function summarize(model: TraceModel, options: SummaryOptions = {}): TraceSummary {
  const include = options.include;
  const t = model.events;
  let errors = 0;
  let warnings = 0;
  // Columns read into arrays a block at a time (not t.get(i), which would decode every event's ids, mentions and
  // label, nor a per-event decode of each column); groups and kinds as the table's numbers for their names, named
  // at the end.
  const block = Math.min(t.size, CODES_BLOCK);
  const statuses = new Uint8Array(block);
  const groupRefs = new Int32Array(block);
  const kindRefs = new Int32Array(block);
  const groupSet = new Set<number>();
  const kindCounts = new Map<number, number>();
  let events = 0;
  for (let from = 0, size = t.size; from < size; from += block) {
    const n = Math.min(block, size - from);
    t.codesOf('status', from, n, statuses);
    t.refsOf('group', from, n, groupRefs);
    t.refsOf('kind', from, n, kindRefs);
    for (let k = 0; k < n; k++) {
      if (include && !include(from + k)) continue;
      events++;
      const status = statuses[k];
      if (status === ERROR) errors++;
      else if (status === WARNING) warnings++;
      const group = groupRefs[k];
      // A session read with its subagents (TraceModel.parts): their threads are not sessions of their own.
      if (group !== 0 && (!model.parts || t.partOf(from + k) === 0)) groupSet.add(group);
      const kind = kindRefs[k];
      kindCounts.set(kind, (kindCounts.get(kind) ?? 0) + 1);
    }
  }
  const groups: string[] = [];
  for (const g of groupSet) groups.push(t.stringOf(g)!);
  const kinds: Record<string, number> = {};
  for (const [k, n] of kindCounts) kinds[t.stringOf(k) ?? ''] = n;
  const ft = include ? {} : model.formatTotals;
  const extra: Record<string, number> = {};
  for (const [k, v] of Object.entries(ft)) if (v !== undefined && !['inputTokens', 'outputTokens', 'toolCalls', 'errors'].includes(k)) extra[k] = v;
  const span = timeRange(model, include);
  // Tokens the format does not total itself are the usage rollup's: aggregates never add to their children,
  // and a side no event reports stays unknown (never "0 in" for input nothing measured).
  const rollup = options.rollup ?? usageRollupOf(model);
  const usage = usageReport(model, options.prices, rollup);
  // Counted from the events by the one definition of a call the usage report and statistics share (a result is
  // part of its call), not the format's own total: murmur's counts shell commands apart, and every table agrees.
  // Read from the calls' index column: the call objects (a hundred thousand on a large trace) stay unmade.
  const calls = toolCallsOf(t, rollup);
  let toolCalls = include ? 0 : calls.count;
  if (include) for (let k = 0; k < calls.count; k++) if (include(calls.index[k])) toolCalls++;
  return {
    file: model.path,
    format: model.format,
    confidence: model.detection.confidence,
    detectedBy: model.detection.reason,
    ...(model.detection.dialect ? { dialect: model.detection.dialect } : {}),
    events,
    lines: model.lineCount,
    blankLines: model.blankLines,
    malformedLines: model.malformed.length,
    groups,
    roots: linkChildren(model.events, model.tree).roots.length,
    startTime: span ? new Date(span.min).toISOString() : null,
    endTime: span ? new Date(span.max).toISOString() : null,
    durationMs: span ? span.max - span.min : null,
    totals: {
      ...tokenTotals(model, rollup, include),
      toolCalls,
      errors: ft.errors ?? errors,
      warnings,
      ...extra,
    },
    kinds,
    diagnostics: model.diagnostics.length,
    usage,
    ...(model.origin && !include ? { origin: summaryOrigin(model)! } : {}),
  };
}

/**
 * {@link summarize} of a session: the usage of the session's other files (Claude Code subagents: core/sessionUsage.ts)
 * is counted with the file's, and the totals the file does not record itself (tokens, tool calls) are the
 * session's, so `totals` and `usage` agree. With a filter, only the file's matching events count.
 */
export async function summarizeSession(model: TraceModel, options: SummaryOptions = {}): Promise<TraceSummary> {
  return (await summarizeSessionWith(model, options, false)).summary;
}

/**
 * {@link summarizeSession} with the session's usage per UTC day and model (core/usage/usageCells.ts), adding up to
 * its `usage` totals: the session catalog keeps both. The session's files are read once.
 */
export async function summarizeSessionCells(model: TraceModel, options: Omit<SummaryOptions, 'include'> = {}): Promise<{ summary: TraceSummary; cells: UsageCell[] }> {
  const { summary, cells } = await summarizeSessionWith(model, options, true);
  return { summary, cells: cells! };
}

async function summarizeSessionWith(model: TraceModel, options: SummaryOptions, withCells: boolean): Promise<{ summary: TraceSummary; cells: UsageCell[] | null }> {
  const summary = summarize(model, options);
  if (options.include) return { summary, cells: null };
  const origin = await sessionSummaryOrigin(model);
  const s = origin ? { ...summary, origin } : summary;
  const read = withCells ? await sessionUsageCells(model, { prices: options.prices, report: s.usage, watchRead: options.watchRead }) : { report: await sessionUsage(model, { prices: options.prices, report: s.usage }), cells: null };
  const usage = read.report;
  if (usage === s.usage) return { summary: s, cells: read.cells };
  const ft = model.formatTotals;
  const totals = { ...s.totals };
  if (ft.inputTokens === undefined) totals.inputTokens = usage.total.inputTokens;
  if (ft.outputTokens === undefined) totals.outputTokens = usage.total.outputTokens;
  totals.toolCalls = usage.byTool.reduce((a, t) => a + t.calls, 0);
  return { summary: { ...s, totals, usage }, cells: read.cells };
}

/**
 * The earliest start and latest end of the events (of those `include` keeps), null when none has a time. An event
 * with a duration spans it: from its time where the format records starts (`eventTime: 'start'`: an OTLP span
 * ends at time + duration, so a 28 s root span makes a 28 s run), else up to its time (the timeline draws the same).
 */
export function timeRange(model: TraceModel, include?: (i: number) => boolean): { min: number; max: number } | null {
  const t = model.events;
  const startStamped = formatModule(model.format).eventTime === 'start';
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0, end = t.size; i < end; i++) {
    if (include && !include(i)) continue;
    const time = t.timeOf(i);
    if (time === null) continue;
    const d = t.durationOf(i);
    const span = d > 0 ? d : 0;
    const start = startStamped ? time : time - span;
    const stop = startStamped ? time + span : time;
    if (start < min) min = start;
    if (stop > max) max = stop;
  }
  return Number.isFinite(min) ? { min, max } : null;
}

/**
 * The run's input and output tokens as the summary reports them: the format's own totals, else the sum over the
 * counted records (only those `include` keeps, and then never the format's totals). The diff's token delta too.
 */
export function tokenTotals(model: TraceModel, rollup: UsageRollup, include?: (i: number) => boolean): { inputTokens: number | null; outputTokens: number | null } {
  const ft = include ? {} : model.formatTotals;
  return { inputTokens: ft.inputTokens ?? eventSum(rollup, 'input', include), outputTokens: ft.outputTokens ?? eventSum(rollup, 'output', include) };
}

/** The counted records' sum of one side, null when none reports it (totals lines are not added in). */
function eventSum(rollup: UsageRollup, side: 'input' | 'output', include?: (i: number) => boolean): number | null {
  let sum: number | null = null;
  for (const i of rollup.countedIndex) {
    if (include && !include(i)) continue;
    const v = rollup.usage.field(i, side);
    if (v !== null) sum = (sum ?? 0) + v;
  }
  return sum;
}
