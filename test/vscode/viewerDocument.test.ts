import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fake, FakePanel, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { tempDir } from '../helpers/tmp';
import { until } from '../helpers/until';
import { openDocument } from '../helpers/traceDocuments';

installFakeVscode();
// Loaded after the fake is installed: these modules import 'vscode'.
/* eslint-disable @typescript-eslint/no-require-imports */
const { TraceDocument } = require('../../src/vscode/editor/traceDocument') as typeof import('../../src/vscode/editor/traceDocument');
const { registerTraceEditor } = require('../../src/vscode/editor/index') as typeof import('../../src/vscode/editor/index');
const { TraceViewer } = require('../../src/vscode/editor/traceViewer') as typeof import('../../src/vscode/editor/traceViewer');
type DocumentEvent = import('../../src/vscode/editor/traceDocument').DocumentEvent;
type HostMessage = import('../../src/protocol').HostMessage;

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

const openDoc = openDocument;

describe('trace document: loading and following the file', () => {
  afterEach(() => {
    fake.config.maxFileSizeMB = 2048;
    fake.config.liveUpdates = true;
  });

  it('loads the model and resolves whenLoaded', async () => {
    const { doc, last } = openDoc(SAMPLE);
    await doc.load();
    const m = await doc.whenLoaded();
    assert.equal(m?.events.size, 11);
    assert.equal(last('model')?.state, 'ready');
    doc.dispose();
  });

  it('follows appends (new model, "N new events"), rewrites (reload, checks cleared) and deletion', async () => {
    const file = join(tempDir(), 'live.trace.jsonl');
    copyFileSync(SAMPLE, file);
    const { doc, events, last } = openDoc(file);
    await doc.load();
    doc.watch();
    const watcher = fake.watchers[fake.watchers.length - 1];
    appendFileSync(file, '{"type":"x","id":"n1","parent_id":"s1"}\n{"type":"x","id":"n2","parent_id":"s1"}\n');
    watcher.change.fire(Uri.file(file));
    const appended = await until(() => (last('model')?.state === 'appended' ? last('model') : undefined), 'append');
    assert.equal(appended.message, '2 new events');
    assert.equal(appended.model.events.size, 13);
    doc.setCheckResults('verify', { file, format: 'generic', ok: true, checked: 13, findings: [] });
    writeFileSync(file, readFileSync(file, 'utf8').replace('session_start', 'session_begin'));
    watcher.change.fire(Uri.file(file));
    const rewritten = await until(() => (last('model')?.state === 'rewritten' ? last('model') : undefined), 'rewrite');
    assert.match(rewritten.message ?? '', /rewritten on disk and has been reloaded/);
    assert.ok(events.some((e) => e.type === 'clearChecks'));
    assert.equal(doc.checkResults.size, 0);
    writeFileSync(file, readFileSync(SAMPLE));
    watcher.change.fire(Uri.file(file));
    const truncated = await until(() => (last('model')?.state === 'truncated' ? last('model') : undefined), 'truncate');
    assert.equal(truncated.model.events.size, 11);
    unlinkSync(file);
    watcher.del.fire(Uri.file(file));
    const deleted = await until(() => last('fileState'), 'deleted');
    assert.equal(deleted.state, 'deleted');
    assert.equal(doc.model?.events.size, 11, 'the last content stays on screen');
    doc.dispose();
  });

  it('follows an append by parsing only the new bytes (issue 14 item 6), and a rewrite by reading again', async () => {
    const MURMUR = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');
    const dir = tempDir();
    const file = join(dir, 'trace.jsonl');
    copyFileSync(MURMUR, file);
    const { doc, last } = openDoc(file);
    await doc.load();
    doc.watch();
    const before = doc.model!.events.size;
    const watcher = fake.watchers[fake.watchers.length - 1];
    const lines = readFileSync(MURMUR, 'utf8').trimEnd().split('\n');
    // Two more lines as murmur writes them (copies of inference lines with new ids).
    const extra = lines.slice(2, 4).map((l, k) => l.replace(/"event_id":"evt_[0-9a-f]+"/, `"event_id":"evt_appended${k}"`)).join('\n') + '\n';
    appendFileSync(file, extra);
    watcher.change.fire(Uri.file(file));
    const appended = await until(() => (last('model')?.state === 'appended' ? last('model') : undefined), 'append');
    assert.equal(appended.message, '2 new events');
    assert.equal(appended.model.events.size, before + 2);
    assert.equal(doc.lastAppendBytes, Buffer.byteLength(extra), 'only the appended bytes were read');
    // A rewrite cannot be followed from where the read stopped: the whole file is read again.
    writeFileSync(file, readFileSync(file, 'utf8').replace('session_start', 'session_begin'));
    watcher.change.fire(Uri.file(file));
    const rewritten = await until(() => (last('model')?.state === 'rewritten' ? last('model') : undefined), 'rewrite');
    assert.equal(rewritten.model.events.size, before + 2);
    doc.dispose();
  });

  it('a half-written last line is pending while the file grows: no finding, no malformed row; the rest makes it an event; a writer that stops leaves the torn-tail warning (issue 40)', async function () {
    this.timeout(30_000);
    const CLAUDE = resolve('test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');
    const lines = readFileSync(CLAUDE, 'utf8').split('\n');
    const file = join(tempDir(), 'session.jsonl');
    writeFileSync(file, lines.slice(0, 23).join('\n') + '\n');
    const { doc, events, last } = openDoc(file);
    await doc.load();
    doc.watch();
    const watcher = fake.watchers[fake.watchers.length - 1];
    const before = doc.model!.events.size;
    const assistant = lines[23];
    const half = Math.floor(assistant.length / 2);
    const shownModels = () => events.filter((e): e is Extract<DocumentEvent, { type: 'model' }> => e.type === 'model');
    const seen = shownModels().length;
    appendFileSync(file, assistant.slice(0, half));
    watcher.change.fire(Uri.file(file));
    const pending = await until(() => shownModels().slice(seen).find((e) => e.state === 'appended'), 'append of half a line');
    assert.deepEqual(pending.model.diagnostics.filter((d) => d.line === 24), [], 'no finding on the line being written');
    assert.deepEqual(pending.model.malformed, [], 'no unparseable row');
    assert.equal(pending.model.events.size, before);
    assert.match(pending.message ?? '', /line 24 is still being written/);
    // The rest of the line arrives: it is an event, and no model in between showed the line as an error.
    appendFileSync(file, assistant.slice(half) + '\n');
    watcher.change.fire(Uri.file(file));
    const complete = await until(() => (last('model')!.model.events.size > before ? last('model') : undefined), 'the completed line');
    assert.ok(Array.from({ length: complete.model.events.size - before }, (_, k) => complete.model.events.lineOf(before + k)).includes(24));
    for (const e of shownModels().slice(seen)) {
      assert.ok(!e.model.diagnostics.some((d) => d.line === 24), `no finding on line 24 in a model shown as ${e.state}`);
      assert.deepEqual(e.model.malformed, []);
    }
    // Half of the next line, and the writer stops: once the file keeps its size, the line is the torn-tail warning.
    appendFileSync(file, lines[24].slice(0, 40));
    watcher.change.fire(Uri.file(file));
    const torn = await until(() => last('model')!.model.diagnostics.find((d) => d.line === 25), 'the torn-tail warning', 15_000);
    assert.equal(torn.rule, 'parse/torn-tail');
    assert.equal(torn.severity, 'warning');
    assert.match(last('model')!.message ?? '', /stopped growing/);
    doc.dispose();
  });

  it('says so instead of reloading when live updates are off', async () => {
    fake.config.liveUpdates = false;
    const file = join(tempDir(), 'quiet.jsonl');
    copyFileSync(SAMPLE, file);
    const { doc, last } = openDoc(file);
    await doc.load();
    doc.watch();
    appendFileSync(file, '{"type":"x"}\n');
    fake.watchers[fake.watchers.length - 1].change.fire(Uri.file(file));
    const st = await until(() => last('fileState'), 'file state');
    assert.equal(st.state, 'appended');
    assert.match(st.message ?? '', /Reload/);
    doc.dispose();
  });

  it('asks before indexing a file over the size limit, and shows a quick first look of large files', async () => {
    fake.config.maxFileSizeMB = 1;
    const file = join(tempDir(), 'big.jsonl');
    const line = JSON.stringify({ type: 'step', id: 'x', pad: 'p'.repeat(400) }) + '\n';
    writeFileSync(file, line.repeat(Math.ceil((9 << 20) / line.length)));
    const a = openDoc(file);
    await a.doc.load();
    const err = a.last('error');
    assert.ok(err && err.actions.includes('openAnyway') && err.actions.includes('openAsText'), 'over the limit: ask');
    await a.doc.load({ ignoreSizeLimit: true });
    const models = a.events.filter((e): e is Extract<DocumentEvent, { type: 'model' }> => e.type === 'model');
    assert.equal(models.length, 2, 'a quick look, then the full model');
    assert.equal(models[0].state, 'loading');
    assert.ok(models[0].model.events.size < models[1].model.events.size);
    assert.equal(models[1].state, 'ready');
    assert.ok(a.events.some((e) => e.type === 'progress'), 'progress is reported');
    a.doc.dispose();
  });

  it('a panel resolved after the quick first look shows its rows at once, before the full read ends', async () => {
    const file = join(tempDir(), 'big-late-panel.jsonl');
    const line = JSON.stringify({ type: 'step', id: 'x', pad: 'p'.repeat(400) }) + '\n';
    writeFileSync(file, line.repeat(Math.ceil((9 << 20) / line.length)));
    const { doc } = openDoc(file);
    let lateViewer: InstanceType<typeof TraceViewer> | undefined;
    let laterViewer: InstanceType<typeof TraceViewer> | undefined;
    let fullDone = false;
    const newViewer = () => new TraceViewer(doc, new FakePanel() as never, Uri.file(resolve('.')) as never, () => ({}), 20_000);
    // One panel is resolved inside the quick look's event, one just after it: the full read is still running.
    doc.onDidChange((e) => {
      if (e.type !== 'model' || e.state !== 'loading' || lateViewer) return;
      lateViewer = newViewer();
      queueMicrotask(() => (laterViewer = newViewer()));
    });
    const loaded = doc.load().then(() => (fullDone = true));
    await until(() => laterViewer, 'the quick look');
    assert.equal(fullDone, false);
    for (const v of [lateViewer!, laterViewer!]) {
      const quick = v.session.current;
      assert.ok(quick && quick.partial, 'the panel shows the quick look');
      assert.ok(quick.events.size > 1000 && quick.bytesIndexed <= 3 << 20, `${quick.events.size} events from the first megabytes`);
    }
    await loaded;
    assert.ok(doc.model && !doc.model.partial);
    for (const v of [lateViewer!, laterViewer!]) assert.equal(v.session.current, doc.model, 'then the full model replaces it');
    lateViewer!.dispose();
    laterViewer!.dispose();
    doc.dispose();
  });
});

