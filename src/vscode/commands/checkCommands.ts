import * as vscode from 'vscode';
import { CheckResult, RuleSetting } from '../../core/checks/runChecks';
import { integrityKindsOf, runChecks } from '../../core/formatRules';
import { CheckMode } from '../../core/rules/types';
import { expandTraceArgs } from '../../core/traceFiles';
import { TraceViewerApi } from '../viewerApi';
import { TraceProblems } from './problems';
import { lineLengths, TraceModels } from '../traceModels';
import { IntegrityKind, integrityKindOf } from '../../core/checks/integrityKind';
import { blobSettings, ruleSettings } from '../settings';
import type { TraceModel } from '../../core/traceModel';
import { checkSessionParts } from '../../core/sessionParts';
import type { RunOptions } from '../../core/checks/runChecks';

/**
 * The Problems entries of the other files of a session the viewer read with its trace (TraceModel.parts: a
 * subagent's transcript), each checked as a file of its own: its findings go on its own lines.
 */
export async function partProblems(problems: TraceProblems, trace: vscode.Uri, model: TraceModel, mode: CheckMode, options: RunOptions): Promise<void> {
  for (const p of await checkSessionParts(model, mode, options)) {
    const uri = trace.scheme === 'file' ? vscode.Uri.file(p.path) : trace.with({ path: p.path.replace(/\\/g, '/') });
    problems.set(uri, mode, p.result, lineLengths(model.parts![p.part].model!));
  }
}

/** What a verification's first error is, by cause: a missing blob is not a broken chain. */
const VERIFY_CAUSE: Record<IntegrityKind, string> = { chain: 'Broken', sequence: 'Sequence gap', content: 'Blob problem', structure: 'Error' };

/** The three check commands: what they run and what they say. */
const KINDS = {
  verifyChain: { mode: 'verify' as CheckMode, title: 'Verifying chain', rulePrefix: undefined as string | undefined },
  checkConformance: { mode: 'check' as CheckMode, title: 'Checking conformance', rulePrefix: undefined },
  verifyBlobs: { mode: 'verify' as CheckMode, title: 'Verifying blobs', rulePrefix: 'blob/' },
};
export type CheckCommandKind = keyof typeof KINDS;

/** Runs verify/check over files, puts findings in the Problems panel and the viewers, and reports. */
export class CheckCommands {
  constructor(
    private readonly models: TraceModels,
    private readonly problems: TraceProblems,
    private readonly viewers: TraceViewerApi,
  ) {}

  /** Command entry: from the palette (active trace), the editor title or the Explorer (files and folders). */
  async run(kind: CheckCommandKind, uri?: vscode.Uri, uris?: vscode.Uri[]): Promise<CheckResult[]> {
    const targets = await this.targets(uri, uris);
    if (targets.length === 0) {
      void vscode.window.showWarningMessage('Agent Trace: open a trace (or select trace files in the Explorer) first.');
      return [];
    }
    const { mode, title, rulePrefix } = KINDS[kind];
    const results: CheckResult[] = [];
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Agent Trace: ${title}`, cancellable: true },
      async (progress, token) => {
        for (const [n, target] of targets.entries()) {
          if (token.isCancellationRequested) break;
          progress.report({ message: `${vscode.workspace.asRelativePath(target)} (${n + 1}/${targets.length})`, increment: 100 / targets.length });
          const r = await this.runOne(target, mode, rulePrefix, () => token.isCancellationRequested);
          if (r) results.push(r);
        }
      },
    );
    // The notification is not awaited: callers (other commands, tests) get the results at once.
    void this.report(kind, mode, results);
    return results;
  }

  /** Runs one file quietly (used when a trace opens); errors become a message, never an exception. */
  async runOne(uri: vscode.Uri, mode: CheckMode, rulePrefix?: string, isCancelled?: () => boolean): Promise<CheckResult | undefined> {
    return (await this.runModes(uri, [mode], rulePrefix, isCancelled)).get(mode);
  }

  /**
   * Runs several modes over the model the viewer or the cache already holds (a file open in the viewer is not read
   * again for its model), each result shown as soon as it exists. The checks on open do not come here: they ride
   * along the viewer's own read (TraceDocument).
   */
  async runModes(uri: vscode.Uri, modes: CheckMode[], rulePrefix?: string, isCancelled?: () => boolean): Promise<Map<CheckMode, CheckResult>> {
    const done = new Map<CheckMode, CheckResult>();
    try {
      const model = await this.models.get(uri);
      const ruleFilter = rulePrefix !== undefined ? (rule: string) => rule.startsWith(rulePrefix) : undefined;
      const lengths = lineLengths(model);
      for (const mode of modes) {
        const result = await runChecks(model, mode, { rules: ruleSettings(), isCancelled, ruleFilter, blobOptions: blobSettings() });
        if (result.cancelled) break;
        done.set(mode, result);
        this.problems.set(uri, mode, result, lengths);
        this.viewers.showCheckResults(uri, mode, result);
        await partProblems(this.problems, uri, model, mode, { rules: ruleSettings(), isCancelled, ruleFilter, blobOptions: blobSettings() });
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`Agent Trace: cannot read ${vscode.workspace.asRelativePath(uri)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return done;
  }

  private async targets(uri?: vscode.Uri, uris?: vscode.Uri[]): Promise<vscode.Uri[]> {
    const picked = uris && uris.length > 0 ? uris : uri ? [uri] : [];
    if (picked.length === 0) {
      const active = this.viewers.activeUri() ?? vscode.window.activeTextEditor?.document.uri;
      if (active && active.scheme === 'file') picked.push(active);
    }
    const files = await expandTraceArgs(picked.filter((u) => u.scheme === 'file').map((u) => u.fsPath));
    return files.map((f) => vscode.Uri.file(f));
  }

  private async report(kind: CheckCommandKind, mode: CheckMode, results: CheckResult[]): Promise<void> {
    if (results.length === 0) return;
    const broken = results.filter((r) => !r.ok);
    const first = broken[0]?.findings.find((f) => f.severity === 'error');
    let text: string;
    if (results.length === 1) {
      const r = results[0];
      const errors = r.findings.filter((f) => f.severity === 'error').length;
      if (mode === 'verify') text = r.ok ? `${kind === 'verifyBlobs' ? 'Blobs intact' : integrityKindsOf(r.format).has('chain') ? 'Chain intact' : 'Verified'}: ${r.checked} events (${r.format}).` : `${VERIFY_CAUSE[integrityKindOf(first!.rule)]} at line ${first!.line}: ${first!.message}`;
      else text = `${r.findings.length} finding${r.findings.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}) in ${r.checked} events (${r.format}).`;
    } else text = `${results.length} traces: ${results.length - broken.length} ok, ${broken.length} with errors.`;
    const action = first ? (mode === 'verify' ? 'Show First Break' : 'Show First Error') : undefined;
    const show = broken.length > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(`Agent Trace: ${text}`, ...(action ? [action] : []));
    if (choice && first) await this.reveal(vscode.Uri.file(broken[0].file), first.line);
  }

  /** Reveals a line: in the trace viewer when one shows the file, else in the text editor. */
  async reveal(uri: vscode.Uri, line: number): Promise<void> {
    if (await this.viewers.revealLine(uri, line)) return;
    const pos = new vscode.Position(Math.max(0, line - 1), 0);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: false });
  }
}
