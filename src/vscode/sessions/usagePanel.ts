/**
 * The Agent Usage panel (issue 39, part 3): tokens and cost over time across the sessions the Agent Traces view lists,
 * as a chart with the same numbers in a table beside it, and CSV export. One path: it reads the view's own listing
 * (SessionsProvider.listing), starts that listing when there is none yet, and follows each new one; it never lists the
 * sessions itself. The data and CSV come from src/viewer/usageView.ts (core/sessions/usageOverTime.ts).
 */
import * as vscode from 'vscode';
import { bundlePageHtml } from '../webviewPage';
import { DEFAULT_USAGE_QUERY, usageCsvFor, usageCsvName, usageMessage } from '../../viewer/usageView';
import type { UsageHostMessage, UsageQuery, UsageViewMessage } from '../../protocol/usage';
import { parseViewMessage } from '../../protocol/validate';
import { COMMANDS } from '../commandIds';
import type { SessionsProvider } from './sessionsView';

/** The webview panel type of the usage view. */
export const USAGE_VIEW_TYPE = 'agentTrace.usage';

class UsagePanel {
  private query: UsageQuery = DEFAULT_USAGE_QUERY;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(readonly panel: vscode.WebviewPanel, private readonly sessions: SessionsProvider, onDispose: () => void) {
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m) => void this.onMessage(parseViewMessage('usage', m))),
      // Each listing the view ends (a refresh, a changed setting) is shown here too.
      sessions.onDidChangeTreeData(() => this.send()),
      panel.onDidDispose(() => {
        onDispose();
        this.disposables.forEach((d) => d.dispose());
      }),
    );
  }

  private post(m: UsageHostMessage): void {
    void this.panel.webview.postMessage(m);
  }

  /** The usage of the view's listing for the query; with no listing yet, the view's first one is started. */
  private send(): void {
    const listing = this.sessions.listing;
    if (listing === null) {
      if (this.sessions.message) return this.post({ type: 'usageMessage', kind: 'error', message: this.sessions.message });
      this.post({ type: 'usageListing', done: null, total: null });
      void this.sessions.refresh();
      return;
    }
    this.post(usageMessage(listing.records, this.query, Date.now()));
  }

  private async onMessage(m: UsageViewMessage | null): Promise<void> {
    if (m === null) return;
    switch (m.type) {
      case 'usageReady':
        if (m.query) this.query = m.query;
        return this.send();
      case 'usageQuery':
        this.query = m.query;
        return this.send();
      case 'usageRefresh':
        this.post({ type: 'usageListing', done: null, total: null });
        return this.sessions.refresh();
      case 'usageExportCsv': {
        const listing = this.sessions.listing;
        if (!listing) return;
        const base = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri;
        const target = await vscode.window.showSaveDialog({
          title: 'Export Agent Usage as CSV',
          filters: { CSV: ['csv'] },
          ...(base ? { defaultUri: vscode.Uri.joinPath(base, usageCsvName(m.query)) } : {}),
        });
        if (!target) return;
        try {
          await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(usageCsvFor(listing.records, m.query, Date.now())));
          void vscode.window.showInformationMessage(`Agent usage saved to ${target.fsPath || target.path}`);
        } catch (e) {
          void vscode.window.showErrorMessage(`Could not save the CSV: ${e instanceof Error ? e.message : String(e)}`);
        }
        return;
      }
      default:
        return assertNever(m);
    }
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}

/** Registers Show Usage Over Time: one panel, brought to the front when it is open. */
export function registerUsagePanel(context: vscode.ExtensionContext, sessions: SessionsProvider): void {
  let open: UsagePanel | null = null;
  context.subscriptions.push(vscode.commands.registerCommand(COMMANDS.showUsage, () => {
    if (open) return open.panel.reveal();
    const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(USAGE_VIEW_TYPE, 'Agent Usage', vscode.ViewColumn.Active, {
      enableScripts: true, enableCommandUris: false, localResourceRoots: [dist], retainContextWhenHidden: true,
    });
    const w = panel.webview;
    w.html = bundlePageHtml(w, dist, 'usage', { title: 'Agent Usage', label: 'Agent usage over time', role: 'main' });
    open = new UsagePanel(panel, sessions, () => (open = null));
  }));
}
