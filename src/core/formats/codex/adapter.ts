import { EventDraft, IdMention } from '../../model';
import { formatDuration, isObj, label, num, Obj, parseTime, short, str } from '../common';
import { describeCodexPayload, isUserPrompt, outputStatus, tokenUsage } from './codexDescribe';
import { Emit, EventBuilder, FormatAdapter, FormatTotals, SniffResult, SniffSample, SourceRecord } from '../../format';

/** The rollout item types of `RolloutItem`. */
export const CODEX_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'compacted', 'turn_context', 'event_msg']);
/** Response items that open a tool call, and the output type that answers each. */
export const CODEX_CALL_OUTPUT: Readonly<Record<string, string>> = {
  function_call: 'function_call_output',
  local_shell_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
};
const OUTPUT_TYPES = new Set(Object.values(CODEX_CALL_OUTPUT));
/** Items that belong to a turn without making it "started" (a user prompt arriving next still joins this turn). */
const TURN_PREAMBLE = new Set(['turn_context', 'task_started', 'token_count', 'user_message']);

/** True when a value has exactly the on-disk `RolloutLine` shape. */
export function isRolloutLine(v: unknown): v is Obj {
  return isObj(v) && Object.keys(v).length === 3 && typeof v.timestamp === 'string' && typeof v.type === 'string' && isObj(v.payload);
}

function sniffCodex(sample: SniffSample): SniffResult {
  const values = sample.values;
  if (values.length === 0 || sample.document) return { confidence: 0, reason: 'no JSON lines' };
  const shaped = values.filter(isRolloutLine);
  if (shaped.length * 2 <= values.length) return { confidence: 0, reason: 'lines are not {timestamp, type, payload}' };
  const known = shaped.filter((v) => CODEX_TYPES.has(v.type as string)).length;
  if (known === 0) return { confidence: 0.2, reason: '{timestamp, type, payload} lines of unknown types' };
  const first = values[0];
  const name = /^rollout-/.test(sample.fileName) ? 0.02 : 0;
  if (isRolloutLine(first) && first.type === 'session_meta') {
    const originator = typeof (first.payload as Obj).originator === 'string';
    return { confidence: Math.min(1, (originator ? 0.96 : 0.9) + name), reason: `Codex rollout: session_meta first${originator ? ' with originator' : ''}` };
  }
  return { confidence: Math.min(1, 0.6 + 0.25 * (known / values.length) + name), reason: 'Codex rollout items without a leading session_meta' };
}

/** Open structure while reading: the session, the current turn and the calls waiting for outputs. */
class CodexState {
  session = -1;
  sessionId: string | null = null;
  turn = -1;
  /** The turn holds only its preamble so far (user prompt, turn_context…): another prompt line joins it. */
  turnFresh = false;
  model: string | null = null;
  readonly calls = new Map<string, { index: number; kind: string; name: string | null; time: number | null }>();
  toolCalls = 0;
  errors = 0;
  lastTotal: Obj | null = null;

  totals(): FormatTotals {
    const t: FormatTotals = { toolCalls: this.toolCalls, errors: this.errors };
    if (this.lastTotal) {
      const n = (k: string) => num(this.lastTotal, k) ?? undefined;
      Object.assign(t, { inputTokens: n('input_tokens'), outputTokens: n('output_tokens'), cachedInputTokens: n('cached_input_tokens'), reasoningOutputTokens: n('reasoning_output_tokens') });
    }
    return t;
  }
}

function mentionsOf(type: string, p: Obj): IdMention[] {
  const out: IdMention[] = [];
  for (const k of ['call_id', 'turn_id', 'forked_from_id', 'new_thread_id', 'sender_thread_id', 'receiver_thread_id']) {
    const v = str(p, k);
    if (v) out.push({ field: `payload.${k}`, id: v });
  }
  if (type === 'session_meta' && str(p, 'id')) out.push({ field: 'payload.id', id: str(p, 'id')! });
  return out;
}

