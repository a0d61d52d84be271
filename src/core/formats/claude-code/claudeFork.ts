import { isObj, str } from '../common';
import type { FormatTotals, SessionOrigin } from '../../traceModel';
import type { EventDraft } from '../../model';
import type { ModelUsageDraft, TokenCounts, UsageDraft } from '../../usageTypes';

/** Tokens of the origin's responses a fork copies, as its running totals count them (input with cache read and write). */
interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const ZERO: Tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/**
 * A Claude Code fork (`claude --resume <id> --fork-session`) as its transcript shows it (observed in 2.1.332):
 * the new session's file starts with its own bookkeeping (`mode`, `queue-operation`, …), then the origin's whole
 * conversation again (the same uuids, parentUuids and timestamps, the fork's `sessionId`; each copied `assistant`
 * line adds `requestSessionId`, the origin's session id), then the fork's own lines. Its `cost-state` carries on
 * from the origin's: its totals and cost include the origin's calls.
 *
 * A conversation line is a copy when it comes before the fork's first own conversation line and is older than the
 * file's first own timestamped line (the copies keep the origin's times, which are before the fork started). The
 * copies are shown under the first of them and their usage is not counted again; the running totals of the
 * `cost-state` lines have the copies' usage taken off, and its cost (which includes the origin's) is not this
 * session's: it is kept as `costUsdWithOrigin`.
 */
export class ClaudeFork {
  /** Time of the file's first timestamped line without a uuid (its own bookkeeping), before any conversation line. */
  private ownStart: number | null = null;
  /** A conversation line of the file's own was seen: no later line is a copy. */
  private ownSeen = false;
  private originId: string | null = null;
  private first = -1;
  private events = 0;
  private firstLine = 0;
  private lastLine = 0;
  /** The copied responses' usage by the event that carries it (a response split over lines is amended), with its model. */
  private readonly copied = new Map<number, { model: string; tokens: Tokens }>();
  /** The line being placed is a copy (set by {@link inherited}, its event recorded by {@link emitted}). */
  private pending: { usage: { model: string; tokens: Tokens } | null; line: number } | null = null;

  /** True when the transcript line `v` (at `line`) copies the origin's history. Call once per line, in order. */
  inherited(v: unknown, line: number): boolean {
    this.pending = null;
    if (!isObj(v) || this.ownSeen) return false;
    const time = typeof v.timestamp === 'string' ? Date.parse(v.timestamp) : NaN;
    if (typeof v.uuid !== 'string') {
      if (this.ownStart === null && Number.isFinite(time)) this.ownStart = time;
      return false;
    }
    if (this.ownStart === null || !Number.isFinite(time) || time >= this.ownStart) {
      this.ownSeen = true;
      return false;
    }
    const from = str(v, 'requestSessionId');
    if (from !== null && from !== str(v, 'sessionId')) this.originId ??= from;
    this.pending = { usage: null, line };
    return true;
  }

  /**
   * Makes the described copy `d` the origin's: shown under the first copy (the first one is labelled as the
   * inherited history's start), its usage kept apart and not counted.
   */
  mark(d: EventDraft): void {
    if (!this.pending) return;
    if (this.first < 0) d.label = `inherited history: ${d.label}`;
    else d.displayParent = this.first;
    if (d.tokensIn !== null && d.tokensIn !== undefined && d.usage && !d.usage.elsewhere) {
      this.pending.usage = { model: d.model ?? '', tokens: tokensOf(d.tokensIn, d.tokensOut ?? null, d.usage) };
    }
    if (d.usage || d.tokensIn != null || d.tokensOut != null) {
      d.tokensIn = null;
      d.tokensOut = null;
      d.usage = { elsewhere: true, repeat: 'inherited' };
    }
  }

  /** The event index of the line just placed. */
  emitted(index: number): void {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (this.first < 0) (this.first = index), (this.firstLine = p.line);
    this.events++;
    this.lastLine = p.line;
    if (p.usage) this.copied.set(index, p.usage);
  }

