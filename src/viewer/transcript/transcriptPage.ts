/**
 * Pages of the transcript: each block's line is read and its conversation extracted (eventDetail.ts and
 * chatContent.ts, as the Content tab does), tool calls get their view (toolShapes.ts) and tool results the
 * name of their call and a shell outcome. vscode-free.
 */
import type { TraceModel } from '../../core/loadTrace';
import type { ChatMessage, ChatPart, TranscriptBlock } from '../../protocol';
import { buildDetail } from '../eventDetail';
import { eventMessages } from '../eventMessages';
import type { TranscriptIndex } from './transcriptIndex';
import { outputLanguage, shellOutcome, toolCallView } from './toolShapes';

/** Most blocks one page carries (the webview asks for less). */
export const MAX_PAGE = 200;

/**
 * Tool calls seen so far, by call id: a result on a later line is read with its call's name. `answeredAt` is the
 * line of the first block that showed the call's result: a later block holding it again (Gemini keeps a result on
 * its call and in the next message) leaves it out.
 */
export type CallNames = Map<string, { name: string; shell: boolean; answeredAt?: number; /** The call's arguments (a Read's path gives its result's language). */ args?: unknown }>;

/** Blocks [start, start + count) of the transcript. */
export async function transcriptPage(model: TraceModel, index: TranscriptIndex, start: number, count: number, calls: CallNames): Promise<TranscriptBlock[]> {
  const end = Math.min(index.nodes.length, start + Math.min(count, MAX_PAGE));
  const out: TranscriptBlock[] = [];
  // The blocks just before the page, so its first block's re-sent history is known whichever page comes first.
  const before = await Promise.all(range(Math.max(0, start - HISTORY_BLOCKS), start).map((k) => block(model, index, k, calls)));
  const seen = new History(before);
  for (let k = start; k < end; k++) {
    const b = await block(model, index, k, calls);
    out.push(seen.collapse(b));
  }
  return out;
}

/**
 * The messages block k leaves out as re-sent history (its `earlier`), for the reader who opens them in place:
 * the block is read whole and collapsed as its page collapses it.
 */
export async function earlierMessages(model: TraceModel, index: TranscriptIndex, k: number, calls: CallNames): Promise<ChatMessage[]> {
  const [shown] = await transcriptPage(model, index, k, 1, calls);
  const n = shown?.earlier?.count ?? 0;
  return n === 0 ? [] : (await block(model, index, k, calls)).messages.slice(0, n);
}

/** Blocks back that a re-sent history is looked for in. */
const HISTORY_BLOCKS = 6;

/**
 * Messages of the last blocks, by content: a block whose first messages were all shown by one of them (a
 * GenAI chat span's input messages re-send the whole conversation) shows only what is new.
 */
class History {
  private readonly recent: { line: number; keys: Set<string> }[] = [];

  constructor(blocks: TranscriptBlock[]) {
    for (const b of blocks) this.remember(b);
  }

  /** `b` without its leading messages shown by a recent block, with how many and where (`earlier`). */
  collapse(b: TranscriptBlock): TranscriptBlock {
    const keys = b.messages.map(messageKey);
    let n = 0;
    let line = 0;
    // The last message always shows: a block is never empty because it repeats.
    for (; n < keys.length - 1; n++) {
      const where = this.lineHolding(keys[n]) ?? this.resultsShownAt(b.messages[n]);
      if (where === null) break;
      line = Math.max(line, where);
    }
    this.remember(b, keys);
    return n === 0 ? b : { ...b, messages: b.messages.slice(n), earlier: { count: n, line } };
  }

  private lineHolding(key: string): number | null {
    for (let r = this.recent.length - 1; r >= 0; r--) if (this.recent[r].keys.has(key)) return this.recent[r].line;
    return null;
  }

  /**
   * Where a message of tool results only was shown, each result by its call id (a GenAI chat span re-sends the result
   * its execute_tool span showed with the call, as a message of its own), or null.
   */
  private resultsShownAt(m: ChatMessage): number | null {
    if (m.parts.length === 0 || !m.parts.every((p) => p.type === 'toolResult' && p.id)) return null;
    let line = 0;
    for (const p of m.parts) {
      const where = this.lineHolding(resultKey((p as { id: string }).id));
      if (where === null) return null;
      line = Math.max(line, where);
    }
    return line;
  }

  private remember(b: TranscriptBlock, keys = b.messages.map(messageKey)): void {
    if (keys.length === 0) return;
    const results = b.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'toolResult' && p.id ? [resultKey(p.id)] : [])));
    this.recent.push({ line: b.line, keys: new Set([...keys, ...results]) });
    if (this.recent.length > HISTORY_BLOCKS) this.recent.shift();
  }
}

