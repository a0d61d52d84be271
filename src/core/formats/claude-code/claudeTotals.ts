import { FormatTotals } from '../../format';
import { isObj, num, obj, Obj, str } from '../common';

/** Token counts as the header shows them: input counts cached and cache-writing input (what the model read). */
interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
}

const ZERO: Tokens = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };

function add(a: Tokens, b: Tokens): Tokens {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheCreation: a.cacheCreation + b.cacheCreation };
}

/** A Messages API `usage` object (snake_case), as written on `result` lines. */
function fromUsage(u: Obj | null): Tokens | null {
  if (!u || num(u, 'input_tokens') === null) return null;
  const cacheRead = num(u, 'cache_read_input_tokens') ?? 0;
  const cacheCreation = num(u, 'cache_creation_input_tokens') ?? 0;
  return { input: num(u, 'input_tokens')! + cacheRead + cacheCreation, output: num(u, 'output_tokens') ?? 0, cacheRead, cacheCreation };
}

/** Claude Code's `modelUsage` (camelCase, per model), summed over models. */
function fromModelUsage(mu: Obj | null): Tokens | null {
  if (!mu) return null;
  let t: Tokens | null = null;
  for (const u of Object.values(mu)) {
    if (!isObj(u) || num(u, 'inputTokens') === null) continue;
    const cacheRead = num(u, 'cacheReadInputTokens') ?? 0;
    const cacheCreation = num(u, 'cacheCreationInputTokens') ?? 0;
    t = add(t ?? ZERO, { input: num(u, 'inputTokens')! + cacheRead + cacheCreation, output: num(u, 'outputTokens') ?? 0, cacheRead, cacheCreation });
  }
  return t;
}

/**
 * The totals Claude Code writes itself, which win over sums of per-message usage (streamed assistant lines carry
 * the usage of the stream's start, e.g. 1 output token, and subagents' responses are elsewhere):
 * - stream-json: each `result` line's `usage` covers the requests since the previous result (a background
 *   subagent's notification gets its own result, `result_index` 1, 2, …), so this file's tokens are their sum;
 *   the last result's `modelUsage` and `total_cost_usd` are the session's running totals (subagents included,
 *   and after `--resume` the earlier runs too), kept as `sessionInputTokens`/`sessionOutputTokens`/`costUsd`.
 * - transcripts: the last `cost-state` line's `modelUsage` and `totalCostUSD` are the session's totals
 *   (subagents included), which is what the session file records.
 */
export class ClaudeToolTotals {
  private results: Tokens | null = null;
  private resultCount = 0;
  private session: Tokens | null = null;
  private cost: number | null = null;
  private costState: Tokens | null = null;
  /** stream-json: each response's input (what the model read) by message id, subagents' included. */
  private readonly responseInput = new Map<string, number>();
  /**
   * The tokens the `result` line just observed stands for, when they differ from its own `usage` (the session's
   * totals grew by them since the last result taken): see {@link observe}. Null for any other line.
   */
  resultTokens: Tokens | null = null;
  /** The session totals taken as the file's at the last result (see {@link observe}), null when none were. */
  private taken: Tokens | null = null;

  /**
   * Looks at one line; `result` and `cost-state` lines count, and stream-json's assistant lines for their input.
   * A background subagent's responses are streamed with placeholder output counts and are in no result's `usage`,
   * only in the session's running totals (`modelUsage`). When those totals hold exactly the input of every response
   * the file streamed (the file is the whole session: no earlier run, as after `--resume`), they are the file's
   * totals, and the result stands for what its own `usage` left out ({@link resultTokens}).
   */
  observe(v: Obj): void {
    this.resultTokens = null;
    if (v.type === 'assistant' && typeof v.session_id === 'string') {
      const m = obj(v, 'message');
      const u = fromUsage(obj(m, 'usage'));
      const id = str(m, 'id');
      if (u && id !== null) this.responseInput.set(id, u.input);
      return;
    }
    if (v.type === 'result') {
      const u = fromUsage(obj(v, 'usage'));
      const before = this.results;
      this.resultCount++;
      this.session = fromModelUsage(obj(v, 'modelUsage')) ?? this.session;
      this.cost = num(v, 'total_cost_usd') ?? this.cost;
      const s = this.session;
      const whole = u !== null && s !== null && s.input === this.streamedInput();
      if (whole && (this.taken || s.output > (before?.output ?? 0) + u.output)) {
        // The session's totals are the file's: this result stands for what they grew by since the last taken.
        const from = this.taken ?? before ?? ZERO;
        this.resultTokens = { input: s.input - from.input, output: s.output - from.output, cacheRead: s.cacheRead - from.cacheRead, cacheCreation: s.cacheCreation - from.cacheCreation };
        this.results = this.taken = { ...s };
      } else if (u) {
        this.results = add(this.results ?? ZERO, u);
        this.taken = null;
      }
    } else if (v.type === 'cost-state') {
      this.costState = fromModelUsage(obj(v, 'modelUsage')) ?? this.costState;
      this.cost = num(v, 'totalCostUSD') ?? this.cost;
    }
  }

  private streamedInput(): number {
    let sum = 0;
    for (const x of this.responseInput.values()) sum += x;
    return sum;
  }

  /** Overrides the summed totals with the tool's own, where the file has them. */
  apply(t: FormatTotals): FormatTotals {
    const own = this.results ?? this.costState;
    const out: FormatTotals = { ...t };
    if (own) Object.assign(out, { inputTokens: own.input, outputTokens: own.output, cacheReadTokens: own.cacheRead, cacheCreationTokens: own.cacheCreation });
    if (this.results && this.session) Object.assign(out, { sessionInputTokens: this.session.input, sessionOutputTokens: this.session.output });
    if (this.resultCount > 0) out.results = this.resultCount;
    if (this.cost !== null) out.costUsd = this.cost;
    return out;
  }
}

/** `$0.057`, for labels. */
export function formatCost(usd: number | null): string | null {
  return usd === null ? null : `$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(3)}`;
}

/** The subtype of a result, when it says the run failed (`error_max_turns`, `error_during_execution`, …). */
export function resultFailed(v: Obj): boolean {
  return v.is_error === true || (str(v, 'subtype') ?? '').startsWith('error');
}
