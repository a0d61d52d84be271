/** The header: what the trace is (format, file, size of the run) and what the checks found. */
import type { CheckSummary, HeaderInfo } from '../src/protocol';
import { checkChips } from './checkWords';
import { costFact, originFact, sessionFilesFact, tokenFact, unpricedFact } from './headerFacts';
import { clear, el, icon } from './dom';
import { formatBytes, formatCount, formatDuration, formatInt, formatTime, plural } from './format';

/** What the header's check summaries do when clicked. */
export interface HeaderHost {
  revealLine(line: number): void;
  showChecks(): void;
  runChecks(mode: 'verify' | 'check'): void;
  /** Opens another file of the session (the header's `usage.files[index]`) in the viewer. */
  openSessionFile?(index: number): void;
  /** Opens the file of the session this one was forked from (the header's `origin`). */
  openOriginFile?(): void;
}

/** See the file comment. */
export class Header {
  readonly element = el('div', { class: 'header', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly facts = el('div', { class: 'header-facts' });
  private readonly checks = el('div', { class: 'header-checks' });
  private summaries = new Map<CheckSummary['mode'], CheckSummary>();
  private skipped: string | null = null;

  constructor(private readonly host: HeaderHost) {
    this.element.append(this.facts, this.checks);
  }

  setInfo(h: HeaderInfo): void {
    clear(this.facts);
    const chip = el('span', { class: `format-chip format-${h.format}`, text: h.format, title: `${h.formatTitle}: ${h.detectedBy} (confidence ${Math.round(h.confidence * 100)}%)` });
    const file = el('span', { class: 'file-name fact', text: h.fileName, title: `${h.filePath} · ${formatBytes(h.fileSize)}` });
    const parts: (string | HTMLElement)[] = [plural(h.events, 'event')];
    if (h.groups > 0) parts.push(plural(h.groups, h.groupNoun));
    // A narrow header shows the run's duration only (styles.css hides `.fact-start`); the tooltip has both times.
    if (h.startTime) {
      const start = formatTime(h.startTime);
      const time = h.durationMs !== null ? [el('span', { class: 'fact-start', text: `${start} · ` }), formatDuration(h.durationMs)] : [start];
      parts.push(el('span', { title: `${start} → ${formatTime(h.endTime)}` }, ...time));
    }
    // The file's other totals (cache tokens, …) are facts of their own in a wide header; a narrow one hides them
    // (styles.css) and they stay in this fact's tooltip.
    const extras = Object.entries(h.extraTotals).flatMap(([k, v]) => (v !== null && k !== 'totalTokens' && !(costFact(h) && isCostKey(k)) ? [`${humanize(k)} ${isCostKey(k) ? `$${v.toFixed(4)}` : formatInt(v)}`] : []));
    const tokens = tokenFact(h);
    if (tokens) parts.push(extras.length > 0 ? el('span', { text: tokens, title: extras.join('\n') }) : tokens);
    const cost = costFact(h);
    if (cost) parts.push(el('span', { text: cost, title: `Cost of the counted tokens: recorded in the trace, else from the price table (agentTrace.pricing adds or overrides models${h.usage?.priceSource ? `; bundled prices: ${h.usage.priceSource}` : ''}); unpriced models are never guessed.${recordedCostNote(h)}` }));
    const session = sessionFilesFact(h);
    if (session) {
      const fact = el('span', { class: 'fact-session', title: session.title }, session.text);
      // Up to three subagents get a link each to their own transcript (more: the tooltip lists them).
      const files = h.usage?.files ?? [];
      const open = this.host.openSessionFile;
      if (open && files.length <= 4) {
        files.forEach((f, index) => {
          if (index === 0 || f.error) return;
          const b = el('button', { class: 'link-button session-file', text: f.title ?? f.name, title: `Open ${f.role} transcript ${f.name}`, attrs: { type: 'button' } });
          b.addEventListener('click', () => open(index));
          fact.append(' ', b);
        });
      }
      parts.push(fact);
    }
    const origin = originFact(h);
    if (origin) {
      const fact = el('span', { class: 'fact-origin', title: origin.title }, origin.text);
      const open = this.host.openOriginFile;
      if (open && h.origin?.hasFile) {
        const b = el('button', { class: 'link-button origin-file', text: 'open origin', title: `Open the transcript of session ${h.origin.sessionId ?? ''}`, attrs: { type: 'button' } });
        b.addEventListener('click', () => open());
        fact.append(' ', b);
      }
      const first = h.origin?.inheritedLines?.first;
      if (origin.inherited && first !== undefined) {
        const b = el('button', { class: 'link-button origin-inherited', text: origin.inherited, title: `Go to line ${first}: the inherited history, shown under it (collapsed)`, attrs: { type: 'button' } });
        b.addEventListener('click', () => this.host.revealLine(first));
        fact.append(' · ', b);
      }
      parts.push(fact);
    }
    const unpriced = unpricedFact(h);
    if (unpriced) parts.push(el('span', { class: 'fact-unpriced', text: unpriced.text, title: unpriced.title }));
    if (h.toolCalls > 0) parts.push(plural(h.toolCalls, 'tool call'));
    if (h.errors > 0) parts.push(el('span', { class: 'fact-error', text: plural(h.errors, 'error') }));
    if (h.warnings > 0) parts.push(el('span', { class: 'fact-warning', text: plural(h.warnings, 'warning') }));
    if (h.malformedLines > 0) parts.push(el('span', { class: 'fact-error', text: plural(h.malformedLines, 'unparseable line') }));
    // A cost the file totals itself (Claude Code's total_cost_usd) is the cost fact's already: shown once.
    for (const text of extras) parts.push(el('span', { class: 'fact-extra', text }));
    if (h.counting) parts.push(el('span', { text: 'counting totals…', title: 'Runs, tokens, cost, tool calls, errors and warnings are counted once the first rows are shown.' }));
    if (h.partial) parts.push(el('span', { class: 'fact-warning', text: 'indexing… (first part shown)' }));
    this.facts.append(chip, file);
    for (const p of parts) this.facts.append(typeof p === 'string' ? el('span', { class: 'fact', text: p }) : (p.classList.add('fact'), p));
  }

  /** Replaces all check summaries (a new model starts from what the host still knows). */
  resetChecks(list: CheckSummary[]): void {
    this.summaries = new Map(list.map((s) => [s.mode, s]));
    this.renderChecks();
  }

  /** Checks were not run on open: a note says why, and a click runs the verification. */
  setSkipped(message: string | null): void {
    this.skipped = message;
    this.renderChecks();
  }

  setCheck(s: CheckSummary): void {
    this.summaries.set(s.mode, s);
    this.renderChecks();
  }

  private renderChecks(): void {
    clear(this.checks);
    if (this.skipped !== null && this.summaries.size === 0) {
      const note = el('button', { class: 'check-chip skipped', attrs: { type: 'button' }, title: `${this.skipped}\n\nClick to verify now.` }, icon('info'), ' checks not run (large file): Verify or Check from the toolbar');
      note.addEventListener('click', () => this.host.runChecks('verify'));
      this.checks.appendChild(note);
    }
    for (const mode of ['verify', 'check'] as const) {
      const s = this.summaries.get(mode);
      if (s) this.checks.append(...this.summaryChips(s));
    }
  }

  private summaryChips(s: CheckSummary): HTMLElement[] {
    const scope = s.mode === 'verify' && s.scope ? `\n\n${s.scope}` : '';
    return checkChips(s).map((w) => {
      const b = el('button', { class: `check-chip ${w.cls}`, attrs: { type: 'button' }, title: `${w.title}${w.line !== null ? ` Click to go to line ${w.line} and see the findings.` : ' Click to see the findings.'}${scope}` }, icon(w.iconName), ` ${w.text}`);
      b.addEventListener('click', () => {
        if (w.line !== null) this.host.revealLine(w.line);
        this.host.showChecks();
      });
      return b;
    });
  }
}

function humanize(key: string): string {
  return key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').replace(/\bUsd\b/i, 'USD').toLowerCase();
}

function isCostKey(key: string): boolean {
  return /usd/i.test(key);
}

/** The file's own cost total, when it differs from the counted cost the fact shows. */
function recordedCostNote(h: HeaderInfo): string {
  const recorded = Object.entries(h.extraTotals).find(([k, v]) => isCostKey(k) && v !== null)?.[1];
  if (recorded === undefined || recorded === null || Math.abs(recorded - (h.usage?.costUsd ?? 0)) < 0.00005) return '';
  return ` The file's own total says $${recorded.toFixed(4)}.`;
}
