/**
 * What the viewer knows about problems in a trace: the loader's diagnostics and the latest verification and
 * conformance results, placed on events by line. Feeds the row badges, the Checks list, the header and the
 * detail pane. vscode-free.
 */
import type { CheckResult } from '../core/checks/runChecks';
import type { CheckMode } from '../core/rules/types';
import type { TraceModel } from '../core/loadTrace';
import type { Finding, Severity } from '../core/model';
import type { CheckSummary, FindingView } from '../protocol';
import { nodeAtLine } from './traceRows';
import { formatModule } from '../core/formats';
import { integrityOf } from './integritySummary';
import { integrityKindOf } from '../core/checks/integrityKind';

type Mode = CheckMode;
const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

/** Findings by source, with a per-line worst severity for badges. */
export class FindingsState {
  private load: FindingView[] = [];
  private readonly results = new Map<Mode, { result: CheckResult; summary: CheckSummary; views: FindingView[] }>();
  private badges = new Map<number, Severity>();
  private model: TraceModel | null = null;
  /**
   * The findings of each other file of a session read with its parts (TraceModel.parts), by part: the loader's
   * findings of that file read alone, on its own lines (the main file's checks never judge them).
   */
  private partFindings = new Map<number, FindingView[]>();
  private partBadges = new Map<number, Map<number, Severity>>();

  /** Takes a new model: loader diagnostics are replaced, check findings are re-placed by line. */
  setModel(model: TraceModel): void {
    this.model = model;
    this.load = model.diagnostics.map((f) => this.view(f, 'load'));
    this.partFindings = new Map();
    this.partBadges = new Map();
    model.parts?.forEach((p, k) => {
      if (k === 0 || !p.model) return;
      const views = p.model.diagnostics.map((f) => this.view(f, 'load', k));
      const badges = new Map<number, Severity>();
      for (const f of views) if (f.severity !== 'info' && (!badges.has(f.line) || RANK[f.severity] > RANK[badges.get(f.line)!])) badges.set(f.line, f.severity);
      this.partFindings.set(k, views);
      this.partBadges.set(k, badges);
    });
    for (const [mode, r] of this.results) r.views = r.result.findings.map((f) => this.view(f, mode));
    this.rebuildBadges();
  }

  /** Records a check run's result (replacing the previous one of the same mode). */
  setResult(mode: Mode, result: CheckResult): CheckSummary {
    const summary = summarizeResult(mode, result);
    this.results.set(mode, { result, summary, views: result.findings.map((f) => this.view(f, mode)) });
    this.rebuildBadges();
    return summary;
  }

  /** Marks every result outdated (events were appended after the checks ran); the modes marked are returned. */
  markStale(): Mode[] {
    for (const r of this.results.values()) r.summary = { ...r.summary, stale: true };
    return [...this.results.keys()];
  }

  /** Forgets check results (the file was rewritten, so their lines no longer mean the same thing). */
  clearResults(): void {
    this.results.clear();
    this.rebuildBadges();
  }

  /** The worst finding on a line of the trace's file, or of a session part's (`part`, TraceModel.parts). */
  badgeOfLine(line: number, part = 0): Severity | undefined {
    return part === 0 ? this.badges.get(line) : this.partBadges.get(part)?.get(line);
  }
  summaries(): CheckSummary[] {
    return [...this.results.values()].map((r) => r.summary);
  }
  /** The latest result of a mode, with findings placed on the current model. */
  resultOf(mode: Mode): { summary: CheckSummary; findings: FindingView[] } | undefined {
    const r = this.results.get(mode);
    return r && { summary: r.summary, findings: r.views };
  }
  /** Loader findings, minus those a check result already lists. */
  loadFindings(): FindingView[] {
    const shown = new Set<string>();
    for (const r of this.results.values()) for (const f of r.views) shown.add(key(f));
    return this.load.filter((f) => !shown.has(key(f)));
  }
  /** Every finding on a line (of a session part's file when `part` is given), loader diagnostics first, without duplicates. */
  atLine(line: number, part = 0): FindingView[] {
    if (part !== 0) return (this.partFindings.get(part) ?? []).filter((f) => f.line === line);
    const out: FindingView[] = [];
    const seen = new Set<string>();
    for (const f of [...this.load, ...[...this.results.values()].flatMap((r) => r.views)]) {
      if (f.line !== line || seen.has(key(f))) continue;
      seen.add(key(f));
      out.push(f);
    }
    return out;
  }

  private view(f: Finding, source: FindingView['source'], part = 0): FindingView {
    const v: FindingView = { rule: f.rule, severity: f.severity, line: f.line, message: f.message, node: this.model ? nodeAtLine(this.model, f.line, part) : null, source };
    if (f.seq !== undefined) v.seq = f.seq;
    if (f.eventId !== undefined) v.eventId = f.eventId;
    if (source === 'verify') v.cause = integrityKindOf(f.rule);
    return v;
  }

  private rebuildBadges(): void {
    const b = new Map<number, Severity>();
    const add = (f: FindingView) => {
      if (f.severity === 'info') return;
      const cur = b.get(f.line);
      if (!cur || RANK[f.severity] > RANK[cur]) b.set(f.line, f.severity);
    };
    this.load.forEach(add);
    for (const r of this.results.values()) r.views.forEach(add);
    this.badges = b;
  }
}

function key(f: FindingView): string {
  return `${f.rule}\u0000${f.line}\u0000${f.message}`;
}

/** Counts a result's findings by severity and finds where it first breaks. */
export function summarizeResult(mode: Mode, result: CheckResult): CheckSummary {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let firstErrorLine: number | null = null;
  for (const f of result.findings) {
    if (f.severity === 'error') {
      errors++;
      if (firstErrorLine === null || f.line < firstErrorLine) firstErrorLine = f.line;
    } else if (f.severity === 'warning') warnings++;
    else infos++;
  }
  const summary: CheckSummary = { mode, ok: result.ok, checked: result.checked, errors, warnings, infos, firstErrorLine, cancelled: result.cancelled === true };
  if (mode === 'verify') {
    summary.scope = formatModule(result.format).verificationScope;
    summary.integrity = integrityOf(result);
  }
  return summary;
}
