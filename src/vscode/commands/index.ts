import * as vscode from 'vscode';
import { checksSkippedMessage } from './checksSkipped';
import { COMMANDS } from '../commandIds';
import { TraceViewerApi } from '../viewerApi';
import { CheckCommands, partProblems } from './checkCommands';
import { copyLinkToEvent, goToEvent, revealInViewer, showProblem, TraceUriHandler } from './navigationCommands';
import { autoChecks, recheckOnAppend } from './liveChecks';
import { followProblemSelections, TraceProblems } from './problems';
import { lineLengths, TraceModels } from '../traceModels';
import { blobSettings, ruleSettings, setting } from '../settings';

/** Registers verification, conformance and navigation commands, and the automatic check on open. */
export function registerCommands(context: vscode.ExtensionContext, viewers: TraceViewerApi, models: TraceModels): CheckCommands {
  const problems = new TraceProblems(context.extensionUri);
  const checks = new CheckCommands(models, problems, viewers);
  const reg = (id: string, f: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, f));
  reg(COMMANDS.verifyChain, (uri?: vscode.Uri, uris?: vscode.Uri[]) => checks.run('verifyChain', asUri(uri), uris));
  reg(COMMANDS.checkConformance, (uri?: vscode.Uri, uris?: vscode.Uri[]) => checks.run('checkConformance', asUri(uri), uris));
  reg(COMMANDS.verifyBlobs, (uri?: vscode.Uri, uris?: vscode.Uri[]) => checks.run('verifyBlobs', asUri(uri), uris));
  reg(COMMANDS.goToEvent, (uri?: vscode.Uri) => goToEvent(models, viewers, asUri(uri)));
  reg(COMMANDS.copyLinkToEvent, (uri?: vscode.Uri, line?: number) => copyLinkToEvent(context.extension.id, viewers, asUri(uri), typeof line === 'number' ? line : undefined));
  reg(COMMANDS.revealInViewer, () => revealInViewer(viewers));
  reg(COMMANDS.showProblem, (uri?: string, line?: number) => showProblem(viewers, uri, line));
  context.subscriptions.push(problems, vscode.window.registerUriHandler(new TraceUriHandler(viewers)), followProblemSelections(viewers, problems));

  // Files that change on disk are read again on next use.
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{jsonl,ndjson,json}');
  watcher.onDidChange((u) => models.forget(u));
  watcher.onDidDelete((u) => models.forget(u));
  context.subscriptions.push(watcher);

  context.subscriptions.push(
    // The checks on open ride along the viewer's read of the trace (TraceDocument); their results go to Problems here.
    viewers.onDidCheckOnOpen((c) => {
      problems.set(c.uri, c.mode, c.result, lineLengths(c.model));
      // A session read with its subagents: each of their files gets its own entries.
      void partProblems(problems, c.uri, c.model, c.mode, { rules: ruleSettings(), blobOptions: blobSettings() });
    }),
    viewers.onDidOpenTrace((uri) => {
      if (!setting('checkOnOpen') || uri.scheme !== 'file') return;
      void vscode.workspace.fs.stat(uri).then((st) => {
        if (!autoChecks(st.size)) viewers.showChecksSkipped?.(uri, checksSkippedMessage(st.size, setting('checkOnOpenMaxMB')));
      });
    }),
    recheckOnAppend(viewers, checks, problems),
  );
  return checks;
}

/** Commands invoked from menus get a Uri; from keybindings or other callers possibly something else. */
function asUri(x: unknown): vscode.Uri | undefined {
  return x instanceof vscode.Uri ? x : undefined;
}
