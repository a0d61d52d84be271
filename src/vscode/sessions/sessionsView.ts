/**
 * The Agent Traces view (issue 39, part 1): every agent session on the machine, listed by the core's session catalog
 * (core/sessions/sessionCatalog.ts) in a worker thread (node/sessionsWorker.ts: the extension host's thread reads no
 * trace) and shaped by src/viewer/sessionTree.ts. This adapter only reads the settings, shows progress in the view
 * and turns the tree's nodes into tree items; the catalog's cache and the search index are kept in the extension's
 * global storage by the worker. Nothing leaves the machine: the listing reads local files only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentHomeRoots, workspaceTraceSearch } from '../../core/sessions/agentHomes';
import type { SessionListing } from '../../core/sessions/sessionCatalog';
import type { SessionRecord } from '../../core/sessions/sessionCache';
import type { CallOptions, ListRequest } from '../../node/workerSessions';
import { classifyChange, FileFingerprint, fingerprintFile } from '../../viewer/fileChange';
import { retotal, sessionLeaf, SessionGroupNode, SessionLeafNode, sessionsUnder, sessionTree, SessionTreeNode, TreeClock, LOCAL_CLOCK } from '../../viewer/sessionTree';
import { viewerPricing } from '../../viewer/pricing';
import { COMMANDS } from '../commandIds';
import { ruleSettings, setting } from '../settings';

/** The view's id (package.json `contributes.views`). */
export const SESSIONS_VIEW = 'agentTrace.sessions';
/** A session row's `contextValue`: the context menu's items ask for it. */
export const SESSION_ITEM = 'agentTrace.session';
/** A group row's `contextValue` (Verify All and Check All act on its sessions). */
export const SESSION_GROUP_ITEM = 'agentTrace.sessionGroup';
/** Most workspace trace files looked at (the search stops there). */
export const WORKSPACE_FILES_MAX = 500;
/** A session whose file grew within this time is running. */
export const RUNNING_MS = 3 * 60_000;
/** File events are gathered this long before the changed sessions are read again. */
const DEBOUNCE_MS = 750;

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

/**
 * The workspace's trace files that may be no agent's session: a search of the workspace folders over every format's
 * patterns and every .jsonl (core/sessions/agentHomes.ts), node_modules and blob folders left out, at most
 * {@link WORKSPACE_FILES_MAX}. The catalog sniffs each with the one sniffer and keeps the traces.
 */
