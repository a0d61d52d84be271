import { EventDraft, IdMention } from '../../model';
import { formatTokens, isObj, modelCallLabel, num, obj, Obj, parseTime, short, str, toolResultLabel } from '../common';
import { codexCallArg, codexUsage, describeCodexPayload, isUserPrompt, outputStatus, tokenUsage } from './codexDescribe';
import { CodexFork } from './codexFork';
import { BuilderSource, Emit, EventBuilder, FormatAdapter, FormatTotals, SourceRecord } from '../../format';
import { CODEX_TYPES, codexDialectOf, sniffCodex } from './codexSniff';
import { addExecLine, createExecState } from './execStream';
import { CodexSessionShape, isResultCopy } from './codexSession';

export { CODEX_TYPES, isRolloutLine } from './codexSniff';
import { jsonPreview } from '../../json/jsonPreview';

/** Response items that open a tool call, and the output type that answers each. */
export const CODEX_CALL_OUTPUT: Readonly<Record<string, string>> = {
  function_call: 'function_call_output',
  local_shell_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
};
const OUTPUT_TYPES = new Set(Object.values(CODEX_CALL_OUTPUT));
/** Items that belong to a turn without making it "started" (a user prompt arriving next still joins this turn). */
const TURN_PREAMBLE = new Set(['turn_context', 'task_started', 'token_count', 'user_message', 'world_state', 'thread_settings_applied']);
/** Events that end a turn: later lines without a turn id no longer belong to it. */
const TURN_END = new Set(['task_complete', 'turn_aborted']);

/** Open structure while reading: the session, the current turn and the calls waiting for outputs. */
class CodexState {
  session = -1;
  sessionId: string | null = null;
  turn = -1;
  /** The turn holds only its preamble so far (user prompt, turn_context…): another prompt line joins it. */
  turnFresh = false;
  /** The current turn ended (task_complete, turn_aborted). */
  turnClosed = false;
  /** The current turn was opened by a turn_id (not by a prompt that came before its turn's first id). */
  turnHasId = false;
  /** Turn events by the `turn_id` Codex writes (0.1xx): every line naming one goes under its turn. */
  readonly turns = new Map<string, number>();
  model: string | null = null;
  readonly calls = new Map<string, { index: number; kind: string; name: string | null; time: number | null; arg: string | null }>();
  /** The folder the run works in (session_meta's, then each turn_context's `cwd`): labels show paths under it relative. */
  cwd: string | null = null;
  toolCalls = 0;
  errors = 0;
  lastTotal: Obj | null = null;
  /** The last token_count's `total_token_usage` as written: a token_count that repeats it reports no new response. */
  lastCountTotal: string | null = null;
  /** The session shape shown (display parents), beside the structure above. */
  shape = new CodexSessionShape();
  /** The session this one was forked from, and its share of the running totals. */
  readonly fork = new CodexFork();

  totals(): FormatTotals {
    const t: FormatTotals = { toolCalls: this.toolCalls, errors: this.errors };
    if (this.lastTotal) {
      const n = (k: string) => num(this.lastTotal, k) ?? undefined;
      Object.assign(t, { inputTokens: n('input_tokens'), outputTokens: n('output_tokens'), cachedInputTokens: n('cached_input_tokens'), reasoningOutputTokens: n('reasoning_output_tokens') });
    }
    return t;
  }
}

/** Response items that are a tool call of their own (no separate output line pairs with the last two). */
const CALL_ITEMS = new Set([...Object.keys(CODEX_CALL_OUTPUT), 'web_search_call', 'tool_search_call', 'image_generation_call']);

function mentionsOf(type: string, p: Obj): IdMention[] {
  const out: IdMention[] = [];
  for (const k of ['call_id', 'turn_id', 'response_id', 'forked_from_id', 'new_thread_id', 'sender_thread_id', 'receiver_thread_id']) {
    const v = str(p, k);
    if (v) out.push({ field: `payload.${k}`, id: v });
  }
  if (type === 'session_meta' && str(p, 'id')) out.push({ field: 'payload.id', id: str(p, 'id')! });
  return out;
}

/** The turn a line names: its own `turn_id`, or the one in the response item's passthrough metadata. */
export function turnIdOf(type: string, p: Obj): string | null {
  if (type === 'session_meta') return null;
  return str(p, 'turn_id') ?? str(obj(p, 'internal_chat_message_metadata_passthrough'), 'turn_id') ?? str(obj(p, 'turn_attribution'), 'turn_id');
}

/** The call id an output or progress event answers (0.17x `item_completed` names the call by its item id). */
function answeredCallId(p: Obj): string | null {
  return str(p, 'call_id') ?? (p.type === 'item_completed' ? str(obj(p, 'item'), 'id') : null);
}

