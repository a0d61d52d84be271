/**
 * The conversation one event holds, the same for the transcript and the Content tab: the messages of its own
 * object when several events share a line (an OTLP export written as one JSON line), and a GenAI span's tool
 * call or chat messages (its attributes: otlpTool.ts) when it has them. vscode-free.
 */
import type { TraceModel } from '../core/loadTrace';
import type { ChatMessage } from '../protocol';
import { extractChat } from './chatContent';
import { findObjectWithId } from './eventDetail';
import { otlpChatMessages, otlpToolMessage } from './transcript/otlpTool';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The messages of event `node`, given its line's parsed JSON and the messages read from the whole line. */
export function eventMessages(model: TraceModel, node: number, json: unknown, lineMessages: ChatMessage[]): ChatMessage[] {
  const id = model.events.id(node);
  const shared = sharesLine(model, node);
  const own = shared ? (id ? ownObject(json, id) : null) : isObj(json) ? json : null;
  if (!own) return lineMessages;
  const tool = otlpToolMessage(own);
  if (tool) return [tool, ...extractChat(own)];
  const chat = otlpChatMessages(own);
  if (chat.length > 0) return chat;
  return shared ? extractChat(own) : lineMessages;
}

function sharesLine(model: TraceModel, node: number): boolean {
  const line = model.events.lineOf(node);
  return (node > 0 && model.events.lineOf(node - 1) === line) || (node + 1 < model.events.size && model.events.lineOf(node + 1) === line);
}

/** The object of the line whose id field holds the event's id (OTLP ids are `traceId/spanId`: the span holds the last part). */
function ownObject(json: unknown, id: string): Obj | null {
  return findObjectWithId(json, id) ?? (id.includes('/') ? findObjectWithId(json, id.slice(id.lastIndexOf('/') + 1)) : null);
}
