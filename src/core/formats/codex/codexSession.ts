import { isObj, obj, Obj, str } from '../common';
import { codexContentText } from './codexDescribe';

/** `event_msg` copies of a tool call's outcome the UI keeps beside the model history's output item. */
const UI_RESULT_COPIES = /_end$/;

/**
 * True for an `event_msg` that copies a tool call's outcome for the UI (`item_completed` of a command or file
 * change, `exec_command_end`, `patch_apply_end`, `mcp_tool_call_end`): the model history's own output item
 * (`function_call_output`, `custom_tool_call_output`) holds the result, so the copy is shown under it, read by no
 * transcript and counted as no second error.
 */
export function isResultCopy(type: string, p: Obj): boolean {
  if (type !== 'event_msg') return false;
  const t = String(p.type);
  if (t === 'item_completed') return !MESSAGE_ITEMS.has(String(obj(p, 'item')?.type));
  return UI_RESULT_COPIES.test(t) && str(p, 'call_id') !== null;
}

/** 0.17x `item_completed` items that copy a message or a reasoning step of the model history. */
const MESSAGE_ITEMS = new Set(['UserMessage', 'AgentMessage', 'Reasoning']);

/** What a line is to the session: a prompt (input), a model output, a token report, or something else. */
type Role = 'prompt' | 'output' | 'tokens' | 'other';

const MODEL_OUTPUT_ITEMS = new Set(['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call', 'tool_search_call', 'image_generation_call']);

function roleOf(type: string, p: Obj): Role {
  const t = String(p.type);
  if (type === 'token_usage_record' || (type === 'event_msg' && t === 'token_count')) return 'tokens';
  if (type === 'response_item') {
    if (t === 'message') return p.role === 'assistant' ? 'output' : p.role === 'user' ? 'prompt' : 'other';
    return MODEL_OUTPUT_ITEMS.has(t) ? 'output' : 'other';
  }
  if (type !== 'event_msg') return 'other';
  if (t === 'agent_message' || t === 'agent_reasoning') return 'output';
  if (t === 'user_message') return 'prompt';
  if (t === 'item_completed') {
    const item = String(obj(p, 'item')?.type);
    return item === 'UserMessage' ? 'prompt' : item === 'AgentMessage' || item === 'Reasoning' ? 'output' : 'other';
  }
  return 'other';
}

/** Texts of content parts (`[{text}]`) or of a list of strings, joined by newlines. */
function texts(v: unknown): string {
  if (!Array.isArray(v)) return typeof v === 'string' ? v : '';
  return v.map((x) => (typeof x === 'string' ? x : isObj(x) && typeof x.text === 'string' ? x.text : '')).filter((x) => x !== '').join('\n');
}

/**
 * The keys under which a line copies a message or reasoning step that Codex writes twice, once as a model history
 * item (`response_item`) and once as the UI's event (`event_msg`: `agent_message`, `agent_reasoning`,
 * `user_message`, or 0.17x `item_completed`): the item id where both carry it, else the role and the text.
 */
function twinKeys(type: string, p: Obj): string[] {
  const t = String(p.type);
  const keys: string[] = [];
  const add = (kind: string, text: string, id: string | null) => {
    if (id) keys.push(`id\u0000${id}`);
    if (text.trim() !== '') keys.push(`${kind}\u0000${text.trim()}`);
  };
  if (type === 'response_item') {
    if (t === 'reasoning') add('reasoning', texts(p.summary) || texts(p.content), str(p, 'id'));
    else if (t === 'message' && (p.role === 'assistant' || p.role === 'user')) add(String(p.role), codexContentText(p.content), str(p, 'id'));
  } else if (type === 'event_msg') {
    if (t === 'agent_message') add('assistant', str(p, 'message') ?? '', null);
    else if (t === 'agent_reasoning') add('reasoning', str(p, 'text') ?? '', null);
    else if (t === 'user_message') add('user', str(p, 'message') ?? '', null);
    else if (t === 'item_completed') {
      const item = obj(p, 'item') ?? {};
      const it = String(item.type);
      // A user message's UI item has an id of its own; the text pairs it.
      if (it === 'Reasoning') add('reasoning', texts(item.summary_text) || texts(item.raw_content), str(item, 'id'));
      else if (it === 'AgentMessage') add('assistant', texts(item.content), str(item, 'id'));
      else if (it === 'UserMessage') add('user', texts(item.content), null);
    }
  }
  return keys;
}