/** Places an output (or a call's progress event) under its call, with the tool's name and the call's duration. */
function attachToCall(d: EventDraft, p: Obj, st: CodexState, time: number | null, source: BuilderSource): number | null {
  const callId = answeredCallId(p);
  const call = callId ? st.calls.get(callId) : undefined;
  if (!call || (p.type !== undefined && String(p.type) in CODEX_CALL_OUTPUT)) return null;
  if (OUTPUT_TYPES.has(String(p.type))) {
    const out = outputStatus(p.output);
    d.tool = call.name;
    d.status = out.status;
    d.durationMs = out.durationMs ?? (time !== null && call.time !== null ? Math.max(0, time - call.time) : null);
    d.label = toolResultLabel({ tool: call.name ?? call.kind, arg: call.arg, cwd: st.cwd, exitCode: out.exitCode, failed: out.status === 'error', error: out.text, durationMs: d.durationMs });
  }
  // A failing output marks its call too, so the tree shows the failed call without unfolding it.
  if (d.status === 'error') source.setStatus(call.index, 'error');
  return call.index;
}

/** Where a line without a turn id goes when turns are told apart by prompts (Codex before turn ids). */
function placeByPrompt(type: string, p: Obj, st: CodexState): number | null {
  const opensTurn = isUserPrompt(type, p) || (type === 'event_msg' && p.type === 'task_started') || (type === 'turn_context' && (st.turn < 0 || st.turnClosed));
  // Codex 0.60 writes a turn_context before every model call: only a prompt (or a first context) opens a turn.
  if (opensTurn) return st.turn >= 0 && st.turnFresh && !st.turnClosed ? st.turn : -1;
  return st.turn >= 0 && !st.turnClosed ? st.turn : st.session >= 0 ? st.session : null;
}

/**
 * Chooses the parent: a session_meta is a root (null); a line naming a turn_id goes under that turn (-2: opens
 * it); without turn ids a prompt joins a turn that holds only its preamble or opens a new one (-1); outputs
 * and call events go under their call.
 */
function placeLine(type: string, p: Obj, d: EventDraft, st: CodexState, time: number | null, source: BuilderSource): number | null {
  if (type === 'session_meta') return null;
  const underCall = attachToCall(d, p, st, time, source);
  const preamble = TURN_PREAMBLE.has(String(p.type)) || TURN_PREAMBLE.has(type) || (type === 'response_item' && p.type === 'message' && p.role !== 'assistant');
  const turnId = turnIdOf(type, p);
  if (turnId !== null) {
    let known = st.turns.get(turnId);
    // A prompt written without a turn id opened this turn; the first id seen in it names it (no split).
    if (known === undefined && st.turn >= 0 && !st.turnClosed && !st.turnHasId) {
      st.turns.set(turnId, st.turn);
      st.turnHasId = true;
      known = st.turn;
    }
    if (known === undefined) return -2;
    st.turn = known;
    st.turnClosed = false;
  }
  if (underCall !== null) return underCall;
  if (turnId !== null) return st.turn;
  const placed = placeByPrompt(type, p, st);
  if (!preamble && placed !== -1) st.turnFresh = false;
  return placed;
}

function describeLine(v: Obj, st: CodexState): { draft: EventDraft; type: string; p: Obj; time: number | null } {
  const type = String(v.type);
  const p = v.payload as Obj;
  const time = parseTime(v.timestamp);
  const draft: EventDraft = { kind: type, category: 'other', time, label: type, mentions: mentionsOf(type, p), seq: num(v, 'ordinal') };
  describeCodexPayload(type, p, draft, st.cwd);
  return { draft, type, p, time };
}

/** Remembers what a line says for the lines after it: session, model, running token total. */
function rememberLine(type: string, p: Obj, draft: EventDraft, st: CodexState): void {
  if ((type === 'session_meta' || type === 'turn_context') && str(p, 'cwd')) st.cwd = str(p, 'cwd');
  if (type === 'session_meta') {
    st.sessionId = str(p, 'id') ?? st.sessionId;
    st.fork.meta(p);
  }
  if (type === 'turn_context') st.model = draft.model ?? st.model;
  else if (draft.category === 'inference' || p.type === 'token_count' || type === 'token_usage_record') draft.model = st.model;
  // Codex writes a response's usage on its own token_count line (which the rollups count), not on the
  // response's items; a token_usage_record repeats the same response's usage.
  if ((draft.category === 'inference' || type === 'token_usage_record') && !draft.usage) draft.usage = { elsewhere: true };
  // A usage record says the model call it reports (common.ts modelCallLabel), with the thread's running sum.
  if (type === 'token_usage_record') {
    const u = obj(p, 'usage');
    const thread = obj(p, 'thread_token_usage');
    const sum = thread ? ` (thread ${formatTokens(num(thread, 'input_tokens'), num(thread, 'output_tokens'))})` : '';
    draft.label = `${modelCallLabel(st.model, num(u, 'input_tokens'), num(u, 'output_tokens'))}${sum}`;
  }
  // The running thread total: token_count's total_token_usage, or a usage record's thread_token_usage (0.17x).
  const written = p.type === 'token_count' ? tokenUsage(p).total : type === 'token_usage_record' ? obj(p, 'thread_token_usage') : null;
  // A fork's running totals go on from its origin's (CodexFork): the origin's share is taken off.
  const last = p.type === 'token_count' ? tokenUsage(p).last : obj(p, 'usage');
  const total = written && st.fork.own(written, last);
  if (total) st.lastTotal = total;
  if (p.type === 'token_count' && total && total !== written) draft.usage = { ...draft.usage, ...codexUsage(last, total) };
  if (p.type === 'token_count' && total) {
    // Codex 0.60 writes every token_count twice. Its running total (total_token_usage) only moves with a new
    // response, so a token_count that repeats the last one's total repeats its response: it reports nothing.
    const text = JSON.stringify(total);
    if (text === st.lastCountTotal) {
      draft.tokensIn = draft.tokensOut = null;
      draft.usage = { elsewhere: true, repeat: 'duplicate' };
      draft.label = `${draft.label} (repeated)`;
    }
    st.lastCountTotal = text;
  }
}

