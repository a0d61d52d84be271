// The Agent Traces view (issue 39, part 1): the sessions of a home laid out from the real-writer corpus, shaped into
// "This workspace" and agent → project → day, each row with its usage, errors, tooltip and the command that opens it;
// the listing runs with the view's progress and keeps its cache in the extension's storage.
import { strict as assert } from 'node:assert';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fake, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { HomeFile, layOutAgentHome } from '../helpers/agentHome';
import { tempDir } from '../helpers/tmp';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const views = require('../../src/vscode/sessions/sessionsView') as typeof import('../../src/vscode/sessions/sessionsView');
const commands = require('../../src/vscode/sessions/sessionsCommands') as typeof import('../../src/vscode/sessions/sessionsCommands');
const { UTC_CLOCK, sessionTree } = require('../../src/viewer/sessionTree') as typeof import('../../src/viewer/sessionTree');
const { agentHomeRoots } = require('../../src/core/sessions/agentHomes') as typeof import('../../src/core/sessions/agentHomes');
const { COMMANDS } = require('../../src/vscode/commandIds') as typeof import('../../src/vscode/commandIds');
const { SessionsWorker } = require('../../src/node/workerSessions') as typeof import('../../src/node/workerSessions');
type Node = import('../../src/viewer/sessionTree').SessionTreeNode;
type Leaf = import('../../src/viewer/sessionTree').SessionLeafNode;
type Group = import('../../src/viewer/sessionTree').SessionGroupNode;

/** The folder the corpus's agents ran in (their `cwd`), as the workspace here. */
const PROJECT = '/home/user/project';

