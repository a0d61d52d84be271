import { isObj, Obj, str } from '../common';
import { contextTokens } from './describe';
import { HarnessEventName } from './records';
import { Severity } from '../../model';
import { HARNESS_CATALOG, HarnessOverrideId, HarnessRuleId } from './catalog';
import { RunSlot } from './router';
import { Typed, typedEqual } from './typedJson';

/** The kernel's run phases (`RunPhase` names as `invalid transition` prints them). */
export type Phase =
  | 'not_started' | 'ready_for_context' | 'ready_to_request_model' | 'awaiting_model_response' | 'awaiting_tool_call'
  | 'awaiting_policy' | 'awaiting_approval' | 'policy_denied' | 'approval_denied' | 'ready_to_execute_tool'
  | 'tool_running' | 'tool_failed' | 'turn_concluded' | 'finished' | 'failed';

/** Replay state of one run (`RunState` in `run.rs`, plus what the viewer needs to resynchronise). */
export interface RunState extends RunSlot {
  phase: Phase;
  nextModelStep: number;
  pendingTurn: string | null;
  pendingStep: number | null;
  /** `(tool, input)` of the pending proposals, with serde number kinds. */
  proposals: { tool: string | null; input: Typed }[];
  call: { id: string | null; tool: string | null; effect: string | null } | null;
  lastTurnId: string | null;
  usedTurns: Set<string>;
  usedCalls: Set<string>;
  /** Turn id announced by `context_compacted` that the next `context_built` must carry (0.2.0). */
  compactionTurn: string | null;
  /** Event names of the most recent seqs, to tell a duplicated record from a reordered one. */
  recent: Map<number, string>;
}

/** Creates the state of a run that has not started. */
export function newRunState(runId: string | null): RunState {
  return {
    runId, nextSeq: 0, lastLine: 0, phase: 'not_started', nextModelStep: 0, pendingTurn: null, pendingStep: null,
    proposals: [], call: null, lastTurnId: null, usedTurns: new Set(), usedCalls: new Set(), compactionTurn: null,
    recent: new Map(),
  };
}

/** One record as the replay sees it. `typed` is the event with serde number kinds (for proposal matching). */
export interface ReplayEvent {
  name: HarnessEventName;
  event: Obj;
  typed: Obj | null;
  /** Evidence of platonic-core 0.3.0+ in the file (run-wide uniqueness rules become errors). */
  v03: boolean;
}

/** A rule violation found by a transition's checks. */
export type Violation =
  | { rule: HarnessRuleId; message: string; overridden?: undefined }
  /** At the rule's documented override severity (see HARNESS_CATALOG), not its catalog one. */
  | { rule: HarnessOverrideId; message: string; overridden: true };

type Check = (s: RunState, e: ReplayEvent) => Violation | null;

/** One row of the transition table (§6.2, §6.3). */
export interface Transition {
  from: readonly Phase[];
  /** Checks in the kernel's order; the first failure is the kernel's error. */
  checks: readonly Check[];
  /** The phase after the event (and any state effect). Also used to resynchronise after a violation. */
  apply: (s: RunState, e: ReplayEvent) => void;
}

const CONTEXT_FROM: readonly Phase[] = ['ready_for_context', 'turn_concluded', 'policy_denied', 'approval_denied', 'tool_failed'];
const LIVE: readonly Phase[] = [
  'ready_for_context', 'ready_to_request_model', 'awaiting_model_response', 'awaiting_tool_call', 'awaiting_policy',
  'awaiting_approval', 'policy_denied', 'approval_denied', 'ready_to_execute_tool', 'tool_running', 'tool_failed', 'turn_concluded',
];
const U32_MAX = 4294967295;

const turnId = (e: ReplayEvent) => str(e.event, 'turn_id');
const callIdOf = (e: ReplayEvent) => (e.name === 'tool_finished' ? str(e.event.result, 'call_id') : str(e.event, 'call_id'));

const turnReuse: Check = (s, e) => {
  const t = turnId(e);
  if (t === null) return null;
  if (t === s.lastTurnId && e.name === 'context_built') return { rule: 'harness/turn-reuse', message: `turn id was reused: ${t}` };
  if (!s.usedTurns.has(t)) return null;
  if (e.v03 || e.name === 'context_compacted') return { rule: 'harness/turn-reuse', message: `turn id was reused: ${t}` };
  return { rule: 'harness/turn-reuse', overridden: true, message: `turn id was reused: ${t} (an earlier, not the previous, turn: accepted by platonic-core 0.1.0–0.2.x, an error from 0.3.0)` };
};

const contextBudget: Check = (_s, e) => {
  const ctx = isObj(e.event.context) ? e.event.context : null;
  const budget = typeof ctx?.token_budget === 'number' ? ctx.token_budget : null;
  const used = contextTokens(ctx);
  if (budget === null || used === null || used <= budget) return null;
  return { rule: 'harness/context-budget', message: `context budget exceeded: used ${Math.min(used, U32_MAX)}, budget ${budget}` };
};

