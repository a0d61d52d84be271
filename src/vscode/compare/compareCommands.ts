import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import type { TraceModels } from '../traceModels';
import type { TraceViewerApi } from '../viewerApi';
import { ComparePanel } from './comparePanel';

/** The context key that shows "Compare with Selected" once a trace is selected (as VS Code's own file compare). */
export const COMPARE_SELECTED_KEY = 'agentTrace.compareSelected';
const TRACE_GLOB = '**/*.{jsonl,ndjson,otlp.json,events.json,jsonl.gz,ndjson.gz}';

/** The file of the active editor tab (the viewer or a text editor). */
function activeTrace(viewers: TraceViewerApi): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  return viewers.activeUri();
}

/** A quick pick of the workspace's trace files, `exclude` left out. */
async function pickTrace(title: string, exclude?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const files = (await vscode.workspace.findFiles(TRACE_GLOB, '**/node_modules/**', 2000)).filter((u) => u.toString() !== exclude?.toString());
  if (files.length === 0) {
    void vscode.window.showInformationMessage('No trace files (.jsonl, .ndjson, .otlp.json) in the workspace.');
    return undefined;
  }
  const items = files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }));
  items.sort((x, y) => x.label.localeCompare(y.label));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Trace file', matchOnDescription: true }))?.uri;
}

/** Registers Select for Compare, Compare with Selected and Compare with…. */
export function registerCompareCommands(context: vscode.ExtensionContext, models: TraceModels, viewers: TraceViewerApi): void {
  let selected: vscode.Uri | undefined;
  const open = (a: vscode.Uri, b: vscode.Uri) => ComparePanel.open(context.extensionUri, a, b, models, viewers);
  const asUri = (x: unknown) => (x instanceof vscode.Uri ? x : undefined);
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.selectForCompare, async (uri?: unknown) => {
      selected = asUri(uri) ?? activeTrace(viewers);
      await vscode.commands.executeCommand('setContext', COMPARE_SELECTED_KEY, selected !== undefined);
    }),
    vscode.commands.registerCommand(COMMANDS.compareWithSelected, async (uri?: unknown) => {
      const b = asUri(uri) ?? activeTrace(viewers);
      if (!selected) return void vscode.window.showInformationMessage('Select a trace for compare first (Explorer: Select for Compare).');
      if (!b) return;
      open(selected, b);
    }),
    vscode.commands.registerCommand(COMMANDS.compareWith, async (uri?: unknown) => {
      const a = asUri(uri) ?? activeTrace(viewers) ?? (await pickTrace('Compare: first trace (A)'));
      if (!a) return;
      const b = await pickTrace(`Compare ${vscode.workspace.asRelativePath(a)} with…`, a);
      if (b) open(a, b);
    }),
  );
}
