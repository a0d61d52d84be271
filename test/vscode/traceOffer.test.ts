// The adapter of the viewer's offer for a trace opened as text (issue 40): the context key, the one-time notification,
// Always for a format, the setting. Real writers' files under other names.
import { strict as assert } from 'node:assert';
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fake, installFakeVscode, setActiveTextEditor, Uri } from '../helpers/fakeVscode';
import { tempDir } from '../helpers/tmp';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { registerTraceOffer, IS_TRACE_CONTEXT, OFFER_OPEN, OFFER_LATER, ALWAYS_KEY } = require('../../src/vscode/editor/traceOffer') as typeof import('../../src/vscode/editor/traceOffer');

const CLAUDE = resolve('test/corpus/claude-code-2.1.332/shell-ok/projects/-home-user-project/fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl');

class Memento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string, d?: T): T {
    return (this.values.has(key) ? this.values.get(key) : d) as T;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
  keys(): string[] {
    return [...this.values.keys()];
  }
}

const editorOf = (file: string) => ({ document: { uri: Uri.file(file) } });
const contextKey = () => [...fake.executed].reverse().find((c) => c[0] === 'setContext' && c[1] === IS_TRACE_CONTEXT)?.[2];
/** Where the commands of the current test begin (the fake records every test's commands of the run). */
let since = 0;
const openedWith = () => fake.executed.slice(since).filter((c) => c[0] === 'vscode.openWith').map((c) => (c[1] as Uri).fsPath);

describe('offer of the viewer for a trace opened as text (adapter)', () => {
  afterEach(() => {
    fake.answer = () => undefined;
    delete fake.config.offerViewer;
    setActiveTextEditor(undefined);
  });

  function setup() {
    since = fake.executed.length;
    const dir = tempDir();
    const trace = join(dir, 'transcript-copy.jsonl');
    copyFileSync(CLAUDE, trace);
    const other = join(dir, 'second.jsonl');
    copyFileSync(CLAUDE, other);
    const generic = join(dir, 'lines.jsonl');
    copyFileSync(resolve('test/fixtures/viewer/sample.jsonl'), generic);
    const context = { workspaceState: new Memento(), globalState: new Memento(), subscriptions: [] as { dispose(): unknown }[] };
    const offer = registerTraceOffer(context as never);
    return { trace, other, generic, context, offer };
  }

  it('a Claude Code transcript opened as text: the title button key, one notification naming the format, Open switches to the viewer', async () => {
    const { trace, generic, context, offer } = setup();
    const asked: string[][] = [];
    fake.answer = (_m, items) => (asked.push(items), OFFER_OPEN);
    const before = fake.messages.length;
    setActiveTextEditor(editorOf(trace));
    await offer.settled();
    assert.equal(contextKey(), true);
    assert.match(fake.messages[before], /transcript-copy\.jsonl is a claude-code trace/);
    assert.deepEqual(asked, [[OFFER_OPEN, 'Always for claude-code', OFFER_LATER]]);
    assert.deepEqual(openedWith(), [trace]);
    // Generic JSON lines: no key, no notification.
    setActiveTextEditor(editorOf(generic));
    await offer.settled();
    assert.equal(contextKey(), false);
    assert.equal(fake.messages.length, before + 1);
    // Back to the trace: offered once per file, remembered in the workspace state.
    setActiveTextEditor(editorOf(trace));
    await offer.settled();
    assert.equal(contextKey(), true);
    assert.equal(fake.messages.length, before + 1);
    assert.deepEqual(context.workspaceState.get(`agentTrace.offeredFiles`), [Uri.file(trace).toString()]);
    for (const d of context.subscriptions) d.dispose();
  });

  it('Always for the format opens the next such file in the viewer without asking, once; the setting turns the offer off', async () => {
    const { trace, other, context, offer } = setup();
    fake.answer = (_m, items) => items[1];
    setActiveTextEditor(editorOf(trace));
    await offer.settled();
    assert.deepEqual(context.globalState.get(ALWAYS_KEY), ['claude-code']);
    const before = fake.messages.length;
    setActiveTextEditor(editorOf(other));
    await offer.settled();
    assert.equal(fake.messages.length, before, 'no question');
    assert.deepEqual(openedWith(), [trace, other]);
    // Opened as text again afterwards (Open as Text): it stays text.
    setActiveTextEditor(editorOf(other));
    await offer.settled();
    assert.deepEqual(openedWith(), [trace, other]);
    for (const d of context.subscriptions) d.dispose();
    // The setting off: no notification, the title button still shows.
    const again = setup();
    fake.config.offerViewer = false;
    const n = fake.messages.length;
    setActiveTextEditor(editorOf(again.trace));
    await again.offer.settled();
    assert.equal(fake.messages.length, n);
    assert.equal(contextKey(), true);
    for (const d of again.context.subscriptions) d.dispose();
  });
});
