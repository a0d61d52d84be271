// Open in Agent Trace Viewer / Open as Text switch the file's tab in place (issue 13 item 11), and Open as
// Text lands on the event selected in the viewer.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fake, FakePanel, installFakeVscode, TabInputCustom, TabInputText, Uri, vscodeFake } from '../helpers/fakeVscode';
import { until } from '../helpers/until';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { registerTraceEditor } = require('../../src/vscode/editor/index') as typeof import('../../src/vscode/editor/index');
const { COMMANDS } = require('../../src/vscode/commandIds') as typeof import('../../src/vscode/commandIds');
type HostMessage = import('../../src/protocol').HostMessage;
type TraceDocument = import('../../src/vscode/editor/traceDocument').TraceDocument;

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

describe('switching between the viewer and the text of a trace', () => {
  const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')) };
  const group = vscodeFake.window.tabGroups.activeTabGroup;
  const realOpen = vscodeFake.workspace.openTextDocument;
  const uri = Uri.file(SAMPLE);
  before(() => {
    registerTraceEditor(context as never);
    const lines = readFileSync(SAMPLE, 'utf8').split('\n');
    (vscodeFake.workspace as Record<string, unknown>).openTextDocument = async (u: Uri) => ({ uri: u, lineCount: lines.length });
  });
  after(() => {
    for (const d of context.subscriptions) d.dispose();
    (vscodeFake.workspace as Record<string, unknown>).openTextDocument = realOpen;
    group.tabs = [];
  });
  beforeEach(() => {
    fake.closedTabs.length = 0;
    fake.shownText.length = 0;
  });

  it('Open in Agent Trace Viewer replaces the text tab of the file in the same group (other files stay)', async () => {
    const textTab = { input: new TabInputText(uri) };
    const otherTab = { input: new TabInputText(Uri.file('/elsewhere/other.jsonl')) };
    group.tabs = [otherTab, textTab];
    await fake.commands.get(COMMANDS.openInViewer)!(uri);
    const open = fake.executed.filter((e) => e[0] === 'vscode.openWith').pop()!;
    assert.deepEqual(open.slice(1), [uri, 'agentTrace.viewer', { viewColumn: 1, preview: false }]);
    assert.deepEqual(fake.closedTabs, [textTab]);
  });

  it("Open as Text replaces the viewer's tab and selects the line of the event selected in the viewer", async () => {
    const provider = fake.providers.get('agentTrace.viewer') as import('vscode').CustomReadonlyEditorProvider;
    const doc = (await provider.openCustomDocument(uri as never, {} as never, {} as never)) as TraceDocument;
    const panel = new FakePanel();
    await provider.resolveCustomEditor(doc as never, panel as never, {} as never);
    await doc.whenLoaded();
    panel.fromWebview.fire({ type: 'ready', state: null });
    await until(() => (panel.sent as HostMessage[]).find((m) => m.type === 'init'), 'init');
    panel.fromWebview.fire({ type: 'select', node: 3 });
    await until(() => (panel.sent as HostMessage[]).find((m) => m.type === 'detail'), 'the detail');
    const viewerTab = { input: new TabInputCustom(uri, 'agentTrace.viewer') };
    group.tabs = [viewerTab];
    // The viewer's own "Open as Text" button, then the command (both know the selection).
    panel.fromWebview.fire({ type: 'openAsText' });
    await until(() => fake.shownText.length === 1, 'the text shown');
    await fake.commands.get(COMMANDS.openAsText)!();
    for (const shown of fake.shownText) {
      const o = shown.options as { viewColumn: number; preview: boolean; selection: { startLine: number } };
      assert.equal(o.viewColumn, 1, 'the same group');
      assert.equal(o.preview, false);
      assert.equal(o.selection.startLine, 3, 'node 3 is line 4 (0-based 3)');
    }
    assert.deepEqual(fake.closedTabs, [viewerTab, viewerTab]);
    panel.disposed.fire();
    doc.dispose();
  });

  it('keeps the viewer tab when VS Code cannot open the file as text', async () => {
    (vscodeFake.workspace as Record<string, unknown>).openTextDocument = async () => {
      throw new Error('files above 50MB cannot be synchronized with extensions');
    };
    group.tabs = [{ input: new TabInputCustom(uri, 'agentTrace.viewer') }];
    await fake.commands.get(COMMANDS.openAsText)!(uri);
    assert.deepEqual(fake.closedTabs, []);
    assert.match(fake.messages[fake.messages.length - 1], /^Cannot open the trace as text/);
  });
});
