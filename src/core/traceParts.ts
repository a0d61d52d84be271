import type { HashRef } from './model';
import type { TraceModel, TracePart } from './traceModel';
import { TracePath, tracePathToOpen } from './tracePath';

/**
 * The places of a model read with its session's parts (`TraceModel.parts`, core/sessionParts.ts): which file each
 * event was read from, and the main file's events alone (what its checks judge). Every user of an event's line,
 * offset or length reads them in the event's own file through these.
 */

/**
 * The per-event facts the checks read (rules/types.ts `CheckEvents`): the viewer's event table has them, so has the
 * compact table a streamed verification keeps (stream/checkFacts.ts), and so has {@link mainEvents}' view of the
 * main file's events of a model read with its parts.
 */
export interface CheckEvents {
  readonly size: number;
  lineOf(i: number): number;
  seqOf(i: number): number | null;
  id(i: number): string | null;
  timeOf(i: number): number | null;
  groupOf(i: number): string | null;
  hashRefsOf(i: number): HashRef[];
  eventsWithHashRefs(): number[];
}

/** The part (file) of event i: its path and its place in that file. */
export function partOfEvent(model: TraceModel, i: number): TracePart | null {
  return model.parts?.[model.events.partOf(i)] ?? null;
}

/** The path of the file event i was read from (the main file's for a model without parts, or a node that is no event). */
export function pathOfEvent(model: TraceModel, i: number): string {
  if (i < 0 || i >= model.events.size) return model.path;
  return partOfEvent(model, i)?.path ?? model.path;
}

/** What to open to read event i's line again: its part's file, else the trace itself ({@link tracePathToOpen}). */
export function fileOfEvent(model: TraceModel, i: number): TracePath {
  const part = i >= 0 && i < model.events.size ? model.events.partOf(i) : 0;
  return part > 0 && model.parts?.[part] ? model.parts[part].path : tracePathToOpen(model);
}

/** The size of the file event i was read from. */
export function fileSizeOfEvent(model: TraceModel, i: number): number {
  const part = i >= 0 && i < model.events.size ? model.events.partOf(i) : 0;
  return part > 0 ? model.parts?.[part]?.model?.fileSize ?? 0 : model.fileSize;
}

/** The number of the part whose path is `path` (0 when it is the main file or none). */
export function partOfPath(model: TraceModel, path: string): number {
  const k = model.parts?.findIndex((p) => p.path === path) ?? -1;
  return k < 0 ? 0 : k;
}

/**
 * The main file's events of a model read with its parts, for the checks (they judge each file alone): events are
 * numbered 0.. in file order as the main file's own model numbers them, also after a live append that added main
 * events after the parts'. The model's own table when it has no parts.
 */
export function mainEvents(model: TraceModel): CheckEvents {
  const t = model.events;
  if (!model.parts) return t;
  const index: number[] = [];
  for (let i = 0; i < t.size; i++) if (t.partOf(i) === 0) index.push(i);
  const hashRefs = t.eventsWithHashRefs().filter((i) => t.partOf(i) === 0);
  const back = new Map(index.map((g, k) => [g, k]));
  return {
    size: index.length,
    lineOf: (k) => t.lineOf(index[k]),
    seqOf: (k) => t.seqOf(index[k]),
    id: (k) => t.id(index[k]),
    timeOf: (k) => t.timeOf(index[k]),
    groupOf: (k) => t.groupOf(index[k]),
    hashRefsOf: (k) => t.hashRefsOf(index[k]),
    eventsWithHashRefs: () => hashRefs.map((g) => back.get(g)!),
  };
}