describe('trace editor: registration, panels and the API for other features', () => {
  it('registers the editor and commands that package.json declares, and serves a panel', async () => {
    const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')) };
    const api = registerTraceEditor(context as never);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    // Every declared view type has the provider and an activation event; the editor's own commands are
    // registered here (the others by src/commands, checked in the integration suite).
    for (const e of pkg.contributes.customEditors as { viewType: string }[]) {
      assert.ok(fake.providers.has(e.viewType), `${e.viewType} has a provider`);
      assert.ok(pkg.activationEvents.includes(`onCustomEditor:${e.viewType}`), `${e.viewType} activates the extension`);
    }
    for (const c of ['agentTrace.openInViewer', 'agentTrace.openAsText', 'agentTrace.find']) assert.ok(fake.commands.has(c), `${c} is registered`);
    assert.ok(pkg.contributes.commands.some((c: { command: string }) => c.command === 'agentTrace.find'));

    const provider = fake.providers.get('agentTrace.viewer') as import('vscode').CustomReadonlyEditorProvider;
    const uri = Uri.file(SAMPLE);
    const doc = (await provider.openCustomDocument(uri as never, {} as never, {} as never)) as InstanceType<typeof TraceDocument>;
    const panel = new FakePanel();
    const active: unknown[] = [];
    const opened: string[] = [];
    api.onDidChangeActiveViewer((h) => active.push(h));
    api.onDidOpenTrace((u) => opened.push(u.toString()));
    await provider.resolveCustomEditor(doc as never, panel as never, {} as never);
    assert.match(panel.webview.html, /Content-Security-Policy/);
    assert.deepEqual((panel.webview.options.localResourceRoots as Uri[]).map((u) => u.path.split('/').pop()), ['dist', 'media']);
    assert.equal(panel.webview.options.retainContextWhenHidden, undefined);
    const handle = api.getOpenViewer(uri as never);
    assert.ok(handle && api.activeViewer === handle && active.length === 1);
    assert.equal(api.activeUri(), uri);
    await handle.whenLoaded();
    assert.deepEqual(opened, [uri.toString()]);
    panel.fromWebview.fire({ type: 'ready', state: null });
    const sent = panel.sent as HostMessage[];
    const init = await until(() => sent.find((m) => m.type === 'init'), 'init');
    assert.equal(init.type === 'init' && init.header.events, 11);
    panel.fromWebview.fire({ type: 'select', node: 'not a number' });
    panel.fromWebview.fire({ type: 'nonsense' });
    // The checks on open ride along the read (both verdicts reach the panel); then results shown by a command.
    await until(() => doc.checkResults.size === 2 && sent.filter((m) => m.type === 'checkResults').length >= 2, 'the verdicts of the checks on open');
    const shownBefore = sent.length;
    api.showCheckResults(uri as never, 'verify', { file: SAMPLE, format: 'generic', ok: false, checked: 11, findings: [{ rule: 'x/y', severity: 'error', line: 4, message: 'm' }] });
    const cr = await until(() => sent.slice(shownBefore).find((m) => m.type === 'checkResults'), 'check results');
    assert.ok(cr.type === 'checkResults' && cr.summary.firstErrorLine === 4);
    assert.equal(await api.revealLine(uri as never, 5), true);
    assert.equal(await api.revealLine(Uri.file('/nowhere.jsonl') as never, 5), false);
    const rs = await until(() => sent.find((m) => m.type === 'rowsState' && m.reveal?.node === 4), 'reveal');
    assert.ok(rs);
    // The viewer's buttons call the features directly (no command bus, no "not available" fallback).
    const called: string[] = [];
    api.setFeatures({
      runChecks: async (u, mode) => void called.push(`${mode} ${u.toString()}`),
      openBlob: async (u, digest, algorithm) => void called.push(`blob ${algorithm}:${digest} ${u.toString()}`),
    });
    const before = fake.executed.length;
    panel.fromWebview.fire({ type: 'runChecks', mode: 'verify' });
    panel.fromWebview.fire({ type: 'openBlob', digest: 'ab'.repeat(32), algorithm: 'sha256' });
    await until(() => (called.length === 2 ? true : undefined), 'the check and blob features called');
    assert.deepEqual(called, [`verify ${uri.toString()}`, `blob sha256:${'ab'.repeat(32)} ${uri.toString()}`]);
    assert.deepEqual(fake.executed.slice(before), [], 'no command was run for the buttons');
    assert.ok(!fake.messages.some((m) => /not available/.test(m)));
    panel.fromWebview.fire({ type: 'openExternal', url: 'javascript:alert(1)' });
    panel.fromWebview.fire({ type: 'openExternal', url: 'https://example.com/' });
    await until(() => (fake.executed.some((e) => e[0] === 'openExternal') ? true : undefined), 'open external');
    assert.deepEqual(fake.executed.filter((e) => e[0] === 'openExternal').map((e) => e[1]), ['https://example.com/'], 'only the web link was opened');
    panel.active = false;
    panel.disposed.fire();
    doc.dispose();
    assert.equal(api.getOpenViewer(uri as never), undefined);
    for (const d of context.subscriptions) d.dispose();
  });
});

