import type { TraceModel } from '../traceModel';
import { ModelPrice, priceOf, PRICE_SOURCE, PRICE_TABLE_DATE } from './prices';
import { OVERFLOW_REASON } from './cost';
import type { Price, PriceSource } from './priceTypes';
import { UsageRollup, usageRollupOf } from './rollup';
import { Tally } from './tally';
import { UsageKind } from './usageColumns';
import { retryCounts } from './retries';
import { ToolUsage, toolUsage } from './toolStats';
import { TOKEN_FIELDS, TokenField } from '../usageTypes';
import { keepShape } from '../keepShape';

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
  /** Date of the bundled price table (its source's, as in {@link priceSource}). */
  priceTableDate: string;
  /** Where the bundled prices come from: the package, its version and the day that version was published. */
  priceSource: PriceSource;
  /** Each model with tokens left unpriced, and why (a model the price source does not know is never guessed). */
  unpriced: UnpricedModel[];
  /**
   * Retries in the run: `recorded` when the trace records them, `inferred` (a call after a failed call of the
   * same tool or model under the same parent) when it records none. Per tool and model in `byTool`/`byModel`.
   */
  retries: { total: number; source: 'recorded' | 'inferred' };
  /** What the totals sum and where the cost comes from, so every figure can be checked by hand. */
  explain: UsageExplain;
}

/** One file a session's usage sums (the file itself, then its subagents': core/sessionUsage.ts). */
export interface UsageFileJson extends UsageTotalsJson {
  file: string;
  /** `session`: the file asked about; `subagent`, `compaction`: a file of its session (FormatModule.sessionFiles). */
  role: 'session' | 'subagent' | 'compaction';
  /** The tool call of the session file that started it (subagents), when recorded. */
  toolUseId?: string | null;
  /** What the subagent was asked to do, as recorded. */
  title?: string | null;
  events: number;
  /** Usage records counted: model responses, each once at its last snapshot (or aggregates standing for them). */
  records: number;
  /** Where this file's cost comes from (see {@link ModelUsageJson.costSource}). */
  costSource: 'trace' | 'table' | 'mixed' | null;
  /** The file was read whole and every model call in it reported its usage. */
  complete: boolean;
  /** Its `costUsd` is the session's recorded cost, its other files' included (they are not added to it again). */
  costCoversSession?: boolean;
  /** Why the file could not be counted (unreadable, vanished); its figures are then null. */
  error?: string;
}

/** `usage.explain` of `summary --json`: what was summed, what was folded or dropped, what is unpriced, and why. */
export interface UsageExplain {
  /** The files summed, the asked-about file first. */
  files: UsageFileJson[];
  /** Usage records counted in all files (model responses, each once). */
  records: number;
  /** Lines whose usage snapshot was replaced by a later one of the same response (Claude Code writes one per content block): not added. */
  snapshotsReplaced: number;
  /** Lines the writer repeated (Codex 0.60's second `token_count`): dropped. */
  duplicatesDropped: number;
  /** Aggregates (a parent span's or task's sum) not added because their children were counted. */
  aggregatesNotAdded: number;
  /** Share of input + output tokens left unpriced, 0..1 (null: no tokens). */
  unpricedShare: number | null;
  /** Tokens (input + output) of each unpriced model, with its share of all counted tokens. */
  unpricedTokens: { model: string; tokens: number; share: number }[];
  /** Where the cost comes from, in words (recorded by the trace, priced from the table, or both). */
  cost: string;
  /** The price source and the day of its version. */
  priceSource: PriceSource;
  /** Anything else a reader of the figures should know (recorded totals that cover more or less than the files). */
  notes: string[];
}

/** A model some of whose tokens are unpriced, and why. */
export interface UnpricedModel {
  model: string;
  reason: string;
}

const JSON_FIELD: Record<TokenField, keyof UsageTotalsJson> = {
  input: 'inputTokens', output: 'outputTokens', cacheRead: 'cacheReadTokens', cacheWrite: 'cacheWriteTokens', reasoning: 'reasoningTokens',
};