const turnMatch: Check = (s, e) => {
  const t = turnId(e);
  return t === s.pendingTurn ? null : { rule: 'harness/turn-match', message: `turn mismatch: expected ${s.pendingTurn}, actual ${t}` };
};

const stepMatch: Check = (s, e) => {
  const step = e.event.step;
  return step === s.pendingStep ? null : { rule: 'harness/step-match', message: `model step mismatch: expected ${s.pendingStep}, actual ${String(step)}` };
};

const callProposed: Check = (s, e) => {
  const call = e.typed && isObj(e.typed.call) ? (e.typed.call as { [k: string]: Typed }) : null;
  const ok = call !== null && s.proposals.some((p) => p.tool === call.tool && typedEqual(p.input, call.input ?? null));
  return ok ? null : { rule: 'harness/call-proposed', message: 'tool call was not proposed by the model' };
};

const callIdReuse: Check = (s, e) => {
  const id = str(e.event.call, 'id');
  if (id === null || !s.usedCalls.has(id)) return null;
  return e.v03
    ? { rule: 'harness/call-id-reuse', message: `tool call id was reused: ${id}` }
    : { rule: 'harness/call-id-reuse', overridden: true, message: `tool call id was reused: ${id} (accepted by platonic-core 0.1.0–0.2.x, an error from 0.3.0)` };
};

const callMatch: Check = (s, e) => {
  const id = callIdOf(e);
  const expected = s.call?.id ?? null;
  return id === expected ? null : { rule: 'harness/call-match', message: `tool call mismatch: expected ${expected}, actual ${id}` };
};

const compactionRange: Check = (_s, e) => {
  const a = e.event.dropped_turn_start;
  const b = e.event.dropped_turn_end_exclusive;
  return typeof a === 'number' && typeof b === 'number' && a < b ? null : { rule: 'harness/compaction-range', message: `invalid compaction range: ${String(a)}..${String(b)}` };
};

const rejectionReason: Check = (_s, e) => {
  const r = str(e.event, 'reason');
  return r !== null && r.trim() !== '' ? null : { rule: 'harness/rejection-reason', message: 'tool proposal rejection reason cannot be empty' };
};

function proposalsOf(e: ReplayEvent): RunState['proposals'] {
  const list = e.typed && Array.isArray(e.typed.proposed_calls) ? e.typed.proposed_calls : [];
  return list.map((p) => (isObj(p) ? { tool: typeof p.tool === 'string' ? p.tool : null, input: (p as { [k: string]: Typed }).input ?? null } : { tool: null, input: null }));
}

/** After a lost proposal the first call event names the call; later ones are checked against it. */
function adoptCall(s: RunState, e: ReplayEvent): void {
  if (s.call === null) s.call = { id: callIdOf(e), tool: null, effect: null };
}

function decisionPhase(e: ReplayEvent): Phase | null {
  const d = str(e.event.decision, 'decision');
  return d === 'allow' ? 'ready_to_execute_tool' : d === 'require_approval' ? 'awaiting_approval' : d === 'deny' ? 'policy_denied' : null;
}

/** The run state machine as data: per event, the phases it may come from, its ordered checks and its effect. */
export const TRANSITIONS: Readonly<Record<HarnessEventName, Transition>> = {
  run_started: { from: ['not_started'], checks: [], apply: (s, e) => { s.phase = 'ready_for_context'; s.runId = str(e.event, 'run_id'); } },
  context_built: {
    from: CONTEXT_FROM, checks: [turnReuse, contextBudget],
    apply: (s, e) => {
      const t = turnId(e);
      s.phase = 'ready_to_request_model';
      s.pendingTurn = t;
      s.pendingStep = s.nextModelStep;
      s.lastTurnId = t;
      if (t !== null) s.usedTurns.add(t);
      s.compactionTurn = null;
    },
  },
  context_compacted: { from: CONTEXT_FROM, checks: [compactionRange, turnReuse], apply: (s, e) => { s.compactionTurn = turnId(e); } },
  model_requested: { from: ['ready_to_request_model'], checks: [turnMatch, stepMatch], apply: (s) => { s.phase = 'awaiting_model_response'; } },
  model_responded: {
    from: ['awaiting_model_response'], checks: [turnMatch, stepMatch],
    apply: (s, e) => {
      s.nextModelStep = (typeof e.event.step === 'number' ? e.event.step : s.nextModelStep) + 1;
      s.proposals = proposalsOf(e);
      s.phase = s.proposals.length === 0 ? 'turn_concluded' : 'awaiting_tool_call';
    },
  },
  model_failed: { from: ['awaiting_model_response'], checks: [turnMatch, stepMatch], apply: (s) => { s.phase = 'ready_to_request_model'; } },
  tool_call_proposed: {
    from: ['awaiting_tool_call'], checks: [turnMatch, callProposed, callIdReuse],
    apply: (s, e) => {
      const c = isObj(e.event.call) ? e.event.call : null;
      s.call = { id: str(c, 'id'), tool: str(c, 'tool'), effect: str(c, 'effect') };
      if (s.call.id !== null) s.usedCalls.add(s.call.id);
      s.phase = 'awaiting_policy';
    },
  },
  tool_proposals_rejected: { from: ['awaiting_tool_call'], checks: [rejectionReason], apply: (s) => { s.phase = 'turn_concluded'; } },
  policy_evaluated: { from: ['awaiting_policy'], checks: [callMatch], apply: (s, e) => { adoptCall(s, e); s.phase = decisionPhase(e) ?? s.phase; } },
  approval_granted: { from: ['awaiting_approval'], checks: [callMatch], apply: (s, e) => { adoptCall(s, e); s.phase = 'ready_to_execute_tool'; } },
  approval_denied: { from: ['awaiting_approval'], checks: [callMatch], apply: (s, e) => { adoptCall(s, e); s.phase = 'approval_denied'; } },
  tool_started: { from: ['ready_to_execute_tool'], checks: [callMatch], apply: (s, e) => { adoptCall(s, e); s.phase = 'tool_running'; } },
  tool_finished: { from: ['tool_running'], checks: [callMatch], apply: (s, e) => { adoptCall(s, e); s.phase = 'turn_concluded'; } },
  tool_failed: { from: ['tool_running'], checks: [callMatch], apply: (s, e) => { adoptCall(s, e); s.phase = 'tool_failed'; } },
  run_finished: { from: ['turn_concluded'], checks: [], apply: (s) => { s.phase = 'finished'; } },
  run_failed: { from: LIVE, checks: [], apply: (s) => { s.phase = 'failed'; } },
};