/** Places an output (or a call's progress event) under its call, with the tool's name and the call's duration. */
function attachToCall(d: EventDraft, p: Obj, st: CodexState, time: number | null): number | null {
  const callId = str(p, 'call_id');
  const call = callId ? st.calls.get(callId) : undefined;
  if (!call) return null;
  if (OUTPUT_TYPES.has(String(p.type))) {
    const out = outputStatus(p.output);
    d.tool = call.name;
    d.status = out.status;
    d.durationMs = out.durationMs ?? (time !== null && call.time !== null ? Math.max(0, time - call.time) : null);
    d.label = `${label(String(p.type), call.name, formatDuration(d.durationMs), out.status === 'error' ? 'error' : null)}${out.text ? ': ' + short(out.text, 60) : ''}`;
  }
  return call.index;
}

/**
 * Chooses the parent: a session_meta is a root (null); a prompt joins a turn that holds only its preamble or opens a
 * new one (-1); outputs and call events go under their call; the rest under the current turn.
 */
function placeLine(type: string, p: Obj, d: EventDraft, st: CodexState, time: number | null): number | null {
  const sessionParent = st.session >= 0 ? st.session : null;
  if (type === 'session_meta') return null;
  const opensTurn = type === 'turn_context' || isUserPrompt(type, p) || (type === 'event_msg' && p.type === 'task_started');
  if (opensTurn) return st.turn >= 0 && st.turnFresh ? st.turn : -1;
  const underCall = attachToCall(d, p, st, time);
  const preamble = TURN_PREAMBLE.has(String(p.type)) || (type === 'response_item' && p.type === 'message' && p.role !== 'assistant');
  if (!preamble) st.turnFresh = false;
  if (underCall !== null) return underCall;
  return st.turn >= 0 ? st.turn : sessionParent;
}

function describeLine(v: Obj, st: CodexState): { draft: EventDraft; type: string; p: Obj; time: number | null } {
  const type = String(v.type);
  const p = v.payload as Obj;
  const time = parseTime(v.timestamp);
  const draft: EventDraft = { kind: type, category: 'other', time, label: type, mentions: mentionsOf(type, p) };
  describeCodexPayload(type, p, draft);
  return { draft, type, p, time };
}

/** Emits one rollout line, keeping the session / turn / call structure. */
function addLine(rec: SourceRecord, emit: Emit, st: CodexState): void {
  const v = rec.value;
  if (!isObj(v) || typeof v.type !== 'string' || !isObj(v.payload)) {
    const parentIndex = st.turn >= 0 ? st.turn : st.session >= 0 ? st.session : null;
    emit({ kind: isObj(v) && typeof v.type === 'string' ? v.type : 'record', category: 'error', status: 'error', parentIndex, label: `not a rollout line: ${short(JSON.stringify(v) ?? String(v), 60)}` });
    return;
  }
  const { draft, type, p, time } = describeLine(v, st);
  if (type === 'session_meta') st.sessionId = str(p, 'id') ?? st.sessionId;
  if (type === 'turn_context') st.model = draft.model ?? st.model;
  else if (draft.category === 'inference' || p.type === 'token_count') draft.model = st.model;
  if (p.type === 'token_count' && tokenUsage(p).total) st.lastTotal = tokenUsage(p).total;
  draft.group = st.sessionId;
  const parent = placeLine(type, p, draft, st, time);
  draft.parentIndex = parent === -1 ? (st.session >= 0 ? st.session : null) : parent;
  const index = emit(draft);
  if (draft.status === 'error') st.errors++;
  if (type === 'session_meta') Object.assign(st, { session: index, turn: -1, turnFresh: false });
  else if (parent === -1) Object.assign(st, { turn: index, turnFresh: true });
  const callId = str(p, 'call_id');
  if (type === 'response_item' && typeof p.type === 'string' && p.type in CODEX_CALL_OUTPUT && callId) {
    st.calls.set(callId, { index, kind: p.type, name: draft.tool ?? null, time });
    st.toolCalls++;
  }
}

/** OpenAI Codex CLI rollouts: no ids, so the tree is derived: session → turns → items, outputs under their calls. */
export const codexAdapter: FormatAdapter = {
  name: 'codex',
  title: 'Codex CLI rollout',
  sniff: sniffCodex,
  createBuilder(): EventBuilder {
    const st = new CodexState();
    return {
      add: (rec, emit) => addLine(rec, emit, st),
      totals: () => st.totals(),
    };
  },
};
