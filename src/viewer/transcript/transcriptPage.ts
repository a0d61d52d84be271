/**
 * Pages of the transcript: each block's line is read and its conversation extracted (eventDetail.ts and
 * chatContent.ts, as the Content tab does), tool calls get their view (toolShapes.ts) and tool results the
 * name of their call and a shell outcome. vscode-free.
 */
import type { TraceModel } from '../../core/loadTrace';
import type { ChatMessage, ChatPart, TranscriptBlock } from '../../protocol';
import { extractChat } from '../chatContent';
import { buildDetail, findObjectWithId } from '../eventDetail';
import type { TranscriptIndex } from './transcriptIndex';
import { otlpToolMessage } from './otlpTool';
import { shellOutcome, toolCallView } from './toolShapes';

/** Most blocks one page carries (the webview asks for less). */
export const MAX_PAGE = 200;

/** Tool calls seen so far, by call id: a result on a later line is read with its call's name. */
export type CallNames = Map<string, { name: string; shell: boolean }>;

/** Blocks [start, start + count) of the transcript. */
export async function transcriptPage(model: TraceModel, index: TranscriptIndex, start: number, count: number, calls: CallNames): Promise<TranscriptBlock[]> {
  const end = Math.min(index.nodes.length, start + Math.min(count, MAX_PAGE));
  const out: TranscriptBlock[] = [];
  for (let k = start; k < end; k++) out.push(await block(model, index, k, calls));
  return out;
}

async function block(model: TraceModel, index: TranscriptIndex, k: number, calls: CallNames): Promise<TranscriptBlock> {
  const node = index.nodes[k];
  const e = model.events.get(node);
  let messages: ChatMessage[] = [];
  let error: string | null = null;
  try {
    const d = await buildDetail(model, node, []);
    messages = d.messages;
    error = d.jsonError;
    // Several events on one line (an OTLP export written as one JSON line): the block shows its own object only.
    const own = sharesLine(model, node) && e.id ? ownObject(d.json, e.id) : null;
    if (own) {
      const tool = otlpToolMessage(own);
      messages = tool ? [tool, ...extractChat(own)] : extractChat(own);
    }
    const sidecar = (d.json as { toolUseResult?: unknown } | null)?.toolUseResult;
    messages = messages.map((m) => ({ ...m, parts: m.parts.map((p) => enrich(p, calls, sidecar)) }));
  } catch (err) {
    error = `Could not read line ${e.line}: ${err instanceof Error ? err.message : String(err)}`;
  }
  return {
    index: k, node, line: e.line, kind: e.kind, category: e.category, label: e.label, status: e.status, tool: e.tool, model: e.model,
    tokensIn: e.tokensIn, tokensOut: e.tokensOut, durationMs: e.durationMs, messages, refs: index.refs.get(node) ?? [], error,
  };
}

function sharesLine(model: TraceModel, node: number): boolean {
  const line = model.events.lineOf(node);
  return (node > 0 && model.events.lineOf(node - 1) === line) || (node + 1 < model.events.size && model.events.lineOf(node + 1) === line);
}

/** The object of the line whose id field holds the event's id (OTLP ids are `traceId/spanId`: the span holds the last part). */
function ownObject(json: unknown, id: string): Record<string, unknown> | null {
  return findObjectWithId(json, id) ?? (id.includes('/') ? findObjectWithId(json, id.slice(id.lastIndexOf('/') + 1)) : null);
}

/** A tool call with its view; a tool result with its call's name and, for a shell call, its outcome. */
export function enrich(p: ChatPart, calls: CallNames, sidecar?: unknown): ChatPart {
  if (p.type === 'toolCall') {
    const view = toolCallView(p.name, p.args);
    if (p.id) calls.set(p.id, { name: p.name, shell: view.kind === 'shell' });
    return { ...p, view };
  }
  if (p.type !== 'toolResult') return p;
  const call = p.id ? calls.get(p.id) : undefined;
  const shell = call === undefined || call.shell ? shellOutcome(p.text, p.value, p.isError, sidecar) : null;
  return { ...p, ...(call ? { toolName: call.name } : {}), ...(shell ? { shell } : {}) };
}