export async function workspaceTraceFiles(): Promise<string[]> {
  if (!vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file')) return [];
  const { include, exclude } = workspaceTraceSearch();
  const found = await vscode.workspace.findFiles(include, exclude, WORKSPACE_FILES_MAX);
  return found.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
}

/** What lists the sessions: the worker (node/workerSessions.ts's SessionsWorker). */
export interface SessionsCatalog {
  list(request: ListRequest, options?: CallOptions): Promise<SessionListing>;
}

/** Options of {@link SessionsProvider} (tests make the waits short and give the workspace's files). */
export interface SessionsProviderOptions {
  workspaceFiles?: () => Promise<string[]>;
  debounceMs?: number;
  runningMs?: number;
  now?: () => number;
}

/** The tree data of the view: lists in the background, shows the nodes of the last listing, follows files as they grow. */
export class SessionsProvider implements vscode.TreeDataProvider<SessionTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionTreeNode | SessionTreeNode[] | undefined>();
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
  /** Files seen growing, with when they last grew; their rows say `running` for {@link RUNNING_MS}. */
  readonly growing = new Map<string, number>();
  /** Each followed file's fingerprint when last looked at (the one change detector's, core/fileChange.ts). */
  private readonly fingerprints = new Map<string, FileFingerprint>();
  /** Files whose events wait for the debounce. */
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expiry: ReturnType<typeof setTimeout> | undefined;
  private watchers: vscode.Disposable[] = [];
  private watched = '';
  private disposed = false;
  /** The last read of the changed files, for tests. */
  updating: Promise<void> = Promise.resolve();
  private readonly workspaceFiles: () => Promise<string[]>;
  private readonly debounceMs: number;
  private readonly runningMs: number;
  private readonly now: () => number;

  constructor(
    private readonly catalog: SessionsCatalog,
    private readonly roots: () => string[] = () => sessionRoots(),
    private readonly clock: TreeClock = LOCAL_CLOCK,
    options: SessionsProviderOptions = {},
  ) {
    this.workspaceFiles = options.workspaceFiles ?? workspaceTraceFiles;
    this.debounceMs = options.debounceMs ?? DEBOUNCE_MS;
    this.runningMs = options.runningMs ?? RUNNING_MS;
    this.now = options.now ?? Date.now;
  }

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
    let roots: string[] = [];
    await vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW }, title: 'Listing agent sessions' }, async (progress) => {
      try {
        roots = this.roots();
        const files = await this.workspaceFiles().catch(() => []);
        const prices = viewerPricing();
        // The user's own prices change costs: such a listing reads every file and keeps no cache (the core's rule).
        // The verdicts use the rules Verify and Check use (agentTrace.rules); the cache is keyed by them.
        // The worker reads the files (and feeds the search index as it reads them); this thread gets the records.
        const onProgress = (done: number, total: number) => progress.report({ message: `${done} of ${total} files` });
        this.listing = await this.catalog.list({ roots, files, prices: Object.keys(prices).length > 0 ? prices : undefined, rules: ruleSettings() }, { onProgress, isCancelled: () => this.disposed });
        this.message = roots.length === 0 && files.length === 0 ? 'No folders to look in: turn on agentTrace.sessionHomes or add agentTrace.sessionRoots.' : this.listing.records.length === 0 ? 'No agent sessions found in the agents’ folders or agentTrace.sessionRoots.' : undefined;
      } catch (e) {
        this.message = `Could not list the sessions: ${e instanceof Error ? e.message : String(e)}`;
      }
    });
    this.nodes = null;
    if (this.view) this.view.message = this.message;
    this.watch(roots.filter((r) => !this.listing?.missingRoots.includes(r)));
    this.changed.fire(undefined);
  }

  /** Watches the roots (and the workspace's trace files) for files that grow, appear or go; again only when they change. */
  private watch(roots: string[]): void {
    const key = roots.join('\n');
    if (key === this.watched && this.watchers.length > 0) return;
    this.watched = key;
    for (const w of this.watchers) w.dispose();
    const patterns: vscode.GlobPattern[] = roots.map((r) => new vscode.RelativePattern(vscode.Uri.file(r), '**/*'));
    if (vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file')) patterns.push(workspaceTraceSearch().include);
    this.watchers = patterns.map((p) => {
      const w = vscode.workspace.createFileSystemWatcher(p);
      const on = (u: vscode.Uri) => u.scheme === 'file' && this.fileEvent(u.fsPath);
      w.onDidChange(on);
      w.onDidCreate(on);
      w.onDidDelete(on);
      return w;
    });
  }

  /** A file under a root changed, appeared or went: gathered, then read after the debounce. */
  fileEvent(file: string): void {
    if (this.disposed) return;
    this.pending.add(file);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const files = [...this.pending];
      this.pending.clear();
      this.updating = this.update(files);
    }, this.debounceMs);
  }

  /**
   * Reads again the sessions whose files changed (through the catalog and its cache: only those files), marks the
   * ones that grew as running and refreshes their rows alone. A file no listed session holds (a new session, one
   * gone) lists again, which reads only the new files.
   */
  private async update(files: string[]): Promise<void> {
    const records = this.listing?.records ?? [];
    const owner = new Map<string, SessionRecord>();
    for (const r of records) {
      owner.set(r.stamp.path, r);
      for (const p of r.parts) owner.set(p.path, r);
    }
    const mains = new Set<string>();
    let relist = false;
    for (const f of files) {
      const r = owner.get(f);
      if (!r) {
        // Not every file below a root is a session (indexes, logs): only a new trace file lists again.
        if (/\.(jsonl|ndjson|json)(\.gz)?$/.test(f)) relist = true;
        continue;
      }
      const st = await fs.promises.stat(f).catch(() => null);
      if (st === null) {
        relist = true;
        continue;
      }
      if (await this.grew(f, st.size, r.stamp.path === f ? r.stamp.size : (r.parts.find((p) => p.path === f)?.size ?? 0)) && this.now() - st.mtimeMs < this.runningMs) this.growing.set(r.stamp.path, this.now());
      mains.add(r.stamp.path);
    }
    if (relist) return this.refresh();
    return this.readAgain(mains);
  }

  /**
   * Reads the sessions of `mains` again (the worker follows a growing one: its new bytes only) and refreshes their
   * rows alone, or the tree when one moved. `settle`: they stopped growing, so they are read whole, checks and all.
   */
  private async readAgain(mains: ReadonlySet<string>, settle = false): Promise<void> {
    if (mains.size === 0 || !this.listing) return;
    const prices = viewerPricing();
    const again = await this.catalog.list({ roots: [], files: [...mains], settle: settle ? [...mains] : undefined, prices: Object.keys(prices).length > 0 ? prices : undefined, rules: ruleSettings() });
    const listing = this.listing;
    const byPath = new Map(again.records.map((r) => [r.stamp.path, r]));
    let reshape = false;
    const rows: SessionTreeNode[] = [];
    listing.records = listing.records.map((old) => {
      const now = byPath.get(old.stamp.path);
      if (!mains.has(old.stamp.path)) return old;
      if (!now) {
        reshape = true;
        return old;
      }
      // A row that moves (another project or day, a first start time) needs the tree shaped again.
      if (now.entry.project !== old.entry.project || now.entry.agent !== old.entry.agent || (now.entry.startTime ?? '').slice(0, 10) !== (old.entry.startTime ?? '').slice(0, 10)) reshape = true;
      return now;
    });
    if (reshape || this.nodes === null) return this.reshape();
    for (const path of mains) rows.push(...this.refreshRows(path, byPath.get(path)!));
    this.scheduleExpiry();
    if (rows.length > 0) this.changed.fire(rows);
  }

  /** True when the file grew since it was last seen (its size since the listing's read, then the change detector). */
  private async grew(file: string, size: number, readSize: number): Promise<boolean> {
    const fp = this.fingerprints.get(file);
    const change = fp ? await classifyChange(file, fp).catch(() => 'rewritten' as const) : size > readSize ? 'appended' : 'unchanged';
    this.fingerprints.set(file, await fingerprintFile(file, size).catch(() => ({ indexedBytes: size, head: Buffer.alloc(0), tail: Buffer.alloc(0) })));
    return change === 'appended';
  }

  /**
   * Makes the rows of one session again in place (the same nodes, so VS Code refreshes them alone), and the totals of
   * the groups above them (agent, project, day, this workspace); returns the rows and the groups whose totals changed.
   */
  private refreshRows(file: string, record: SessionRecord): SessionTreeNode[] {
    const out: SessionTreeNode[] = [];
    const above = new Set<SessionGroupNode>();
    const walk = (nodes: readonly SessionTreeNode[], withDay: boolean, groups: readonly SessionGroupNode[]) => {
      for (const n of nodes) {
        if (n.kind === 'group') walk(n.children, n.role === 'workspace' || n.role === 'files', [...groups, n]);
        else if (n.entry.file === file) {
          const prefix = n.id.slice(0, n.id.length - file.length - 1);
          Object.assign(n, sessionLeaf(record, prefix, this.clock, withDay, this.isRunning(file)));
          out.push(n);
          for (const g of groups) above.add(g);
        }
      }
    };
    walk(this.nodes ?? [], false, []);
    for (const g of above) if (retotal(g)) out.push(g);
    return out;
  }

  private isRunning(file: string): boolean {
    const at = this.growing.get(file);
    return at !== undefined && this.now() - at < this.runningMs;
  }

  /** Running rows go back to their plain look when their file has not grown for {@link RUNNING_MS}. */
  private scheduleExpiry(): void {
    if (this.expiry) clearTimeout(this.expiry);
    if (this.growing.size === 0) return;
    const next = Math.min(...this.growing.values()) + this.runningMs - this.now();
    this.expiry = setTimeout(() => {
      this.expiry = undefined;
      const rows: SessionTreeNode[] = [];
      const settled = new Set<string>();
      for (const [file, at] of [...this.growing]) {
        if (this.now() - at < this.runningMs) continue;
        this.growing.delete(file);
        const rec = this.listing?.records.find((r) => r.stamp.path === file);
        if (rec) rows.push(...this.refreshRows(file, rec));
        if (rec?.verdictPending) settled.add(file);
      }
      if (rows.length > 0) this.changed.fire(rows);
      // Read by appends while it ran: now read whole once, so its verdict covers every line.
      if (settled.size > 0) this.updating = this.readAgain(settled, true);
      this.scheduleExpiry();
    }, Math.max(0, next) + 10);
  }

  /** The top level of the tree, from the last listing (empty before the first one ends). */
  private top(): SessionTreeNode[] {
    if (this.nodes === null) {
      const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, fsPath: f.uri.fsPath }));
      const running = new Set([...this.growing.keys()].filter((f) => this.isRunning(f)));
      this.nodes = sessionTree(this.listing?.records ?? [], folders, this.clock, { running, workspaceFiles: new Set(this.listing?.outsideRoots ?? []) });
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
      const expanded = node.role === 'workspace' || node.role === 'agent' || node.role === 'files';
      const item = new vscode.TreeItem(node.label, expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = node.id;
      item.description = node.description;
      item.tooltip = node.tooltip;
      item.contextValue = SESSION_GROUP_ITEM;
      item.iconPath = new vscode.ThemeIcon({ workspace: 'root-folder', files: 'file-code', agent: 'hubot', project: 'folder', day: 'calendar' }[node.role]);
      return item;
    }
    const uri = vscode.Uri.file(node.entry.file);
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.resourceUri = uri;
    item.contextValue = SESSION_ITEM;
    item.iconPath = sessionIcon(node);
    item.command = { command: COMMANDS.openInViewer, title: 'Open in Agent Trace Viewer', arguments: [uri] };
    return item;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.expiry) clearTimeout(this.expiry);
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    this.changed.dispose();
  }
}

/**
 * A row's icon, as the Test Explorer draws a test's: the verdict of verify and check in the theme's testing colours
 * (so every theme, High Contrast too, draws them its own way); a running session spins; a file that cannot be read
 * warns. A row whose checks did not run shows what its events say.
 */
export function sessionIcon(node: SessionLeafNode): vscode.ThemeIcon {
  const icon = (id: string, color: string) => new vscode.ThemeIcon(id, new vscode.ThemeColor(color));
  if (node.state === 'unreadable') return icon('warning', 'list.warningForeground');
  if (node.running) return icon('loading~spin', 'testing.iconQueued');
  switch (node.verdict) {
    case 'pass': return icon('pass', 'testing.iconPassed');
    case 'warn': return icon('warning', 'problemsWarningIcon.foreground');
    case 'fail': return icon('error', 'testing.iconFailed');
    default: return node.state === 'errors' ? icon('error', 'list.errorForeground') : new vscode.ThemeIcon('comment-discussion');
  }
}