  /**
   * A later line amends the usage of a copied response (its real output count): true when `index` is a copy, whose
   * usage is then kept apart instead of counted.
   */
  amended(index: number, tokensIn: number | null, tokensOut: number | null, usage: UsageDraft | undefined): boolean {
    const c = this.copied.get(index);
    if (!c) return false;
    if (tokensIn !== null && usage) c.tokens = tokensOf(tokensIn, tokensOut, usage);
    return true;
  }

  /** The copies' tokens, per model and in all. */
  private sums(): { all: Tokens; byModel: Map<string, Tokens> } {
    const byModel = new Map<string, Tokens>();
    let all = ZERO;
    for (const c of this.copied.values()) {
      byModel.set(c.model, add(byModel.get(c.model) ?? ZERO, c.tokens));
      all = add(all, c.tokens);
    }
    return { all, byModel };
  }

  /** A `cost-state` line's usage with the copies' tokens taken off its running totals, and no cost (it includes the origin's). */
  costState(u: UsageDraft | undefined): UsageDraft | undefined {
    if (!u || this.copied.size === 0) return u;
    const { all, byModel } = this.sums();
    const r = u.runningTotals;
    const runningTotals: TokenCounts | undefined = r && {
      ...r, input: less(r.input, all.input), output: less(r.output, all.output), cacheRead: less(r.cacheRead, all.cacheRead), cacheWrite: less(r.cacheWrite, all.cacheWrite),
    };
    const models: [string, ModelUsageDraft][] = Object.entries(u.byModel ?? {}).map(([m, x]) => {
      const c = byModel.get(m) ?? ZERO;
      return [m, { ...x, input: less(x.input, c.input), output: less(x.output, c.output), cacheRead: less(x.cacheRead, c.cacheRead), cacheWrite: less(x.cacheWrite, c.cacheWrite), costUsd: null }];
    });
    return { ...u, ...(runningTotals ? { runningTotals } : {}), costUsd: null, byModel: Object.fromEntries(models) };
  }

  /** The file's totals with the copies' tokens taken off the writer's (cost-state) totals, and its cost set apart. */
  totals(t: FormatTotals): FormatTotals {
    if (this.events === 0) return t;
    const { all } = this.sums();
    const out: FormatTotals = { ...t };
    if (this.copied.size === 0) return out;
    const minus = (k: string, v: number) => {
      if (typeof out[k] === 'number') out[k] = Math.max(0, out[k]! - v);
    };
    minus('inputTokens', all.input);
    minus('outputTokens', all.output);
    minus('cacheReadTokens', all.cacheRead);
    minus('cacheCreationTokens', all.cacheWrite);
    if (typeof out.costUsd === 'number') {
      out.costUsdWithOrigin = out.costUsd;
      delete out.costUsd;
    }
    return out;
  }

  /** What the file says of its origin, null when it copies no history. */
  origin(t: FormatTotals): SessionOrigin | null {
    if (this.events === 0) return null;
    const { all } = this.sums();
    const who = this.originId ? `session ${this.originId}` : 'the session it was forked from';
    const n = this.copied.size;
    const excluded = [`Lines ${this.firstLine}–${this.lastLine} (${this.events} events) copy the history of ${who}, which this session was forked from: ${n === 1 ? 'its 1 response' : `their ${n} responses`} (${all.input} input, ${all.output} output tokens) are that session's usage and are not counted again here.`];
    if (n > 0 && typeof t.costUsd === 'number') {
      excluded.push(`The cost-state totals carry on from ${who} (their $${Number(t.costUsd.toFixed(6))} includes the origin's calls): the copied responses' tokens are taken off them, and the cost is that of this session's own calls (at the price table), not the recorded total.`);
    }
    return { relation: 'fork', sessionId: this.originId, inherited: { first: this.first, events: this.events, firstLine: this.firstLine, lastLine: this.lastLine }, upToOrdinal: null, excluded };
  }
}

function tokensOf(tokensIn: number, tokensOut: number | null, u: UsageDraft): Tokens {
  return { input: tokensIn, output: tokensOut ?? 0, cacheRead: u.cacheRead ?? 0, cacheWrite: u.cacheWrite ?? 0 };
}

function add(a: Tokens, b: Tokens): Tokens {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
}

function less(v: number | null | undefined, by: number): number | null {
  return typeof v === 'number' ? Math.max(0, v - by) : v ?? null;
}

