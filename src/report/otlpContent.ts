import type { TraceModel } from '../core/loadTrace';
import { toolCallId, type GenAiMessage, type GenAiPart, type OtlpContent } from '../core/export/genAiAttributes';
import type { OtlpContentSource } from '../core/export/otlpExport';
import { usageRollupOf } from '../core/usage/rollup';
import { toolCallsOf } from '../core/usage/toolStats';
import type { ChatMessage, ChatPart } from '../protocol';
import type { TraceBlobs } from '../viewer/blobResolver';
import { buildTranscriptIndex } from '../viewer/transcript/transcriptIndex';
import { CallNames, MAX_PAGE, transcriptPage } from '../viewer/transcript/transcriptPage';
import type { TranscriptBlock } from '../protocol';
import { blockMessages, Seen } from './markdown/markdownTranscript';

/** A transcript part as a GenAI part (thinking and blob references are not conversation the conventions carry). */
function genAiPart(p: ChatPart): GenAiPart | null {
  switch (p.type) {
    case 'text':
      return p.text.trim() === '' ? null : { type: 'text', content: p.text };
    case 'json':
      return { type: 'text', content: JSON.stringify(p.value) };
    case 'toolCall':
      return { type: 'tool_call', id: p.id, name: p.name, arguments: p.args };
    case 'toolResult':
      return { type: 'tool_call_response', id: p.id, response: p.value !== undefined ? p.value : p.text };
    default:
      return null;
  }
}

/** The conventions' roles: user, assistant, system, tool; a blob's field or another name kept as written. */
function roleOf(m: ChatMessage): string {
  const r = m.role.toLowerCase();
  if (r === 'human') return 'user';
  if (r === 'model' || r === 'ai') return 'assistant';
  return m.role;
}

const ANSWER = /^(assistant|model|ai)$/i;

/**
 * For each tool call, the last event that can hold its result: its last part (result, progress) as the export makes
 * its span ({@link toolCallsOf}), or a later event that mentions its call id (a result the format files apart, a
 * subagent's report), or the model call after that (a request that re-sends the results before it); -1 for other
 * events.
 */
function toolCallReach(model: TraceModel): Int32Array {
  const t = model.events;
  const callOf = toolCallsOf(t, usageRollupOf(model)).callOf;
  const reach = new Int32Array(t.size).fill(-1);
  const byId = new Map<string, number[]>();
  for (let i = 0; i < t.size; i++) {
    const call = callOf[i];
    if (call < 0) continue;
    if (i > reach[call]) reach[call] = i;
    if (call !== i) continue;
    const id = toolCallId(t.get(i));
    if (id === null) continue;
    const calls = byId.get(id);
    if (calls) calls.push(i);
    else byId.set(id, [i]);
  }
  for (let i = 0; i < t.size; i++) {
    for (const m of t.mentionsOf(i)) {
      for (const call of byId.get(m.id) ?? []) if (i > reach[call]) reach[call] = i;
    }
  }
  // A request re-sends the tool results before it (OpenAI's and OpenTelemetry GenAI's input messages): the next
  // model call after that event may hold the result too.
  const nextCall = new Int32Array(t.size);
  for (let i = t.size - 1, next = -1; i >= 0; i--) {
    nextCall[i] = next;
    if (t.categoryOf(i) === 'inference') next = i;
  }
  for (let i = 0; i < t.size; i++) if (reach[i] >= 0 && nextCall[reach[i]] > reach[i]) reach[i] = nextCall[reach[i]];
  return reach;
}

/**
 * The `content` option of the OTLP export (`--include-content`), made from the transcript the Markdown export
 * writes (its blocks, in its order, each thing once, content blobs resolved through `blobs`): a model call's span
 * gets the messages since the model call before it as input (user prompts, tool results), its own answer as output,
 * and the system prompt; a tool call's span its arguments and result, found by call id.
 *
 * The transcript is read as the export asks (`through(index)`): only as far as event `index`'s content is known (a
 * model call's once the next model call is read, a tool call's once its result or its last part is), and what
 * `content(index)` hands over is dropped, so the content of a long trace is never held whole.
 */
