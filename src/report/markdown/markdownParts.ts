import type { ChatMessage, ChatPart } from '../../protocol';
import { codeFence, detailsBlock, escapeMarkdownText, inlineCode, markdownAsWritten } from './markdownText';

/** Longest text of one part written out; GitHub comments hold 65,536 characters in all. */
export const MAX_MARKDOWN_PART_CHARS = 20_000;
/** Outputs longer than this (lines or characters) are collapsed in `<details>`. */
const COLLAPSE_LINES = 10;
const COLLAPSE_CHARS = 1500;

const EXTENSION_LANGUAGE: Record<string, string> = {
  ts: 'ts', tsx: 'tsx', js: 'js', jsx: 'jsx', mjs: 'js', cjs: 'js', py: 'python', rs: 'rust', go: 'go', java: 'java',
  rb: 'ruby', sh: 'sh', bash: 'bash', json: 'json', jsonl: 'json', yml: 'yaml', yaml: 'yaml', md: 'markdown',
  html: 'html', css: 'css', c: 'c', h: 'c', cpp: 'cpp', cs: 'csharp', toml: 'toml', sql: 'sql', kt: 'kotlin', swift: 'swift',
};

function capped(text: string): string {
  if (text.length <= MAX_MARKDOWN_PART_CHARS) return text;
  return `${text.slice(0, MAX_MARKDOWN_PART_CHARS)}\n… ${text.length - MAX_MARKDOWN_PART_CHARS} more characters (see the trace file)`;
}

function isLong(text: string): boolean {
  return text.length > COLLAPSE_CHARS || text.split('\n').length > COLLAPSE_LINES;
}

/** Markdown `body` as is, or collapsed under `summary` when `raw` is long. */
function maybeCollapsed(summary: string, raw: string, body: string): string {
  return isLong(raw) ? detailsBlock(`${summary} (${raw.split('\n').length} lines)`, body) : body;
}

/** A language for a tool's code from a file path among its arguments (`file_path: src/a.ts` → `ts`). */
function languageOfArgs(args: Record<string, unknown>): string {
  const path = ['file_path', 'path', 'filename', 'file'].map((k) => args[k]).find((v): v is string => typeof v === 'string');
  const ext = path ? /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() : undefined;
  return (ext && EXTENSION_LANGUAGE[ext]) ?? '';
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A tool call: a shell command as `sh`, file content in the file's language, other arguments as JSON. */
function toolCallMarkdown(part: Extract<ChatPart, { type: 'toolCall' }>): string {
  const head = `**Tool call** ${inlineCode(part.name)}${part.id ? ` · ${inlineCode(part.id)}` : ''}`;
  const args = part.args;
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    const a = args as Record<string, unknown>;
    const code = ['command', 'cmd', 'script'].find((k) => typeof a[k] === 'string');
    const content = ['content', 'new_string', 'new_text', 'code'].find((k) => typeof a[k] === 'string');
    if (code || content) {
      const key = (code ?? content)!;
      const rest = Object.fromEntries(Object.entries(a).filter(([k]) => k !== key));
      const main = codeFence(capped(a[key] as string), code ? 'sh' : languageOfArgs(a));
      const out = [head];
      if (Object.keys(rest).length > 0) out.push(codeFence(capped(json(rest)), 'json'));
      out.push(maybeCollapsed(code ? 'Command' : 'Content', a[key] as string, main));
      return out.join('\n\n');
    }
  }
  const text = typeof args === 'string' ? args : json(args);
  return `${head}\n\n${maybeCollapsed('Arguments', text, codeFence(capped(text), typeof args === 'string' ? '' : 'json'))}`;
}

function toolResultMarkdown(part: Extract<ChatPart, { type: 'toolResult' }>): string {
  const head = `**Tool result**${part.id ? ` · ${inlineCode(part.id)}` : ''}${part.isError ? ' · **error**' : ''}`;
  const text = part.text ?? (part.value !== undefined ? json(part.value) : '');
  if (text === '') return `${head} (empty)`;
  const lang = part.text === null ? 'json' : /^\s*[[{]/.test(text) && isJson(text) ? 'json' : 'text';
  return `${head}\n\n${maybeCollapsed(part.isError ? 'Error output' : 'Output', text, codeFence(capped(text), lang))}`;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One part of a message as Markdown. Text is the writer's Markdown made inert (markdownAsWritten); other trace text is escaped prose or sits in a code fence. */
export function partMarkdown(part: ChatPart): string {
  switch (part.type) {
    case 'text': {
      const text = capped(part.text) + (part.omitted ? `\n… ${part.omitted} more characters (see the trace file)` : '');
      return maybeCollapsed('Text', text, markdownAsWritten(text));
    }
    case 'thinking':
      return detailsBlock('Thinking', markdownAsWritten(capped(part.text)));
    case 'toolCall':
      return toolCallMarkdown(part);
    case 'toolResult':
      return toolResultMarkdown(part);
    case 'json': {
      const text = json(part.value);
      return maybeCollapsed('JSON', text, codeFence(capped(text), 'json'));
    }
    case 'blob':
      return `*Content blob* ${inlineCode(part.ref.raw)}${part.preview ? `\n\n${codeFence(capped(part.preview))}` : ''}`;
  }
}

/** A message: who speaks (and where in the trace), then its parts. */
export function messageMarkdown(msg: ChatMessage, where: string): string {
  const who = `**${escapeMarkdownText(msg.role)}** · ${where}`;
  return [who, ...msg.parts.map(partMarkdown)].join('\n\n');
}
