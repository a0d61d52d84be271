import type { FormatTotals } from '../traceModel';
import type { ToolUsage } from './toolStats';
import type { ModelUsageJson, UsageFileJson, UsageReport, UsageTotalsJson } from './usageReport';

/** One other file of a session with its usage report (null when it could not be read). */
export interface SessionPartReport {
  file: string;
  role: 'subagent' | 'compaction';
  toolUseId: string | null;
  title: string | null;
  events: number;
  report: UsageReport | null;
  error?: string;
}

const TOKEN_KEYS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens', 'totalTokens'] as const;

function addOrNull(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : a + b;
}

function addTokens<T extends UsageTotalsJson>(into: T, from: UsageTotalsJson): T {
  for (const k of TOKEN_KEYS) into[k] = addOrNull(into[k], from[k]);
  return into;
}

function io(t: UsageTotalsJson): number {
  return (t.inputTokens ?? 0) + (t.outputTokens ?? 0);
}

/**
 * A session's usage: the main file's report with its other files' (subagents, compaction agents) added, so each
 * response of the session is counted once, wherever its file. The cost is counted once too: Claude Code's own totals
 * (`cost-state`, a `result`'s `total_cost_usd`) are the session's running totals, its subagents included; when the
 * main file's recorded totals cover the tokens of all the files, that recorded cost is the session's, and the
 * subagents' are not added to it (a parent that carries its children's sum is never added again). When they cover
 * only the main file (written before the subagents ran), the subagents' costs are added; otherwise the note says so.
 */
