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
 * `event_msg` `item_completed` (0.17x): the UI's copy of a thread item (`UserMessage`, `AgentMessage`,
 * `Reasoning`, `CommandExecution` with exit code and duration…). The model history has the same content as
 * response items, so these are not counted as tool calls.
 */
export function describeItemCompleted(p: Obj, d: EventDraft): void {
  const item = obj(p, 'item') ?? {};
  const type = str(item, 'type') ?? 'item';
  const duration = obj(item, 'duration');
  if (duration && typeof duration.secs === 'number') d.durationMs = duration.secs * 1000 + (num(duration, 'nanos') ?? 0) / 1e6;
  d.status = itemStatus(item);
  d.category = ITEM_CATEGORY[type] === 'tool' ? 'other' : ITEM_CATEGORY[type] ?? 'other';
  const exit = num(item, 'exit_code');
  d.label = withText(label('item_completed', type, exit !== null ? `exit ${exit}` : null, formatDuration(d.durationMs)), itemText(item), 64);
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
  d.category = 'inference';
  // Tokens stay on token_count (the older, always-present line) so per-event sums do not count a response twice.
  const threadText = thread ? `(thread ${formatTokens(num(thread, 'input_tokens'), num(thread, 'output_tokens'))})` : null;
  d.label = label('token_usage_record', str(p, 'response_id'), formatTokens(num(u, 'input_tokens'), num(u, 'output_tokens')), threadText);
}
