import * as vscode from 'vscode';
import { CheckResult } from '../../core/checks/runChecks';
import { readFileSync } from 'node:fs';
import { COMMANDS } from '../commandIds';
import { CheckMode } from '../../core/rules/types';
import { Severity } from '../../core/model';
import type { TraceViewerApi } from '../viewerApi';

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
  n.relatedInformation = d.relatedInformation;
  return n;
}

/** The command link that reveals the event at `line` of `trace` in the viewer (a diagnostic's code target). */
export function showProblemUri(trace: vscode.Uri, line: number): vscode.Uri {
  return vscode.Uri.parse(`command:${COMMANDS.showProblem}?${encodeURIComponent(JSON.stringify([trace.toString(), line]))}`);
}

/**
 * A click on a Problems row (not on its rule code) opens the file's default editor. For a trace whose default is the
 * viewer VS Code hands the custom editor no line (microsoft/vscode#94037): the rule code's link is the way to the
 * event there. For a trace shown as text, the row lands the text editor's selection on the finding's range; when the
 * trace is open in the viewer too, the viewer's selection follows to that event (without taking the focus). So does
 * Go to Next Problem (F8), which selects the same range.
 */
export function followProblemSelections(viewers: TraceViewerApi, problems: TraceProblems): vscode.Disposable {
  return vscode.window.onDidChangeTextEditorSelection((e) => {
    if (e.selections.length !== 1 || !viewers.selectLine) return;
    const sel = e.selections[0];
    const uri = e.textEditor.document.uri;
    const at = (a: vscode.Position, b: vscode.Position) => a.line === b.line && a.character === b.character;
    const hit = problems.get(uri).find((d) => at(d.range.start, sel.start) && (at(d.range.end, sel.end) || at(sel.start, sel.end)));
    if (hit) viewers.selectLine(uri, hit.range.start.line + 1);
  });
}

/** Line of each `## rule` heading of the generated rules document. */
export function ruleHeadingLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  text.split('\n').forEach((l, i) => {
    if (l.startsWith('## ')) out.set(l.slice(3).trim(), i);
  });
  return out;
}

function readDocs(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** What makes two diagnostics one finding: rule, line and message (the stale note aside). */
function findingKey(d: vscode.Diagnostic): string {
  const rule = typeof d.code === 'object' && d.code !== null ? String(d.code.value) : String(d.code);
  const message = d.message.endsWith(STALE_NOTE) ? d.message.slice(0, -STALE_NOTE.length) : d.message;
  return `${rule}\u0000${d.range.start.line}\u0000${message}`;
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

  /** Each file's conformance diagnostics before those verification already lists were taken out (see {@link set}). */
  private readonly checkAll = new Map<string, vscode.Diagnostic[]>();

  /**
   * Replaces the diagnostics of one file for one mode. `lineLength` gives each line's length for the range.
   * Conformance runs the verification rules too: a finding both results hold (`lumen/truncated` at the last line)
   * is listed once, under verification, not twice.
   */
  set(uri: vscode.Uri, mode: CheckMode, result: CheckResult, lineLength: (line: number) => number): void {
    const source = mode === 'verify' ? 'Agent Trace: Verify' : 'Agent Trace: Check';
    const diagnostics = result.findings.map((f) => {
      const line = Math.max(0, f.line - 1);
      const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, Math.max(1, lineLength(f.line))), f.message, SEVERITY[f.severity]);
      d.source = source;
      // VS Code gives a custom editor no selection when the Problems panel opens it (microsoft/vscode#94037),
      // so a click on the row cannot pick the event. The rule code is a link VS Code opens with commands
      // allowed: it reveals the event in the viewer. The rule's documentation stays one click away, as the
      // related-information row under the finding.
      d.code = { value: f.rule, target: showProblemUri(uri, f.line) };
      d.relatedInformation = [this.ruleDoc(f.rule)];
      return d;
    });
    if (mode === 'check') this.checkAll.set(uri.toString(), diagnostics);
    else this.collections.verify.set(uri, diagnostics);
    const all = this.checkAll.get(uri.toString());
    if (all) {
      const listed = new Set((this.collections.verify.get(uri) ?? []).map(findingKey));
      this.collections.check.set(uri, all.filter((d) => !listed.has(findingKey(d))));
    }
  }

  /**
   * Says in every diagnostic of a file that it predates the last append (the checks were not run again,
   * e.g. the trace is over the check-on-open size): the cause stays first, the note comes after.
   */
  markStale(uri: vscode.Uri): void {
    const all = this.checkAll.get(uri.toString());
    if (all) this.checkAll.set(uri.toString(), all.map((d) => (d.message.endsWith(STALE_NOTE) ? d : withMessage(d, `${d.message}${STALE_NOTE}`))));
    for (const c of Object.values(this.collections)) {
      const old = c.get(uri);
      if (!old || old.length === 0) continue;
      c.set(uri, old.map((d) => (d.message.endsWith(STALE_NOTE) ? d : withMessage(d, `${d.message}${STALE_NOTE}`))));
    }
  }

  private ruleDoc(rule: string): vscode.DiagnosticRelatedInformation {
    const docs = vscode.Uri.joinPath(this.extensionUri, 'docs', 'rules.md');
    const line = this.ruleLines().get(rule) ?? 0;
    return new vscode.DiagnosticRelatedInformation(new vscode.Location(docs, new vscode.Position(line, 0)), `About ${rule} (rule documentation)`);
  }

  /** The 0-based line of each rule's heading in docs/rules.md, read once. */
  private ruleLines(): Map<string, number> {
    if (!this.ruleLineCache) this.ruleLineCache = ruleHeadingLines(readDocs(vscode.Uri.joinPath(this.extensionUri, 'docs', 'rules.md').fsPath));
    return this.ruleLineCache;
  }
  private ruleLineCache: Map<string, number> | undefined;

  /** Diagnostics currently shown for a file (both modes). */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return [...(this.collections.verify.get(uri) ?? []), ...(this.collections.check.get(uri) ?? [])];
  }

  dispose(): void {
    this.checkAll.clear();
    this.collections.verify.dispose();
    this.collections.check.dispose();
  }
}
