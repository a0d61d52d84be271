/** The Checks list: loader diagnostics and verification/conformance findings; a click reveals the event. */
import type { CheckSummary, FindingView } from '../src/protocol';
import type { CheckMode } from '../src/core/catalog/checkMode';
import { clear, el, icon, iconButton } from './dom';
import { formatInt } from './format';
import { checkShort } from './checkWords';

const MAX_SHOWN = 1000;
const CAUSE_TITLES: Record<NonNullable<FindingView['cause']>, string> = { chain: 'Chain', sequence: 'Sequence', structure: 'Lines and links', content: 'Blobs' };
const CAUSE_ORDER: Record<NonNullable<FindingView['cause']>, number> = { chain: 0, sequence: 1, structure: 2, content: 3 };

/** Verification findings by cause (chain, sequence, lines and links, blobs), by line within each. */
function byCause(findings: FindingView[]): FindingView[] {
  return [...findings].sort((a, b) => CAUSE_ORDER[a.cause ?? 'structure'] - CAUSE_ORDER[b.cause ?? 'structure'] || a.line - b.line);
}
type Source = FindingView['source'];
const TITLES: Record<Source, string> = { load: 'While reading', verify: 'Verification', check: 'Conformance' };

/** See the file comment. */
export class ChecksPanel {
  readonly element = el('section', { class: 'checks-panel', attrs: { 'aria-label': 'Checks' } });
  private readonly list = el('div', { class: 'checks-list', attrs: { role: 'list' } });
  private readonly title = el('span', { class: 'checks-title', text: 'Checks' });
  private readonly groups = new Map<Source, { findings: FindingView[]; summary?: CheckSummary }>();

  constructor(private readonly reveal: (line: number) => void, close: () => void, private readonly run: (mode: CheckMode) => void) {
    this.element.hidden = true;
    this.element.append(
      el(
        'div',
        { class: 'checks-header' },
        this.title,
        iconButton('verified', 'Verify Chain', () => this.run('verify')),
        iconButton('law', 'Check Conformance', () => this.run('check')),
        iconButton('close', 'Hide Checks', close),
      ),
      this.list,
    );
  }

  setLoad(findings: FindingView[]): void {
    this.groups.set('load', { findings });
    this.render();
  }
  setResult(summary: CheckSummary, findings: FindingView[]): void {
    this.groups.set(summary.mode, { findings, summary });
    this.render();
  }
  clearResults(): void {
    this.groups.delete('verify');
    this.groups.delete('check');
    this.render();
  }

  /** Errors and warnings over every group (for the toolbar's count). */
  counts(): { errors: number; warnings: number } {
    let errors = 0;
    let warnings = 0;
    for (const source of this.groups.keys()) for (const f of this.shown(source)) f.severity === 'error' ? errors++ : f.severity === 'warning' ? warnings++ : 0;
    return { errors, warnings };
  }

  /**
   * A group's findings as listed: conformance runs the verification rules too, so a finding verification already
   * lists (same rule, line and message: `lumen/truncated` at the last line) is listed there only, not twice.
   */
  private shown(source: Source): FindingView[] {
    const g = this.groups.get(source);
    if (!g) return [];
    const verify = source === 'check' ? this.groups.get('verify') : undefined;
    if (!verify || verify.findings.length === 0) return g.findings;
    const listed = new Set(verify.findings.map((f) => `${f.rule}\u0000${f.line}\u0000${f.message}`));
    return g.findings.filter((f) => !listed.has(`${f.rule}\u0000${f.line}\u0000${f.message}`));
  }

  private render(): void {
    clear(this.list);
    const { errors, warnings } = this.counts();
    this.title.textContent = `Checks: ${formatInt(errors)} error${errors === 1 ? '' : 's'}, ${formatInt(warnings)} warning${warnings === 1 ? '' : 's'}`;
    let any = false;
    for (const source of ['verify', 'check', 'load'] as const) {
      const g = this.groups.get(source);
      if (!g || (g.findings.length === 0 && !g.summary)) continue;
      any = true;
      const head = el('div', { class: 'checks-group-title' }, el('span', { text: TITLES[source] }));
      if (g.summary) {
        const short = checkShort(g.summary);
        head.appendChild(el('span', { class: `checks-group-summary ${short.cls}`, text: short.text }));
      }
      this.list.appendChild(head);
      if (g.summary?.scope) this.list.appendChild(el('p', { class: 'checks-scope', text: g.summary.scope }));
      const findings = this.shown(source);
      this.appendItems(source === 'verify' ? byCause(findings) : findings);
      if (findings.length > MAX_SHOWN) this.list.appendChild(el('p', { class: 'empty-note', text: `… and ${formatInt(findings.length - MAX_SHOWN)} more (the Problems panel and the CLI list all of them).` }));
      const twice = g.findings.length - findings.length;
      if (twice > 0) this.list.appendChild(el('p', { class: 'empty-note', text: `${formatInt(twice)} more listed under Verification.` }));
    }
    if (!any) this.list.appendChild(el('p', { class: 'empty-note', text: 'No findings yet. Run Verify Chain or Check Conformance.' }));
  }

  /** Findings, each cause under its own subtitle (so 3 parse errors do not drown among 109 missing blobs). */
  private appendItems(findings: FindingView[]): void {
    let cause: FindingView['cause'] | null = null;
    const counts = new Map<FindingView['cause'], number>();
    for (const f of findings) counts.set(f.cause, (counts.get(f.cause) ?? 0) + 1);
    for (const f of findings.slice(0, MAX_SHOWN)) {
      if (f.cause && f.cause !== cause && counts.size > 1) this.list.appendChild(el('div', { class: 'checks-cause-title', text: `${CAUSE_TITLES[f.cause]}: ${formatInt(counts.get(f.cause) ?? 0)} finding${counts.get(f.cause) === 1 ? '' : 's'}` }));
      cause = f.cause;
      this.list.appendChild(this.item(f));
    }
  }

  private item(f: FindingView): HTMLElement {
    const b = el(
      'button',
      { class: `finding-item severity-${f.severity}`, attrs: { type: 'button', role: 'listitem' }, title: `${f.rule} (line ${f.line})` },
      icon(f.severity === 'info' ? 'info' : f.severity),
      el('span', { class: 'finding-line', text: `line ${formatInt(f.line)}` }),
      el('code', { class: 'finding-rule', text: f.rule }),
      el('span', { class: 'finding-message', text: f.message }),
    );
    b.addEventListener('click', () => this.reveal(f.line));
    return b;
  }
}