function totalsJson(t: Tally, costUsd: number | null): UsageTotalsJson {
  return { inputTokens: t.input, outputTokens: t.output, cacheReadTokens: t.cacheRead, cacheWriteTokens: t.cacheWrite, reasoningTokens: t.reasoning, totalTokens: t.grand(), costUsd };
}

/** `priceOf` once per model name: the lookup matches patterns, too slow to repeat for every record. */
export function priceLookup(prices: Readonly<Record<string, ModelPrice>>): (model: string | null) => Price | undefined {
  const seen = new Map<string, Price | undefined>();
  return (model) => {
    if (model === null) return undefined;
    if (!seen.has(model)) seen.set(model, priceOf(model, prices));
    return seen.get(model);
  };
}

/** One model's counted records summed (a class, not a literal, so its map can be kept: see keepShape). */
class ModelSums {
  readonly t = new Tally();
  calls = 0;
  cost = 0;
  priced = 0;
  tokens = 0;
  readonly sources = new Set<'trace' | 'table'>();
  /** The first record left unpriced (-1: none), for the unpriced hint. */
  firstUnpriced = -1;
  /** A record's cost was refused because the model's sum would overflow. */
  overflow = false;
  /** The records name no model. */
  unnamed = false;
}

/** One group's counted records summed. */
class GroupSums {
  readonly t = new Tally();
  cost: number | null = null;
}

/** The counted records summed: in total, per model and per group, with their cost where priced. */
class CountedSums {
  readonly total = new Tally();
  readonly models = new Map<string, ModelSums>();
  readonly groups = new Map<string | null, GroupSums>();
  pricedTokens = 0;
  allTokens = 0;
  cost: number | null = null;
  // Records come in runs of one model and one group: a run's tokens are summed into `run` (NaN: not reported)
  // and added to the total, the model's and the group's tallies once, when the run ends, instead of three tally
  // updates per record. Costs are still added record by record, in the same order, so they round as before.
  private readonly run = new Float64Array(6).fill(NaN);
  private runModel: string | null | undefined;
  private runGroup: string | null | undefined;
  private m: ModelSums | undefined;
  private g: GroupSums | undefined;
  private price: Price | undefined;
  /** The cost the file's totals lines record for the run's model, which wins over its records' (null: none). */
  private recordedForModel: number | null = null;
  /** Per model, the cost its last totals line records (Claude Code `modelUsage[m].costUSD`), or null. */
  readonly recordedByModel = new Map<string, number | null>();

  constructor(private readonly model: TraceModel, private readonly rollup: UsageRollup, readonly priceFor: (model: string | null) => Price | undefined) {}

  add(i: number): void {
    const u = this.rollup.usage;
    const name = this.rollup.modelOf(i);
    const group = this.model.events.groupOf(i);
    let m = this.m;
    let g = this.g;
    if (name !== this.runModel || group !== this.runGroup || !m || !g) {
      this.flush();
      this.runModel = name;
      this.runGroup = group;
      this.m = m = this.modelSums(name ?? '(unknown model)');
      if (name === null) m.unnamed = true;
      this.g = g = this.groupSums(group);
      this.price = this.priceFor(name);
      this.recordedForModel = name === null ? null : this.recordedOf(name);
    }
    u.sumInto(this.run, 0, i);
    m.calls++;
    const tokens = u.inputOutputOf(i);
    m.tokens += tokens;
    this.allTokens += tokens;
    // The model's cost is the one its totals line records (added once, in tallyUsage), not its records' sum.
    if (this.recordedForModel !== null) return;
    const c = u.costAt(i, this.price);
    // A sum that would overflow is refused like a record's own overflow (never an Infinity printed as null).
    const overflows = c !== null && !(Number.isFinite(m.cost + c) && Number.isFinite((this.cost ?? 0) + c) && Number.isFinite((g.cost ?? 0) + c));
    if (c === null || overflows) {
      if (overflows) m.overflow = true;
      if (m.firstUnpriced < 0) m.firstUnpriced = i;
      return;
    }
    m.cost += c;
    m.priced += tokens;
    m.sources.add(u.recordedCostOf(i) !== null ? 'trace' : 'table');
    this.pricedTokens += tokens;
    this.cost = (this.cost ?? 0) + c;
    g.cost = (g.cost ?? 0) + c;
  }

