import { TOKEN_FIELDS, TokenCounts, TokenField } from '../usageTypes';
import { keepShape } from '../keepShape';

/** Token counts being summed: a field stays null until some record reports it, so "0" always means counted zero. */
export class Tally {
  input: number | null = null;
  output: number | null = null;
  cacheRead: number | null = null;
  cacheWrite: number | null = null;
  reasoning: number | null = null;
  /** Totals recorded without an input/output split (deepstrike `total_tokens`). */
  total: number | null = null;

  /** Adds every field `c` reports (field by field, not over TOKEN_FIELDS: the keyed loop was a hot spot). */
  add(c: TokenCounts & { total?: number | null }): this {
    if (c.input != null) this.input = (this.input ?? 0) + c.input;
    if (c.output != null) this.output = (this.output ?? 0) + c.output;
    if (c.cacheRead != null) this.cacheRead = (this.cacheRead ?? 0) + c.cacheRead;
    if (c.cacheWrite != null) this.cacheWrite = (this.cacheWrite ?? 0) + c.cacheWrite;
    if (c.reasoning != null) this.reasoning = (this.reasoning ?? 0) + c.reasoning;
    if (c.total != null) this.total = (this.total ?? 0) + c.total;
    return this;
  }

  /** True when any token field has been reported. */
  any(): boolean {
    return TOKEN_FIELDS.some((f) => this[f] !== null) || this.total !== null;
  }

  /** The sum of input and output when both are known, else the recorded total. */
  grand(): number | null {
    if (this.input !== null && this.output !== null) return this.input + this.output;
    return this.total;
  }

  /** A plain copy (for JSON output). */
  counts(): UsageTotals {
    return { input: this.input, output: this.output, cacheRead: this.cacheRead, cacheWrite: this.cacheWrite, reasoning: this.reasoning, total: this.grand() };
  }

  get(f: TokenField): number | null {
    return this[f];
  }
}

/** Token totals as reported: null where nothing reported the field. `total` is input + output, or a recorded total. */
export interface UsageTotals {
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  reasoning: number | null;
  total: number | null;
}

// Made for every rollup and report: its map is kept (see keepShape).
keepShape(new Tally());
