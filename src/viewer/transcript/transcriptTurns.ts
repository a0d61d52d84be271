/**
 * Turns of the transcript: blocks grouped as a model call sees them, what came in (a user message, tool
 * results), the assistant's reply, and the tool calls it made. Grouped from the compact table alone
 * (categories and kinds, no line read), with each turn's tokens (the events' own usage, never aggregates)
 * and model latency (the durations of its inference events). vscode-free.
 */
import type { TraceModel } from '../../core/loadTrace';
import { eventUsage } from '../../core/usage/eventUsage';
import type { TranscriptTurn } from '../../protocol';

/** A tool event whose kind says it is a result (an input to the next model call), not a call. */
const TOOL_RESULT = /result|output|finish|response|^user$/i;
/** A turn-category event that closes a turn rather than opens one. */
const TURN_END = /end|complete|finish|stop|done/i;
const RUN_ROOT: ReadonlySet<string> = new Set(['run', 'session']);

/** Turns of `nodes` (blocks in file order): each block's turn, and each turn's totals. */
export interface TurnIndex {
  /** Turn of each block, by position in `nodes`. */
  turnOf: Int32Array;
  turns: TranscriptTurn[];
}

/**
 * Groups blocks into turns: a block that brings input (a message, a turn start, a tool result) opens a new
 * turn once the current one has had its model call; so does a model call that follows a finished tool span
 * of an earlier one (chat → execute_tool → chat), and a block of another run.
 */
export function buildTurns(model: TraceModel, nodes: Int32Array): TurnIndex {
  const t = model.events;
  const turnOf = new Int32Array(nodes.length);
  const turns: TranscriptTurn[] = [];
  let cur: TranscriptTurn | null = null;
  let run = -1;
  const rootOf = rootFinder(model);
  let called = false;
  let toolAfterCall = false;
  for (let k = 0; k < nodes.length; k++) {
    const i = nodes[k];
    const category = t.categoryOf(i);
    const kind = t.kindOf(i);
    const input = category === 'message' || (category === 'turn' && !TURN_END.test(kind)) || (category === 'tool' && TOOL_RESULT.test(kind));
    const top = rootOf(i);
    // Only a run or session root separates turns (log records correlated to spans elsewhere are roots each).
    const root = RUN_ROOT.has(t.categoryOf(top)) ? top : run;
    if (!cur || root !== run || (called && input) || (category === 'inference' && toolAfterCall)) {
      cur = { number: turns.length + 1, tokensIn: null, tokensOut: null, modelMs: null, blocks: 0 };
      turns.push(cur);
      run = root;
      called = false;
      toolAfterCall = false;
    }
    turnOf[k] = cur.number - 1;
    cur.blocks++;
    if (category === 'inference') called = true;
    // A finished tool span (it has a duration: call and result in one event) after the call: the next
    // model call reads its result, so it opens the next turn. A bare call waits for its result event.
    if (category !== 'inference' && category !== 'tool') continue;
    const ms = t.usageColumnsOf(i).durationMs;
    if (category === 'tool' && called && ms !== null) toolAfterCall = true;
    if (category === 'inference' && ms !== null) cur.modelMs = (cur.modelMs ?? 0) + ms;
  }
  addTokens(model, nodes, turnOf, turns);
  return { turnOf, turns };
}

/**
 * The top ancestor of events, memoized (each chain is walked once): turns never cross runs, and span formats
 * write a run's root after its children.
 */
function rootFinder(model: TraceModel): (i: number) => number {
  const t = model.events;
  const root = new Int32Array(t.size).fill(-1);
  const path: number[] = [];
  return (i) => {
    let at = i;
    while (root[at] < 0 && t.parent(at) >= 0 && path.length < 100_000) (path.push(at), (at = t.parent(at)));
    const top = root[at] >= 0 ? root[at] : at;
    root[at] = top;
    for (const p of path) root[p] = top;
    path.length = 0;
    return top;
  };
}

/** Categories whose usage sums up others' (a run's totals): never added to a turn. */
const AGGREGATE: ReadonlySet<string> = new Set(['run', 'session', 'task']);

/**
 * Tokens of each turn: the own usage of its blocks, and of events that are no block (Codex reports a call's
 * tokens on a token_count record, after the tool's output or the reply) counted with the last block before them
 * that the model wrote (a model call, a tool call, a message: not a tool result, which opens the next turn);
 * aggregates left out.
 */
function addTokens(model: TraceModel, nodes: Int32Array, turnOf: Int32Array, turns: TranscriptTurn[]): void {
  const t = model.events;
  const turnOfEvent = new Int32Array(t.size).fill(-1);
  const callLines: number[] = [];
  const callTurns: number[] = [];
  for (let k = 0; k < nodes.length; k++) {
    turnOfEvent[nodes[k]] = turnOf[k];
    const category = t.categoryOf(nodes[k]);
    const result = category === 'tool' && TOOL_RESULT.test(t.kindOf(nodes[k]));
    if (!result && t.partOf(nodes[k]) === 0 && (category === 'inference' || category === 'tool' || category === 'message')) (callLines.push(t.lineOf(nodes[k])), callTurns.push(turnOf[k]));
  }
  for (let i = 0; i < t.size; i++) {
    if (AGGREGATE.has(t.categoryOf(i))) continue;
    const c = t.usageColumnsOf(i);
    if (c.tokensIn === null && c.tokensOut === null && t.usageFactsOf(i) === undefined) continue;
    const u = eventUsage(t.usageFactsOf(i), c.tokensIn, c.tokensOut);
    if (!u || u.source !== 'event' || u.covers !== 'self') continue;
    // A subagent's event (TraceModel.parts) that is no block is not placed by the main file's lines.
    if (turnOfEvent[i] < 0 && t.partOf(i) !== 0) continue;
    const at = turnOfEvent[i] >= 0 ? turnOfEvent[i] : callTurns[lastAtOrBefore(callLines, t.lineOf(i))];
    if (at === undefined) continue;
    const turn = turns[at];
    if (u.counts.input != null) turn.tokensIn = (turn.tokensIn ?? 0) + u.counts.input;
    if (u.counts.output != null) turn.tokensOut = (turn.tokensOut ?? 0) + u.counts.output;
  }
}

/** Index of the last value of sorted `xs` that is <= `x`, or -1. */
function lastAtOrBefore(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) (best = mid), (lo = mid + 1);
    else hi = mid - 1;
  }
  return best;
}
