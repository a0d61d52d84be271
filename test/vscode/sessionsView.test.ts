// The Agent Traces view (issue 39, part 1): the sessions of a home laid out from the real-writer corpus, shaped into
// "This workspace" and agent → project → day, each row with its usage, errors, tooltip and the command that opens it;
// the listing runs with the view's progress and keeps its cache in the extension's storage.
import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fake, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { HomeFile, layOutAgentHome } from '../helpers/agentHome';
import { tempDir } from '../helpers/tmp';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const views = require('../../src/vscode/sessions/sessionsView') as typeof import('../../src/vscode/sessions/sessionsView');
const { UTC_CLOCK } = require('../../src/viewer/sessionTree') as typeof import('../../src/viewer/sessionTree');
const { agentHomeRoots } = require('../../src/core/sessions/agentHomes') as typeof import('../../src/core/sessions/agentHomes');
const { COMMANDS } = require('../../src/vscode/commandIds') as typeof import('../../src/vscode/commandIds');
type Node = import('../../src/viewer/sessionTree').SessionTreeNode;
type Leaf = import('../../src/viewer/sessionTree').SessionLeafNode;
type Group = import('../../src/viewer/sessionTree').SessionGroupNode;

/** The folder the corpus's agents ran in (their `cwd`), as the workspace here. */
const PROJECT = '/home/user/project';

function leaves(nodes: readonly Node[]): Leaf[] {
  return nodes.flatMap((n) => (n.kind === 'session' ? [n] : leaves(n.children)));
}