describe('status bar item of the active viewer (issue 40)', () => {
  it('shows format, events, the selected line and the verdict while a viewer is active; hidden when none is; a failed verdict on the error background', async () => {
    const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')) };
    // Not checked on open: the verdict comes from the results set below.
    fake.config.checkOnOpen = false;
    const items = fake.statusBarItems.length;
    const api = registerTraceEditor(context as never);
    const item = fake.statusBarItems[items];
    assert.ok(item && !item.visible, 'hidden before a viewer is active');
    const provider = fake.providers.get('agentTrace.viewer') as import('vscode').CustomReadonlyEditorProvider;
    const uri = Uri.file(SAMPLE);
    const doc = (await provider.openCustomDocument(uri as never, {} as never, {} as never)) as InstanceType<typeof TraceDocument>;
    const panel = new FakePanel();
    await provider.resolveCustomEditor(doc as never, panel as never, {} as never);
    await doc.whenLoaded();
    await until(() => item.visible, 'the item shows');
    assert.equal(item.text, '$(list-tree) generic · 11 events · $(circle-large-outline) not checked');
    assert.deepEqual(item.command, { command: 'agentTrace.verifyChain', title: 'Verify Chain', arguments: [uri] });
    panel.fromWebview.fire({ type: 'ready', state: null });
    panel.fromWebview.fire({ type: 'select', node: 2 });
    await until(() => / · Ln \d+ · /.test(item.text), 'the selected line');
    doc.setCheckResults('verify', { file: SAMPLE, format: 'generic', ok: false, checked: 11, findings: [{ rule: 'parse/invalid-json', severity: 'error', line: 6, message: 'bad' }] });
    assert.match(item.text, /\$\(error\) 1 error$/);
    assert.equal((item.backgroundColor as { id: string }).id, 'statusBarItem.errorBackground');
    panel.active = false;
    panel.viewState.fire();
    assert.equal(item.visible, false, 'hidden when no viewer is active');
    panel.active = true;
    panel.viewState.fire();
    assert.equal(item.visible, true);
    panel.disposed.fire();
    assert.equal(item.visible, false);
    assert.ok(api);
    delete fake.config.checkOnOpen;
    doc.dispose();
    for (const d of context.subscriptions) d.dispose();
  });
});
