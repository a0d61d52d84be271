import { basename } from 'node:path';
import type { TraceModel } from '../../core/loadTrace';
import { summarize, TraceSummary } from '../../core/summary';
import type { ChatMessage, ChatPart, TranscriptBlock, TranscriptRef } from '../../protocol';
import type { TraceBlobs } from '../../viewer/blobResolver';
import { buildTranscriptIndex, narrowIndex, TranscriptIndex } from '../../viewer/transcript/transcriptIndex';
import { CallNames, MAX_PAGE, transcriptPage } from '../../viewer/transcript/transcriptPage';
import { messageMarkdown } from './markdownParts';
import { escapeMarkdownText, inlineCode, markdownAsWritten } from './markdownText';

/** What a GitHub comment (or issue body) holds, in characters: the default `maxChars`. */
export const GITHUB_COMMENT_CHARS = 65_536;

/** What to put in a Markdown transcript. */
export interface MarkdownOptions {
  /** Event index whose subtree is written (a run, a turn, the selection); the whole trace when absent. */
  root?: number;
  /** Resolves content blobs (prompts and outputs stored beside the trace); without it they are named only. */
  blobs?: TraceBlobs;
  /**
   * Most characters written (default {@link GITHUB_COMMENT_CHARS}; 0: no limit). The transcript is cut at a block
   * boundary, with a note of what was left out and how to get it.
   */
  maxChars?: number;
  /** The short form: turns, tool calls, failures, totals, the first prompt and the last reply. */
  summary?: boolean;
}

/** Room kept for the note that says what was cut. */
const NOTE_ROOM = 600;
/** The smallest `maxChars` that holds a header, a block and the note. */
export const MIN_MAX_CHARS = 2000;

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