/** Emits one rollout line, keeping the session / turn / call structure. */
function addLine(rec: SourceRecord, emit: Emit, st: CodexState, source: BuilderSource): void {
  const v = rec.value;
  if (!isObj(v) || typeof v.type !== 'string' || !isObj(v.payload)) {
    const parentIndex = st.turn >= 0 ? st.turn : st.session >= 0 ? st.session : null;
    emit({ kind: isObj(v) && typeof v.type === 'string' ? v.type : 'record', category: 'error', status: 'error', parentIndex, label: `not a rollout line: ${short(jsonPreview(v, 60), 60)}` });
    return;
  }
  const { draft, type, p, time } = describeLine(v, st);
  rememberLine(type, p, draft, st);
  draft.group = st.sessionId;
  const parent = placeLine(type, p, draft, st, time, source);
  const opens = parent === -1 || parent === -2;
  if (opens) draft.category = draft.category === 'other' ? 'turn' : draft.category;
  draft.parentIndex = opens ? (st.session >= 0 ? st.session : null) : parent;
  const resultCopy = isResultCopy(type, p);
  // The UI's copy of a call's outcome is read with its output item, which holds the result.
  if (resultCopy && draft.category === 'tool') draft.category = 'other';
  if (type !== 'session_meta' && !opens) {
    const shown = st.shape.place(type, p, draft.parentIndex ?? -1, st.turn, answeredCallId(p));
    draft.displayParent = shown.displayParent;
    // The second copy of a message or reasoning step: kept in the tree under the first, read once.
    if (shown.copy) draft.category = 'other';
  }
  const index = emit(draft);
  if (type === 'session_meta') st.shape.reset();
  else if (opens) st.shape.opened(type, p, index);
  else st.shape.emitted(index);
  // The UI's copy of a call's outcome: its output line already counted the failure.
  if (draft.status === 'error' && !resultCopy) st.errors++;
  if (type === 'session_meta') Object.assign(st, { session: index, turn: -1, turnFresh: false, turnClosed: false, turnHasId: false });
  else if (opens) Object.assign(st, { turn: index, turnFresh: true, turnClosed: false, turnHasId: parent === -2 });
  if (parent === -2) st.turns.set(turnIdOf(type, p)!, index);
  if (TURN_END.has(String(p.type)) && st.turn >= 0) st.turnClosed = true;
  const callId = str(p, 'call_id');
  if (type === 'response_item' && typeof p.type === 'string' && CALL_ITEMS.has(p.type)) {
    if (callId && p.type in CODEX_CALL_OUTPUT) st.calls.set(callId, { index, kind: p.type, name: draft.tool ?? null, time, arg: codexCallArg(p) });
    st.toolCalls++;
  }
}

/**
 * OpenAI Codex CLI: rollouts (no ids, so the tree is derived: session → turns → items, outputs under their
 * calls; 0.1xx turns by `turn_id`) and the `codex exec --json` event stream, told apart by the first line.
 */
export const codexAdapter: FormatAdapter = {
  name: 'codex',
  title: 'Codex CLI rollout',
  sniff: sniffCodex,
  createBuilder(source: BuilderSource): EventBuilder {
    const st = new CodexState();
    const exec = createExecState();
    let dialect: 'rollout' | 'exec-json' | null = null;
    return {
      add: (rec, emit) => {
        dialect ??= codexDialectOf(rec.value) ?? 'rollout';
        if (dialect === 'exec-json') addExecLine(rec, emit, exec, source);
        else addLine(rec, emit, st, source);
      },
      totals: () => (dialect === 'exec-json' ? exec.totals() : st.totals()),
      origin: () => (dialect === 'rollout' ? st.fork.origin() : null),
    };
  },
};
