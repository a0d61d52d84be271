/**
 * Facts about a loaded trace as the viewer shows them: the header, the kinds offered by the filter, and the
 * filter's predicate. vscode-free.
 */
import { formatModule } from '../core/formats';
import type { TraceModel } from '../core/loadTrace';
import { sessionSummaryOrigin, summarize, summarizeSession, timeRange } from '../core/summary';
import { sessionFilesOf } from '../core/sessionUsage';
import type { TraceSummary } from '../core/summary';
import { viewerPricing } from './pricing';
import type { HeaderInfo } from '../protocol';

import { MALFORMED_KIND } from '../core/filter/filterModel';

/** The kind shown for a line that is not valid JSON (defined once, by the filter language). */
export { MALFORMED_KIND };

const headers = new WeakMap<TraceModel, HeaderInfo>();

/** The header's facts about the trace (computed once per model: it walks every event). */
export function headerOf(model: TraceModel): HeaderInfo {
  let h = headers.get(model);
  if (!h) headers.set(model, (h = computeHeader(model)));
  return h;
}

/** The header of `model` if {@link headerOf} has computed it already (its session's, once {@link sessionHeaderOf} has). */
export function cachedHeaderOf(model: TraceModel): HeaderInfo | undefined {
  return sessionHeaders.get(model) ?? headers.get(model);
}

const sessionHeaders = new WeakMap<TraceModel, HeaderInfo>();

/**
 * The header of a file that is the main file of a session with other files (Claude Code subagents): its tokens,
 * tool calls and cost are the session's, with each file's share in `usage.files`. Null when the file is the whole
 * session (nothing to add to {@link headerOf}'s). Reads each other file once per model.
 */
export async function sessionHeaderOf(model: TraceModel): Promise<HeaderInfo | null> {
  const known = sessionHeaders.get(model);
  if (known) return known;
  if ((await sessionFilesOf(model)).length === 0) {
    // A fork whose origin's file is beside it: the header gets the link to it.
    const origin = model.origin ? await sessionSummaryOrigin(model) : undefined;
    if (!origin?.file) return null;
    const h: HeaderInfo = { ...headerOf(model), origin: originFact(model, origin) };
    sessionHeaders.set(model, h);
    return h;
  }
  const s = await summarizeSession(model, { prices: viewerPricing() });
  if (s.usage.explain.files.length < 2 && !s.origin?.file) return null;
  const h = headerFrom(model, s);
  sessionHeaders.set(model, h);
  return h;
}

/**
 * The header's facts that need no summary (file, format, events, lines, time span, columns), with the totals
 * marked as still being counted: what a large model's rows are shown with while {@link headerOf} waits.
 */
export function quickHeaderOf(model: TraceModel): HeaderInfo {
  const span = timeRange(model);
  return {
    ...fileFacts(model),
    confidence: model.detection.confidence,
    detectedBy: model.detection.reason,
    events: model.events.size,
    lines: model.lineCount,
    malformedLines: model.malformed.length,
    groups: 0,
    startTime: span ? new Date(span.min).toISOString() : null,
    endTime: span ? new Date(span.max).toISOString() : null,
    durationMs: span ? span.max - span.min : null,
    inputTokens: null,
    outputTokens: null,
    toolCalls: 0,
    errors: 0,
    warnings: 0,
    extraTotals: {},
    columns: { ...filledColumns(model), time: span !== null },
    partial: (model as { partial?: boolean }).partial === true,
    cancelled: model.cancelled,
    counting: true,
  };
}

function computeHeader(model: TraceModel): HeaderInfo {
  return headerFrom(model, summarize(model, { prices: viewerPricing() }));
}