  /** Adds the run's tokens to the total, its model's and its group's tallies. Called after the last record. */
  flush(): void {
    if (!this.m || !this.g) return;
    const r = this.run;
    for (const t of [this.total, this.m.t, this.g.t]) {
      if (r[0] === r[0]) t.input = (t.input ?? 0) + r[0];
      if (r[1] === r[1]) t.output = (t.output ?? 0) + r[1];
      if (r[2] === r[2]) t.cacheRead = (t.cacheRead ?? 0) + r[2];
      if (r[3] === r[3]) t.cacheWrite = (t.cacheWrite ?? 0) + r[3];
      if (r[4] === r[4]) t.reasoning = (t.reasoning ?? 0) + r[4];
      if (r[5] === r[5]) t.total = (t.total ?? 0) + r[5];
    }
    r.fill(NaN);
  }

  private recordedOf(name: string): number | null {
    let v = this.recordedByModel.get(name);
    if (v === undefined) this.recordedByModel.set(name, (v = recordedModelCost(this.rollup, name)));
    return v;
  }

  private modelSums(name: string): ModelSums {
    let m = this.models.get(name);
    if (!m) this.models.set(name, (m = new ModelSums()));
    return m;
  }

  private groupSums(group: string | null): GroupSums {
    let g = this.groups.get(group);
    if (!g) this.groups.set(group, (g = new GroupSums()));
    return g;
  }
}

/**
 * The counted records summed. A cost the trace records wins over prices: a model whose last totals line records its
 * cost takes that cost, and a run whose file totals its own cost (Claude Code `total_cost_usd`, agentledger
 * `cost_recorded` in USD: the `costUsd` of `totals` in `summary --json`) takes that total, so `totals` and `usage`
 * never disagree. Its tokens then count as priced.
 */
function tallyUsage(model: TraceModel, prices: Readonly<Record<string, ModelPrice>>, rollup: UsageRollup): CountedSums {
  const x = new CountedSums(model, rollup, priceLookup(prices));
  for (const i of rollup.countedIndex) x.add(i);
  x.flush();
  for (const [name, m] of x.models) {
    const recorded = x.recordedByModel.get(name) ?? null;
    if (recorded === null) continue;
    m.cost = recorded;
    m.sources.add('trace');
    m.priced = m.tokens;
    x.pricedTokens += m.tokens;
    x.cost = (x.cost ?? 0) + recorded;
  }
  const run = model.formatTotals.costUsd;
  if (typeof run === 'number' && Number.isFinite(run)) {
    x.cost = run;
    x.pricedTokens = x.allTokens;
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
  const sums = tallyUsage(model, prices, rollup);
  const { total, models, groups, pricedTokens, allTokens, cost } = sums;
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
    priceSource: { ...PRICE_SOURCE },
    unpriced: unpricedModels(sums, rollup, byModel),
    retries: { total: retries.total, source: retries.source },
    explain: explainOf(model, rollup, sums, byModel, total, cost),
  };
}

