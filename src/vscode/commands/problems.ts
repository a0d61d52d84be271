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

  /** Diagnostics currently shown for a file (both modes). */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return [...(this.collections.verify.get(uri) ?? []), ...(this.collections.check.get(uri) ?? [])];
  }

  dispose(): void {
    this.collections.verify.dispose();
    this.collections.check.dispose();
  }
}