function headerFrom(model: TraceModel, s: TraceSummary): HeaderInfo {
  const files = s.usage.explain.files;
  const { inputTokens, outputTokens, toolCalls, errors, warnings, ...extra } = s.totals;
  return {
    ...fileFacts(model),
    confidence: s.confidence,
    detectedBy: s.detectedBy,
    events: s.events,
    lines: s.lines,
    malformedLines: s.malformedLines,
    groups: s.groups.length,
    startTime: s.startTime,
    endTime: s.endTime,
    durationMs: s.durationMs,
    inputTokens: knownTokens(model, 'in', inputTokens),
    outputTokens: knownTokens(model, 'out', outputTokens),
    toolCalls,
    errors: errors ?? 0,
    warnings: warnings ?? 0,
    extraTotals: extra,
    columns: { ...filledColumns(model), time: s.startTime !== null },
    partial: (model as { partial?: boolean }).partial === true,
    cancelled: model.cancelled,
    ...(s.origin ? { origin: originFact(model, s.origin) } : {}),
    usage: {
      costUsd: s.usage.total.costUsd, priced: s.usage.priced, complete: s.usage.complete, unpriced: s.usage.unpriced,
      priceSource: `${s.usage.priceSource.name} ${s.usage.priceSource.version} of ${s.usage.priceSource.date}`,
      ...(files.length > 1
        ? {
          files: files.map((f) => ({
            name: f.file.replace(/\\/g, '/').split('/').pop() ?? f.file, role: f.role, title: f.title ?? null,
            inputTokens: f.inputTokens, outputTokens: f.outputTokens, costUsd: f.costUsd, ...(f.error ? { error: f.error } : {}),
          })),
          costExplained: s.usage.explain.cost,
        }
        : {}),
    },
  };
}

/** The header's fact of a fork's origin, with what its usage leaves out. */
function originFact(model: TraceModel, o: NonNullable<TraceSummary['origin']>): NonNullable<HeaderInfo['origin']> {
  return { sessionId: o.sessionId, inheritedEvents: o.inheritedEvents, inheritedLines: o.inheritedLines, upToOrdinal: o.upToOrdinal, hasFile: o.file !== null, excluded: model.origin?.excluded ?? [] };
}

function fileFacts(model: TraceModel): Pick<HeaderInfo, 'fileName' | 'filePath' | 'format' | 'formatTitle' | 'fileSize' | 'groupNoun'> {
  const path = model.path.replace(/\\/g, '/');
  return {
    fileName: path.slice(path.lastIndexOf('/') + 1),
    filePath: model.path,
    format: model.format,
    formatTitle: titleOf(model),
    fileSize: model.fileSize,
    groupNoun: formatModule(model.format).groupNoun,
  };
}

/**
 * A token total, or null when nothing in the trace records it. The summary counts 0 input tokens for a
 * trace whose events record only output (deepstrike's token_count): the header must not say "0 in".
 */
function knownTokens(model: TraceModel, side: 'in' | 'out', total: number | null): number | null {
  if (total !== 0) return total;
  if (model.formatTotals[side === 'in' ? 'inputTokens' : 'outputTokens'] !== undefined) return total;
  const t = model.events;
  // Columns, not t.get(i), which would decode every event's ids, mentions and hash references.
  for (let i = 0; i < t.size; i++) if ((side === 'in' ? t.tokensInOf(i) : t.tokensOutOf(i)) !== null) return total;
  return null;
}

/** Whether any event has a duration, and any tokens (the scan stops once both are seen). */
function filledColumns(model: TraceModel): { duration: boolean; tokens: boolean } {
  const t = model.events;
  let duration = false;
  let tokens = false;
  for (let i = 0; i < t.size && !(duration && tokens); i++) {
    duration ||= !Number.isNaN(t.durationOf(i));
    tokens ||= t.tokensInOf(i) !== null || t.tokensOutOf(i) !== null;
  }
  return { duration, tokens };
}

function titleOf(model: TraceModel): string {
  try {
    return formatModule(model.format).title;
  } catch {
    return model.format;
  }
}

/** Event kinds for the filter, plus the malformed-line kind when there are any. */
export function kindsOf(model: TraceModel): string[] {
  const kinds = model.events.kinds();
  if (model.malformed.length > 0) kinds.push(MALFORMED_KIND);
  return kinds;
}

