import { basename } from 'node:path';
import type { TraceModel } from '../../core/loadTrace';
import { summarize } from '../../core/summary';
import type { ChatMessage } from '../../protocol';
import { buildDetail } from '../../viewer/eventDetail';
import { eventMessages } from '../../viewer/eventMessages';
import { isTranscriptEvent } from '../../viewer/transcript/transcriptIndex';
import type { TraceBlobs } from '../../viewer/blobResolver';
import type { HashRef } from '../../core/model';
import { messageMarkdown } from './markdownParts';
import { escapeMarkdownText, inlineCode } from './markdownText';

/** What to put in a Markdown transcript. */
export interface MarkdownOptions {
  /** Event index whose subtree is written (a run, a turn, the selection); the whole trace when absent. */
  root?: number;
  /** Most events read for their conversation; the rest are named in a note at the end. */
  maxEvents?: number;
  /** Resolves content blobs (prompts and outputs stored beside the trace); without it they are named only. */
  blobs?: TraceBlobs;
}

const DEFAULT_MAX_EVENTS = 5000;

/** The events of the subtree of `root` (or of every root), in tree order: parents before their children. */
export function subtreeOrder(model: TraceModel, root?: number): number[] {
  const out: number[] = [];
  const stack: number[] = [];
  const roots = root === undefined ? [...model.tree.roots] : [root];
  for (let k = roots.length - 1; k >= 0; k--) stack.push(roots[k]);
  while (stack.length > 0) {
    const i = stack.pop()!;
    out.push(i);
    const kids = model.tree.children(i);
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return out;
}

function headerMarkdown(model: TraceModel, root: number | undefined): string {
  const s = summarize(model);
  const t = s.totals;
  const facts = [
    `format ${inlineCode(s.format)}`,
    `${s.events} events`,
    s.startTime ? `${s.startTime}${s.endTime && s.endTime !== s.startTime ? ` → ${s.endTime}` : ''}` : null,
    t.inputTokens !== null || t.outputTokens !== null ? `tokens ${t.inputTokens ?? '?'} in, ${t.outputTokens ?? '?'} out` : null,
    `${t.toolCalls} tool calls`,
    t.errors > 0 ? `${t.errors} errors` : null,
  ].filter((x) => x !== null);
  const scope = root === undefined ? '' : `\n\nSubtree of line ${model.events.lineOf(root)}: ${escapeMarkdownText(model.events.labelOf(root))}`;
  return `## Agent trace ${inlineCode(basename(model.path))}\n\n${facts.join(' · ')}${scope}`;
}

/** A key for one part, so the history a runtime repeats in every model call is written once. */
function partKey(role: string, part: ChatMessage['parts'][number]): string {
  // A tool result is the same whether the tool's event or the next model call's input holds it.
  if (part.type === 'toolResult' || part.type === 'toolCall') return `${part.type}\u0000${part.id ?? ''}\u0000${JSON.stringify(part)}`;
  return `${role}\u0000${JSON.stringify(part)}`;
}

/** Tool definitions sent with a model call (`tools[].description`) are not conversation. */
const TOOL_DEFINITION = /(^|\.)tools\[\d+\]/;

/** The parts of `messages` not written yet, message by message (messages left empty are dropped). */
function freshMessages(messages: ChatMessage[], seen: Set<string>): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (TOOL_DEFINITION.test(m.path)) continue;
    const parts = m.parts.filter((p) => {
      const key = partKey(m.role, p);
      // A runtime may keep a tool's output twice (Claude Code: the result block and `toolUseResult`).
      const text = p.type === 'text' || p.type === 'toolResult' ? `text\u0000${p.text}` : null;
      // A call has one result, wherever it is kept (Gemini: on the call and in the next message).
      const result = p.type === 'toolResult' && p.id ? `result\u0000${p.id}` : null;
      if (seen.has(key) || (text !== null && seen.has(text)) || (result !== null && seen.has(result))) return false;
      seen.add(key);
      if (text !== null) seen.add(text);
      if (result !== null) seen.add(result);
      return true;
    });
    if (parts.length > 0) out.push({ ...m, parts });
  }
  return out;
}

/** The messages inside an event's blobs (a conversation in JSON), or the blob's text as one message. */
async function blobMessages(model: TraceModel, refs: HashRef[], blobs: TraceBlobs): Promise<ChatMessage[]> {
  const out: ChatMessage[] = [];
  for (const ref of refs) {
    const a = await blobs.answer(model.path, model, ref.digest, ref.algorithm);
    if (a.chat && a.chat.length > 0) out.push(...a.chat);
    else if (a.preview !== null && !a.binary) out.push({ role: `blob ${ref.field}`, path: ref.field, parts: [a.json !== undefined ? { type: 'json', value: a.json } : { type: 'text', text: a.preview + (a.truncated ? '\n…' : '') }] });
  }
  return out;
}

/** The `where` line of one event: its kind, line and label, escaped. */
function whereOf(model: TraceModel, i: number): string {
  return `${inlineCode(model.events.kindOf(i))} line ${model.events.lineOf(i)}`;
}

/**
 * The conversation and tool calls of a trace (or one subtree) as Markdown for a GitHub comment or an issue:
 * the messages of each event in tree order, each written once; tool calls with their arguments in fenced
 * code; long outputs collapsed in `<details>`. All trace text is escaped or fenced, so a renderer shows it
 * as text (see markdownText.ts). Events without conversation, such as a failed step, get a one-line entry.
 */
export async function traceToMarkdown(model: TraceModel, options: MarkdownOptions = {}): Promise<string> {
  const order = subtreeOrder(model, options.root);
  const max = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const seen = new Set<string>();
  const blocks: string[] = [headerMarkdown(model, options.root)];
  for (const i of order.slice(0, max)) {
    // The transcript's blocks, each read as the transcript reads it: a copy kept beside its record is left out.
    if (!isTranscriptEvent(model, i)) continue;
    const detail = await buildDetail(model, i, []);
    const blobbed = options.blobs && detail.hashRefs.length > 0 ? await blobMessages(model, detail.hashRefs, options.blobs) : [];
    const fresh = freshMessages([...eventMessages(model, i, detail.json, detail.messages), ...blobbed], seen);
    if (fresh.length > 0) blocks.push(...fresh.map((m) => messageMarkdown(m, whereOf(model, i))));
    else if (detail.status === 'error') blocks.push(`**error** · ${whereOf(model, i)}: ${escapeMarkdownText(detail.label)}`);
  }
  if (order.length > max) blocks.push(`*${order.length - max} more events are not included (the export reads at most ${max}).*`);
  return blocks.join('\n\n---\n\n') + '\n';
}