describe('Agent Traces view', function () {
  this.timeout(120_000);
  const home = tempDir('atv-home-');
  const storage = tempDir('atv-storage-');
  let files: HomeFile[];
  let broken: string;
  /** The rows of the first listing, by id. */
  let firstRows: string[] = [];
  const saved = { folders: fake.workspaceFolders, config: { ...fake.config } };

  before(() => {
    files = layOutAgentHome(home);
    // A file in Claude Code's folder that is no trace: listed with why it cannot be read, not dropped, no crash.
    broken = join(home, '.claude', 'projects', '-home-user-other', 'broken.jsonl');
    mkdirSync(join(home, '.claude', 'projects', '-home-user-other'), { recursive: true });
    writeFileSync(broken, 'not json at all\n\u0000\u0001\n');
    fake.workspaceFolders = [{ uri: Uri.file(PROJECT), name: 'project', index: 0 }];
  });
  after(() => {
    fake.workspaceFolders = saved.folders;
    fake.config = { ...saved.config };
  });

  const provider = () => new views.SessionsProvider(views.folderCacheStore(storage), () => agentHomeRoots(home), UTC_CLOCK);

  it('lists each session once: this workspace first, then agent → project → day, newest first, with usage, errors and the open command', async () => {
    const p = provider();
    const progressBefore = fake.progressLocations.length;
    await p.refresh();
    // The listing ran behind the view's own progress indicator.
    assert.deepEqual(fake.progressLocations.slice(progressBefore), [{ viewId: 'agentTrace.sessions' }]);
    assert.ok(p.listing && p.listing.read > 0, 'files were read');
    const top = p.getChildren();
    const labels = top.map((n) => n.label);
    assert.equal(labels[0], 'This workspace');
    assert.deepEqual(labels.slice(1).sort(), ['Claude Code transcript', 'Codex CLI rollout', 'Continue CLI', 'Gemini CLI', 'GitHub Copilot CLI', 'pi coding agent', 'Qwen Code'].sort(), labels.join(', '));

    // Every session once under the agents; a subagent's file is part of its session, never a row.
    const all = leaves(top.slice(1));
    const rowFiles = all.map((l) => l.entry.file);
    assert.equal(new Set(rowFiles).size, rowFiles.length, 'no session twice');
    const subagentFiles = files.filter((f) => /subagents?[\\/]/.test(f.path)).map((f) => f.path);
    assert.ok(subagentFiles.length > 0, 'the corpus has subagent files');
    for (const f of subagentFiles) assert.ok(!rowFiles.includes(f), `${f} is listed apart`);
    assert.ok(rowFiles.includes(broken));
    assert.equal(rowFiles.length, p.listing!.records.length);
    firstRows = leaves(top).map((l) => l.id);

    // This workspace: the sessions that ran in /home/user/project (Gemini CLI keeps the folder's name only).
    const here = leaves([top[0]]);
    // Continue's documents name their folder (workspaceDirectory) where the listing does not read it yet: not placed.
    const unplaced = all.filter((l) => l.entry.agent === 'continue').length;
    assert.equal(here.length, all.length - 1 - unplaced, 'every corpus session ran in the project; the broken file did not');
    assert.ok(!here.some((l) => l.entry.file === broken));
    assert.ok(here.some((l) => l.entry.agent === 'gemini-cli'));

    // Claude Code → project → its two days, newest first, and inside a day the sessions newest first.
    const claude = top.find((n) => n.label === 'Claude Code transcript') as Group;
    const project = claude.children.find((n) => n.label === 'project') as Group;
    assert.equal(project.tooltip, PROJECT);
    assert.deepEqual(project.children.map((n) => n.label), ['2026-12-07', '2026-12-01']);
    const day = project.children[1] as Group;
    const starts = day.children.map((n) => (n as Leaf).entry.startTime!);
    assert.deepEqual(starts, [...starts].sort().reverse());
    assert.match(day.description, /^5 sessions · [\d.]+k tokens · \$0\.\d\d · 1 error$/);

    // A session that failed: its row names the error, with the theme's error colour; a click opens the viewer.
    const failed = day.children.map((n) => n as Leaf).find((l) => l.label === 'List the folder /nonexistent.')!;
    assert.equal(failed.state, 'errors');
    assert.match(failed.description, /^16:25 · [\d.]+k tokens · \$0\.03 · 1 error$/);
    const item = p.getTreeItem(failed);
    const icon = item.iconPath as { id: string; color?: { id: string } };
    assert.equal(icon.id, 'error');
    assert.equal(icon.color?.id, 'list.errorForeground');
    assert.equal(item.contextValue, 'agentTrace.session');
    assert.equal(item.command?.command, COMMANDS.openInViewer);
    assert.equal((item.command?.arguments?.[0] as Uri).fsPath, failed.entry.file);
    assert.match(String(item.tooltip), new RegExp(`File: ${failed.entry.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(String(item.tooltip), /Errors: 1 failed event/);

    // The subagent session's tooltip counts its subagent; its tokens include the subagent's.
    const withSub = day.children.map((n) => n as Leaf).find((l) => l.label.startsWith('Use a subagent'))!;
    assert.match(withSub.tooltip, /Subagents: 1 \(counted in the usage\)/);
    assert.match(withSub.tooltip, /Started: 2026-12-01 16:25:2\d\.\d+ UTC/);
    // 16:25:23.827 to 16:25:24.369 (the corpus's recorded times).
    assert.match(withSub.tooltip, /\nEnded: 2026-12-01 16:25:24\.369 UTC\nDuration: 542 ms\n/);

    // A file that is no session: its own row and a warning icon, with the reason in the tooltip.
    const bad = all.find((l) => l.entry.file === broken)!;
    assert.equal(bad.state, 'unreadable');
    assert.equal(bad.label, 'broken.jsonl (cannot read)');
    assert.match(bad.tooltip, /Cannot read: /);
    assert.equal((p.getTreeItem(bad).iconPath as { id: string; color?: { id: string } }).color?.id, 'list.warningForeground');
    // Groups are folders: agents open, projects and days closed.
    assert.equal(p.getTreeItem(claude).collapsibleState, 2);
    assert.equal(p.getTreeItem(project).collapsibleState, 1);
  });

  it("keeps the catalog's cache in the extension's storage: a second start reads no file", async () => {
    assert.ok(readdirSync(storage).includes('agent-trace-sessions.json'), 'the cache file is in the storage folder');
    const p = provider();
    await p.refresh();
    assert.equal(p.listing!.read, 0);
    // Every file came from the cache (the sessions, their subagents' files and the files that are no session).
    assert.ok(p.listing!.fromCache >= p.listing!.records.length, `${p.listing!.fromCache} from the cache`);
    assert.deepEqual(leaves(p.getChildren()).map((l) => l.id), firstRows);
  });

  it('walks the agent homes and agentTrace.sessionRoots as the settings say', () => {
    fake.config.sessionHomes = true;
    fake.config.sessionRoots = ['~/traces', 'runs', '', 42];
    const roots = views.sessionRoots(home);
    assert.deepEqual(roots.slice(0, -2), agentHomeRoots(home));
    assert.deepEqual(roots.slice(-2), [join(home, 'traces'), join(PROJECT, 'runs')]);
    fake.config.sessionHomes = false;
    assert.deepEqual(views.sessionRoots(home), [join(home, 'traces'), join(PROJECT, 'runs')]);
    // In Restricted Mode a workspace's own folders are not walked (the user's settings only).
    fake.trusted = false;
    try {
      assert.deepEqual(views.sessionRoots(home), []);
    } finally {
      fake.trusted = true;
    }
    fake.config.sessionRoots = [];
    const p = new views.SessionsProvider(undefined, () => views.sessionRoots(home), UTC_CLOCK);
    return p.refresh().then(() => {
      assert.deepEqual(p.getChildren(), []);
      assert.match(p.message ?? '', /No folders to look in/);
    });
  });

  it('a listing that fails says why in the view, once: the tree asking again does not start another', async () => {
    let calls = 0;
    const p = new views.SessionsProvider(undefined, () => {
      calls++;
      throw new Error('no home folder');
    }, UTC_CLOCK);
    let changes = 0;
    p.onDidChangeTreeData(() => {
      changes++;
      // VS Code asks for the top level again on every change.
      p.getChildren();
    });
    assert.deepEqual(p.getChildren(), []);
    for (let i = 0; i < 100 && p.message === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(p.message, 'Could not list the sessions: no home folder');
    assert.equal(calls, 1);
    assert.equal(changes, 1);
  });

  it("registers the view with Refresh and the rows' Open, Reveal in File Explorer and Copy Path", async () => {
    const context = { subscriptions: [] as { dispose(): void }[], globalStorageUri: Uri.file(tempDir('atv-gs-')) };
    fake.config.sessionHomes = false;
    fake.config.sessionRoots = [join(home, '.codex')];
    try {
      views.registerSessionsView(context as never);
      const tree = fake.treeViews.get('agentTrace.sessions');
      assert.ok(tree, 'the tree view is created');
      await fake.commands.get(COMMANDS.refreshSessions)!();
      const p = tree.treeDataProvider as InstanceType<typeof views.SessionsProvider>;
      const rows = leaves(p.getChildren());
      assert.ok(rows.length > 0 && rows.every((r) => r.entry.agent === 'codex'), 'only the codex root is walked');
      const row = rows[0];
      await fake.commands.get(COMMANDS.copySessionPath)!(row);
      assert.deepEqual(fake.executed[fake.executed.length - 1], ['clipboard', row.entry.file]);
      const before = fake.executed.length;
      await fake.commands.get(COMMANDS.revealSessionInOS)!(row);
      await fake.commands.get(COMMANDS.openSession)!(row);
      const ran = fake.executed.slice(before).map((e) => [e[0], (e[1] as Uri).fsPath]);
      assert.deepEqual(ran, [['revealFileInOS', row.entry.file], [COMMANDS.openInViewer, row.entry.file]]);
      // A group row names no file: the actions do nothing.
      const n = fake.executed.length;
      await fake.commands.get(COMMANDS.copySessionPath)!(p.getChildren()[0]);
      assert.equal(fake.executed.length, n);
    } finally {
      for (const d of context.subscriptions) d.dispose();
    }
  });
});