/** What the line being placed opens or settles, recorded once its event index is known. */
interface Pending {
  keys: string[];
  side: string;
  opensStep: boolean;
  answers: string | null;
}

/**
 * The session shape of a Codex rollout, given to each line as its display parent (`EventDraft.displayParent`; the
 * structure the rollout implies, session → turn → item, output under its call, stays the recorded `parentIndex`):
 *
 * - a **model step** is one model response: its first output item (reasoning, a message, a tool call) after an
 *   input (the prompt, a tool's output), under the turn; the response's other items and its token reports go under
 *   that first one;
 * - a tool call's output goes under the call (matched by `call_id`, parallel calls too), and the UI's copy of the
 *   outcome (`exec_command_end`, `item_completed`) under the first of the two;
 * - Codex writes each message and reasoning step twice (a `response_item` and its `event_msg`: `agent_message` +
 *   `message`, `agent_reasoning` + `reasoning`, `item_completed` + either): the second of a pair goes under the
 *   first and is marked as a copy (`hidden`), so the transcript reads each once.
 *
 * The tree is at most session → turn → step → call → output → copy deep however long the session.
 */
export class CodexSessionShape {
  private turn = -1;
  private step = -1;
  private stepOpen = false;
  /** Keys of messages and reasoning steps written once so far, to the line holding the first copy. */
  private readonly twins = new Map<string, { index: number; side: string }>();
  /** The first output (or UI copy of the outcome) of each call, by call id. */
  private readonly answers = new Map<string, number>();
  private pending: Pending | null = null;

  /**
   * The display parent of a rollout line whose recorded parent is `parent` (-1: a root), and whether the line is
   * the second copy of a message or reasoning step (`hidden`). `turn` is the turn the line belongs to (-1: none),
   * `callId` the call it answers when it is an output or an outcome.
   */
  place(type: string, p: Obj, parent: number, turn: number, callId: string | null): { displayParent: number; copy: boolean } {
    if (turn !== this.turn) {
      this.turn = turn;
      this.step = -1;
      this.stepOpen = false;
      this.twins.clear();
    }
    const role = roleOf(type, p);
    const keys = twinKeys(type, p);
    this.pending = { keys, side: type, opensStep: false, answers: null };
    if (callId !== null && parent >= 0 && role === 'other' && (isResultCopy(type, p) || type === 'response_item')) {
      // An output, or the UI's copy of the outcome: under the call, the second of the two under the first.
      this.stepOpen = false;
      const first = this.answers.get(callId);
      if (first !== undefined) return { displayParent: first, copy: false };
      this.pending.answers = callId;
      return { displayParent: parent, copy: false };
    }
    const twin = keys.map((k) => this.twins.get(k)).find((t) => t !== undefined && t.side !== type);
    if (twin) {
      for (const [k, t] of [...this.twins]) if (t.index === twin.index) this.twins.delete(k);
      this.pending.keys = [];
      return { displayParent: twin.index, copy: true };
    }
    if (role === 'prompt') {
      this.stepOpen = false;
      return { displayParent: parent, copy: false };
    }
    if (role === 'tokens') return { displayParent: this.step >= 0 ? this.step : parent, copy: false };
    if (role === 'output') {
      if (this.stepOpen && this.step >= 0) return { displayParent: this.step, copy: false };
      this.pending.opensStep = true;
      return { displayParent: parent, copy: false };
    }
    return { displayParent: parent, copy: false };
  }

  /** A new session (`session_meta`, also after a resume): nothing before it is a step, a call or a twin. */
  reset(): void {
    this.turn = -1;
    this.step = -1;
    this.stepOpen = false;
    this.twins.clear();
    this.answers.clear();
  }

  /** The line at `index` opened a turn (it is shown where it is recorded): its copies to come go under it. */
  opened(type: string, p: Obj, index: number): void {
    this.turn = index;
    this.step = -1;
    this.stepOpen = false;
    this.twins.clear();
    this.pending = { keys: twinKeys(type, p), side: type, opensStep: false, answers: null };
    this.emitted(index);
  }

  /** Records what the line just placed opens, now that its event index is known. */
  emitted(index: number): void {
    const o = this.pending;
    this.pending = null;
    if (!o) return;
    for (const k of o.keys) if (!this.twins.has(k)) this.twins.set(k, { index, side: o.side });
    if (o.answers !== null) this.answers.set(o.answers, index);
    if (o.opensStep) {
      this.step = index;
      this.stepOpen = true;
    }
  }
}
