import { EventDraft } from '../../model';
import { formatDuration, formatTokens, isObj, label, num, obj, Obj, str } from '../common';
import { contentBlocks, toolUses } from './claudeContent';
import { formatCost, resultFailed } from './claudeTotals';
import { withText } from './claudeDescribe';
import { resultUsage } from './claudeUsage';

/** Stream-json `system` subtypes that report on a tool call (a subagent task) by its `tool_use_id`. */
const TASK_SUBTYPES = new Set(['task_started', 'task_progress', 'task_updated', 'task_notification', 'task_summary']);

function describeResult(v: Obj, d: EventDraft): void {
  const u = obj(v, 'usage');
  const input = num(u, 'input_tokens');
  const tokens = formatTokens(input === null ? null : input + (num(u, 'cache_read_input_tokens') ?? 0) + (num(u, 'cache_creation_input_tokens') ?? 0), num(u, 'output_tokens'));
  const turns = num(v, 'num_turns');
  d.category = 'turn';
  d.status = resultFailed(v) ? 'error' : 'ok';
  d.durationMs = num(v, 'duration_ms');
  d.usage = resultUsage(v, u);
  const index = num(v, 'result_index');
  d.label = withText(label('result', str(v, 'subtype'), index !== null && index > 0 ? `#${index}` : null, turns !== null ? `${turns} turn${turns === 1 ? '' : 's'}` : null, tokens, formatCost(num(v, 'total_cost_usd')), formatDuration(d.durationMs)), str(v, 'result') ?? '', 48);
}

function describeStreamSystem(v: Obj, d: EventDraft): void {
  const subtype = str(v, 'subtype');
  if (subtype === 'init') {
    d.category = 'session';
    d.model = str(v, 'model');
    d.label = label('session', str(v, 'session_id'), str(v, 'claude_code_version'), d.model);
    return;
  }
  if (subtype && TASK_SUBTYPES.has(subtype)) {
    const status = str(v, 'status') ?? str(obj(v, 'patch'), 'status');
    d.category = 'task';
    d.status = status === 'failed' || status === 'error' ? 'error' : status === 'killed' || status === 'stopped' ? 'warning' : 'ok';
    d.label = withText(label('system', subtype, status), str(v, 'description') ?? str(v, 'summary') ?? '', 56);
  }
}

/** Refines the transcript describer's draft for the message types only stream-json has. */
export function describeStreamLine(v: Obj, d: EventDraft): void {
  d.group = str(v, 'session_id') ?? d.group;
  if (v.type === 'result') describeResult(v, d);
  else if (v.type === 'system') describeStreamSystem(v, d);
  else if (v.type === 'stream_event') d.label = label('stream_event', str(obj(v, 'event'), 'type'), str(obj(obj(v, 'event'), 'delta'), 'type'));
  else if (v.type === 'tool_progress') {
    d.category = 'tool';
    d.tool = str(v, 'tool_name');
    d.label = label('tool_progress', d.tool, formatDuration((num(v, 'elapsed_time_seconds') ?? NaN) * 1000));
  }
  const ptu = str(v, 'parent_tool_use_id') ?? str(v, 'tool_use_id');
  if (ptu) d.mentions = [...(d.mentions ?? []), { field: str(v, 'parent_tool_use_id') ? 'parent_tool_use_id' : 'tool_use_id', id: ptu }];
}

/**
 * The tree of a stream-json file, which has no parentUuid: each `system`/`init` opens a run (a background
 * subagent's notification starts a second one); messages of a subagent (`parent_tool_use_id`) and task reports
 * (`tool_use_id`) go under the assistant line holding that tool_use; everything else under the current run.
 */
export class StreamPlacer {
  private run = -1;
  /** Every run's init, in order: a result's `result_index` names the run it ends. */
  private readonly inits: number[] = [];
  private readonly toolUseLine = new Map<string, number>();
  /** Task ids of subagent tasks → their tool_use id (`task_updated` names only the task). */
  private readonly taskToolUse = new Map<string, string>();

  /** The current run's init, -1 before the first. */
  get currentRun(): number {
    return this.run;
  }

  /** The parent index for a line (null: a root). */
  place(v: Obj): number | null {
    if (v.type === 'system' && v.subtype === 'init') return null;
    const task = str(v, 'task_id');
    const ptu = str(v, 'parent_tool_use_id') ?? (v.type === 'system' || v.type === 'tool_progress' ? str(v, 'tool_use_id') ?? (task ? this.taskToolUse.get(task) ?? null : null) : null);
    const call = ptu === null ? undefined : this.toolUseLine.get(ptu);
    if (call !== undefined) return call;
    // With a background subagent both results come at the end; result_index 0 ends the first run.
    const index = v.type === 'result' ? num(v, 'result_index') : null;
    if (index !== null && index >= 0 && index < this.inits.length) return this.inits[index];
    return this.run >= 0 ? this.run : null;
  }

  /** Records what an emitted line opens: a run, or tool_use ids its children will name. */
  emitted(v: Obj, index: number): void {
    if (v.type === 'system' && v.subtype === 'init') {
      this.run = index;
      this.inits.push(index);
    }
    const task = str(v, 'task_id');
    if (task && str(v, 'tool_use_id')) this.taskToolUse.set(task, str(v, 'tool_use_id')!);
    if (v.type !== 'assistant') return;
    for (const u of toolUses(contentBlocks(isObj(v.message) ? v.message : null))) if (u.id && !this.toolUseLine.has(u.id)) this.toolUseLine.set(u.id, index);
  }
}