/** The extension's sessions worker for a storage folder (null: none), one per folder, closed after the tests. */
const workers = new Map<string | null, InstanceType<typeof SessionsWorker>>();
function workerFor(storage: string | null): InstanceType<typeof SessionsWorker> {
  let w = workers.get(storage);
  if (!w) workers.set(storage, (w = new SessionsWorker(storage)));
  return w;
}
after(async () => {
  for (const w of workers.values()) await w.close();
});

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

  const provider = () => new views.SessionsProvider(workerFor(storage), () => agentHomeRoots(home), UTC_CLOCK, { workspaceFiles: async () => [] });

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
    // Continue's documents name their folder (workspaceDirectory), which the format's workingFolder reads: placed too.
    assert.equal(here.length, all.length - 1, 'every corpus session ran in the project; the broken file did not');
    assert.ok(here.some((l) => l.entry.agent === 'continue'));
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

    // A session whose tool call failed: its row counts the error; its file verifies and checks clean, so its icon is
    // the Test Explorer's pass in the theme's testing colour; a click opens the viewer.
    const failed = day.children.map((n) => n as Leaf).find((l) => l.label === 'List the folder /nonexistent.')!;
    assert.equal(failed.state, 'errors');
    assert.equal(failed.verdict, 'pass');
    assert.match(failed.description, /^16:25 · [\d.]+k tokens · \$0\.03 · 1 error$/);
    const item = p.getTreeItem(failed);
    const icon = item.iconPath as { id: string; color?: { id: string } };
    assert.equal(icon.id, 'pass');
    assert.equal(icon.color?.id, 'testing.iconPassed');
    assert.match(String(item.tooltip), /\nChecks: passed \(verify and check: no errors or warnings\)$/);
    // Every corpus session verifies and checks clean (the catalog's read ran both).
    assert.deepEqual([...new Set(all.filter((l) => l.entry.file !== broken).map((l) => l.verdict))], ['pass']);
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
    const p = new views.SessionsProvider(workerFor(null), () => views.sessionRoots(home), UTC_CLOCK, { workspaceFiles: async () => [] });
    return p.refresh().then(() => {
      assert.deepEqual(p.getChildren(), []);
      assert.match(p.message ?? '', /No folders to look in/);
    });
  });

  it('a listing that fails says why in the view, once: the tree asking again does not start another', async () => {
    let calls = 0;
    const p = new views.SessionsProvider(workerFor(null), () => {
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
      commands.registerSessionsView(context as never, workerFor(context.globalStorageUri.fsPath));
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

describe('Agent Traces view: verdicts, workspace trace files, running sessions, context actions', function () {
  this.timeout(120_000);
  const home = tempDir('atv-home2-');
  const workspace = tempDir('atv-ws-');
  const storage = tempDir('atv-storage2-');
  const saved = { folders: fake.workspaceFolders, config: { ...fake.config } };
  const SAMPLES = join(__dirname, '..', '..', 'samples');
  const LUMEN = '.lumen/trace/58176a1a-9fa5-4945-a4b8-3fa6c7c2f5b6.jsonl';
  const CLAUDE = join(__dirname, '..', 'corpus', 'claude-code-2.1.332', 'text', 'projects', '-home-user-project', 'd7d94e1c-8f45-41b2-8a1f-5bdbdbef48d1.jsonl');
  const files = {
    tampered: join(workspace, 'tampered', LUMEN),
    intact: join(workspace, 'intact', LUMEN),
    otlp: join(workspace, 'exports', 'trace.otlp.json'),
    // A Claude Code transcript kept outside its tool's folder, its last line cut: a write still going on.
    cut: join(workspace, 'kept', 'session.jsonl'),
    notTrace: join(workspace, 'data', 'rows.jsonl'),
    vendored: join(workspace, 'node_modules', 'pkg', LUMEN),
  };
  const claude = readFileSync(CLAUDE);
  let p: InstanceType<typeof views.SessionsProvider>;
  /** The file watchers the provider made (on the home's root and on the workspace's trace files). */
  let watchers: typeof fake.watchers = [];

  before(() => {
    const put = (to: string, from: string | Buffer) => {
      mkdirSync(dirname(to), { recursive: true });
      if (typeof from === 'string') cpSync(from, to);
      else writeFileSync(to, from);
    };
    put(files.tampered, join(SAMPLES, 'tampered', 'lumen', LUMEN));
    put(files.intact, join(SAMPLES, 'lumen', LUMEN));
    put(files.otlp, join(SAMPLES, 'otlp', 'trace.otlp.json'));
    put(files.cut, claude.subarray(0, claude.length - 40));
    put(files.notTrace, Buffer.from('{"a":1}\n{"a":2}\n'));
    put(files.vendored, join(SAMPLES, 'lumen', LUMEN));
    // One agent home session, so the workspace's files are told apart from the homes'.
    put(join(home, '.claude', 'projects', '-home-user-project', 'd7d94e1c-8f45-41b2-8a1f-5bdbdbef48d1.jsonl'), CLAUDE);
    fake.workspaceFolders = [{ uri: Uri.file(workspace), name: 'ws', index: 0 }];
  });
  after(() => {
    p?.dispose();
    fake.workspaceFolders = saved.folders;
    fake.config = { ...saved.config };
  });

  const icon = (n: Leaf) => {
    const i = p.getTreeItem(n).iconPath as { id: string; color?: { id: string } };
    return `${i.id} ${i.color?.id ?? ''}`.trim();
  };
  const rowOf = (file: string) => leaves(p.getChildren()).find((l) => l.entry.file === file);

  it("lists the workspace's trace files in their own group (found by the formats' patterns and the sniffer, node_modules left out), each with its verdict icon", async () => {
    p = new views.SessionsProvider(workerFor(storage), () => agentHomeRoots(home), UTC_CLOCK, { debounceMs: 20, runningMs: 1500 });
    const made = fake.watchers.length;
    await p.refresh();
    watchers = fake.watchers.slice(made);
    const top = p.getChildren();
    assert.deepEqual(top.map((n) => n.label), ['Workspace trace files', 'Claude Code transcript']);
    const group = top[0] as Group;
    assert.equal(p.getTreeItem(group).contextValue, 'agentTrace.sessionGroup');
    assert.deepEqual(group.children.map((n) => (n as Leaf).entry.file).sort(), [files.tampered, files.intact, files.otlp, files.cut].sort());
    assert.deepEqual(leaves([top[1]]).map((l) => l.entry.file), [join(home, '.claude', 'projects', '-home-user-project', 'd7d94e1c-8f45-41b2-8a1f-5bdbdbef48d1.jsonl')]);

    // The tampered lumen trace fails verification (its chain is broken at line 8); the intact copy passes.
    const tampered = rowOf(files.tampered)!;
    assert.equal(tampered.verdict, 'fail');
    assert.equal(icon(tampered), 'error testing.iconFailed');
    assert.match(tampered.tooltip, /\nChecks: failed \(verify and check: 1 error\)\nChain: broken\nFirst: line 8, lumen\/event-hash \(verify\): /);
    const intact = rowOf(files.intact)!;
    assert.equal(icon(intact), 'pass testing.iconPassed');
    assert.match(intact.tooltip, /\nChain: intact/);
    // The cut transcript: a torn last line is a warning.
    const cut = rowOf(files.cut)!;
    assert.equal(cut.entry.agent, 'claude-code');
    assert.equal(icon(cut), 'warning problemsWarningIcon.foreground');
    assert.match(cut.tooltip, /First: line 20, parse\/torn-tail/);
    assert.equal(rowOf(files.otlp)!.entry.agent, 'otlp');
  });

  it('keeps the verdicts in the cache: a second start reads no file and draws the same icons', async () => {
    const again = new views.SessionsProvider(workerFor(storage), () => agentHomeRoots(home), UTC_CLOCK);
    await again.refresh();
    assert.equal(again.listing!.read, 0);
    const verdicts = (q: InstanceType<typeof views.SessionsProvider>) => leaves(q.getChildren()).map((l) => `${l.id} ${l.verdict}`);
    assert.deepEqual(verdicts(again), verdicts(p));
    again.dispose();
  });

  it('marks a session whose file grows as running and refreshes its rows alone, read again through the cache; the mark goes when it stops', async () => {
    const events: unknown[] = [];
    p.onDidChangeTreeData((e) => events.push(e));
    const before = rowOf(files.cut)!;
    const eventsBefore = before.entry.events;
    // The agent writes the rest of its last line.
    appendFileSync(files.cut, claude.subarray(claude.length - 40));
    // The watchers on the roots and the workspace's trace files hear it (each event of a save, gathered).
    assert.equal(watchers.length, 2);
    for (const w of watchers) w.change.fire(Uri.file(files.cut));
    await new Promise((r) => setTimeout(r, 100));
    await p.updating;
    // One change event, naming that session's row only (not the whole tree).
    assert.equal(events.length, 1);
    const changed = events[0] as Leaf[];
    assert.ok(Array.isArray(changed));
    assert.deepEqual(changed.map((n) => n.entry.file), [files.cut]);
    const row = rowOf(files.cut)!;
    assert.equal(row, changed[0], 'the same node, refreshed in place');
    assert.equal(row.running, true);
    assert.match(row.description, /^running · 2026-12-01 16:25 · /);
    assert.equal(icon(row), 'loading~spin testing.iconQueued');
    assert.equal(row.entry.events, eventsBefore + 1);
    // Its verdict was read again with it: the torn line is whole now.
    assert.equal(row.verdict, 'pass');
    // Not growing for runningMs: the row is drawn plain again.
    await new Promise((r) => setTimeout(r, 1700));
    assert.equal(events.length, 2);
    assert.equal(row.running, false);
    assert.equal(icon(row), 'pass testing.iconPassed');
    // A file that changed without growing is not running.
    const intact = readFileSync(files.intact);
    writeFileSync(files.intact, intact);
    for (const w of watchers) w.change.fire(Uri.file(files.intact));
    await new Promise((r) => setTimeout(r, 100));
    await p.updating;
    assert.equal(rowOf(files.intact)!.running, false);
  });

  it("refreshes the totals of a growing session's agent, project and day groups with its row, as a new listing would show them", async () => {
    const file = join(home, '.claude', 'projects', '-home-user-project', 'd7d94e1c-8f45-41b2-8a1f-5bdbdbef48d1.jsonl');
    const groupsOf = () => {
      const agent = p.getChildren().find((n) => n.label === 'Claude Code transcript') as Group;
      const project = agent.children[0] as Group;
      return [agent, project, project.children[0] as Group];
    };
    const before = groupsOf().map((g) => g.description);
    assert.match(before[0], /^1 session · 5.0k tokens · \$0\.02$/);
    const events: unknown[] = [];
    p.onDidChangeTreeData((e) => events.push(e));
    // The agent answers once more: a model call with its usage (its own message and request ids, so it counts).
    const answer = readFileSync(file, 'utf8').split('\n').find((l) => l.includes('"type":"assistant"'))!;
    appendFileSync(file, answer.replace(/msg_mockmx4wrhku001/g, 'msg_mockmx4wrhku901').replace(/req_mockmx4wrhku002/g, 'req_mockmx4wrhku902').replace(/"uuid":"[^"]+"/, '"uuid":"0c0c0c0c-0000-4000-8000-000000000001"') + '\n');
    for (const w of watchers) w.change.fire(Uri.file(file));
    await new Promise((r) => setTimeout(r, 100));
    await p.updating;
    const [agent, project, day] = groupsOf();
    assert.notEqual(agent.description, before[0], 'the agent group counts the new call');
    // What a listing from scratch shows for the same sessions, group by group.
    const fresh = sessionTree(p.listing!.records, [{ name: 'ws', fsPath: workspace }], UTC_CLOCK, { workspaceFiles: new Set(p.listing!.outsideRoots) });
    const freshById = new Map<string, string>();
    const walk = (ns: readonly Node[]) => ns.forEach((n) => n.kind === 'group' && (freshById.set(n.id, n.description), walk(n.children)));
    walk(fresh);
    for (const g of [agent, project, day]) assert.equal(g.description, freshById.get(g.id), g.id);
    // One change event, with the row and the groups above it (the same nodes, refreshed in place), not the whole tree.
    assert.equal(events.length, 1);
    const changed = events[0] as Node[];
    assert.ok(Array.isArray(changed));
    assert.deepEqual(changed.filter((n) => n.kind === 'group').map((n) => n.id).sort(), [agent.id, project.id, day.id].sort());
    assert.deepEqual(changed.filter((n) => n.kind === 'session').map((n) => (n as Leaf).entry.file), [file]);
    assert.ok(changed.includes(agent) && changed.includes(day));
  });

  it('follows a running session: its next growth is read by an append (verdict pending), and read whole with its checks once it stops', async () => {
    // The session grew once in the test before: its reader is kept in the worker.
    const file = join(home, '.claude', 'projects', '-home-user-project', 'd7d94e1c-8f45-41b2-8a1f-5bdbdbef48d1.jsonl');
    const recordOf = () => p.listing!.records.find((r) => r.stamp.path === file)!;
    const eventsBefore = recordOf().entry.events;
    const answer = readFileSync(file, 'utf8').split('\n').find((l) => l.includes('"type":"assistant"'))!;
    appendFileSync(file, answer.replace(/msg_mockmx4wrhku001/g, 'msg_mockmx4wrhku911').replace(/req_mockmx4wrhku002/g, 'req_mockmx4wrhku912').replace(/"uuid":"[^"]+"/, '"uuid":"0c0c0c0c-0000-4000-8000-000000000002"') + '\n');
    for (const w of watchers) w.change.fire(Uri.file(file));
    await new Promise((r) => setTimeout(r, 100));
    await p.updating;
    assert.equal(recordOf().verdictPending, true, 'read by an append');
    assert.equal(recordOf().entry.events, eventsBefore + 1);
    const row = rowOf(file)!;
    assert.equal(row.running, true);
    assert.match(row.tooltip, /the lines written since are checked when it stops growing/);
    // Not growing for runningMs: read whole once more, its verdict made over every line.
    for (let i = 0; i < 50 && recordOf().verdictPending; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await p.updating;
    }
    assert.equal(recordOf().verdictPending, undefined);
    assert.equal(recordOf().entry.events, eventsBefore + 1);
    const settled = rowOf(file)!;
    assert.equal(settled.running, false);
    assert.doesNotMatch(settled.tooltip, /checked when it stops growing/);
    assert.ok(settled.verdict !== null);
  });

  it('has multi-select and the context actions: Verify All and Check All through the house commands, Compare, Export, Copy Path', async () => {
    const context = { subscriptions: [] as { dispose(): void }[], globalStorageUri: Uri.file(tempDir('atv-gs2-')) };
    fake.config.sessionHomes = false;
    fake.config.sessionRoots = [];
    try {
      commands.registerSessionsView(context as never, workerFor(context.globalStorageUri.fsPath));
      const tree = fake.treeViews.get('agentTrace.sessions')!;
      assert.equal(tree.options?.canSelectMany, true);
      await fake.commands.get(COMMANDS.refreshSessions)!();
      const q = tree.treeDataProvider as InstanceType<typeof views.SessionsProvider>;
      const group = q.getChildren()[0] as Group;
      assert.equal(group.label, 'Workspace trace files');
      const [a, b] = group.children as Leaf[];
      const last = () => fake.executed[fake.executed.length - 1];
      const fsPaths = (u: unknown) => (u as Uri[]).map((x) => x.fsPath);

      // Verify All on a group: the house's Verify command over its sessions' files (its progress, Problems, summary).
      await fake.commands.get(COMMANDS.verifyAllSessions)!(group, [group]);
      assert.equal(last()[0], COMMANDS.verifyChain);
      assert.deepEqual(fsPaths(last()[2]).sort(), group.children.map((n) => (n as Leaf).entry.file).sort());
      // Check All on a multi-selection, each file once.
      await fake.commands.get(COMMANDS.checkAllSessions)!(a, [a, b, a]);
      assert.equal(last()[0], COMMANDS.checkConformance);
      assert.deepEqual(fsPaths(last()[2]), [a.entry.file, b.entry.file]);

      // Compare: two selected sessions, through Select for Compare and Compare with Selected.
      const n = fake.executed.length;
      await fake.commands.get(COMMANDS.compareSessions)!(a, [a, b]);
      assert.equal(fake.executed.length, n + 2, 'the two compare commands');
      assert.deepEqual(fake.executed.slice(-2).map((e) => [e[0], (e[1] as Uri).fsPath]), [
        [COMMANDS.selectForCompare, a.entry.file],
        [COMMANDS.compareWithSelected, b.entry.file],
      ]);
      const m = fake.messages.length;
      await fake.commands.get(COMMANDS.compareSessions)!(a, [a]);
      assert.match(fake.messages[m], /select two sessions to compare \(1 selected\)/);

      // Export: the house's export commands, picked from a quick pick (the first: the HTML report).
      fake.pick = (items) => items[0];
      await fake.commands.get(COMMANDS.exportSession)!(a);
      assert.deepEqual([last()[0], (last()[1] as Uri).fsPath], [COMMANDS.exportHtmlReport, a.entry.file]);
      // Copy Path on a multi-selection copies every path, a line each.
      await fake.commands.get(COMMANDS.copySessionPath)!(a, [a, b]);
      assert.deepEqual(last(), ['clipboard', `${a.entry.file}\n${b.entry.file}`]);
    } finally {
      for (const d of context.subscriptions) d.dispose();
    }
  });

  it('makes the verdict icons with agentTrace.rules, as Check does, and lists again under other rules rather than from the cache', async () => {
    const own = tempDir('atv-storage-rules-');
    const list = async () => {
      const q = new views.SessionsProvider(workerFor(own), () => agentHomeRoots(home), UTC_CLOCK);
      await q.refresh();
      q.dispose();
      const row = leaves(q.getChildren()).find((l) => l.entry.file === files.tampered)!;
      return { read: q.listing!.read, verdict: row.verdict, tooltip: row.tooltip, icon: q.getTreeItem(row).iconPath as { id: string } };
    };
    try {
      delete fake.config.rules;
      const plain = await list();
      assert.equal(plain.verdict, 'fail');
      assert.ok(plain.read > 0);
      assert.equal((await list()).read, 0, 'the same rules: from the cache');
      // The broken chain's rule made a warning: the row warns, read again (the cache was made under other rules).
      fake.config.rules = { 'lumen/event-hash': 'warning' };
      const warned = await list();
      assert.equal(warned.read, plain.read);
      assert.equal(warned.verdict, 'warn');
      assert.equal(warned.icon.id, 'warning');
      assert.match(warned.tooltip, /First: line 8, lumen\/event-hash \(verify\)/);
      assert.equal((await list()).verdict, 'warn', 'kept in the cache under these rules');
      // Turned off: no finding of it, so the row does not fail.
      fake.config.rules = { 'lumen/event-hash': 'off' };
      const off = await list();
      assert.equal(off.read, plain.read);
      assert.notEqual(off.verdict, 'fail');
      assert.doesNotMatch(off.tooltip, /event-hash/);
    } finally {
      delete fake.config.rules;
    }
  });
});
