/** Facts of the header as words. Pure (unit-tested in Node). */
import type { HeaderInfo } from '../src/protocol';
import { formatCount } from './format';

/**
 * Tokens as the trace records them: `2.7k in → 420 out tokens`; only the known side (`226 out tokens`, never
 * "0 in" for an input nothing records); with a recorded grand total, `6.1k tokens (226 out)`.
 */
export function tokenFact(h: Pick<HeaderInfo, 'inputTokens' | 'outputTokens' | 'extraTotals'>): string | null {
  const sides = [h.inputTokens !== null ? `${formatCount(h.inputTokens)} in` : '', h.outputTokens !== null ? `${formatCount(h.outputTokens)} out` : ''].filter(Boolean);
  const total = h.extraTotals.totalTokens ?? null;
  if (total !== null) return `${formatCount(total)} tokens total${sides.length > 0 ? ` (${sides.join(', ')})` : ''}`;
  if (sides.length === 0) return null;
  return `${sides.join(' → ')} tokens`;
}

/** `$0.0292 (60% priced)`: the run's cost and how much of its tokens are priced; null when nothing is priced. */
export function costFact(h: Pick<HeaderInfo, 'usage'>): string | null {
  const u = h.usage;
  if (!u || u.costUsd === null) return null;
  const dollars = u.costUsd >= 1 ? u.costUsd.toFixed(2) : u.costUsd.toFixed(4);
  const share = u.priced !== null && u.priced < 1 ? ` (${Math.floor(u.priced * 100)}% of tokens priced)` : '';
  return `$${dollars}${share}${u.complete ? '' : ' · usage incomplete'}`;
}

/**
 * The models whose tokens are left unpriced, by name (`unpriced: gpt-x`), with a tooltip giving each one's reason
 * and where to add a price; null when the run's cost covers every token.
 */
export function unpricedFact(h: Pick<HeaderInfo, 'usage'>): { text: string; title: string } | null {
  const u = h.usage;
  const list = u?.unpriced ?? [];
  if (!u || list.length === 0 || (u.costUsd !== null && u.priced === 1)) return null;
  const names = list.slice(0, 2).map((x) => x.model).join(', ') + (list.length > 2 ? ` +${list.length - 2} more` : '');
  const why = list.map((x) => `${x.model}: ${x.reason}`).join('\n');
  const source = u.priceSource ? ` Bundled prices: ${u.priceSource}.` : '';
  return { text: `unpriced: ${names}`, title: `${why}\n\nPrices are never guessed. Add a model's price in the agentTrace.pricing setting.${source}` };
}

/**
 * `incl. 2 subagents`: the totals are a session's, its other files counted in; the tooltip lists what each file
 * adds and where the cost comes from. Null when the file is the whole session.
 */
export function sessionFilesFact(h: Pick<HeaderInfo, 'usage'>): { text: string; title: string } | null {
  const files = h.usage?.files;
  if (!files || files.length < 2) return null;
  const others = files.filter((f) => f.role !== 'session');
  const subagents = others.filter((f) => f.role === 'subagent').length;
  const compactions = others.length - subagents;
  const words = [subagents > 0 ? `${subagents} subagent${subagents === 1 ? '' : 's'}` : '', compactions > 0 ? `${compactions} compaction${compactions === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
  const cost = (v: number | null): string => (v === null ? 'unpriced' : `$${v >= 1 ? v.toFixed(2) : v.toFixed(4)}`);
  const rows = files.map((f) => `${f.role === 'session' ? 'this file' : `${f.role}${f.title ? ` "${f.title}"` : ''}`} (${f.name}): ${f.error ? `not read: ${f.error}` : `${f.inputTokens === null ? '?' : formatCount(f.inputTokens)} in, ${f.outputTokens === null ? '?' : formatCount(f.outputTokens)} out, ${cost(f.costUsd)}`}`);
  const unread = files.some((f) => f.error) ? ' (some not read)' : '';
  return {
    text: `incl. ${words}${unread}`,
    title: `Tokens, tool calls and cost are the session's: this file and its ${words}, each response counted once.\n\n${rows.join('\n')}${h.usage?.costExplained ? `\n\nCost: ${h.usage.costExplained}.` : ''}`,
  };
}

/**
 * What the header says of a fork's origin: `forked from 00d5a16a…`, with the full id, what of its history the file
 * holds and what its usage leaves out in the tooltip. Null when the file is no fork.
 */
export function originFact(h: Pick<HeaderInfo, 'origin'>): { text: string; title: string; inherited: string | null } | null {
  const o = h.origin;
  if (!o) return null;
  const id = o.sessionId ?? 'a session the file does not name';
  const short = o.sessionId !== null && o.sessionId.length > 12 ? `${o.sessionId.slice(0, 8)}…` : id;
  const held = o.inheritedLines
    ? `Lines ${o.inheritedLines.first}–${o.inheritedLines.last} copy its history (${o.inheritedEvents} events), shown under line ${o.inheritedLines.first}.`
    : `The file refers to its history${o.upToOrdinal !== null ? ` (its lines before ordinal ${o.upToOrdinal})` : ''} without copying it.`;
  return {
    text: `forked from ${short}`,
    title: `This session was forked from session ${id}. ${held}${o.hasFile ? ' Its file is beside this one.' : ' Its file is not beside this one.'}${o.excluded.length > 0 ? `\n\n${o.excluded.join('\n')}` : ''}`,
    inherited: o.inheritedLines ? `${o.inheritedEvents} inherited, not counted again` : null,
  };
}
