import type { TraceModel } from '../traceModel';
import { ModelPrice, priceOf, PRICE_TABLE_DATE } from './prices';
import { UsageRollup, usageRollupOf } from './rollup';
import { Tally } from './tally';
import { UsageKind } from './usageColumns';
import { retryCounts } from './retries';
import { ToolUsage, toolUsage } from './toolStats';
import { TOKEN_FIELDS, TokenField } from './usageTypes';

/** Token and cost totals of one scope (the run, a model, a group). Null: nothing in the scope reported it. */
export interface UsageTotalsJson {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  reasoningTokens: number | null;
  /** Input + output, or a total the file records without the split. */
  totalTokens: number | null;
  /** Null when nothing in the scope is priced. */
  costUsd: number | null;
}

/** One model's usage. */
export interface ModelUsageJson extends UsageTotalsJson {
  model: string;
  /** Records (model calls, or aggregates standing for them) that counted. */
  calls: number;
  /** Where the cost came from: `trace` (recorded in the file), `table` (the price table or the setting), null: unpriced. */
  costSource: 'trace' | 'table' | 'mixed' | null;
  /** Retries of this model's calls (see {@link UsageReport.retries}). */
  retries: number;
}

/** The `usage` field of `agent-trace summary --json`. */
export interface UsageReport {
  total: UsageTotalsJson & {
    /**
     * What the total sums: `events` (each event's own usage, aggregates only where nothing below them reports),
     * `totals lines` (nothing reports per event: the file's own totals), `events and totals lines` (fields no event
     * reports, e.g. the output of Claude Code stream-json, come from the totals lines).
     */
    scope: 'events' | 'totals lines' | 'events and totals lines' | 'none';
    /** Fields taken from the file's totals lines. */
    fromTotalsLines: string[];
  };
  byModel: ModelUsageJson[];
  byTool: ToolUsage[];
  byGroup: (UsageTotalsJson & { group: string | null })[];
  /** Every model call reported its input and output (or a counted aggregate or totals line covers it), and the whole file was read. */
  complete: boolean;
  /** Share of the counted tokens (input + output) whose cost is known, 0..1; null when no tokens are reported. */
  priced: number | null;
  /** Date of the bundled price table. */
  priceTableDate: string;
  /**
   * Retries in the run: `recorded` when the trace records them, `inferred` (a call after a failed call of the
   * same tool or model under the same parent) when it records none. Per tool and model in `byTool`/`byModel`.
   */
  retries: { total: number; source: 'recorded' | 'inferred' };
}

const JSON_FIELD: Record<TokenField, keyof UsageTotalsJson> = {
  input: 'inputTokens', output: 'outputTokens', cacheRead: 'cacheReadTokens', cacheWrite: 'cacheWriteTokens', reasoning: 'reasoningTokens',
};

function totalsJson(t: Tally, costUsd: number | null): UsageTotalsJson {
  return { inputTokens: t.input, outputTokens: t.output, cacheReadTokens: t.cacheRead, cacheWriteTokens: t.cacheWrite, reasoningTokens: t.reasoning, totalTokens: t.grand(), costUsd };
}

/** `priceOf` once per model name: the lookup normalizes the name, too slow to repeat for every record. */
export function priceLookup(prices: Readonly<Record<string, ModelPrice>>): (model: string | null) => ModelPrice | undefined {
  const seen = new Map<string, ModelPrice | undefined>();
  return (model) => {
    if (model === null) return undefined;
    if (!seen.has(model)) seen.set(model, priceOf(model, prices));
    return seen.get(model);
  };
}

type ModelSums = { t: Tally; calls: number; cost: number; priced: number; tokens: number; sources: Set<'trace' | 'table'> };
type GroupSums = { t: Tally; cost: number | null };

/** The counted records summed: in total, per model and per group, with their cost where priced. */
class CountedSums {
  readonly total = new Tally();
  readonly models = new Map<string, ModelSums>();
  readonly groups = new Map<string | null, GroupSums>();
  pricedTokens = 0;
  allTokens = 0;
  cost: number | null = null;
  // Records come in runs of one model and one group: the last entries are kept instead of asking the maps each time.
  private key: string | undefined;
  private m: ModelSums | undefined;
  private group: string | null | undefined;
  private g: GroupSums | undefined;

  constructor(private readonly model: TraceModel, private readonly rollup: UsageRollup, private readonly price: (model: string | null) => ModelPrice | undefined) {}

  add(i: number): void {
    const u = this.rollup.usage;
    u.addTo(this.total, i);
    const m = this.modelSums(this.rollup.modelOf(i) ?? '(unknown model)');
    u.addTo(m.t, i);
    m.calls++;
    const tokens = u.inputOutputOf(i);
    m.tokens += tokens;
    this.allTokens += tokens;
    const c = u.costAt(i, this.price(this.rollup.modelOf(i)));
    const g = this.groupSums(this.model.events.groupOf(i));
    u.addTo(g.t, i);
    if (c === null) return;
    m.cost += c;
    m.priced += tokens;
    m.sources.add(u.recordedCostOf(i) !== null ? 'trace' : 'table');
    this.pricedTokens += tokens;
    this.cost = (this.cost ?? 0) + c;
    g.cost = (g.cost ?? 0) + c;
  }

  private modelSums(name: string): ModelSums {
    if (name === this.key && this.m) return this.m;
    let m = this.models.get(name);
    if (!m) this.models.set(name, (m = { t: new Tally(), calls: 0, cost: 0, priced: 0, tokens: 0, sources: new Set() }));
    return (this.key = name), (this.m = m);
  }

