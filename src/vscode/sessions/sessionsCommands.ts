/**
 * The Agent Traces view's registration: the tree view over ./sessionsView.ts's provider, its Refresh, and the rows'
 * context actions (Open, Reveal, Copy Path, Verify All and Check All, Compare, Export), each through the house's own
 * commands; the view lists again when its settings, the workspace folders or the workspace's trust change.
 */
import * as vscode from 'vscode';
import { sessionsUnder, SessionLeafNode, SessionTreeNode } from '../../viewer/sessionTree';
import { COMMANDS } from '../commandIds';
import { SessionsCatalog, SessionsProvider, SESSIONS_VIEW } from './sessionsView';

/** The session rows a command from the view acts on: the selection (or the clicked row) with every group's sessions. */
export function selectedSessions(arg: unknown, selected?: unknown): SessionLeafNode[] {
  const picked = Array.isArray(selected) && selected.length > 0 ? selected : [arg];
  const seen = new Set<string>();
  const out: SessionLeafNode[] = [];
  for (const n of picked as (SessionTreeNode | undefined)[]) {
    if (!n || typeof n !== 'object' || !('kind' in n)) continue;
    for (const leaf of sessionsUnder(n)) {
      if (seen.has(leaf.entry.file)) continue;
      seen.add(leaf.entry.file);
      out.push(leaf);
    }
  }
  return out;
}

/** The file a command from the view's context menu acts on: a session row, or a Uri. */
function fileOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const n = arg as SessionTreeNode | undefined;
  return n && n.kind === 'session' ? vscode.Uri.file(n.entry.file) : undefined;
}

/** Registers the view, its Refresh and its row actions; the first listing starts when the view is first shown. */
export function registerSessionsView(context: vscode.ExtensionContext, catalog: SessionsCatalog): SessionsProvider {
  const provider = new SessionsProvider(catalog);
  const view = vscode.window.createTreeView(SESSIONS_VIEW, { treeDataProvider: provider, showCollapseAll: true, canSelectMany: true });
  provider.view = view;
  const reg = (id: string, f: (arg?: unknown, selected?: unknown) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, f));
  reg(COMMANDS.refreshSessions, () => provider.refresh());
  reg(COMMANDS.openSession, (arg) => {
    const uri = fileOf(arg);
    if (uri) return vscode.commands.executeCommand(COMMANDS.openInViewer, uri);
  });
  reg(COMMANDS.revealSessionInOS, (arg) => {
    const uri = fileOf(arg);
    if (uri) return vscode.commands.executeCommand('revealFileInOS', uri);
  });
  reg(COMMANDS.copySessionPath, async (arg, selected) => {
    const rows = Array.isArray(selected) && selected.length > 1 ? selectedSessions(arg, selected) : [];
    const text = rows.length > 0 ? rows.map((r) => r.entry.file).join('\n') : fileOf(arg)?.fsPath;
    if (text) await vscode.env.clipboard.writeText(text);
  });
  // Verify All and Check All: the house's Verify and Check commands over the sessions' files (progress with cancel,
  // findings in the Problems panel, the summary message).
  const checkAll = (command: string) => async (arg?: unknown, selected?: unknown) => {
    const uris = selectedSessions(arg, selected).map((r) => vscode.Uri.file(r.entry.file));
    if (uris.length === 0) return void vscode.window.showInformationMessage('Agent Trace: select sessions or a group of sessions first.');
    return vscode.commands.executeCommand(command, uris[0], uris);
  };
  reg(COMMANDS.verifyAllSessions, checkAll(COMMANDS.verifyChain));
  reg(COMMANDS.checkAllSessions, checkAll(COMMANDS.checkConformance));
  // Compare: two selected sessions in the house's compare view (the first as A).
  reg(COMMANDS.compareSessions, async (arg, selected) => {
    const rows = selectedSessions(arg, selected);
    if (rows.length !== 2) return void vscode.window.showInformationMessage(`Agent Trace: select two sessions to compare (${rows.length} selected).`);
    await vscode.commands.executeCommand(COMMANDS.selectForCompare, vscode.Uri.file(rows[0].entry.file));
    return vscode.commands.executeCommand(COMMANDS.compareWithSelected, vscode.Uri.file(rows[1].entry.file));
  });
  // Export: the house's export commands on the session's file.
  reg(COMMANDS.exportSession, async (arg) => {
    const uri = fileOf(arg);
    if (!uri) return;
    const choice = await vscode.window.showQuickPick(
      [
        { label: 'HTML Report', description: 'one offline page with the viewer', command: COMMANDS.exportHtmlReport },
        { label: 'Markdown', description: 'the transcript as Markdown', command: COMMANDS.exportMarkdown },
      ],
      { title: 'Export Session', placeHolder: 'Export as' },
    );
    if (choice) return vscode.commands.executeCommand(choice.command, uri);
  });
  context.subscriptions.push(
    view,
    provider,
    vscode.workspace.onDidChangeConfiguration((e) => {
      // agentTrace.rules: the verdict icons are made with the rules (a listing under other rules reads the sessions again).
      if (['sessionRoots', 'sessionHomes', 'pricing', 'rules'].some((s) => e.affectsConfiguration(`agentTrace.${s}`))) void provider.refresh();
    }),
    // New folders bring their own trace files: list again (the cache reads only what is new).
    vscode.workspace.onDidChangeWorkspaceFolders(() => void provider.refresh()),
    // A trusted workspace's own agentTrace.sessionRoots count from then on.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void provider.refresh()),
  );
  return provider;
}