export function withSessionParts(main: UsageReport, recorded: FormatTotals, parts: readonly SessionPartReport[]): UsageReport {
  if (parts.length === 0) return main;
  const read = parts.filter((p) => p.report !== null);
  const notes = [...main.explain.notes];
  const mainIn = main.total.inputTokens ?? 0;
  const partsIn = read.reduce((a, p) => a + (p.report!.total.inputTokens ?? 0), 0);
  const recordedRun = main.explain.files[0].costSource === 'trace' && typeof recorded.costUsd === 'number' && Number.isFinite(recorded.costUsd);
  const recordedIn = typeof recorded.inputTokens === 'number' ? recorded.inputTokens : null;
  // The recorded totals are the session's (subagents included) when they hold at least the tokens of every file.
  const covers = recordedRun && recordedIn !== null && recordedIn >= mainIn + partsIn;
  if (recordedRun && !covers) {
    notes.push(recordedIn !== null && recordedIn > mainIn
      ? `The file's recorded totals (${recordedIn} input tokens) cover more than this file (${mainIn}) but less than the session's files (${mainIn + partsIn}): written while a subagent ran. Its recorded cost is counted, plus each subagent file's own.`
      : `The file's recorded totals cover this file only: each subagent file's cost is added to its recorded cost.`);
  }
  if (read.length < parts.length) notes.push(`${parts.length - read.length} of the session's ${parts.length} other files could not be read: their usage is missing (see files[].error).`);

  const total = { ...main.total };
  for (const p of read) addTokens(total, p.report!.total);
  if (!covers) for (const p of read) total.costUsd = addOrNull(total.costUsd, p.report!.total.costUsd);

  // Per model: tokens and calls add up; a model whose recorded cost covers the session keeps it.
  const byModel = new Map<string, ModelUsageJson>(main.byModel.map((m) => [m.model, { ...m }]));
  for (const p of read) {
    for (const m of p.report!.byModel) {
      const into = byModel.get(m.model);
      if (!into) {
        byModel.set(m.model, { ...m });
        continue;
      }
      addTokens(into, m);
      into.calls += m.calls;
      into.retries += m.retries;
      if (!(covers && into.costSource === 'trace')) {
        into.costUsd = addOrNull(into.costUsd, m.costUsd);
        into.costSource = into.costSource === null ? m.costSource : m.costSource === null || m.costSource === into.costSource ? into.costSource : 'mixed';
      }
    }
  }

  // Per tool: counts and durations add up; a percentile of calls in several files is not given (never guessed).
  const byTool = new Map<string, ToolUsage & { files: number }>(main.byTool.map((t) => [t.tool, { ...t, files: 1 }]));
  for (const p of read) {
    for (const t of p.report!.byTool) {
      const into = byTool.get(t.tool);
      if (!into) {
        byTool.set(t.tool, { ...t, files: 1 });
        continue;
      }
      into.calls += t.calls;
      into.errors += t.errors;
      into.retries += t.retries;
      into.durationMs = addOrNull(into.durationMs, t.durationMs);
      into.files++;
      into.p50Ms = into.p95Ms = null;
    }
  }
  if ([...byTool.values()].some((t) => t.files > 1)) notes.push('Percentiles (p50, p95) of a tool used in more than one of the session\'s files are not given: each file\'s are in its own summary.');

  const byGroup = new Map(main.byGroup.map((g) => [g.group, { ...g }]));
  for (const p of read) {
    for (const g of p.report!.byGroup) {
      const into = byGroup.get(g.group);
      if (!into) byGroup.set(g.group, { ...g });
      else {
        addTokens(into, g);
        into.costUsd = into.costUsd === null || g.costUsd === null ? null : into.costUsd + g.costUsd;
      }
    }
  }

  // The priced share over all files' tokens: a subagent's tokens are priced when the session's recorded cost covers them.
  const allTokens = io(main.total) + read.reduce((a, p) => a + io(p.report!.total), 0);
  const pricedTokens = (main.priced ?? 0) * io(main.total) + read.reduce((a, p) => a + (covers ? io(p.report!.total) : (p.report!.priced ?? 0) * io(p.report!.total)), 0);
  const unpriced = [...main.unpriced];
  for (const p of read) for (const u of p.report!.unpriced) if (!unpriced.some((x) => x.model === u.model)) unpriced.push(u);
  const unpricedTokens = new Map<string, number>();
  if (!covers || main.explain.unpricedTokens.length > 0) {
    for (const r of [main, ...(covers ? [] : read.map((p) => p.report!))]) {
      for (const u of r.explain.unpricedTokens) unpricedTokens.set(u.model, (unpricedTokens.get(u.model) ?? 0) + u.tokens);
    }
  }
  const files: UsageFileJson[] = [
    covers ? { ...main.explain.files[0], costCoversSession: true } : main.explain.files[0],
    ...parts.map((p): UsageFileJson => p.report
      ? { ...p.report.explain.files[0], file: p.file, role: p.role, toolUseId: p.toolUseId, title: p.title }
      : {
        file: p.file, role: p.role, toolUseId: p.toolUseId, title: p.title, events: p.events, records: 0, complete: false, costSource: null,
        inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, reasoningTokens: null, totalTokens: null, costUsd: null,
        ...(p.error ? { error: p.error } : {}),
      }),
  ];
  const sumOf = (k: 'records' | 'snapshotsReplaced' | 'duplicatesDropped' | 'aggregatesNotAdded'): number => main.explain[k] + read.reduce((a, p) => a + p.report!.explain[k], 0);
  const cost = covers
    ? `${main.explain.cost}; it is the session's, its ${read.length} subagent file${read.length === 1 ? '' : 's'} included (their costs are not added again)`
    : recordedRun ? `${main.explain.cost}, plus each subagent file's own cost` : main.explain.cost;
  const retriesRecorded = main.retries.source === 'recorded' || read.some((p) => p.report!.retries.source === 'recorded');
  return {
    ...main,
    total,
    byModel: [...byModel.values()].sort((a, b) => (b.totalTokens ?? 0) - (a.totalTokens ?? 0) || a.model.localeCompare(b.model)),
    byTool: [...byTool.values()].map(({ files: _files, ...t }) => t),
    byGroup: [...byGroup.values()],
    complete: main.complete && read.length === parts.length && read.every((p) => p.report!.complete),
    priced: allTokens > 0 ? pricedTokens / allTokens : null,
    unpriced,
    retries: { total: main.retries.total + read.reduce((a, p) => a + p.report!.retries.total, 0), source: retriesRecorded ? 'recorded' : 'inferred' },
    explain: {
      ...main.explain,
      files,
      records: sumOf('records'),
      snapshotsReplaced: sumOf('snapshotsReplaced'),
      duplicatesDropped: sumOf('duplicatesDropped'),
      aggregatesNotAdded: sumOf('aggregatesNotAdded'),
      unpricedShare: allTokens > 0 ? 1 - pricedTokens / allTokens : null,
      unpricedTokens: [...unpricedTokens].map(([model, tokens]) => ({ model, tokens, share: allTokens > 0 ? tokens / allTokens : 0 })),
      cost,
      notes,
    },
  };
}
