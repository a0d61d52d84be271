import { isObj, num, obj, Obj } from '../common';
import type { ModelUsageDraft, UsageDraft } from '../../usageTypes';

/** Claude Code's `modelUsage` (camelCase, per model), with input counting cached and cache-writing input. */
function modelUsageDrafts(mu: Obj | null): Record<string, ModelUsageDraft> {
  const byModel: [string, ModelUsageDraft][] = [];
  for (const [model, m] of Object.entries(mu ?? {})) {
    if (!isObj(m)) continue;
    const read = num(m, 'cacheReadInputTokens') ?? 0;
    const write = num(m, 'cacheCreationInputTokens') ?? 0;
    const input = num(m, 'inputTokens');
    byModel.push([model, { input: input === null ? null : input + read + write, output: num(m, 'outputTokens'), cacheRead: read, cacheWrite: write, costUsd: num(m, 'costUSD') }]);
  }
  // Own data properties: a model named `__proto__` stays a key instead of replacing the object's prototype.
  return Object.fromEntries(byModel);
}

/**
 * A stream-json `result` line is its run's totals line: `usage` covers the run's own requests (a background
 * subagent's are not in it), `modelUsage` and `total_cost_usd` are the session's running totals so far.
 */
export function resultUsage(v: Obj, u: Obj | null): UsageDraft {
  const base = num(u, 'input_tokens');
  const cacheRead = num(u, 'cache_read_input_tokens');
  const cacheWrite = num(u, 'cache_creation_input_tokens');
  return {
    source: 'totals', input: base === null ? null : base + (cacheRead ?? 0) + (cacheWrite ?? 0), output: num(u, 'output_tokens'),
    cacheRead, cacheWrite, reasoning: num(obj(u, 'output_tokens_details'), 'thinking_tokens'), costUsd: num(v, 'total_cost_usd'),
    byModel: modelUsageDrafts(obj(v, 'modelUsage')),
  };
}

/**
 * A transcript's `cost-state` line: the session's running totals so far (its subagents' files included, so they can
 * exceed what this file holds), per model, with the session's cost.
 */
export function costStateUsage(v: Obj): UsageDraft | undefined {
  const byModel = modelUsageDrafts(obj(v, 'modelUsage'));
  const models = Object.values(byModel);
  if (models.length === 0) return undefined;
  const sum = (f: 'input' | 'output' | 'cacheRead' | 'cacheWrite'): number | null => (models.every((m) => m[f] !== null && m[f] !== undefined) ? models.reduce((a, m) => a + (m[f] ?? 0), 0) : null);
  // Running totals (each cost-state repeats the session so far): the last one is checked, none is summed.
  return { source: 'totals', runningTotals: { input: sum('input'), output: sum('output'), cacheRead: sum('cacheRead'), cacheWrite: sum('cacheWrite') }, costUsd: num(v, 'totalCostUSD'), byModel };
}
