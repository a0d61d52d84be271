/**
 * The conversation one event holds, the same for the transcript and the Content tab: the messages of its own
 * object when several events share a line (an OTLP export written as one JSON line), and a GenAI span's tool
 * call or chat messages (its attributes: otlpTool.ts) when it has them. vscode-free.
 */
import type { TraceModel } from '../core/loadTrace';
import type { ChatMessage } from '../protocol';
import { extractChat } from './chatContent';
import { findObjectWithId } from './eventDetail';
import { otlpChatMessages, otlpToolMessage } from './transcript/otlpTool';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The messages of event `node`, given its line's parsed JSON and the messages read from the whole line. */
export function eventMessages(model: TraceModel, node: number, json: unknown, lineMessages: ChatMessage[]): ChatMessage[] {
  const id = model.events.id(node);
  const shared = sharesLine(model, node);
  const found = shared ? (id ? ownObject(json, id) : null) : isObj(json) ? json : null;
  if (!found) return lineMessages;
  // A line's other events show their own objects (a Gemini message's tool calls): each is read once, by its event.
  const own = shared ? withoutObjects(found, othersOnLine(model, node)) : found;
  const tool = otlpToolMessage(own);
  if (tool) return [tool, ...extractChat(own)];
  const chat = otlpChatMessages(own);
  if (chat.length > 0) return chat;
  return shared ? extractChat(own) : lineMessages;
}

/** Ids (lowercase) as {@link withoutObjects} asks for them. */
interface IdSet {
  readonly size: number;
  has(id: string): boolean;
}

/** The events next to each other on one line (of one file), with how many of them hold each id (lowercase). */
interface LineRun {
  size: number;
  lo: number;
  hi: number;
  counts: Map<string, number>;
}
const lastRuns = new WeakMap<TraceModel, LineRun>();

/**
 * The ids of the other events of the event's line (lowercase). The line's run of events is counted once and kept
 * for the next event of it: an OTLP document on one line asked this per event, each a walk of every event (n²).
 */
function othersOnLine(model: TraceModel, node: number): IdSet {
  const t = model.events;
  let run = lastRuns.get(model);
  if (!run || run.size !== t.size || node < run.lo || node > run.hi) {
    const line = t.lineOf(node);
    const same = (i: number) => t.lineOf(i) === line && t.partOf(i) === t.partOf(node);
    let lo = node;
    let hi = node;
    while (lo > 0 && same(lo - 1)) lo--;
    while (hi + 1 < t.size && same(hi + 1)) hi++;
    const counts = new Map<string, number>();
    for (let i = lo; i <= hi; i++) {
      const id = t.id(i)?.toLowerCase();
      if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    lastRuns.set(model, (run = { size: t.size, lo, hi, counts }));
  }
  const { counts } = run;
  const own = t.id(node)?.toLowerCase();
  const alone = own !== undefined && counts.get(own) === 1;
  return { size: counts.size - (alone ? 1 : 0), has: (id) => counts.has(id) && !(alone && id === own) };
}

/** `o` without the objects inside it (array items or fields) that another event of its line owns, by their `id`. */
function withoutObjects(o: Obj, ids: IdSet, depth = 0): Obj {
  if (ids.size === 0 || depth > 6) return o;
  const owned = (v: unknown) => isObj(v) && typeof v.id === 'string' && ids.has(v.id.toLowerCase());
  const strip = (v: unknown): unknown => (Array.isArray(v) ? v.filter((x) => !owned(x)).map(strip) : isObj(v) ? withoutObjects(v, ids, depth + 1) : v);
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (!owned(v)) out[k] = strip(v);
  return out;
}

function sharesLine(model: TraceModel, node: number): boolean {
  // Events of a session's files (TraceModel.parts) share a line only with events of the same file.
  const t = model.events;
  const same = (i: number) => t.lineOf(i) === t.lineOf(node) && t.partOf(i) === t.partOf(node);
  return (node > 0 && same(node - 1)) || (node + 1 < t.size && same(node + 1));
}

/** The object of the line whose id field holds the event's id (OTLP ids are `traceId/spanId`: the span holds the last part). */
function ownObject(json: unknown, id: string): Obj | null {
  return findObjectWithId(json, id) ?? (id.includes('/') ? findObjectWithId(json, id.slice(id.lastIndexOf('/') + 1)) : null);
}