/** A tool result by its call id, among the message keys. */
function resultKey(id: string): string {
  return `toolResult\u0000${id}`;
}

/** A message by its role and content (tool calls' views left out: they are derived). */
function messageKey(m: ChatMessage): string {
  return `${m.role}\u0000${JSON.stringify(m.parts, (k, v) => (k === 'view' || k === 'shell' || k === 'toolName' ? undefined : v))}`;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

async function block(model: TraceModel, index: TranscriptIndex, k: number, calls: CallNames): Promise<TranscriptBlock> {
  const node = index.nodes[k];
  const e = model.events.get(node);
  let messages: ChatMessage[] = [];
  let error: string | null = null;
  let file: TranscriptBlock['file'];
  try {
    const d = await buildDetail(model, node, []);
    file = d.file;
    messages = eventMessages(model, node, d.json, d.messages);
    // A run span's messages (the AI SDK's invoke_agent / ai.generateText: the prompt and every step's reply) are what
    // its model calls' spans say one by one, in order: its block repeats them only when no model call is under it.
    if (e.category === 'run' && messages.length > 0 && modelCallsBelow(model)[node] === 1) messages = [];
    error = d.jsonError;
    const sidecar = (d.json as { toolUseResult?: unknown } | null)?.toolUseResult;
    messages = messages
      .map((m) => ({ ...m, parts: m.parts.filter((p) => firstShowing(p, calls, e.line)).map((p) => enrich(p, calls, sidecar)) }))
      .filter((m) => m.parts.length > 0);
  } catch (err) {
    error = `Could not read line ${e.line}: ${err instanceof Error ? err.message : String(err)}`;
  }
  return {
    index: k, node, line: e.line, kind: e.kind, category: e.category, label: e.label, status: e.status, tool: e.tool, model: e.model,
    tokensIn: e.tokensIn, tokensOut: e.tokensOut, durationMs: e.durationMs, messages, refs: index.refs.get(node) ?? [], error,
    ...(file ? { file } : {}),
    ...(k === 0 || index.turnOf[k - 1] !== index.turnOf[k] ? { turn: index.turns[index.turnOf[k]] } : {}),
  };
}

const callsBelow = new WeakMap<TraceModel, Uint8Array>();

/** 1 for each event with an inference event under it (by parent links), computed once per model. */
function modelCallsBelow(model: TraceModel): Uint8Array {
  let marks = callsBelow.get(model);
  if (marks) return marks;
  const t = model.events;
  marks = new Uint8Array(t.size);
  for (let i = 0; i < t.size; i++) {
    if (t.categoryOf(i) !== 'inference') continue;
    for (let p = t.parent(i), depth = 0; p >= 0 && marks[p] === 0 && depth < 10_000; p = t.parent(p), depth++) marks[p] = 1;
  }
  callsBelow.set(model, marks);
  return marks;
}

/** False for a tool result an earlier block (by line) showed already; records the first block that shows one. */
function firstShowing(p: ChatPart, calls: CallNames, line: number): boolean {
  if (p.type !== 'toolResult' || !p.id) return true;
  const call = calls.get(p.id) ?? { name: '', shell: false };
  if (call.answeredAt !== undefined && call.answeredAt < line) return false;
  calls.set(p.id, { ...call, answeredAt: line });
  return true;
}

/** A tool call with its view; a tool result with its call's name and, for a shell call, its outcome. */
export function enrich(p: ChatPart, calls: CallNames, sidecar?: unknown): ChatPart {
  if (p.type === 'toolCall') {
    const view = toolCallView(p.name, p.args);
    if (p.id) calls.set(p.id, { ...calls.get(p.id), name: p.name, shell: view.kind === 'shell', args: p.args });
    return { ...p, view };
  }
  if (p.type !== 'toolResult') return p;
  const seen = p.id ? calls.get(p.id) : undefined;
  // A result seen before its call (firstShowing records every result) has no name yet.
  const call = seen && seen.name !== '' ? seen : undefined;
  const shell = call === undefined || call.shell ? shellOutcome(p.text, p.value, p.isError, sidecar) : null;
  const language = shell === null && p.text !== null ? outputLanguage(p.text, call?.args, sidecar) : null;
  return { ...p, ...(call ? { toolName: call.name } : {}), ...(shell ? { shell } : {}), ...(language ? { language } : {}) };
}
