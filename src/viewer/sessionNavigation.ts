/**
 * The viewer's answers about ids: what an id names (hover cards, click to jump) and how an event links to
 * others (its children, the events that mention it, the id values it holds). Backed by the core's IdLookup,
 * built lazily once per model, so each answer costs the size of the answer, not of the trace. vscode-free.
 */
import type { TraceModel } from '../core/loadTrace';
import { IdLookup, isIdKey } from '../core/navigation';
import type { EventNavigation, EventSummary, IdInfoMessage } from '../protocol';
import { summarizeEvent } from './traceRows';

/** How many children the detail pane lists before "and N more". */
export const CHILD_LIST_MAX = 20;
/** How many mentioning events a hover card or the detail pane lists. */
export const MENTION_LIST_MAX = 50;
/** Id values longer than this are not ids (prompts, payloads). */
const MAX_ID_CHARS = 512;
/** Bounds on the walk over an event's JSON for id values (huge events keep their first ids). */
const MAX_ID_VALUES = 2000;
const MAX_WALK_NODES = 100_000;

const lookups = new WeakMap<TraceModel, IdLookup>();

/** The model's id index, built on first use and kept as long as the model lives. */
export function idLookupOf(model: TraceModel): IdLookup {
  let l = lookups.get(model);
  if (!l) lookups.set(model, (l = new IdLookup(model)));
  return l;
}

/**
 * What `id` names: the event whose own id it is, else the first event that mentions it in a named field (a
 * task id, a call id), and the other events that mention it. A parent link alone names nothing: a dangling
 * parent id is "not in this trace".
 */
export function idInfoOf(model: TraceModel, id: string): Omit<IdInfoMessage, 'type' | 'requestId'> {
  const found = idLookupOf(model).find(id);
  if (!found) return { id, target: null, via: null, mentionedBy: [], mentionedByTotal: 0 };
  const own = model.tree.idIndex.get(id);
  const target = own ?? firstMentionOf(model, id, found.references);
  const others = found.references.filter((i) => i !== target);
  return {
    id,
    target: target !== undefined ? summarizeEvent(model, target) : null,
    via: own !== undefined ? 'id' : target !== undefined ? 'mention' : null,
    mentionedBy: others.slice(0, MENTION_LIST_MAX).map((i) => summarizeEvent(model, i)),
    mentionedByTotal: others.length,
  };
}

/** The first of `refs` that names `id` in a mention field (not only as its parent id). */
function firstMentionOf(model: TraceModel, id: string, refs: number[]): number | undefined {
  return refs.find((i) => model.events.mentionsOf(i).some((m) => m.id === id));
}

/** The links of event `node` (children, mentions of its ids, its id values); `json` is its parsed line. */
export function navigationOf(model: TraceModel, node: number, json: unknown): EventNavigation {
  if (node < 0) return { children: [], mentionedBy: [], mentionedByTotal: 0, ids: [] };
  const children = Array.from(model.tree.children(node).subarray(0, CHILD_LIST_MAX), (c) => summarizeEvent(model, c));
  const others = mentioningEvents(model, node);
  return {
    children,
    mentionedBy: others.slice(0, MENTION_LIST_MAX).map((i) => summarizeEvent(model, i)),
    mentionedByTotal: others.length,
    ids: idValuesOf(model, node, json),
  };
}

/**
 * Other events (not `node`, not its children) that mention an id `node` defines: its own id, and the ids it
 * is the first to mention (a task start's task id, a tool call's call id), in file order.
 */
export function mentioningEvents(model: TraceModel, node: number): number[] {
  const t = model.events;
  const lookup = idLookupOf(model);
  const lists: number[][] = [];
  const own = t.id(node);
  if (own !== null) lists.push(lookup.find(own)?.references ?? []);
  for (const m of t.mentionsOf(node)) {
    const found = lookup.find(m.id);
    if (found && model.tree.idIndex.get(m.id) === undefined && firstMentionOf(model, m.id, found.references) === node) lists.push(found.references);
  }
  const keep = (i: number) => i !== node && t.parent(i) !== node;
  if (lists.length === 1) return lists[0].filter(keep);
  const union = new Set<number>();
  for (const l of lists) for (const i of l) if (keep(i)) union.add(i);
  return [...union].sort((a, b) => a - b);
}

/**
 * The string values of an event that are ids: its own id, its parent id and mentions (from the model), and
 * any value in its JSON that this trace knows as an id or that sits under an id field.
 */
export function idValuesOf(model: TraceModel, node: number, json: unknown): string[] {
  const t = model.events;
  const lookup = idLookupOf(model);
  const out = new Set<string>();
  const own = t.id(node);
  const pid = t.parentId(node);
  if (own !== null) out.add(own);
  if (pid !== null) out.add(pid);
  for (const m of t.mentionsOf(node)) out.add(m.id);
  const consider = (key: string | null, v: string) => {
    if (v.length === 0 || v.length > MAX_ID_CHARS || out.has(v)) return;
    if (isIdKey(key) || lookup.find(v) !== null) out.add(v);
  };
  // Breadth-first over the JSON with explicit bounds: events can be deep and wide.
  const queue: [string | null, unknown][] = [[null, json]];
  for (let q = 0; q < queue.length && q < MAX_WALK_NODES && out.size < MAX_ID_VALUES; q++) {
    const [key, v] = queue[q];
    if (typeof v === 'string') consider(key, v);
    else if (Array.isArray(v)) for (const x of v) queue.push([key, x]);
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) queue.push([k, x]);
  }
  return [...out];
}
