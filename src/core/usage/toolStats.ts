import { EventTable } from '../eventTable';
import { EVENT_CATEGORIES } from '../model';
import { CallIds } from './callIds';
import type { UsageRollup } from './rollup';
import { keepShape } from '../keepShape';

/** One tool's calls, as `summary --json` reports them. */
export interface ToolUsage {
  tool: string;
  calls: number;
  errors: number;
  /** Sum of the calls' durations that are known; null when none is. */
  durationMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Retries of this tool (see `retryCounts`: recorded by the trace, or inferred where it records none). */
  retries: number;
}

/** The nearest-rank percentile `p` (0..100) of sorted numbers, null for none. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export { CALL_ID_KEYS } from './callIds';

/** One tool call: the event of the call, with its result and progress events folded in. */
export interface ToolCall {
  index: number;
  tool: string;
  /** The call's duration, else the first of its parts that has one (a result line that measured it); NaN: unknown. */
  durationMs: number;
  /** The call or one of its parts failed. */
  error: boolean;
}

/**
 * Every tool call of a trace in event order, and for each event the call it belongs to (-1: not a tool event).
 * The calls are columns (call k: `index[k]`, `tool[k]`, `durationMs[k]`, `error[k]`; typed arrays sized once): an
 * object per call was a fifth of the usage report's time on murmur's 93k calls. `calls` makes the objects on first use.
 */
export class ToolCalls {
  readonly index: Int32Array;
  /** Call k's tool as the table's number for it (`toolRefOf`); `toolOf(k)` names it. */
  readonly toolRef: Int32Array;
  /** NaN: unknown. */
  readonly durationMs: Float64Array;
  /** 1: the call or one of its parts failed. */
  readonly error: Uint8Array;
  private n = 0;
  private objects: ToolCall[] | null = null;

  /** `capacity`: at most this many calls (the tool events). */
  constructor(private readonly t: EventTable, readonly callOf: Int32Array, capacity: number) {
    this.index = new Int32Array(capacity);
    this.toolRef = new Int32Array(capacity);
    this.durationMs = new Float64Array(capacity).fill(NaN);
    this.error = new Uint8Array(capacity);
  }

  get count(): number {
    return this.n;
  }

  /** Adds the call of event `index`, of the tool numbered `toolRef`, and returns its slot. */
  add(index: number, toolRef: number): number {
    this.index[this.n] = index;
    this.toolRef[this.n] = toolRef;
    return this.n++;
  }

  /** Call k's tool. */
  toolOf(k: number): string {
    return this.t.stringOf(this.toolRef[k])!;
  }

  get calls(): ToolCall[] {
    if (!this.objects) {
      const out: ToolCall[] = new Array(this.count);
      for (let k = 0; k < out.length; k++) out[k] = { index: this.index[k], tool: this.toolOf(k), durationMs: this.durationMs[k], error: this.error[k] === 1 };
      this.objects = out;
    }
    return this.objects;
  }
}

const cache = new WeakMap<UsageRollup, ToolCalls>();

/**
 * The one definition of a tool call that every count uses (header, summary, statistics, latency): a tool-category
 * event with a tool name, except a result or progress event of an earlier call, which is part of that call. A
 * part is found under its call in the tree (a tool event under one of the same tool), or, where the format leaves
 * results outside their call (Claude Code transcripts, stream-json), by the call id it records (`tool_use_id`,
 * `call_id`…) naming an id an earlier event of the same tool mentions.
 */
export function toolCallsOf(t: EventTable, rollup: UsageRollup): ToolCalls {
  let out = cache.get(rollup);
  if (out) return out;
  // Typed arrays, not maps: every tool event is looked up here (a Map per event was most of the report's time).
  // Tools are compared as the table's numbers for their names, not as strings.
  const slotOf = new Int32Array(t.size).fill(-1);
  // A session read with its parts (TraceModel.parts): the main file's calls; each part's are its own model's.
  const { names, ids, callOf } = callPass(t, true);
  // Every tool event at most starts a call.
  let tools = 0;
  for (let i = 0; i < callOf.length; i++) if (callOf[i] !== -1) tools++;
  out = new ToolCalls(t, callOf, tools);
  const { durationMs, error } = out;
  for (let i = 0, end = t.size; i < end; i++) {
    let call = callOf[i];
    if (call === -1) continue;
    if (call === i) call = ids.pairedCall(names, i);
    let slot = slotOf[call];
    if (slot === -1) slotOf[call] = slot = out.add(call, names[i]);
    slotOf[i] = slot;
    callOf[i] = call;
    const d = t.durationOf(i);
    if (durationMs[slot] !== durationMs[slot] && d === d) durationMs[slot] = d;
    // Tool events only (a tenth of a trace or less): read one by one, with no array of every event's status.
    if (t.statusOf(i) === 'error') error[slot] = 1;
  }
  cache.set(rollup, out);
  return out;
}

/** The tree's calls of every tool event, with the pairing by call id still to be asked of `ids` in event order. */
function callPass(t: EventTable, mainOnly: boolean): { names: Int32Array; ids: CallIds; callOf: Int32Array } {
  // Every event's category and parent read once into arrays (a byte and a view), not decoded per event in each pass.
  const cols: CallColumns = { categories: t.codesOf('category'), parents: t.parents() };
  const names = toolNames(t, cols);
  const ids = new CallIds(t.mentions);
  const callOf = treeCalls(t, names, ids, cols);
  if (mainOnly) for (let i = 0; i < callOf.length; i++) if (callOf[i] !== -1 && t.partOf(i) !== 0) callOf[i] = -1;
  return { names, ids, callOf };
}

