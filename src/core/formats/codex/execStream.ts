import { EventDraft, EventStatus } from '../../model';
import { formatTokens, isObj, label, num, obj, Obj, short, str, toolCallLabel, toolResultLabel } from '../common';
import { BuilderSource, Emit, FormatTotals, SourceRecord } from '../../format';
import { jsonPreview } from '../../json/jsonPreview';

/** exec item types that run something on the model's behalf (the rest are messages, reasoning, plans). */
const EXEC_TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search', 'collab_tool_call']);

function withText(head: string, text: string | null | undefined, max = 64): string {
  const t = text ? short(text, max) : '';
  return t ? `${head}: ${t}` : head;
}

/** Status of an exec item: `failed`/`declined` status or a non-zero exit code is an error. */
export function execItemStatus(item: Obj): EventStatus {
  const status = str(item, 'status');
  if (status === 'failed' || status === 'declined') return 'error';
  const exit = num(item, 'exit_code');
  if (exit !== null && exit !== 0) return 'error';
  if (item.type === 'error') return 'error';
  if (isObj(item.error)) return 'error';
  return 'ok';
}

/** A one-line preview of an exec item: its command, text, query, tool or changed paths. */
function itemPreview(item: Obj): string | null {
  const changes = Array.isArray(item.changes) ? item.changes.filter(isObj).map((c) => str(c, 'path')).filter((p): p is string => p !== null) : [];
  return str(item, 'command') ?? str(item, 'text') ?? str(item, 'message') ?? str(item, 'query')
    ?? (str(item, 'tool') ? `${str(item, 'server') ?? ''}${str(item, 'server') ? '.' : ''}${str(item, 'tool')}` : null)
    ?? (changes.length ? changes.join(', ') : null);
}

const ITEM_CATEGORY: Record<string, EventDraft['category']> = {
  agent_message: 'message', reasoning: 'inference', todo_list: 'other', error: 'error',
};

/** Open structure of an exec stream: the thread, the current turn, and each item's first event. */
class ExecState {
  thread = -1;
  threadId: string | null = null;
  turn = -1;
  readonly items = new Map<string, number>();
  toolItems = new Set<string>();
  /**
   * The shown model step (display parents): the first item of a response, which its later items go under until a
   * tool item completes (its result is the next response's input); -1 when none is open.
   */
  step = -1;
  errors = 0;
  usage: Obj | null = null;

  totals(): FormatTotals {
    const t: FormatTotals = { toolCalls: this.toolItems.size, errors: this.errors };
    const u = this.usage;
    if (u) {
      Object.assign(t, {
        inputTokens: num(u, 'input_tokens') ?? undefined, outputTokens: num(u, 'output_tokens') ?? undefined,
        cachedInputTokens: num(u, 'cached_input_tokens') ?? undefined, reasoningOutputTokens: num(u, 'reasoning_output_tokens') ?? undefined,
      });
    }
    return t;
  }
}

function describeItemEvent(type: string, item: Obj, d: EventDraft, st: ExecState): void {
  const itemType = str(item, 'type') ?? 'item';
  d.kind = itemType;
  d.category = EXEC_TOOL_ITEMS.has(itemType) ? 'tool' : ITEM_CATEGORY[itemType] ?? 'other';
  // exec --json reports usage per turn (turn.completed), never on the items.
  if (d.category === 'inference') d.usage = { elsewhere: true };
  d.status = type === 'item.started' ? 'ok' : execItemStatus(item);
  d.tool = itemType === 'command_execution' ? 'shell' : str(item, 'tool') ?? (EXEC_TOOL_ITEMS.has(itemType) ? itemType : null);
  const exit = num(item, 'exit_code');
  const phase = type === 'item.started' ? null : type === 'item.updated' ? 'updated' : null;
  if (d.category === 'tool') {
    // A tool item's rows say the step (common.ts): what it asks when it starts, what came of it when it ends.
    const step = { tool: itemType, arg: itemPreview(item), exitCode: exit, failed: d.status === 'error' };
    d.label = type === 'item.started' ? toolCallLabel(step) : `${toolResultLabel(step)}${phase ? ` (${phase})` : ''}`;
  } else d.label = withText(label(itemType, phase, exit !== null ? `exit ${exit}` : null, d.status === 'error' ? 'error' : null), itemPreview(item), 64);
  const id = str(item, 'id');
  if (id) d.mentions = [{ field: 'item.id', id }];
  if (EXEC_TOOL_ITEMS.has(itemType) && id) st.toolItems.add(`${st.turn}/${id}`);
}

