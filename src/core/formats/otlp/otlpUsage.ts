import type { UsageDraft } from '../../usageTypes';

/** Span operations whose usage sums the model calls below them (pydantic-ai's agent run, GenAI invoke_agent). */
const AGGREGATE_OPERATIONS = new Set(['invoke_agent', 'create_agent', 'invoke_workflow']);
const AGGREGATE_NAMES = /^(agent run|invoke_agent)\b/;

/** Cost attributes some instrumentations write (there is no GenAI convention for cost yet). */
const COST_KEYS = ['agent_trace.usage.cost_usd', 'gen_ai.usage.cost', 'gen_ai.usage.cost_usd', 'llm.cost.total', 'operation.cost', 'cost_usd'];

/**
 * GitHub Copilot CLI's `github.copilot.cost` on a chat span counts premium requests (model multiplier included), not
 * dollars: 0 (BYOK, or a model the plan includes) is what GitHub bills for the call, in any unit, so it is the
 * call's recorded cost; any other value is left to the price table.
 */
function copilotCost(attrs: ReadonlyMap<string, unknown>): number | null {
  return attrs.get('github.copilot.cost') === 0 ? 0 : null;
}

function numberOf(attrs: ReadonlyMap<string, unknown>, keys: readonly string[]): number | null {
  for (const k of keys) {
    const v = attrs.get(k);
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) return Number(v);
  }
  return null;
}

/** `gen_ai.response.finish_reasons` as the span records it (a string array; a lone string is taken as one), or null. */
function finishReasonsOf(attrs: ReadonlyMap<string, unknown>): string[] | null {
  const v = attrs.get('gen_ai.response.finish_reasons');
  const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return list.length > 0 ? list : null;
}

/**
 * The usage facts of a span beyond its input/output tokens: GenAI cache and reasoning tokens, a recorded cost,
 * and whether the span is an agent-level aggregate of its model calls (which must not add to them).
 */
export function spanUsage(attrs: ReadonlyMap<string, unknown>, operation: string | null, name: string): UsageDraft | undefined {
  if (attrs.get('agent_trace.usage.source') === 'totals') return exportedTotals(attrs);
  const u: UsageDraft = {
    cacheRead: numberOf(attrs, ['gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens']),
    cacheWrite: numberOf(attrs, ['gen_ai.usage.cache_creation.input_tokens', 'gen_ai.usage.cache_creation_input_tokens']),
    reasoning: numberOf(attrs, ['gen_ai.usage.reasoning.output_tokens', 'gen_ai.usage.reasoning_tokens']),
    // Our own export's 1-hour share of the cache writes (Anthropic prices it apart).
    cacheWrite1h: numberOf(attrs, ['agent_trace.usage.cache_creation_1h.input_tokens']),
    costUsd: numberOf(attrs, COST_KEYS) ?? copilotCost(attrs),
  };
  const aggregate = (operation !== null && AGGREGATE_OPERATIONS.has(operation)) || AGGREGATE_NAMES.test(name);
  if (aggregate) u.source = 'aggregate';
  const finish = finishReasonsOf(attrs);
  if (finish) u.finishReasons = finish;
  return aggregate || finish || u.cacheRead !== null || u.cacheWrite !== null || u.cacheWrite1h !== null || u.reasoning !== null || u.costUsd !== null ? u : undefined;
}

/**
 * A log record's usage facts (Claude Code's `api_request` events: `input_tokens` without the cached input,
 * `cache_read_tokens`, `cache_creation_tokens`, `cost_usd`). Input is stored with cached input included, as
 * everywhere in the usage model.
 */
export function logUsage(attrs: ReadonlyMap<string, unknown>, tokensIn: number | null): UsageDraft | undefined {
  const cacheRead = numberOf(attrs, ['gen_ai.usage.cache_read.input_tokens', 'cache_read_tokens']);
  const cacheWrite = numberOf(attrs, ['gen_ai.usage.cache_creation.input_tokens', 'cache_creation_tokens']);
  const costUsd = numberOf(attrs, COST_KEYS);
  if (cacheRead === null && cacheWrite === null && costUsd === null) return undefined;
  // The GenAI attribute already counts cached input; Claude Code's own names do not.
  const separate = attrs.has('cache_read_tokens') || attrs.has('cache_creation_tokens');
  const input = tokensIn === null ? null : separate ? tokensIn + (cacheRead ?? 0) + (cacheWrite ?? 0) : tokensIn;
  return { input, cacheRead, cacheWrite, costUsd };
}

/**
 * The run's totals as an export of ours carries them (`agent_trace.usage.source` = `totals`): a totals line, which
 * never counts as a call but fills the fields no call reports (Claude Code stream-json's output), as in the source.
 */
function exportedTotals(attrs: ReadonlyMap<string, unknown>): UsageDraft {
  // A run whose one totals line is all its usage carries it as gen_ai.usage.* (backends sum those), others apart.
  return {
    source: 'totals',
    input: numberOf(attrs, ['agent_trace.totals.input_tokens', 'gen_ai.usage.input_tokens']),
    output: numberOf(attrs, ['agent_trace.totals.output_tokens', 'gen_ai.usage.output_tokens']),
    cacheRead: numberOf(attrs, ['agent_trace.totals.cache_read.input_tokens', 'gen_ai.usage.cache_read.input_tokens']),
    cacheWrite: numberOf(attrs, ['agent_trace.totals.cache_creation.input_tokens', 'gen_ai.usage.cache_creation.input_tokens']),
    reasoning: numberOf(attrs, ['agent_trace.totals.reasoning.output_tokens', 'gen_ai.usage.reasoning.output_tokens']),
    costUsd: numberOf(attrs, ['agent_trace.totals.cost_usd', 'agent_trace.usage.cost_usd']),
  };
}
