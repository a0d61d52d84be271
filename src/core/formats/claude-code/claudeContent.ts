import { isObj, Obj } from '../common';

/** A `tool_use` block of an assistant message. */
export interface ToolUseBlock {
  index: number;
  id: string | null;
  name: string;
}

/** A `tool_result` block of a user message. */
export interface ToolResultBlock {
  index: number;
  toolUseId: string | null;
  isError: boolean;
  text: string;
}

/** The content blocks of a Messages API message (a string content is one text block). */
export function contentBlocks(message: Obj | null): Obj[] {
  if (!message) return [];
  const c = message.content;
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  return Array.isArray(c) ? c.filter(isObj) : [];
}

/** Plain text of a block's `content` (tool results hold a string or text blocks). */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : isObj(b) && b.type === 'image' ? '[image]' : ''))
    .filter((t) => t !== '')
    .join(' ');
}

/** All text of the message's `text` blocks, joined. */
export function messageText(blocks: Obj[]): string {
  return blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join(' ');
}

/** Thinking text (never the redacted or signed parts). */
export function thinkingText(blocks: Obj[]): string {
  return blocks
    .filter((b) => b.type === 'thinking' && typeof b.thinking === 'string')
    .map((b) => b.thinking as string)
    .join(' ');
}

/** The `tool_use` blocks, with the content index each sits at (for mention paths). */
export function toolUses(blocks: Obj[]): ToolUseBlock[] {
  const out: ToolUseBlock[] = [];
  blocks.forEach((b, index) => {
    if (b.type === 'tool_use' || b.type === 'server_tool_use') {
      out.push({ index, id: typeof b.id === 'string' ? b.id : null, name: typeof b.name === 'string' ? b.name : '?' });
    }
  });
  return out;
}

const TOOL_USE_ERROR = /^\s*<tool_use_error>/;

/** The `tool_result` blocks; a result is an error when `is_error` is true or Claude Code wrapped it in `<tool_use_error>`. */
export function toolResults(blocks: Obj[]): ToolResultBlock[] {
  const out: ToolResultBlock[] = [];
  blocks.forEach((b, index) => {
    if (b.type !== 'tool_result') return;
    const text = blockText(b.content);
    out.push({ index, toolUseId: typeof b.tool_use_id === 'string' ? b.tool_use_id : null, isError: b.is_error === true || TOOL_USE_ERROR.test(text), text });
  });
  return out;
}

/** Claude Code's own markers for a turn the user stopped. */
export function isInterruption(text: string): boolean {
  return /^\[Request interrupted by user/.test(text.trim());
}

/** Token usage of an assistant message: input counts cached and cache-writing input too (what the model read). */
export interface ClaudeUsage {
  input: number | null;
  output: number | null;
  cacheRead: number;
  cacheCreation: number;
  /** The part of `cacheCreation` written to the 1-hour cache (`cache_creation.ephemeral_1h_input_tokens`), when reported. */
  cacheCreation1h: number | null;
}

/** Reads `message.usage`. */
export function usageOf(message: Obj | null): ClaudeUsage | null {
  const u = message && isObj(message.usage) ? message.usage : null;
  if (!u) return null;
  const n = (k: string): number | null => (typeof u[k] === 'number' && Number.isFinite(u[k]) ? (u[k] as number) : null);
  const base = n('input_tokens');
  const cacheRead = n('cache_read_input_tokens') ?? 0;
  const cacheCreation = n('cache_creation_input_tokens') ?? 0;
  const split = isObj(u.cache_creation) ? u.cache_creation : null;
  const oneHour = split && typeof split.ephemeral_1h_input_tokens === 'number' && Number.isFinite(split.ephemeral_1h_input_tokens) ? split.ephemeral_1h_input_tokens : null;
  return { input: base === null ? null : base + cacheRead + cacheCreation, output: n('output_tokens'), cacheRead, cacheCreation, cacheCreation1h: oneHour };
}

const INPUT_PREVIEW_FIELDS = ['command', 'file_path', 'pattern', 'url', 'query', 'description', 'prompt', 'path'];

/** The one input field that says what a tool call does (a command, a path, a pattern…), or ''. */
export function toolInputPreview(input: unknown): string {
  if (!isObj(input)) return '';
  for (const f of INPUT_PREVIEW_FIELDS) if (typeof input[f] === 'string' && input[f] !== '') return input[f] as string;
  return '';
}