/**
 * For every event, the event of the tool call it belongs to as {@link toolCallsOf} defines calls (itself for a call,
 * the call for its result and progress events, -1 for other events), in every part of a session (each part's calls
 * paired within it): the timeline draws one bar per call, from the call to its last part.
 */
export function callOfEachEvent(t: EventTable): Int32Array {
  const { names, ids, callOf } = callPass(t, false);
  for (let i = 0, end = t.size; i < end; i++) {
    const call = callOf[i];
    if (call === -1) continue;
    callOf[i] = call === i ? ids.pairedCall(names, i) : call < i ? callOf[call] : call;
  }
  return callOf;
}

/** Tool calls grouped by tool, most called first (calls as {@link toolCallsOf} defines them). */
export function toolUsage(t: EventTable, rollup: UsageRollup, retries: ReadonlyMap<string, number> = new Map()): ToolUsage[] {
  const calls = toolCallsOf(t, rollup);
  // Per tool: its calls, errors and known durations. Durations go straight into one typed array per tool,
  // sized by its calls (counted first), which then sorts natively (a plain array copied with
  // Float64Array.from went through the iterator protocol).
  const by = new Map<string, ToolTally>();
  let ref = -1;
  let s: ToolTally | undefined;
  for (let k = 0; k < calls.count; k++) {
    // Calls come in runs of one tool: the last tool's entry is kept instead of asking the map each time.
    if (calls.toolRef[k] !== ref || !s) {
      ref = calls.toolRef[k];
      const name = calls.toolOf(k);
      s = by.get(name);
      if (!s) by.set(name, (s = new ToolTally()));
    }
    s.calls++;
    s.errors += calls.error[k];
  }
  ref = -1;
  for (let k = 0; k < calls.count; k++) {
    const d = calls.durationMs[k];
    if (d !== d) continue;
    if (calls.toolRef[k] !== ref || !s) (ref = calls.toolRef[k]), (s = by.get(calls.toolOf(k))!);
    (s.durations ??= new Float64Array(s.calls))[s.known++] = d;
  }
  return [...by].map(([tool, s]) => {
    const d = s.durations ? s.durations.subarray(0, s.known).sort() : new Float64Array(0);
    let sum = 0;
    for (let k = 0; k < d.length; k++) sum += d[k];
    return { tool, calls: s.calls, errors: s.errors, durationMs: d.length > 0 ? sum : null, p50Ms: percentile(d, 50), p95Ms: percentile(d, 95), retries: retries.get(tool) ?? 0 };
  }).sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool));
}

/** One tool's calls summed by {@link toolUsage} (a class, not a literal, so its map can be kept: see keepShape). */
class ToolTally {
  calls = 0;
  errors = 0;
  /** Durations known so far, in `durations`. */
  known = 0;
  durations: Float64Array | null = null;
}

/**
 * Per tool event (a tool-category event with a tool name) the call it belongs to by the tree, -1 for other
 * events; the ids of the events that are their own call by the tree are noted for the pairing by call id.
 */
function treeCalls(t: EventTable, names: Int32Array, ids: CallIds, cols: CallColumns): Int32Array {
  const call = new Int32Array(t.size).fill(-1);
  const { categories } = cols;
  for (let i = 0, end = t.size; i < end; i++) {
    if (names[i] === 0 || categories[i] !== TOOL) continue;
    call[i] = toolCallOf(names, i, cols);
    if (call[i] === i) ids.expect(i);
  }
  ids.expectDone();
  return call;
}

/**
 * Each event's tool (the table's number for its name, 0: none); a tool event that names none takes the tool of
 * its first child that does (agentledger's span log keeps a request's payload, and so its tool, in a blob, while
 * its permission and sandbox events name it).
 */
function toolNames(t: EventTable, cols: CallColumns): Int32Array {
  const names = t.refsOf('tool');
  // Events that name no tool of their own and took a child's: a byte each, not a copy of every event's own tool.
  const took = new Uint8Array(names.length);
  const { categories, parents } = cols;
  for (let i = 0, end = names.length; i < end; i++) {
    const p = parents[i];
    const own = took[i] === 1 ? 0 : names[i];
    if (p >= 0 && names[p] === 0 && own !== 0 && categories[p] === TOOL) (names[p] = own), (took[p] = 1);
  }
  return names;
}

/** The call tool event i belongs to by the tree: the topmost chain of tool ancestors with the same tool. */
function toolCallOf(names: Int32Array, i: number, { categories, parents }: CallColumns): number {
  const tool = names[i];
  let c = i;
  for (let p = parents[c]; p >= 0 && categories[p] === TOOL && names[p] === tool; p = parents[c]) c = p;
  return c;
}

/** The columns the call passes read for every event, each read once into an array (see EventTable.parents). */
interface CallColumns {
  categories: Uint8Array;
  parents: Int32Array;
}

const TOOL = EVENT_CATEGORIES.indexOf('tool');

// Made for every tool-call pass and report: their maps are kept (see keepShape).
keepShape(new ToolCalls(new EventTable(), new Int32Array(0), 0));
keepShape(new ToolTally());
