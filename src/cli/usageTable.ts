import type { UsageReport } from '../core/usage/usageReport';

const n = (v: number | null): string => (v === null ? '?' : v.toLocaleString('en-US'));
const usd = (v: number | null): string => (v === null ? 'unpriced' : `$${v < 0.01 && v > 0 ? v.toFixed(4) : v.toFixed(2)}`);
const ms = (v: number | null): string => (v === null ? '?' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);

/** Right-aligns every column but the first, so numbers line up. */
function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const fmt = (r: string[]): string => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd();
  return [fmt(head), ...rows.map(fmt)];
}

/** The `usage` of `agent-trace summary` as text tables: totals, by model, by tool. */
export function usageLines(u: UsageReport): string[] {
  const t = u.total;
  const out: string[] = [];
  const priced = u.priced === null ? '' : `, ${Math.round(u.priced * 100)}% priced`;
  out.push(`usage:      ${u.complete ? 'complete' : 'incomplete'} (${t.scope}${t.fromTotalsLines.length ? `; ${t.fromTotalsLines.join(', ')} from totals lines` : ''}${priced}; prices of ${u.priceTableDate}: ${u.priceSource.name} ${u.priceSource.version})`);
  out.push(`retries:    ${u.retries.total.toLocaleString('en-US')} (${u.retries.source === 'recorded' ? 'recorded by the trace' : 'inferred: a call after a failed call of the same tool or model'})`);
  if (u.byModel.length > 0) {
    const rows = u.byModel.map((m) => [m.model, String(m.calls), n(m.inputTokens), n(m.outputTokens), n(m.cacheReadTokens), n(m.cacheWriteTokens), usd(m.costUsd), String(m.retries)]);
    rows.push(['total', '', n(t.inputTokens), n(t.outputTokens), n(t.cacheReadTokens), n(t.cacheWriteTokens), usd(t.costUsd), '']);
    out.push('', ...table(['model', 'calls', 'input', 'output', 'cache read', 'cache write', 'cost', 'retries'], rows));
  }
  // Each unpriced model by name, with why, so a price can be added for it.
  if (u.unpriced.length > 0) {
    out.push('');
    for (const x of u.unpriced) out.push(`unpriced:   ${x.model}: ${x.reason}`);
    if (u.unpriced.some((x) => x.reason.startsWith('not in the bundled prices'))) out.push('            (add a model\'s price with --pricing FILE, a JSON object of model → {input, output, cacheRead?, cacheWrite?, cacheWrite1h?} in USD per million tokens)');
  }
  // A session counted with its other files (subagents): what each file adds, and where the cost comes from.
  const x = u.explain;
  if (x.files.length > 1) {
    const name = (f: string): string => f.replace(/\\/g, '/').split('/').pop() ?? f;
    const rows = x.files.map((f) => [`${f.role}${f.title ? ` (${f.title})` : ''}`, name(f.file), String(f.records), n(f.inputTokens), n(f.outputTokens), f.error ? `unread: ${f.error}` : usd(f.costUsd) + (f.costCoversSession ? ' (session)' : '')]);
    out.push('', ...table(['file', 'name', 'calls', 'input', 'output', 'cost'], rows));
    out.push(`cost:       ${x.cost}`);
    for (const note of x.notes) out.push(`note:       ${note}`);
  }
  if (u.byTool.length > 0) {
    const rows = u.byTool.map((x) => [x.tool, String(x.calls), String(x.errors), String(x.retries), ms(x.durationMs), ms(x.p50Ms), ms(x.p95Ms)]);
    out.push('', ...table(['tool', 'calls', 'errors', 'retries', 'time', 'p50', 'p95'], rows));
  }
  return out;
}