  private groupSums(group: string | null): GroupSums {
    if (group === this.group && this.g) return this.g;
    let g = this.groups.get(group);
    if (!g) this.groups.set(group, (g = { t: new Tally(), cost: null }));
    return (this.group = group), (this.g = g);
  }
}

/** The counted records summed; a model nothing prices takes the cost its last totals line records. */
function tallyUsage(model: TraceModel, prices: Readonly<Record<string, ModelPrice>>, rollup: UsageRollup): CountedSums {
  const x = new CountedSums(model, rollup, priceLookup(prices));
  for (const i of rollup.countedIndex) x.add(i);
  for (const [name, m] of x.models) {
    const recorded = m.sources.size === 0 ? recordedModelCost(rollup, name) : null;
    if (recorded === null) continue;
    m.cost = recorded;
    m.sources.add('trace');
    x.pricedTokens += m.tokens;
    x.cost = (x.cost ?? 0) + recorded;
  }
  return x;
}

/**
 * The run's cost in USD, the same as {@link usageReport}'s `total.costUsd`, without the per-tool, retry and
 * completeness parts of the report (the diff asks only this, for both runs).
 */
export function usageCostUsd(model: TraceModel, prices: Readonly<Record<string, ModelPrice>> = {}, rollup: UsageRollup = usageRollupOf(model)): number | null {
  return tallyUsage(model, prices, rollup).cost;
}

/**
 * The usage of a loaded trace: totals, per model, per tool and per group, with a completeness flag and the
 * priced share. `prices` are the user's (`agentTrace.pricing`), looked up before the bundled table.
 */
export function usageReport(model: TraceModel, prices: Readonly<Record<string, ModelPrice>> = {}, rollup: UsageRollup = usageRollupOf(model)): UsageReport {
  const { total, models, groups, pricedTokens, allTokens, cost } = tallyUsage(model, prices, rollup);
  const fromTotals = fillFromTotalsLines(rollup, total);
  const retries = retryCounts(model, rollup);
  const byModel: ModelUsageJson[] = [...models].map(([name, m]) => ({
    model: name, ...totalsJson(m.t, m.sources.size > 0 ? m.cost : null), calls: m.calls,
    costSource: costSourceOf(m.sources), retries: retries.byModel.get(name) ?? 0,
  })).sort((a, b) => (b.totalTokens ?? 0) - (a.totalTokens ?? 0) || a.model.localeCompare(b.model));
  const scope = rollup.countedIndex.length === 0 ? (fromTotals.length > 0 ? 'totals lines' : 'none') : fromTotals.length > 0 ? 'events and totals lines' : 'events';
  return {
    total: { ...totalsJson(total, cost), scope, fromTotalsLines: fromTotals.map((f) => (f === 'total' ? 'totalTokens' : JSON_FIELD[f])) },
    byModel,
    byTool: toolUsage(model.events, rollup, retries.byTool),
    byGroup: [...groups].map(([group, g]) => ({ group, ...totalsJson(g.t, g.cost) })),
    complete: isComplete(model, rollup, total, fromTotals),
    priced: allTokens > 0 ? pricedTokens / allTokens : null,
    priceTableDate: PRICE_TABLE_DATE,
    retries: { total: retries.total, source: retries.source },
  };
}

/** Fields no counted record reports but the file's totals lines do (summed over them) fill the total. */
function fillFromTotalsLines(rollup: UsageRollup, total: Tally): (TokenField | 'total')[] {
  const lines = new Tally();
  // From the columns, not a row per totals line (Claude Code writes thousands of running totals).
  const u = rollup.usage;
  for (const i of rollup.totalsIndex) if (u.kindOf(i) === UsageKind.Totals) u.addTo(lines, i);
  const filled: (TokenField | 'total')[] = [];
  for (const f of TOKEN_FIELDS) {
    if (total[f] === null && lines[f] !== null) (total[f] = lines[f]), filled.push(f);
  }
  if (total.total === null && lines.total !== null && (total.input === null || total.output === null)) (total.total = lines.total), filled.push('total');
  return filled;
}

/**
 * Complete: the whole file was read, no model call lacks usage, and every counted record reported its input
 * and output, or the side none reported comes from the file's totals lines.
 */
function isComplete(model: TraceModel, rollup: UsageRollup, total: Tally, fromTotals: readonly string[]): boolean {
  if (model.partial || model.cancelled || rollup.unreported > 0 || total.input === null || total.output === null) return false;
  return (['input', 'output'] as const).every((f) => fromTotals.includes(f) || rollup.usage.allReport(rollup.countedIndex, f));
}

/**
 * The cost the file's last per-model totals line records for `model` (Claude Code `modelUsage[m].costUSD`),
 * used for a model the price table does not know. These are the session's running totals as of that line.
 */
function recordedModelCost(rollup: UsageRollup, name: string): number | null {
  // From the last line back, a row each until one names the model (not a row for every totals line).
  for (let k = rollup.totalsIndex.length - 1; k >= 0; k--) {
    const m = rollup.rowOf(rollup.totalsIndex[k]).usage?.byModel?.[name];
    if (m) return m.costUsd ?? null;
  }
  return null;
}

function costSourceOf(sources: ReadonlySet<'trace' | 'table'>): ModelUsageJson['costSource'] {
  if (sources.size === 0) return null;
  return sources.size > 1 ? 'mixed' : [...sources][0];
}
