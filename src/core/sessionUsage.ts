import { formatModule } from './formats';
import { loadTrace } from './loadTrace';
import type { TraceModel } from './traceModel';
import type { SessionFile, SourceRecord } from './format';
import type { ModelPrice } from './usage/prices';
import { SessionPartReport, withSessionParts } from './usage/sessionSums';
import { usageReport, UsageReport } from './usage/usageReport';
import { settleUsageCells, UsageCell, usageCellsOf, utcDay } from './usage/usageCells';

/** Options of {@link sessionUsage}. */
export interface SessionUsageOptions {
  /** The user's prices, looked up before the bundled table (as for the file's own report). */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** The file's own usage report, when the caller has it already. */
  report?: UsageReport;
  isCancelled?: () => boolean;
  /** Sees the read of each of the session's other files as it happens (the search index rides it: core/sessions). */
  watchRead?: WatchRead;
}

/**
 * Sees one file's read as it happens: each record (the loader's `onRecord`), then the model, or null and why.
 * `after`: the read was of the lines appended since the file's last read (core/traceReader.ts), which saw the file
 * as this stamp says; only the new lines' records were seen, and the model is the whole file's.
 */
export interface FileReadWatch {
  onRecord(rec: SourceRecord): void;
  done(model: TraceModel | null, error: string | null, after?: { path: string; size: number; mtimeMs: number }): void;
}

/** Asked before each file a listing reads (with the file's stamp as the listing took it); what it hands back sees that read. */
export type WatchRead = (path: string, stamp?: { path: string; size: number; mtimeMs: number }) => Promise<FileReadWatch | undefined>;

/**
 * The usage of the session a loaded file is the main file of: its own report with its session's other files
 * (Claude Code's `<session>/subagents/agent-*.jsonl`; `FormatModule.sessionFiles`) read and added, each response
 * once, the cost once (core/usage/sessionSums.ts). Each other file is read once, through the loader, in the format
 * of the main file. A file that cannot be read is listed in `explain.files` with its error, and the report is then
 * not complete. A file with no session files, an in-memory source or a cut read gets its own report.
 */
export async function sessionUsage(model: TraceModel, options: SessionUsageOptions = {}): Promise<UsageReport> {
  return (await readSessionUsage(model, options, false)).report;
}

/**
 * {@link sessionUsage} with the session's usage per UTC day and model (core/usage/usageCells.ts): each counted record
 * of every file of the session at its own time and model, made to add up to the report's totals. The files are read
 * once, for both.
 */
export async function sessionUsageCells(model: TraceModel, options: SessionUsageOptions = {}): Promise<{ report: UsageReport; cells: UsageCell[] }> {
  const { report, cells } = await readSessionUsage(model, options, true);
  return { report, cells: cells! };
}

async function readSessionUsage(model: TraceModel, options: SessionUsageOptions, withCells: boolean): Promise<{ report: UsageReport; cells: UsageCell[] | null }> {
  const files = await sessionFilesOf(model);
  const own = options.report ?? usageReport(model, options.prices);
  const raw: UsageCell[] | null = withCells ? usageCellsOf(model, options.prices) : null;
  const settle = (report: UsageReport) => ({ report, cells: raw === null ? null : settleUsageCells(raw, report, firstDay(model)) });
  if (files.length === 0) return settle(own);
  const parts: SessionPartReport[] = [];
  for (const [k, f] of files.entries()) {
    if (options.isCancelled?.()) break;
    const part: SessionPartReport = { file: f.path, role: f.role, toolUseId: f.toolUseId, title: f.title, events: 0, report: null };
    // A model read with its parts holds each file's own model already: read once.
    const held = model.parts?.[k + 1];
    if (held && (held.model || held.error)) {
      const m = held.model;
      part.events = m?.events.size ?? 0;
      part.report = m && !m.cancelled ? usageReport(m, options.prices) : null;
      if (m && part.report) raw?.push(...usageCellsOf(m, options.prices));
      if (held.error) part.error = held.error;
      parts.push(part);
      continue;
    }
    const watch = await options.watchRead?.(f.path);
    try {
      const m = await loadTrace(f.path, { format: model.format, isCancelled: options.isCancelled, onRecord: watch?.onRecord });
      watch?.done(m, null);
      part.events = m.events.size;
      part.report = m.cancelled ? null : usageReport(m, options.prices);
      if (part.report) raw?.push(...usageCellsOf(m, options.prices));
      if (m.cancelled) part.error = 'cancelled';
    } catch (e) {
      part.error = e instanceof Error ? e.message : String(e);
      watch?.done(null, part.error);
    }
    parts.push(part);
  }
  return settle(withSessionParts(own, model.formatTotals, parts));
}

/** The UTC day of the file's first timed event, null when none has a time. */
function firstDay(model: TraceModel): string | null {
  const t = model.events;
  for (let i = 0; i < t.size; i++) {
    const time = t.timeOf(i);
    if (time !== null) return utcDay(time);
  }
  return null;
}

const listed = new WeakMap<TraceModel, Promise<readonly SessionFile[]>>();

/**
 * The session's other files (FormatModule.sessionFiles); none for a cut read or a format without them. A model read
 * with its parts (TraceModel.parts) names them; another's are listed once per model (the folder and every meta file
 * are read on the first call, not on each).
 */
export function sessionFilesOf(model: TraceModel): Promise<readonly SessionFile[]> {
  if (model.parts) return Promise.resolve(model.parts.slice(1).map((p) => ({ path: p.path, role: p.role === 'compaction' ? 'compaction' : 'subagent', toolUseId: p.toolUseId, title: p.title })));
  let hit = listed.get(model);
  if (!hit) listed.set(model, (hit = listSessionFiles(model)));
  return hit;
}

async function listSessionFiles(model: TraceModel): Promise<readonly SessionFile[]> {
  const find = formatModule(model.format).sessionFiles;
  if (!find || model.partial || model.cancelled) return [];
  try {
    return await find(model.path);
  } catch {
    return [];
  }
}
