import type { TraceModel } from '../traceModel';
import type { UsageRollup } from './rollup';
import { toolCallsOf } from './toolStats';
import { EVENT_STATUSES } from '../model';
import { CODES_BLOCK } from '../numberColumn';
import { linkChildren } from '../tree';

const ERROR = EVENT_STATUSES.indexOf('error');

/** Retries in a run, by tool and by model. */
export interface RetryCounts {
  /**
   * `recorded`: the trace records its retries (adapters mark them: agentledger `step_retry_scheduled`, murmur
   * `harness_retry`); `inferred`: it records none, so they are counted by the heuristic of {@link retryCounts}.
   */
  source: 'recorded' | 'inferred';
  total: number;
  byTool: Map<string, number>;
  byModel: Map<string, number>;
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/**
 * The run's retries. Where the trace records them, each record counts, for its tool or (a model call) its
 * model. Where it records none (Claude Code, Codex, Gemini CLI, OTLP, lumen, harness-ledger, deepstrike and
 * generic files, or a run without any), a retry is inferred: a tool call that follows a failed call of the same
 * tool under the same parent, or a model call that follows a failed call of the same model under the same
 * parent (the parent its recorded link names). The heuristic can miss a retry with a different tool name and count a deliberate second try.
 */
export function retryCounts(model: TraceModel, rollup: UsageRollup): RetryCounts {
  const t = model.events;
  const byTool = new Map<string, number>();
  const byModel = new Map<string, number>();
  if (rollup.retryIndex.length > 0) {
    for (const i of rollup.retryIndex) {
      const tool = t.toolOf(i);
      const modelName = rollup.modelOf(i);
      if (tool !== null) bump(byTool, tool);
      else if (t.categoryOf(i) === 'inference' && modelName !== null) bump(byModel, modelName);
    }
    return { source: 'recorded', total: rollup.retryIndex.length, byTool, byModel };
  }
  const callOf = toolCallsOf(t, rollup).callOf;
  // Statuses read a block at a time into one array reused; the category and tool of the failed events only (few).
  const statuses = new Uint8Array(Math.min(t.size, CODES_BLOCK));
  const failed = new Uint8Array(t.size);
  let failures = 0;
  for (let from = 0, size = t.size; from < size; from += statuses.length) {
    const n = Math.min(statuses.length, size - from);
    t.codesOf('status', from, n, statuses);
    for (let k = 0; k < n; k++) {
      if (statuses[k] !== ERROR) continue;
      const i = from + k;
      const c = t.categoryOf(i);
      if (c === 'tool' && t.toolRefOf(i) !== 0) failed[callOf[i]] = 1, failures++;
      else if (c === 'inference') (failed[i] = 1), failures++;
    }
  }
  let total = 0;
  // Siblings in order, per parent (the roots are siblings too): a call whose previous same-named sibling failed.
  const scan = (kids: ArrayLike<number>): void => {
    if (kids.length < 2) return;
    const lastTool = new Map<string, number>();
    const lastModel = new Map<string, number>();
    for (let k = 0; k < kids.length; k++) {
      const i = kids[k];
      const c = t.categoryOf(i);
      const tool = c === 'tool' ? t.toolOf(i) : null;
      const name = tool ?? (c === 'inference' ? rollup.modelOf(i) : null);
      if (name === null || (tool !== null && callOf[i] !== i)) continue;
      const last = tool !== null ? lastTool : lastModel;
      const prev = last.get(name);
      last.set(name, i);
      if (prev !== undefined && failed[prev] === 1) total++, bump(tool !== null ? byTool : byModel, name);
    }
  };
  if (failures === 0) return { source: 'inferred', total, byTool, byModel };
  // Only a list with a failed call can hold a retry: the others (nearly all, on a large trace) are passed over
  // on the typed arrays alone, with no view or maps made for them. Siblings by the recorded links, not by a
  // format's display nesting (Claude Code's turns would make every step of a turn a sibling).
  const { roots, childStart, childList } = linkChildren(t, model.tree);
  if (roots.some((i) => failed[i] === 1)) scan(roots);
  for (let i = 0, end = t.size; i < end; i++) {
    const from = childStart[i];
    const to = childStart[i + 1];
    if (to - from < 2) continue;
    let any = false;
    for (let k = from; k < to && !any; k++) any = failed[childList[k]] === 1;
    if (any) scan(childList.subarray(from, to));
  }
  return { source: 'inferred', total, byTool, byModel };
}