function headerMarkdown(model: TraceModel, s: TraceSummary, root: number | undefined): string {
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

/** A blob field that holds the tools offered to the model (their schemas): setup, never conversation. */
const TOOL_DEFINITIONS = /tool/i;
/** A blob field that holds what the model answered: written after the request it answers. */
const OUTPUT_FIELD = /response|output|completion|result|answer/i;

/** The messages of a blob (a conversation in JSON), or its text as one message. */
async function blobMessages(model: TraceModel, r: TranscriptRef, blobs: TraceBlobs): Promise<ChatMessage[]> {
  const a = await blobs.answer(model.path, model, r.ref.digest, r.ref.algorithm);
  if (a.chat && a.chat.length > 0) return a.chat.filter((m) => !/(^|\.)tools\[\d+\]/.test(m.path));
  if (a.preview === null || a.binary) return [];
  return [{ role: `blob ${r.ref.field}`, path: r.ref.field, parts: [a.json !== undefined ? { type: 'json', value: a.json } : { type: 'text', text: a.preview + (a.truncated ? '\n…' : '') }] }];
}

/** What the export wrote so far: tool calls by id, other parts by how often (see blockMessages). */
export interface Seen {
  written: Set<string>;
  counts: Map<string, number>;
}

/** The `where` of a block: its kind and line (and the subagent file it comes from). */
function whereOf(b: TranscriptBlock): string {
  return `${inlineCode(b.kind)} line ${b.line}${b.file ? ` of ${inlineCode(b.file.title ?? b.file.name)}` : ''}`;
}

/**
 * A block's messages in conversation order: the request held in its blobs (system prompt, the messages sent),
 * then its own messages, then the reply held in its blobs. Tool definitions are never conversation; a blob
 * message shown before (a history every model call re-sends) is not written again.
 */
export async function blockMessages(model: TraceModel, b: TranscriptBlock, blobs: TraceBlobs | undefined, seen: Seen): Promise<ChatMessage[]> {
  const { written, counts } = seen;
  const input: ChatMessage[] = [];
  const output: ChatMessage[] = [];
  if (blobs) {
    for (const r of b.refs) {
      if (TOOL_DEFINITIONS.test(r.ref.field)) continue;
      (OUTPUT_FIELD.test(r.ref.field) ? output : input).push(...(await blobMessages(model, r, blobs)));
    }
  }
  // A tool call is written once by its id (the reply that made it, the tool's own event), a tool result once by
  // its call's id (wherever a runtime keeps it: on the call, in the next request, beside its record). Other parts
  // are counted: a request re-sends the conversation so far, so only its parts beyond those written are new.
  const occurrences = new Map<string, number>();
  const keep = (m: ChatMessage, p: ChatPart, resent: boolean): boolean => {
    if (p.type === 'toolCall' && p.id) return !written.has(`call\u0000${p.id}`);
    if (p.type === 'toolResult' && p.id) return !written.has(`result\u0000${p.id}`);
    if (!resent) return true;
    const key = partKey(m, p);
    const n = (occurrences.get(key) ?? 0) + 1;
    occurrences.set(key, n);
    return n > (counts.get(key) ?? 0);
  };
  const take = (ms: ChatMessage[], resent: boolean): ChatMessage[] => {
    const out: ChatMessage[] = [];
    for (const m of ms) {
      const parts = m.parts.filter((p) => keep(m, p, resent));
      if (parts.length > 0) out.push({ ...m, parts });
      for (const p of parts) {
        if (p.type === 'toolCall' && p.id) written.add(`call\u0000${p.id}`);
        else if (p.type === 'toolResult' && p.id) written.add(`result\u0000${p.id}`);
        else if (!resent) counts.set(partKey(m, p), (counts.get(partKey(m, p)) ?? 0) + 1);
      }
    }
    return out;
  };
  const request = take(input, true);
  for (const [key, n] of occurrences) counts.set(key, Math.max(n, counts.get(key) ?? 0));
  return [...request, ...take(b.messages, false), ...take(output, false)];
}

/** A part by who says it and what it holds (a blob's role by `blob`: the same system prompt under two fields is one). */
function partKey(m: ChatMessage, p: ChatPart): string {
  const role = m.role.startsWith('blob ') ? 'blob' : m.role;
  return `${role}\u0000${JSON.stringify(p, (k, v) => (k === 'view' || k === 'shell' || k === 'toolName' ? undefined : v))}`;
}

/** The Markdown of one block, or null when it has nothing to show. */
function blockMarkdown(b: TranscriptBlock, messages: ChatMessage[]): string | null {
  const where = whereOf(b);
  const out = messages.map((m) => messageMarkdown(m, where));
  // A tool's event whose record holds no call (only its name and outcome) is still a call the agent made.
  const hasCall = messages.some((m) => m.parts.some((p) => p.type === 'toolCall' || p.type === 'toolResult'));
  if (b.category === 'tool' && b.tool && !hasCall) out.unshift(`**Tool call** ${inlineCode(b.tool)}${b.status === 'error' ? ' · **error**' : ''} · ${where}: ${escapeMarkdownText(b.label)}`);
  if (out.length > 0) return out.join('\n\n');
  if (b.error) return `**unreadable** · ${where}: ${escapeMarkdownText(b.error)}`;
  if (b.status === 'error') return `**error** · ${where}: ${escapeMarkdownText(b.label)}`;
  return null;
}

function turnHeading(b: TranscriptBlock): string {
  const t = b.turn!;
  const tokens = t.tokensIn !== null || t.tokensOut !== null ? ` · ${t.tokensIn ?? '?'} → ${t.tokensOut ?? '?'} tokens` : '';
  return `### Turn ${t.number}${tokens}`;
}

/** One written piece of the transcript: its Markdown, the line it starts at, and what it holds. */
interface Piece {
  text: string;
  line: number;
  messages: ChatMessage[];
}

/** What {@link transcriptPieces} wrote, and where it stopped when the next block would not fit. */
interface Pieces {
  pieces: Piece[];
  turns: number;
  /** Blocks of the transcript (of the subtree) in all. */
  blocks: number;
  /** The first block left out (its position and line), null when every block was read. */
  stoppedAt: { block: number; line: number } | null;
}

/**
 * The transcript's blocks (of the subtree of `root`), in its order, each rendered once; reading stops at the first
 * block that would take the pieces past `budget` characters, so a cut export of a huge session reads only what it
 * writes.
 */
async function transcriptPieces(model: TraceModel, options: MarkdownOptions, budget: number): Promise<Pieces> {
  let index: TranscriptIndex = buildTranscriptIndex(model);
  if (options.root !== undefined) {
    const inside = new Set(subtreeOrder(model, options.root));
    index = narrowIndex(index, (i) => inside.has(i));
  }
  const calls: CallNames = new Map();
  const seen: Seen = { written: new Set(), counts: new Map() };
  const out: Piece[] = [];
  let used = 0;
  let turn = -1;
  const turns = new Set<number>();
  for (let start = 0; start < index.nodes.length; start += MAX_PAGE) {
    for (const b of await transcriptPage(model, index, start, MAX_PAGE, calls)) {
      const messages = await blockMessages(model, b, options.blobs, seen);
      const text = blockMarkdown(b, messages);
      if (text === null) continue;
      const k = index.turnOf[b.index];
      const heading = k !== turn && index.turns[k] ? `${turnHeading({ ...b, turn: index.turns[k] })}\n\n` : '';
      const piece = heading + text;
      if (used + SEPARATOR.length + piece.length > budget) return { pieces: out, turns: turns.size, blocks: index.nodes.length, stoppedAt: { block: b.index, line: b.line } };
      used += SEPARATOR.length + piece.length;
      turn = k;
      turns.add(k);
      out.push({ text: piece, line: b.line, messages });
    }
  }
  return { pieces: out, turns: turns.size, blocks: index.nodes.length, stoppedAt: null };
}

const SEPARATOR = '\n\n---\n\n';

/** A Markdown transcript, and what was cut to fit its limit (null: nothing). */
export interface MarkdownExport {
  text: string;
  /** `blocks` of the transcript in all, `leftOut` of them (from `fromLine` on) not written. */
  cut: { blocks: number; leftOut: number; fromLine: number } | null;
}

/** `header` and the pieces that fit in `max` characters, with a note of what was cut (`stoppedAt`). */
function fitted(header: string, read: Pieces, max: number): MarkdownExport {
  const body = [header, ...read.pieces.map((p) => p.text)];
  if (!read.stoppedAt) return { text: body.join(SEPARATOR) + '\n', cut: null };
  const cut = { blocks: read.blocks, leftOut: read.blocks - read.stoppedAt.block, fromLine: read.stoppedAt.line };
  const note =
    `*Cut to fit ${max.toLocaleString('en-US')} characters${max === GITHUB_COMMENT_CHARS ? ' (what a GitHub comment holds)' : ''}: ` +
    `the last ${cut.leftOut.toLocaleString('en-US')} of the transcript's ${cut.blocks.toLocaleString('en-US')} blocks, from line ${cut.fromLine} on, are left out. ` +
    `For the rest: \`--line N\` exports one run or turn, \`--max-chars 0\` writes everything (\`-o FILE.md\` to a file), ` +
    `\`--summary\` gives the short form.*`;
  return { text: [...body, note].join(SEPARATOR) + '\n', cut };
}

/** The text of a message's text parts. */
function textOf(m: ChatMessage): string {
  return m.parts.map((p) => (p.type === 'text' ? p.text : '')).filter((t) => t.trim() !== '').join('\n\n');
}

/** Characters of the first prompt and the last reply in the summary. */
const SUMMARY_TEXT = 2000;

function summaryMarkdown(s: TraceSummary, header: string, pieces: Piece[], turns: number): string {
  let failures = 0;
  let prompt: { text: string; line: number } | null = null;
  let reply: { text: string; line: number } | null = null;
  for (const p of pieces) {
    for (const m of p.messages) {
      for (const part of m.parts) if (part.type === 'toolResult' && part.isError) failures++;
      const text = textOf(m);
      if (text === '') continue;
      if (!prompt && /^(user|human)$/i.test(m.role)) prompt = { text, line: p.line };
      if (/^(assistant|model|ai)$/i.test(m.role)) reply = { text, line: p.line };
    }
  }
  const cost = s.usage.total.costUsd;
  const t = s.totals;
  const rows = [
    ['Turns', String(turns)],
    ['Tool calls', String(t.toolCalls)],
    ['Failed tool calls', String(failures)],
    ['Errors', String(t.errors)],
    ['Input tokens', t.inputTokens === null ? '?' : String(t.inputTokens)],
    ['Output tokens', t.outputTokens === null ? '?' : String(t.outputTokens)],
    ...(cost !== null ? [['Cost (USD)', cost.toFixed(4)]] : []),
    ...(s.durationMs !== null ? [['Duration', `${(s.durationMs / 1000).toFixed(1)} s`]] : []),
  ];
  const table = `| Measure | Value |\n|---|---:|\n${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}`;
  const clip = (x: string) => (x.length > SUMMARY_TEXT ? `${x.slice(0, SUMMARY_TEXT)}\n\n… ${x.length - SUMMARY_TEXT} more characters` : x);
  const said = (title: string, x: { text: string; line: number } | null) => (x ? `**${title}** · line ${x.line}\n\n${markdownAsWritten(clip(x.text))}` : `**${title}**: none`);
  return [header, table, said('First prompt', prompt), said('Last reply', reply)].join(SEPARATOR) + '\n';
}

/**
 * The conversation and tool calls of a trace (or one subtree) as Markdown for a GitHub comment or an issue, made
 * from the transcript's own blocks and turns (transcriptIndex.ts, transcriptPage.ts): in the transcript's order,
 * each thing once (a tool result by its call id, a re-sent history not again), within a block the request before
 * the reply; tool definitions are left out. Cut at a block boundary to `maxChars` with a note of what was left
 * out. User and assistant text is their Markdown, kept as written but unable to open raw HTML; all other trace
 * text is escaped or fenced (see markdownText.ts).
 */
export async function traceToMarkdown(model: TraceModel, options: MarkdownOptions = {}): Promise<string> {
  return (await markdownExport(model, options)).text;
}

/** {@link traceToMarkdown} with what was cut to fit the limit. */
export async function markdownExport(model: TraceModel, options: MarkdownOptions = {}): Promise<MarkdownExport> {
  const s = summarize(model);
  const header = headerMarkdown(model, s, options.root);
  const max = options.summary ? 0 : options.maxChars ?? GITHUB_COMMENT_CHARS;
  const read = await transcriptPieces(model, options, max > 0 ? max - header.length - NOTE_ROOM : Number.POSITIVE_INFINITY);
  if (options.summary) return { text: summaryMarkdown(s, header, read.pieces, read.turns), cut: null };
  return fitted(header, read, max);
}
