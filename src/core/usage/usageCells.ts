import type { TraceModel } from '../traceModel';
import type { ModelPrice } from './prices';
import { UsageRollup, usageRollupOf } from './rollup';
import { priceLookup, UsageReport } from './usageReport';

/**
 * One cell of a session's usage: the tokens and cost of the model calls of one model on one UTC day. A session's
 * cells add up to its usage report's totals (see {@link settleUsageCells}), so a session that ran over midnight counts
 * on both days and one that used two models is split between them.
 */
export interface UsageCell {
  /** `2026-12-01` (UTC), the day of the calls' own times; null when the session records no time at all. */
  day: string | null;
  /** The calls' model as the usage report names it (`(unknown model)` when the trace names none). */
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  /** Null when none of the cell's calls is priced: unknown, never 0. */
  costUsd: number | null;
}

const TOKENS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;
/** The model name the usage report gives calls that name none (usageReport.ts). */
export const UNKNOWN_MODEL = '(unknown model)';

const addN = (a: number | null, b: number | null): number | null => (b === null ? a : (a ?? 0) + b);
const io = (c: UsageCell): number => (c.inputTokens ?? 0) + (c.outputTokens ?? 0);

/** The UTC day of a time in ms. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The counted usage records of one file (the records its usage report sums: the rollup's `countedIndex`, so a
 * streamed snapshot replaced by its final record is never counted twice), summed per UTC day of each record's own
 * time and per model. A record with no time takes the time of the event before it in the file (else the file's first
 * time). Each cell's cost is its records' own (recorded, else priced from the table); {@link settleUsageCells} then
 * makes the cells agree with the report's costs, which may come from a totals line rather than the records.
 */
export function usageCellsOf(model: TraceModel, prices: Readonly<Record<string, ModelPrice>> = {}, rollup: UsageRollup = usageRollupOf(model)): UsageCell[] {
  const t = model.events;
  const u = rollup.usage;
  const priceFor = priceLookup(prices);
  let first: number | null = null;
  for (let i = 0; i < t.size && first === null; i++) first = t.timeOf(i);
  const cells = new Map<string, UsageCell>();
  const run = new Float64Array(6);
  let last: number | null = null;
  let scanned = 0;
  for (const i of rollup.countedIndex) {
    // The latest time at or before the record, in file order.
    for (; scanned <= i; scanned++) {
      const time = t.timeOf(scanned);
      if (time !== null) last = time;
    }
    const own = t.timeOf(i);
    const time = own ?? last ?? first;
    const day = time === null ? null : utcDay(time);
    const name = rollup.modelOf(i) ?? UNKNOWN_MODEL;
    const key = `${day}\u0000${name}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { day, model: name, inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null }));
    run.fill(NaN);
    u.sumInto(run, 0, i);
    if (run[0] === run[0]) c.inputTokens = (c.inputTokens ?? 0) + run[0];
    if (run[1] === run[1]) c.outputTokens = (c.outputTokens ?? 0) + run[1];
    if (run[2] === run[2]) c.cacheReadTokens = (c.cacheReadTokens ?? 0) + run[2];
    if (run[3] === run[3]) c.cacheWriteTokens = (c.cacheWriteTokens ?? 0) + run[3];
    const cost = u.costAt(i, priceFor(rollup.modelOf(i)));
    if (cost !== null && Number.isFinite(cost)) c.costUsd = (c.costUsd ?? 0) + cost;
  }
  return [...cells.values()];
}

/** Cells of the same day and model added together, sorted by day then model. */
export function mergeUsageCells(cells: readonly UsageCell[]): UsageCell[] {
  const out = new Map<string, UsageCell>();
  for (const c of cells) {
    const key = `${c.day}\u0000${c.model}`;
    const into = out.get(key);
    if (!into) {
      out.set(key, { ...c });
      continue;
    }
    for (const k of TOKENS) into[k] = addN(into[k], c[k]);
    into.costUsd = addN(into.costUsd, c.costUsd);
  }
  return [...out.values()].sort((a, b) => ((a.day ?? '') < (b.day ?? '') ? -1 : (a.day ?? '') > (b.day ?? '') ? 1 : a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}

/**
 * Spreads `cost` over cells: in proportion to their own costs where they have some, else to their tokens (input +
 * output; all on the first cell when none has tokens). A cell with no cost of its own keeps none when others have one.
 */
function spread(cells: UsageCell[], cost: number): void {
  if (cells.length === 0) return;
  const own = cells.reduce((a, c) => a + (c.costUsd ?? 0), 0);
  if (own > 0) {
    for (const c of cells) if (c.costUsd !== null) c.costUsd = (c.costUsd * cost) / own;
    return;
  }
  const tokens = cells.reduce((a, c) => a + io(c), 0);
  for (const [k, c] of cells.entries()) c.costUsd = tokens > 0 ? (io(c) * cost) / tokens : k === 0 ? cost : 0;
}

/**
 * A session's cells (the files' {@link usageCellsOf}, its subagents' included) made to agree with its usage report,
 * which is the one count: each model's cost is the report's `byModel` cost (a cost recorded in a totals line, or a
 * session's recorded cost that covers its subagents, spread over the model's cells by their own costs, else their
 * tokens; none when the report has none), then the session's total cost the report's total. Tokens the report takes
 * from totals lines rather than records (no record reports them) go to a cell of `fallbackDay` (the session's start).
 * So each token and cost field of the cells adds up to the report's total.
 */
export function settleUsageCells(raw: readonly UsageCell[], report: UsageReport, fallbackDay: string | null): UsageCell[] {
  const cells = mergeUsageCells(raw);
  const byModel = new Map(report.byModel.map((m) => [m.model, m.costUsd]));
  const models = new Map<string, UsageCell[]>();
  for (const c of cells) {
    let list = models.get(c.model);
    if (!list) models.set(c.model, (list = []));
    list.push(c);
  }
  for (const [name, list] of models) {
    if (!byModel.has(name)) continue;
    const cost = byModel.get(name)!;
    if (cost === null) for (const c of list) c.costUsd = null;
    else spread(list, cost);
  }
  // Tokens only totals lines report (no record does): the session's, on its start day.
  const rest: UsageCell = { day: fallbackDay, model: report.byModel.length === 1 ? report.byModel[0].model : UNKNOWN_MODEL, inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null };
  for (const k of TOKENS) {
    const total = report.total[k];
    if (total === null) continue;
    const sum = cells.reduce<number | null>((a, c) => addN(a, c[k]), null);
    if (sum !== total) rest[k] = total - (sum ?? 0);
  }
  if (TOKENS.some((k) => rest[k] !== null)) cells.push(rest);
  const total = report.total.costUsd;
  if (total === null) for (const c of cells) c.costUsd = null;
  else {
    const priced = cells.filter((c) => c.costUsd !== null);
    const sum = priced.reduce((a, c) => a + c.costUsd!, 0);
    if (priced.length === 0 || sum === 0) spread(cells, total);
    else if (sum !== total) for (const c of priced) c.costUsd = (c.costUsd! * total) / sum;
  }
  return mergeUsageCells(cells);
}
