/**
 * The Agent Traces view (issue 39, part 1): every agent session on the machine, listed by the core's session catalog
 * (core/sessions/sessionCatalog.ts) in the background and shaped by src/viewer/sessionTree.ts. This adapter only
 * reads the settings, keeps the catalog's cache in the extension's global storage, shows progress in the view and
 * turns the tree's nodes into tree items. Nothing leaves the machine: the listing reads local files only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentHomeRoots } from '../../core/sessions/agentHomes';
import { listSessions, SessionListing } from '../../core/sessions/sessionCatalog';
import { SESSION_CACHE_FILE, SessionCacheStore } from '../../core/sessions/sessionCache';
import { sessionTree, SessionTreeNode, TreeClock, LOCAL_CLOCK } from '../../viewer/sessionTree';
import { viewerPricing } from '../../viewer/pricing';
import { COMMANDS } from '../commandIds';
import { setting } from '../settings';

/** The view's id (package.json `contributes.views`). */
export const SESSIONS_VIEW = 'agentTrace.sessions';
/** A session row's `contextValue`: the context menu's items ask for it. */
export const SESSION_ITEM = 'agentTrace.session';

/** The catalog's cache (or another `name`: the search index) as one file in a folder (the extension's global storage), written aside and renamed. */
export function folderCacheStore(dir: string, name = SESSION_CACHE_FILE): SessionCacheStore {
  const file = path.join(dir, name);
  return {
    read: async () => fs.promises.readFile(file, 'utf8').catch(() => null),
    write: async (text) => {
      try {
        await fs.promises.mkdir(dir, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        await fs.promises.writeFile(tmp, text);
        await fs.promises.rename(tmp, file);
      } catch {
        // A cache that cannot be written costs the next listing its speed, not its answer.
      }
    },
  };
}

/**
 * The roots to walk: the known agent homes under the user's home folder (`agentTrace.sessionHomes`), then the
 * folders of `agentTrace.sessionRoots` (a relative one is taken from the first workspace folder; `~` is the home).
 */
export function sessionRoots(home = os.homedir()): string[] {
  const roots = setting('sessionHomes') ? agentHomeRoots(home) : [];
  const base = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  for (const raw of setting('sessionRoots')) {
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const r = raw.trim().replace(/^~(?=$|[\\/])/, home);
    const abs = path.isAbsolute(r) ? r : base ? path.join(base, r) : null;
    if (abs !== null && !roots.includes(path.resolve(abs))) roots.push(path.resolve(abs));
  }
  return roots;
}

/** The tree data of the view: lists in the background, shows the nodes of the last listing. */
export class SessionsProvider implements vscode.TreeDataProvider<SessionTreeNode> {
  private readonly changed = new vscode.EventEmitter<SessionTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private nodes: SessionTreeNode[] | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** A listing was started (the first look at the view starts one, and only one: a failed one is not retried by itself). */
  private started = false;
  /** The last listing, and what went wrong with it (shown as the view's message). */
  listing: SessionListing | null = null;
  message: string | undefined;
  view: vscode.TreeView<SessionTreeNode> | undefined;

  constructor(
    private readonly cache: SessionCacheStore | undefined,
    private readonly roots: () => string[] = () => sessionRoots(),
    private readonly clock: TreeClock = LOCAL_CLOCK,
  ) {}

  /** Lists again (one listing at a time: a refresh asked for while one runs starts once it ends). */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.list().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.running;
  }

  private async list(): Promise<void> {
    this.started = true;
    await vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW }, title: 'Listing agent sessions' }, async () => {
      try {
        const roots = this.roots();
        const prices = viewerPricing();
        // The user's own prices change costs: such a listing reads every file and keeps no cache (the core's rule).
        this.listing = await listSessions({ roots, cache: this.cache, prices: Object.keys(prices).length > 0 ? prices : undefined });
        this.message = roots.length === 0 ? 'No folders to look in: turn on agentTrace.sessionHomes or add agentTrace.sessionRoots.' : this.listing.records.length === 0 ? 'No agent sessions found in the agents’ folders or agentTrace.sessionRoots.' : undefined;
      } catch (e) {
        this.message = `Could not list the sessions: ${e instanceof Error ? e.message : String(e)}`;
      }
    });
    this.nodes = null;
    if (this.view) this.view.message = this.message;
    this.changed.fire(undefined);
  }

  /** The top level of the tree, from the last listing (empty before the first one ends). */
  private top(): SessionTreeNode[] {
    if (this.nodes === null) {
      const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
      this.nodes = sessionTree((this.listing?.records ?? []).map((r) => r.entry), folders, this.clock);
    }
    return this.nodes;
  }

  getChildren(node?: SessionTreeNode): SessionTreeNode[] {
    if (!node) {
      // The first look at the view starts the first listing; the tree fills in when it ends.
      if (!this.started) void this.refresh();
      return this.top();
    }
    return node.kind === 'group' ? node.children : [];
  }

  /** Rebuilds the tree from the last listing (the workspace folders changed). */
  reshape(): void {
    this.nodes = null;
    this.changed.fire(undefined);
  }

  getTreeItem(node: SessionTreeNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const expanded = node.role === 'workspace' || node.role === 'agent';
      const item = new vscode.TreeItem(node.label, expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.id;
      item.description = node.description;
      item.tooltip = node.tooltip;
      item.iconPath = new vscode.ThemeIcon({ workspace: 'root-folder', agent: 'hubot', project: 'folder', day: 'calendar' }[node.role]);
      return item;
    }
    const uri = vscode.Uri.file(node.entry.file);
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.resourceUri = uri;
    item.contextValue = SESSION_ITEM;
    // Theme colours, so each theme (High Contrast too) draws them its own way.
    item.iconPath =
      node.state === 'unreadable'
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
        : node.state === 'errors'
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
          : new vscode.ThemeIcon('comment-discussion');
    item.command = { command: COMMANDS.openInViewer, title: 'Open in Agent Trace Viewer', arguments: [uri] };
    return item;
  }
}

