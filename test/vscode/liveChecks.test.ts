// Checks during live tail (issue 13 item 5): after appends, a trace checked on open is checked again on the
// new model; a trace over the check-on-open size keeps its results, marked outdated in the header and Problems.
import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fake, FakePanel, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { tempDir } from '../helpers/tmp';
import { until as untilIn } from '../helpers/until';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { activate } = require('../../src/vscode/extension') as typeof import('../../src/vscode/extension');
const { STALE_NOTE } = require('../../src/vscode/commands/problems') as typeof import('../../src/vscode/commands/problems');
const { checkChips } = require('../../webview/checkWords') as typeof import('../../webview/checkWords');
type HostMessage = import('../../src/protocol').HostMessage;
type CheckSummary = import('../../src/protocol').CheckSummary;
type TraceDocument = import('../../src/vscode/editor/traceDocument').TraceDocument;

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
/** Two events under s1 and one more error: a dangling parent. */
const APPENDED = '{"type":"x","id":"n1","parent_id":"s1"}\n{"type":"x","id":"n2","parent_id":"s1"}\n{"type":"x","id":"n3","parent_id":"gone"}\n';

/** Checks run in a worker: allow them longer than the helper's default. */
const until = <T>(f: () => T | undefined | false, what: string): Promise<T> => untilIn(f, what, 8000);

describe('checks during live tail', function () {
  this.timeout(20_000);
  const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')), extension: { id: 'agent-trace-viewer.agent-trace-viewer' } };
  before(() => activate(context as never));
  after(() => {
    for (const d of context.subscriptions) d.dispose();
    delete fake.config.checkOnOpenMaxMB;
  });

  /** Opens a copy of the sample in the viewer; returns the document, the panel's messages and the file. */
  async function openCopy(name: string) {
    const file = join(tempDir(), name);
    copyFileSync(SAMPLE, file);
    const provider = fake.providers.get('agentTrace.viewer') as import('vscode').CustomReadonlyEditorProvider;
    const doc = (await provider.openCustomDocument(Uri.file(file) as never, {} as never, {} as never)) as TraceDocument;
    const panel = new FakePanel();
    await provider.resolveCustomEditor(doc as never, panel as never, {} as never);
    panel.fromWebview.fire({ type: 'ready', state: null });
    await doc.whenLoaded();
    const summaries = () => (panel.sent as HostMessage[]).flatMap((m) => (m.type === 'checkResults' ? [m.summary] : []));
    const lastOf = (mode: string): CheckSummary | undefined => summaries().filter((s) => s.mode === mode).pop();
    const problems = (collection: string) => (fake.diagnostics.get(collection)?.get(Uri.file(file).toString()) ?? []) as { message: string }[];
    const append = () => {
      appendFileSync(file, APPENDED);
      fake.watchers[fake.watchers.length - 1].change.fire(Uri.file(file));
    };
    return { file, doc, panel, lastOf, problems, append };
  }

  it('a trace checked on open is checked again after appends: counts of the new model, new findings in Problems', async () => {
    const t = await openCopy('live-small.jsonl');
    const first = await until(() => t.lastOf('check'), 'checks on open');
    assert.equal(first.checked, 11);
    // Both modes find the same two: Problems lists them once, under verification (issue 40).
    const listed = () => [...t.problems('agent-trace-verify'), ...t.problems('agent-trace-check')];
    assert.equal(listed().length, 2);
    t.append();
    const again = await until(() => (t.lastOf('check')?.checked === 14 ? t.lastOf('check') : undefined), 'conformance on 14 events');
    assert.equal(again.stale, undefined);
    assert.equal(again.warnings, 2, 'the appended dangling parent is found');
    await until(() => t.lastOf('verify')?.checked === 14, 'verification on 14 events');
    await until(() => (listed().length === 3 ? true : undefined), 'both modes ran again');
    assert.equal(listed().length, 3);
    assert.ok(listed().every((d) => !d.message.endsWith(STALE_NOTE)));
    t.doc.dispose();
  });

  it('a trace over the check-on-open size keeps its results marked outdated, in the header and in Problems', async () => {
    fake.config.checkOnOpenMaxMB = 0;
    const t = await openCopy('live-large.jsonl');
    await fake.commands.get('agentTrace.checkConformance')!(Uri.file(t.file));
    const first = await until(() => t.lastOf('check'), 'the conformance result');
    assert.equal(first.checked, 11);
    t.append();
    const stale = await until(() => (t.lastOf('check')?.stale ? t.lastOf('check') : undefined), 'the result marked outdated');
    assert.equal(stale.checked, 11, 'the counts are those of the run, not of the trace');
    assert.deepEqual(checkChips(stale).map((c) => c.text), ['conformance: outdated (11 events checked, the trace grew)']);
    await until(() => t.problems('agent-trace-check').every((d) => d.message.endsWith(STALE_NOTE)), 'Problems marked outdated');
    assert.equal(t.problems('agent-trace-check').length, 2, 'no re-run: the old findings stay, marked');
    assert.match(t.problems('agent-trace-check')[0].message, /^Line is not valid JSON/, 'the cause stays first');
    t.doc.dispose();
  });
});