/** The explanation of one file's usage (see {@link UsageExplain}); a session's other files are added by core/sessionUsage.ts. */
function explainOf(model: TraceModel, rollup: UsageRollup, sums: CountedSums, byModel: readonly ModelUsageJson[], total: Tally, cost: number | null): UsageExplain {
  let snapshots = 0;
  let duplicates = 0;
  for (const [i, facts] of model.events.usageFactEntries()) {
    if (i >= model.events.size) break;
    if (facts.repeat === 'snapshot') snapshots++;
    else if (facts.repeat === 'duplicate') duplicates++;
  }
  const costSource = costSourceOf(new Set(byModel.flatMap((m) => (m.costSource === null ? [] : m.costSource === 'mixed' ? ['trace', 'table'] as const : [m.costSource]))));
  const recordedRun = typeof model.formatTotals.costUsd === 'number' && Number.isFinite(model.formatTotals.costUsd);
  const unpricedTokens = byModel.flatMap((m) => {
    const s = sums.models.get(m.model)!;
    const tokens = s.tokens - s.priced;
    return tokens > 0 ? [{ model: m.model, tokens, share: sums.allTokens > 0 ? tokens / sums.allTokens : 0 }] : [];
  });
  const file: UsageFileJson = {
    file: model.path, role: 'session', ...totalsJson(total, cost), events: model.events.size, records: rollup.countedIndex.length,
    costSource: recordedRun ? 'trace' : costSource, complete: isComplete(model, rollup, total, []),
  };
  return {
    files: [file],
    records: rollup.countedIndex.length,
    snapshotsReplaced: snapshots,
    duplicatesDropped: duplicates,
    aggregatesNotAdded: rollup.shadowedCount,
    unpricedShare: sums.allTokens > 0 ? 1 - sums.pricedTokens / sums.allTokens : null,
    unpricedTokens,
    cost: costSentence(recordedRun, costSource, cost),
    priceSource: { ...PRICE_SOURCE },
    // A fork's copies of its origin's responses and the origin's share of its running totals are not its usage.
    notes: model.origin ? [...model.origin.excluded] : [],
  };
}

function costSentence(recordedRun: boolean, source: ModelUsageJson['costSource'], cost: number | null): string {
  if (cost === null) return 'unknown: no counted tokens are priced';
  if (recordedRun) return 'recorded by the trace for the whole run (its totals line), not computed';
  if (source === 'trace') return 'recorded by the trace for each call or model';
  if (source === 'table') return `computed from the counted tokens at ${PRICE_SOURCE.name} ${PRICE_SOURCE.version} prices (${PRICE_SOURCE.date}), or the user's`;
  return 'recorded by the trace where it records one, computed from the price table for the rest';
}

/** The models of `byModel` (in its order) whose cost is unknown for some of their records, with why. */
function unpricedModels(sums: CountedSums, rollup: UsageRollup, byModel: readonly ModelUsageJson[]): UnpricedModel[] {
  const out: UnpricedModel[] = [];
  for (const row of byModel) {
    const m = sums.models.get(row.model)!;
    if (m.firstUnpriced < 0 || sums.recordedByModel.get(row.model) != null) continue;
    const price = m.unnamed ? undefined : sums.priceFor(row.model);
    const reason = m.unnamed
      ? 'the trace names no model for these calls'
      : m.overflow
        ? OVERFLOW_REASON
      : !price
        ? `not in the bundled prices (${PRICE_SOURCE.name} ${PRICE_SOURCE.version}, ${PRICE_SOURCE.date}) nor in the user's`
        : rollup.usage.unpricedReasonAt(m.firstUnpriced, price) ?? 'its records are not priced';
    out.push({ model: row.model, reason });
  }
  return out;
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
    const byModel = rollup.rowOf(rollup.totalsIndex[k]).usage?.byModel;
    // Own keys only: a model named `constructor` is not Object.prototype's.
    const m = byModel && Object.hasOwn(byModel, name) ? byModel[name] : undefined;
    if (m) return m.costUsd ?? null;
  }
  return null;
}

function costSourceOf(sources: ReadonlySet<'trace' | 'table'>): ModelUsageJson['costSource'] {
  if (sources.size === 0) return null;
  return sources.size > 1 ? 'mixed' : [...sources][0];
}

// Made for every report: their maps are kept (see keepShape).
keepShape(new CountedSums(null as never, null as never, () => undefined));
keepShape(new ModelSums());
keepShape(new GroupSums());