/** The host command a non-terminal phase waits for (`pending_command`), for the in-flight message. */
export function pendingCommand(phase: Phase): string | null {
  return phase === 'ready_to_request_model' ? 'RequestModel' : phase === 'awaiting_approval' ? 'AwaitApproval' : phase === 'ready_to_execute_tool' ? 'ExecuteTool' : null;
}

/** Order of the phases within a turn, to tell a late event (ignored) from one after lost records (resynchronised on). */
const PHASE_RANK: Readonly<Record<Phase, number>> = {
  not_started: 0, ready_for_context: 1, ready_to_request_model: 2, awaiting_model_response: 3, awaiting_tool_call: 4,
  awaiting_policy: 5, awaiting_approval: 6, ready_to_execute_tool: 7, tool_running: 8,
  policy_denied: 9, approval_denied: 9, tool_failed: 9, turn_concluded: 9, finished: 10, failed: 10,
};

/**
 * Whether to resynchronise on an out-of-place event: a new turn or a failure always; a second run_started never
 * (it would wipe the run); anything else only when it moves the turn forward, so a late approval after tool_started
 * does not rewind the replay.
 */
function movesForward(s: RunState, e: ReplayEvent): boolean {
  if (e.name === 'run_started') return false;
  if (e.name === 'context_built' || e.name === 'context_compacted' || e.name === 'run_failed') return true;
  const probe: RunState = { ...s, usedTurns: new Set(s.usedTurns), usedCalls: new Set(s.usedCalls) };
  TRANSITIONS[e.name].apply(probe, e);
  return PHASE_RANK[probe.phase] > PHASE_RANK[s.phase];
}

/**
 * Applies one record to its run (pre-check 3 of §6.1 and the row's checks). The kernel refuses the first bad
 * record and stops; the viewer reports it and resynchronises on the event's own target phase, so one defect gives
 * one finding. Terminal phases stay terminal: every later event is an invalid transition.
 */
export function replayEvent(s: RunState, e: ReplayEvent): Violation[] {
  const invalid = (): Violation => ({ rule: 'harness/transition', message: `invalid transition from ${s.phase} on ${e.name}` });
  if (s.phase === 'finished' || s.phase === 'failed') return [invalid()];
  const row = TRANSITIONS[e.name];
  const out: Violation[] = [];
  if (s.compactionTurn !== null && e.name !== 'run_failed') {
    if (e.name !== 'context_built') {
      out.push(invalid());
      s.compactionTurn = null;
      row.apply(s, e);
      return out;
    }
    const t = turnId(e);
    if (t !== s.compactionTurn) out.push({ rule: 'harness/turn-match', message: `turn mismatch: expected ${s.compactionTurn}, actual ${t}` });
  }
  if (!row.from.includes(s.phase)) {
    out.push(invalid());
    if (movesForward(s, e)) row.apply(s, e);
    return out;
  }
  for (const check of row.checks) {
    const v = check(s, e);
    if (!v) continue;
    out.push(v);
    // An error stops the row's checks; a warning lets the next ones run.
    if (violationSeverity(v) === 'error') break;
  }
  row.apply(s, e);
  return out;
}

/** The severity a violation is reported at. */
export function violationSeverity(v: Violation): Severity {
  return v.overridden ? HARNESS_CATALOG.overrideOf(v.rule) : HARNESS_CATALOG.severityOf(v.rule);
}