/** The file a command from the view's context menu acts on: a session row, or a Uri. */
function fileOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const n = arg as SessionTreeNode | undefined;
  return n && n.kind === 'session' ? vscode.Uri.file(n.entry.file) : undefined;
}

/** Registers the view, its Refresh and its row actions; the first listing starts when the view is first shown. */
export function registerSessionsView(context: vscode.ExtensionContext): SessionsProvider {
  // The catalog's cache in the extension's own storage (none where the host gives none).
  const storage = context.globalStorageUri as vscode.Uri | undefined;
  const provider = new SessionsProvider(storage?.scheme === 'file' ? folderCacheStore(storage.fsPath) : undefined);
  const view = vscode.window.createTreeView(SESSIONS_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  provider.view = view;
  const reg = (id: string, f: (arg?: unknown) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, f));
  reg(COMMANDS.refreshSessions, () => provider.refresh());
  reg(COMMANDS.openSession, (arg) => {
    const uri = fileOf(arg);
    if (uri) return vscode.commands.executeCommand(COMMANDS.openInViewer, uri);
  });
  reg(COMMANDS.revealSessionInOS, (arg) => {
    const uri = fileOf(arg);
    if (uri) return vscode.commands.executeCommand('revealFileInOS', uri);
  });
  reg(COMMANDS.copySessionPath, async (arg) => {
    const uri = fileOf(arg);
    if (uri) await vscode.env.clipboard.writeText(uri.fsPath);
  });
  context.subscriptions.push(
    view,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentTrace.sessionRoots') || e.affectsConfiguration('agentTrace.sessionHomes') || e.affectsConfiguration('agentTrace.pricing')) void provider.refresh();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => provider.reshape()),
    // A trusted workspace's own agentTrace.sessionRoots count from then on.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void provider.refresh()),
  );
  return provider;
}
