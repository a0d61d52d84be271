import type { EventTable } from './eventTable';
import { formatModule } from './formats';
import type { EventDraft, FormatName } from './model';
import type { TraceModel, TracePart } from './traceModel';
import { buildTree } from './tree';
import { fileSystem } from './io/fileSystem';
import { carryTreeFindings } from './jsonlModel';
import { runChecks } from './formatRules';
import type { CheckResult, RunOptions } from './checks/runChecks';
import type { CheckMode } from './rules/types';

/** How a session file is read: the loader, in the main file's format (passed in, so this file does not import it). */
export type PartLoader = (path: string, options: { format: FormatName; isCancelled?: () => boolean }) => Promise<TraceModel>;

/**
 * The model of a main file with its session's other files (`FormatModule.sessionFiles`: Claude Code's
 * `<session>/subagents/agent-*.jsonl`) read once each through the loader and their events added after the main
 * file's, each marked with its part (`EventTable.partOf`) and placed in its own file (line, offset, length). A part's
 * roots are shown under the main file's event that holds the call that started it (`FormatModule.sessionCalls`), or,
 * when no event holds it, under a grouping event of their own at the end: never lost. Each part's recorded links stay
 * inside it (no id of one file resolves another's), so the tree findings, checks and usage of every file are its own:
 * the main file's `diagnostics` and usage are what they are without the parts, and each part's own model (its
 * findings, lines and usage) is in `parts[k].model`. `model` is the main file's model over `table`, which grows.
 * A main file without session files (or a cut or cancelled read) comes back as it is.
 */
export async function withSessionParts(model: TraceModel, table: EventTable, load: PartLoader, isCancelled?: () => boolean, maxBytes = Infinity): Promise<TraceModel> {
  const module = formatModule(model.format);
  if (!module.sessionFiles || model.partial || model.cancelled || model.source) return model;
  let files;
  try {
    files = await module.sessionFiles(model.path);
  } catch {
    return model;
  }
  if (files.length === 0) return model;
  const ids = new Set(files.flatMap((f) => (f.toolUseId ? [f.toolUseId] : [])));
  const calls = (module.sessionCalls ?? toolCallsById)(table, ids);
  const parts: TracePart[] = [{ path: model.path, role: 'main', toolUseId: null, title: null, call: -1, first: 0, count: table.size, model: null }];
  let held = model.fileSize;
  for (const f of files) {
    const k = parts.length;
    const call = f.toolUseId === null ? undefined : calls.get(f.toolUseId);
    const part: TracePart = { path: f.path, role: f.role, toolUseId: f.toolUseId, title: f.title, call: call ?? -1, first: table.size, count: 0, model: null };
    parts.push(part);
    if (isCancelled?.()) {
      part.error = 'cancelled';
      continue;
    }
    try {
      // The main file and its parts are held together: a part that would go over the limit is listed, not read.
      const size = (await fileSystem().stat(f.path)).size;
      if (held + size > maxBytes) {
        part.error = `not read: ${mib(size)} MB would take the session over the size limit of ${mib(maxBytes)} MB (agentTrace.maxFileSizeMB)`;
        continue;
      }
      held += size;
      const own = await load(f.path, { format: model.format, isCancelled });
      part.model = own;
      if (own.cancelled) part.error = 'cancelled';
      addPartEvents(own, table, part, k);
    } catch (e) {
      part.error = e instanceof Error ? e.message : String(e);
    }
  }
  // The links inside each part resolve as in its own file and no id is shared, so the rebuilt tree finds nothing the
  // main file's findings (already in its diagnostics) and each part's own do not say.
  const tree = buildTree(table, []);
  carryTreeFindings(model.tree, tree);
  return { ...model, events: table, tree, parts };
}

/** Copies a part's events into the table after those there (see {@link withSessionParts}). */
function addPartEvents(own: TraceModel, table: EventTable, part: TracePart, k: number): void {
  const t = own.events;
  if (t.size === 0) return;
  // A part whose call is not in the main file is shown under a grouping event of its own, at the end of the roots.
  let root = part.call;
  if (root < 0) {
    const name = part.path.replace(/\\/g, '/').split('/').pop() ?? part.path;
    const grouping: EventDraft = { kind: part.role, category: 'task', label: `${part.role} ${part.title ? `"${part.title}" ` : ''}(${name}; its call is not in this file)`, displayParent: -1, group: t.groupOf(0) };
    root = table.add(grouping, { line: t.lineOf(0), offset: t.offsetOf(0), length: t.lengthOf(0) }, undefined, k);
  }
  const base = table.size;
  for (let j = 0; j < t.size; j++) {
    const e = t.get(j);
    const link = t.linkOf(j);
    const shown = t.parent(j);
    const draft: EventDraft = {
      kind: e.kind, category: e.category,
      // An id the table has already (the same uuid in two files) stays with its first event: no link crosses files.
      id: e.id !== null && table.indexOfId(e.id) === undefined ? e.id : null,
      ...(link >= 0 ? { parentIndex: base + link } : {}),
      displayParent: shown >= 0 ? base + shown : root,
      seq: e.seq, time: e.time, durationMs: e.durationMs, status: e.status, label: e.label,
      tokensIn: e.tokensIn, tokensOut: e.tokensOut, usage: t.usageFactsOf(j), model: e.model, tool: e.tool, group: e.group,
      hashRefs: e.hashRefs, mentions: e.mentions,
    };
    table.add(draft, { line: e.line, offset: e.offset, length: e.length }, undefined, k);
  }
  part.count = table.size - part.first;
}

/**
 * The checks of each other file of a session read with its parts (TraceModel.parts), each over its own model as if
 * opened alone: its findings name its own lines, for its own Problems entries. The main file's are `runChecks`'.
 */
export async function checkSessionParts(model: TraceModel, mode: CheckMode, options: RunOptions = {}): Promise<{ part: number; path: string; result: CheckResult }[]> {
  const out: { part: number; path: string; result: CheckResult }[] = [];
  for (const [k, p] of (model.parts ?? []).entries()) {
    if (k === 0 || !p.model || options.isCancelled?.()) continue;
    out.push({ part: k, path: p.path, result: await runChecks(p.model, mode, options) });
  }
  return out;
}

function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

/**
 * The tool-call events of the main file whose own id is one of these call ids (id → event index): where the session
 * files' calls are found when the format gives each call its call id as the event's id (FormatModule.sessionCalls
 * says otherwise). One pass over the events, stopped when every id is found.
 */
export function toolCallsById(events: EventTable, ids: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  if (ids.size === 0) return out;
  for (let i = 0; i < events.size && out.size < ids.size; i++) {
    if (events.categoryOf(i) !== 'tool' || events.partOf(i) !== 0) continue;
    const id = events.id(i);
    if (id !== null && ids.has(id) && !out.has(id)) out.set(id, i);
  }
  return out;
}
