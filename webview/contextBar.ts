/**
 * "What the model saw" in the detail pane of a model step (issue 37 item 4): the call's context as a stacked bar
 * (read from the prompt cache, written to it, new input), the numbers beside it, the change since the previous call
 * of its thread and the compactions before it. The bar is an image with a text alternative; the legend repeats every
 * number as text, so nothing is said by colour alone.
 */
import type { ContextCall } from '../src/core/usage/contextTypes';
import { el } from './dom';
import { formatInt } from './format';

const pct = (part: number, whole: number): string => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10}%` : '0%');
const signed = (v: number): string => (v > 0 ? `+${formatInt(v)}` : v < 0 ? `−${formatInt(-v)}` : '±0');

/** The context section of a model step's detail. */
export function renderContext(c: ContextCall): HTMLElement {
  const parts: { key: string; name: string; value: number }[] = c.split
    ? [
        { key: 'read', name: 'Cache read', value: c.cacheRead },
        { key: 'write', name: c.cacheWrite1h !== null ? `Cache write (5 min ${formatInt(c.cacheWrite - c.cacheWrite1h)} · 1 h ${formatInt(c.cacheWrite1h)})` : 'Cache write', value: c.cacheWrite },
        { key: 'new', name: 'New input (not cached)', value: c.uncached },
      ]
    : [{ key: 'unknown', name: 'Input (the trace does not say what was cached)', value: c.total }];
  const alt = `Context ${formatInt(c.total)} tokens: ${parts.map((p) => `${p.name.toLowerCase()} ${formatInt(p.value)} (${pct(p.value, c.total)})`).join(', ')}`;
  const bar = el('div', { class: 'context-bar', attrs: { role: 'img', 'aria-label': alt, title: alt } });
  for (const p of parts) {
    if (p.value <= 0) continue;
    const seg = el('span', { class: `context-seg context-${p.key}` });
    seg.style.width = pct(p.value, c.total);
    bar.appendChild(seg);
  }
  const legend = el('dl', { class: 'context-legend' });
  for (const p of parts) {
    legend.append(
      el('dt', {}, el('span', { class: `context-swatch context-${p.key}`, attrs: { 'aria-hidden': 'true' } }), p.name),
      el('dd', { text: `${formatInt(p.value)} (${pct(p.value, c.total)})` }),
    );
  }
  const head = `Context: ${formatInt(c.total)} tokens · call ${formatInt(c.ordinal)} of ${formatInt(c.ofThread)} in its ${c.via >= 0 ? 'subagent thread' : 'thread'}`;
  const change = c.delta === null ? 'First call of its thread.' : `${signed(c.delta)} tokens since the previous call.`;
  const box = el('section', { class: 'detail-context', attrs: { 'aria-label': 'What the model saw' } },
    el('h4', { class: 'context-title', text: 'What the model saw' }),
    el('p', { class: 'context-head', text: head }),
    bar,
    legend,
    el('p', { class: 'context-delta', text: change }),
  );
  for (const k of c.compactedBefore) {
    const before = k.preTokens !== null ? ` (${formatInt(k.preTokens)} tokens before it)` : '';
    box.appendChild(el('p', { class: 'context-compaction', text: `Compacted${k.trigger ? ` (${k.trigger})` : ''} at line ${formatInt(k.line)} before this call${before}; the context now is ${formatInt(c.total)} tokens.` }));
  }
  return box;
}
