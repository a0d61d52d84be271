/**
 * What the status bar item of the active trace viewer says: format, events, the selected event's line and the
 * verdict of the last checks, with an icon for each and the tone of its background (a failed verdict is an error
 * or warning background, from the theme). vscode-free: the adapter is src/vscode/editor/statusBar.ts.
 */
import type { CheckResult } from '../core/checks/runChecks';
import type { CheckMode } from '../core/rules/types';

/** What the item is made from. */
export interface StatusFacts {
  format: string;
  events: number;
  /** The selected event's line, when one is selected (of this file). */
  selectedLine: number | null;
  /** The latest result of each mode that ran, and whether it predates an append. */
  checks: { mode: CheckMode; result: CheckResult; stale: boolean }[];
  /** The model is still being read. */
  loading?: boolean;
}

/** The item's text (with codicons), tooltip and background tone. */
export interface StatusText {
  text: string;
  tooltip: string;
  tone: 'error' | 'warning' | null;
}

const MODE_WORD: Record<CheckMode, string> = { verify: 'Verification', check: 'Conformance' };

/** Shapes the item; see the file comment. */
export function statusBarText(f: StatusFacts): StatusText {
  const events = `${f.events.toLocaleString('en-US')} event${f.events === 1 ? '' : 's'}`;
  const parts = [`$(list-tree) ${f.format}`, f.loading ? `$(loading~spin) ${events}` : events];
  if (f.selectedLine !== null) parts.push(`Ln ${f.selectedLine}`);
  const tips = [`Agent Trace Viewer: ${f.format}, ${events}${f.loading ? ' (reading…)' : ''}`];
  if (f.selectedLine !== null) tips.push(`Selected event on line ${f.selectedLine}`);
  let errors = 0;
  let warnings = 0;
  let stale = false;
  for (const c of f.checks) {
    const e = c.result.findings.filter((x) => x.severity === 'error').length;
    const w = c.result.findings.filter((x) => x.severity === 'warning').length;
    errors += e;
    warnings += w;
    stale ||= c.stale;
    tips.push(`${MODE_WORD[c.mode]}: ${e === 0 && w === 0 ? 'no findings' : counts(e, w)}${c.stale ? ' (outdated: the trace grew since)' : ''}`);
  }
  let tone: StatusText['tone'] = null;
  if (f.checks.length === 0) {
    parts.push('$(circle-large-outline) not checked');
    tips.push('Not checked yet.');
  } else if (errors > 0) {
    parts.push(`$(error) ${counts(errors, warnings)}`);
    tone = 'error';
  } else if (warnings > 0) {
    parts.push(`$(warning) ${counts(0, warnings)}`);
    tone = 'warning';
  } else parts.push(f.checks.some((c) => c.mode === 'verify') ? '$(pass) verified' : '$(pass) no findings');
  if (stale) parts[parts.length - 1] += ' (outdated)';
  tips.push('Click to verify the trace.');
  return { text: parts.join(' · '), tooltip: tips.join('\n'), tone };
}

function counts(errors: number, warnings: number): string {
  const out: string[] = [];
  if (errors > 0) out.push(`${errors} error${errors === 1 ? '' : 's'}`);
  if (warnings > 0) out.push(`${warnings} warning${warnings === 1 ? '' : 's'}`);
  return out.join(', ');
}
