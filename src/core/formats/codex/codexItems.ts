import { EventDraft, EventStatus } from '../../model';
import { formatDuration, formatTokens, isObj, label, num, obj, Obj, short, str } from '../common';

function withText(head: string, text: string | null | undefined, max = 64): string {
  const t = text ? short(text, max) : '';
  return t ? `${head}: ${t}` : head;
}

/** Text of a 0.17x thread item: its content parts, summary, command or output. */
function itemText(item: Obj): string | null {
  if (Array.isArray(item.content)) {
    const t = item.content.filter(isObj).map((c) => str(c, 'text') ?? '').filter((x) => x !== '').join(' ');
    if (t) return t;
  }
  if (Array.isArray(item.summary_text)) return item.summary_text.map(String).join(' ');
  if (Array.isArray(item.command)) return item.command.map(String).join(' ');
  return str(item, 'command') ?? str(item, 'text') ?? str(item, 'aggregated_output');
}

/** A thread item failed when its status says so or its exit code is non-zero. */
function itemStatus(item: Obj): EventStatus {
  const s = str(item, 'status');
  if (s === 'failed' || s === 'declined' || s === 'error') return 'error';
  const exit = num(item, 'exit_code');
  return exit !== null && exit !== 0 ? 'error' : 'ok';
}

const ITEM_CATEGORY: Record<string, EventDraft['category']> = {
  UserMessage: 'message', AgentMessage: 'message', Reasoning: 'inference', CommandExecution: 'tool',
  FileChange: 'tool', McpToolCall: 'tool', WebSearch: 'tool',
};

/**
 * The head of a 0.17x item's label, said as the model history says the same step (a reasoning step, a message and
 * its role, a command, a file change, a tool call, a web search): Codex writes the UI's copy before the history's
 * item, so the copy is the row a step is read by. Null for an item type not known here.
 */
function itemHead(type: string, item: Obj): string | null {
  switch (type) {
    case 'Reasoning': return 'reasoning';
    case 'AgentMessage': return 'message assistant';
    case 'UserMessage': return 'message user';
    case 'CommandExecution': return 'command';
    case 'FileChange': return 'file change';
    case 'McpToolCall': return label('mcp tool call', [str(item, 'server'), str(item, 'tool')].filter((x) => x !== null).join('.') || null);
    case 'WebSearch': return 'web search';
    default: return null;
  }
}

/** The text a known item's label shows: a web search's query, a file change's paths, else the item's text. */
function itemLabelText(type: string, item: Obj): string | null {
  if (type === 'WebSearch') return str(item, 'query') ?? itemText(item);
  if (type === 'FileChange' && Array.isArray(item.changes)) {
    const paths = item.changes.filter(isObj).map((c) => str(c, 'path')).filter((x): x is string => x !== null);
    if (paths.length > 0) return paths.join(' ');
  }
  return itemText(item);
}

/**
 * `event_msg` `item_completed` (0.17x): the UI's copy of a thread item (`UserMessage`, `AgentMessage`,
 * `Reasoning`, `CommandExecution` with exit code and duration…). The model history has the same content as
 * response items, so these are not counted as tool calls. Labelled by what the item is (`reasoning: …`,
 * `message assistant: …`, `command exit 0: …`), as the history's item would be; an item type not known here keeps
 * `item_completed <type>`.
 */
export function describeItemCompleted(p: Obj, d: EventDraft): void {
  const item = obj(p, 'item') ?? {};
  const type = str(item, 'type') ?? 'item';
  const duration = obj(item, 'duration');
  if (duration && typeof duration.secs === 'number') d.durationMs = duration.secs * 1000 + (num(duration, 'nanos') ?? 0) / 1e6;
  d.status = itemStatus(item);
  d.category = ITEM_CATEGORY[type] === 'tool' ? 'other' : ITEM_CATEGORY[type] ?? 'other';
  const exit = num(item, 'exit_code');
  const head = itemHead(type, item);
  const facts = [exit !== null ? `exit ${exit}` : null, formatDuration(d.durationMs)];
  d.label = head !== null
    ? withText(label(head, ...facts), itemLabelText(type, item), 72)
    : withText(label('item_completed', type, ...facts), itemText(item), 64);
}

/** `event_msg` `task_started` / `task_complete`: the turn's bounds, with its duration and last answer. */
export function describeTaskEvent(t: string, p: Obj, d: EventDraft): void {
  d.category = 'turn';
  const ms = num(p, 'duration_ms');
  if (ms !== null) d.durationMs = ms;
  const turn = str(p, 'turn_id');
  d.label = withText(label(t, turn ? `turn ${turn}` : null, formatDuration(ms)), str(p, 'last_agent_message'), 56);
}

/** `token_usage_record` (0.17x): one model response's usage, with the turn's and the thread's running sums. */
export function describeUsageRecord(p: Obj, d: EventDraft): void {
  const u = obj(p, 'usage');
  const thread = obj(p, 'thread_token_usage');
  // The writer's bookkeeping (formats.ts bookkeepingCategory): it repeats a response's usage, whose model call is a
  // row of its own, and its tokens stay on token_count; the tree folds it, the timeline draws no bar for it.
  d.category = 'other';
  // Tokens stay on token_count (the older, always-present line) so per-event sums do not count a response twice.
  const threadText = thread ? `(thread ${formatTokens(num(thread, 'input_tokens'), num(thread, 'output_tokens'))})` : null;
  d.label = label('token_usage_record', str(p, 'response_id'), formatTokens(num(u, 'input_tokens'), num(u, 'output_tokens')), threadText);
}