export function otlpContentOf(model: TraceModel, blobs?: TraceBlobs): OtlpContentSource {
  const t = model.events;
  const index = buildTranscriptIndex(model);
  const calls: CallNames = new Map();
  const seen: Seen = { written: new Set(), counts: new Map() };
  const byEvent = new Map<number, OtlpContent>();
  const args = new Map<string, unknown>();
  const results = new Map<string, unknown>();
  // The call id a tool event's own block holds (the event's id may be its line's, not the call's).
  const callIdOf = new Map<number, string>();
  let pending: GenAiMessage[] = [];
  let system: GenAiPart[] = [];
  let written: GenAiMessage[] = [];
  // The model call read last: its output may still grow (a final reply after the last usage record).
  let lastCall: { node: number; content: OtlpContent } | null = null;
  /** Model call `node`, with its own block's input and output: what came since the call before it. */
  const callAt = (node: number, input: GenAiMessage[], output: GenAiMessage[]): void => {
    // A runtime whose usage record follows what the model wrote (Codex's token_count) has the answer in the blocks
    // before it: they are this call's output when its own block holds none, else history sent to it.
    const answered = output.length > 0;
    const own: OtlpContent = { input: [...pending, ...(answered ? written : []), ...input], output: answered ? output : written, system: system.length > 0 ? system : undefined };
    byEvent.set(node, own);
    lastCall = { node, content: own };
    called[node] = 1;
    pending = [];
    written = [];
  };
  // Per event: whether it is a transcript block, whether its block was read, whether it was recorded as a model call.
  const inTranscript = new Uint8Array(t.size);
  for (const node of index.nodes) inTranscript[node] = 1;
  const read = new Uint8Array(t.size);
  const called = new Uint8Array(t.size);
  let furthest = -1;
  const unseen: number[] = [];
  for (let i = 0; i < t.size; i++) if (t.categoryOf(i) === 'inference' && !inTranscript[i]) unseen.push(i);
  const reach = toolCallReach(model);
  let k = 0;
  let page: TranscriptBlock[] = [];
  let pageStart = 0;
  let at = 0;
  let done = false;

  const block = async (b: TranscriptBlock): Promise<void> => {
    const messages = await blockMessages(model, b, blobs, seen);
    const input: GenAiMessage[] = [];
    const output: GenAiMessage[] = [];
    for (const m of messages) {
      for (const p of m.parts) {
        if (p.type === 'toolCall' && p.id) {
          args.set(p.id, p.args);
          if (!callIdOf.has(b.node)) callIdOf.set(b.node, p.id);
        }
        if (p.type === 'toolResult' && p.id) results.set(p.id, p.value !== undefined ? p.value : p.text);
      }
      const parts = m.parts.map(genAiPart).filter((p): p is GenAiPart => p !== null);
      if (parts.length === 0) continue;
      if (/^system$/i.test(m.role)) system = [...system, ...parts];
      else if (ANSWER.test(m.role)) output.push({ role: 'assistant', parts });
      else input.push({ role: roleOf(m), parts });
    }
    // Model calls the transcript has no block for (a usage record under the reply, Codex's `model` line) take
    // their place before the first block after them in the file.
    while (k < unseen.length && unseen[k] < b.node) callAt(unseen[k++], [], []);
    if (b.category === 'inference') callAt(b.node, input, output);
    else {
      // What the model wrote outside a model-call block (a reply, a tool call) waits for the call it belongs to.
      for (const m of output) written.push(m);
      if (input.length > 0) {
        // A message from the user or a tool after the model wrote: that writing was history for what comes next.
        pending.push(...written, ...input);
        written = [];
      }
    }
    read[b.node] = 1;
    if (b.node > furthest) furthest = b.node;
  };
  /** Reads the next block of the transcript; at its end, the model calls after the last block and the last reply. */
  const step = async (): Promise<void> => {
    if (at >= page.length && pageStart < index.nodes.length) {
      page = await transcriptPage(model, index, pageStart, MAX_PAGE, calls);
      pageStart += MAX_PAGE;
      at = 0;
    }
    if (at < page.length) return block(page[at++]);
    while (k < unseen.length) callAt(unseen[k++], [], []);
    // The model's last writing after its last usage record (a final reply) is that call's output.
    const last = lastCall as { content: OtlpContent } | null;
    if (last && written.length > 0) last.content.output = [...(last.content.output ?? []), ...written];
    written = [];
    lastCall = null;
    done = true;
  };
  /** The call id of tool event `i`: the one its block holds, else the event's own. */
  const idOf = (i: number): string | null => callIdOf.get(i) ?? toolCallId(t.get(i));
  /** Whether tool call `i`'s arguments and result are read: its result is, or its block and its last part's are. */
  const toolKnown = (i: number): boolean => {
    if (inTranscript[i] && !read[i]) return false;
    const id = idOf(i);
    if (id !== null && results.has(id)) return true;
    const end = reach[i];
    return inTranscript[end] ? read[end] === 1 : furthest > end;
  };
  const through = async (i: number): Promise<void> => {
    const category = t.categoryOf(i);
    if (category === 'inference') while (!done && !(called[i] && lastCall?.node !== i)) await step();
    else if (category === 'tool') while (!done && !toolKnown(i)) await step();
  };
  const content = (i: number): OtlpContent | undefined => {
    const own = byEvent.get(i);
    if (own) {
      byEvent.delete(i);
      return own;
    }
    if (t.categoryOf(i) !== 'tool') return undefined;
    const id = idOf(i);
    callIdOf.delete(i);
    if (id === null) return undefined;
    const a = args.get(id);
    const r = results.get(id);
    args.delete(id);
    results.delete(id);
    return a === undefined && r === undefined ? undefined : { toolArguments: a, toolResult: r };
  };
  return { content, through, held: () => byEvent.size + args.size + results.size };
}
