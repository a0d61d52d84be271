import * as vscode from 'vscode';
import { CheckResult } from '../../core/checks/runChecks';
import { ruleAnchor } from '../../core/checks/rulesDoc';
import { CheckMode } from '../../core/checks/types';
import { Severity } from '../../core/model';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** Appended to findings of a check that ran before the trace grew. */
export const STALE_NOTE = ' (outdated: the trace grew after this check; run it again)';

function withMessage(d: vscode.Diagnostic, message: string): vscode.Diagnostic {
  const n = new vscode.Diagnostic(d.range, message, d.severity);
  n.source = d.source;
  n.code = d.code;
  return n;
}

/** The Problems panel entries of verification and conformance, one collection each so one never clears the other. */
export class TraceProblems implements vscode.Disposable {
  private readonly collections: Record<CheckMode, vscode.DiagnosticCollection>;

  constructor(private readonly extensionUri: vscode.Uri) {
    this.collections = {
      verify: vscode.languages.createDiagnosticCollection('agent-trace-verify'),
      check: vscode.languages.createDiagnosticCollection('agent-trace-check'),
    };
  }

  /** Replaces the diagnostics of one file for one mode. `lineLength` gives each line's length for the range. */
  set(uri: vscode.Uri, mode: CheckMode, result: CheckResult, lineLength: (line: number) => number): void {
    const source = mode === 'verify' ? 'Agent Trace: Verify' : 'Agent Trace: Check';
    const diagnostics = result.findings.map((f) => {
      const line = Math.max(0, f.line - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Math.max(1, lineLength(f.line))), f.message, SEVERITY[f.severity]);
      d.source = source;
      d.code = {
        value: f.rule,
        target: vscode.Uri.joinPath(this.extensionUri, 'docs', 'rules.md').with({ fragment: ruleAnchor(f.rule) }),
      };
      return d;
    });
    this.collections[mode].set(uri, diagnostics);
  }

  /**
   * Says in every diagnostic of a file that it predates the last append (the checks were not run again,
   * e.g. the trace is over the check-on-open size): the cause stays first, the note comes after.
   */
  markStale(uri: vscode.Uri): void {
    for (const c of Object.values(this.collections)) {
      const old = c.get(uri);
      if (!old || old.length === 0) continue;
      c.set(uri, old.map((d) => (d.message.endsWith(STALE_NOTE) ? d : withMessage(d, `${d.message}${STALE_NOTE}`))));
    }
  }

  /** Diagnostics currently shown for a file (both modes). */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return [...(this.collections.verify.get(uri) ?? []), ...(this.collections.check.get(uri) ?? [])];
  }

  dispose(): void {
    this.collections.verify.dispose();
    this.collections.check.dispose();
  }
}