function describeExecLine(v: Obj, st: ExecState): EventDraft {
  const type = String(v.type);
  const d: EventDraft = { kind: type, category: 'other', label: type, group: st.threadId };
  switch (type) {
    case 'thread.started':
      d.category = 'session';
      d.label = label('thread.started', str(v, 'thread_id'));
      d.mentions = str(v, 'thread_id') ? [{ field: 'thread_id', id: str(v, 'thread_id')! }] : [];
      d.group = str(v, 'thread_id');
      break;
    case 'turn.started':
      d.category = 'turn';
      break;
    case 'turn.completed': {
      const u = obj(v, 'usage');
      d.category = 'turn';
      // The turn's usage (not the thread's): nothing below it reports tokens, so it is the calls' own count.
      if (u) d.usage = { input: num(u, 'input_tokens'), output: num(u, 'output_tokens'), cacheRead: num(u, 'cached_input_tokens'), cacheWrite: num(u, 'cache_write_input_tokens'), reasoning: num(u, 'reasoning_output_tokens') };
      d.label = label('turn.completed', formatTokens(num(u, 'input_tokens'), num(u, 'output_tokens')));
      break;
    }
    case 'turn.failed':
    case 'error':
      d.category = 'error';
      d.status = 'error';
      d.label = withText(type, str(obj(v, 'error'), 'message') ?? str(v, 'message'), 72);
      break;
    default:
      if (isObj(v.item)) describeItemEvent(type, v.item, d, st);
  }
  return d;
}

/** Item ids (`item_0`, …) restart with every exec process, so they are keyed by their turn. */
function itemKey(v: Obj, st: ExecState): string | null {
  const id = isObj(v.item) ? str(v.item, 'id') : null;
  return id === null ? null : `${st.turn}/${id}`;
}

/** Where an exec event goes: thread at the root, turns under it, an item's later events under its first one. */
function placeExec(v: Obj, st: ExecState): number | null {
  const type = String(v.type);
  const under = st.turn >= 0 ? st.turn : st.thread >= 0 ? st.thread : null;
  if (type === 'thread.started') return null;
  if (type === 'turn.started') return st.thread >= 0 ? st.thread : null;
  const id = itemKey(v, st);
  if (id !== null && st.items.has(id)) return st.items.get(id)!;
  return under;
}

/**
 * Emits one `codex exec --json` line. A `thread.started` opens the thread (a resumed exec prints it again with
 * the same id), `turn.started` a turn; an item's started/updated/completed events nest under its first event,
 * which takes the completed status. `turn.completed.usage` is the thread's running total in 0.171 (a resumed
 * exec reports the earlier turns too), so the last one is the total, never a sum.
 */
export function addExecLine(rec: SourceRecord, emit: Emit, st: ExecState, source: BuilderSource): void {
  const v = rec.value;
  if (!isObj(v) || typeof v.type !== 'string') {
    emit({ kind: 'record', category: 'error', status: 'error', parentIndex: st.turn >= 0 ? st.turn : null, label: `not a codex exec event: ${short(jsonPreview(v, 60), 60)}` });
    return;
  }
  const d = describeExecLine(v, st);
  d.parentIndex = placeExec(v, st);
  const key = itemKey(v, st);
  const opensItem = key !== null && !st.items.has(key) && st.turn >= 0;
  // A new item of the open response goes under its first item; the first item of a response opens a step.
  if (opensItem && st.step >= 0) d.displayParent = st.step;
  const index = emit(d);
  if (v.type === 'turn.started' || v.type === 'thread.started') st.step = -1;
  else if (opensItem && st.step < 0) st.step = index;
  if (v.type === 'item.completed' && isObj(v.item) && EXEC_TOOL_ITEMS.has(String(v.item.type))) st.step = -1;
  if (d.status === 'error') st.errors++;
  const type = v.type;
  if (type === 'thread.started') Object.assign(st, { thread: index, threadId: str(v, 'thread_id'), turn: -1 });
  else if (type === 'turn.started') st.turn = index;
  else if (type === 'turn.completed') st.usage = obj(v, 'usage') ?? st.usage;
  else if (type === 'turn.failed' && st.turn >= 0) source.setStatus(st.turn, 'error');
  const id = itemKey(v, st);
  if (id !== null && !st.items.has(id)) st.items.set(id, index);
  else if (id !== null && d.status === 'error') source.setStatus(st.items.get(id)!, 'error');
}

/** A fresh state for one exec stream. */
export function createExecState(): ExecState {
  return new ExecState();
}
export type { ExecState };
