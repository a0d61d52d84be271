import type { TraceModel } from '../core/loadTrace';
import { toolCallId, type GenAiMessage, type GenAiPart, type OtlpContent } from '../core/export/genAiAttributes';
import type { ChatMessage, ChatPart } from '../protocol';
import type { TraceBlobs } from '../viewer/blobResolver';
import { buildTranscriptIndex } from '../viewer/transcript/transcriptIndex';
import { CallNames, MAX_PAGE, transcriptPage } from '../viewer/transcript/transcriptPage';
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
 * The `content` option of the OTLP export (`--include-content`), made from the transcript the Markdown export
 * writes (its blocks, in its order, each thing once, content blobs resolved through `blobs`): a model call's span
 * gets the messages since the model call before it as input (user prompts, tool results), its own answer as output,
 * and the system prompt; a tool call's span its arguments and result, found by call id.
 */
export async function otlpContentOf(model: TraceModel, blobs?: TraceBlobs): Promise<(index: number) => OtlpContent | undefined> {
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
  const lastCall: { content: OtlpContent | null } = { content: null };
  /** Model call `node`, with its own block's input and output: what came since the call before it. */
  const callAt = (node: number, input: GenAiMessage[], output: GenAiMessage[]): void => {
    // A runtime whose usage record follows what the model wrote (Codex's token_count) has the answer in the blocks
    // before it: they are this call's output when its own block holds none, else history sent to it.
    const answered = output.length > 0;
    const own: OtlpContent = { input: [...pending, ...(answered ? written : []), ...input], output: answered ? output : written, system: system.length > 0 ? system : undefined };
    byEvent.set(node, own);
    lastCall.content = own;
    pending = [];
    written = [];
  };
  const inTranscript = new Set(index.nodes);
  const unseen: number[] = [];
  for (let i = 0; i < model.events.size; i++) if (model.events.categoryOf(i) === 'inference' && !inTranscript.has(i)) unseen.push(i);
  let k = 0;
  for (let start = 0; start < index.nodes.length; start += MAX_PAGE) {
    for (const b of await transcriptPage(model, index, start, MAX_PAGE, calls)) {
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
    }
  }
  while (k < unseen.length) callAt(unseen[k++], [], []);
  // The model's last writing after its last usage record (a final reply) is that call's output.
  const last = lastCall.content;
  if (last && written.length > 0) last.output = [...(last.output ?? []), ...written];
  return (i) => {
    const own = byEvent.get(i);
    if (own) return own;
    if (model.events.categoryOf(i) !== 'tool') return undefined;
    const id = callIdOf.get(i) ?? toolCallId(model.events.get(i));
    if (id === null) return undefined;
    const a = args.get(id);
    const r = results.get(id);
    return a === undefined && r === undefined ? undefined : { toolArguments: a, toolResult: r };
  };
}
