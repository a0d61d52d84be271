// The one model cache: a trace open in the viewer is answered from the viewer's model by hovers,
// definitions, references and Go to Event (the file is not read again); other files are read once.
import { strict as assert } from 'node:assert';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fake, FakePanel, installFakeVscode, Position, Uri } from '../helpers/fakeVscode';
import { tempDir } from '../helpers/tmp';
import { until } from '../helpers/until';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const fsp = require('node:fs/promises') as Record<string, unknown>;
const { activate } = require('../../src/vscode/extension') as typeof import('../../src/vscode/extension');
const { COMMANDS } = require('../../src/vscode/commandIds') as typeof import('../../src/vscode/commandIds');
type HostMessage = import('../../src/protocol').HostMessage;

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');

/**
 * Files the core's loader (loadTrace) or the viewer's document load opened or read since the spy was installed: the stack tells a load
 * from the viewer re-reading one line for the detail pane, which is how it is meant to work.
 */
const loads: string[] = [];
for (const name of ['open', 'readFile']) {
  const real = fsp[name] as (p: unknown, ...rest: unknown[]) => unknown;
  fsp[name] = (p: unknown, ...rest: unknown[]) => {
    // The loader's frames (loadTrace.ts), or the viewer's document holding the file open for its whole load.
    if (/\bloadTrace\b|\btraceDocument\.ts\b/.test(new Error().stack ?? '')) loads.push(String(p));
    return real(p, ...rest);
  };
}
const loadsOf = (file: string) => loads.filter((p) => p === file).length;

/** A text document of the fake: just what the language features use. */
function textDoc(file: string) {
  const lines = readFileSync(file, 'utf8').split('\n');
  return { uri: Uri.file(file), lineCount: lines.length, lineAt: (n: number) => ({ text: lines[n] }) };
}

/** The position of the `i1` in line 4's `"parent_id":"i1"` (0-based line 3). */
function parentIdPosition(file: string): Position {
  const line = readFileSync(file, 'utf8').split('\n')[3];
  return new Position(3, line.indexOf('"parent_id":"i1"') + '"parent_id":"'.length + 1);
}

interface Features {
  hover: { provideHover(d: unknown, p: unknown): Promise<{ contents: { value: string } } | undefined> };
  definition: { provideDefinition(d: unknown, p: unknown): Promise<{ range: Position } | undefined> };
  references: { provideReferences(d: unknown, p: unknown): Promise<unknown[] | undefined> };
}

describe('one model cache for the viewer and the language features', () => {
  const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')), extension: { id: 'agent-trace-viewer.agent-trace-viewer' } };
  let features: Features;

  before(() => {
    fake.config.checkOnOpen = false;
    activate(context as never);
    features = { hover: fake.language.get('hover'), definition: fake.language.get('definition'), references: fake.language.get('references') } as Features;
  });
  after(() => {
    for (const d of context.subscriptions) d.dispose();
    delete fake.config.checkOnOpen;
  });

  it('activation registers exactly the commands of COMMANDS', () => {
    for (const id of Object.values(COMMANDS)) assert.ok(fake.commands.has(id), `${id} is registered`);
    assert.deepEqual([...fake.commands.keys()].filter((k) => k.startsWith('agentTrace.')).sort(), Object.values(COMMANDS).sort());
  });

  it('a hover, a definition, references and Go to Event on a trace open in the viewer load nothing', async () => {
    const file = join(tempDir(), 'open.trace.jsonl');
    copyFileSync(SAMPLE, file);
    const provider = fake.providers.get('agentTrace.viewer') as import('vscode').CustomReadonlyEditorProvider;
    const doc = (await provider.openCustomDocument(Uri.file(file) as never, {} as never, {} as never)) as import('../../src/vscode/editor/traceDocument').TraceDocument;
    const panel = new FakePanel();
    await provider.resolveCustomEditor(doc as never, panel as never, {} as never);
    await doc.whenLoaded();
    assert.ok(loadsOf(file) >= 1, 'the viewer loaded the file');
    const before = loadsOf(file);

    const text = textDoc(file);
    const pos = parentIdPosition(file);
    const hover = await features.hover.provideHover(text, pos);
    assert.match(hover!.contents.value, /inference/, 'the hover names the parent event');
    // Counted as the viewer's hover card counts (issue 40: "mentioned by 10 events" there read "9 other events").
    assert.match(hover!.contents.value, /Mentioned by 1 other event$/, 'i1 is defined on line 3 and mentioned on line 4 only');
    const def = await features.definition.provideDefinition(text, pos);
    assert.equal(def!.range.line, 2, 'the definition is line 3 (0-based 2)');
    const refs = await features.references.provideReferences(text, pos);
    assert.equal(refs!.length, 2, 'i1 is defined on line 3 and mentioned on line 4');
    panel.fromWebview.fire({ type: 'ready', state: null });
    const sent = panel.sent as HostMessage[];
    await until(() => sent.find((m) => m.type === 'init'), 'the viewer is ready');
    fake.pick = (items) => (items as { line: number }[]).find((i) => i.line === 5);
    try {
      await fake.commands.get(COMMANDS.goToEvent)!(Uri.file(file));
    } finally {
      fake.pick = (items) => items[0];
    }
    await until(() => sent.find((m) => m.type === 'rowsState' && m.reveal?.node === 4), 'Go to Event revealed line 5 in the viewer');

    assert.equal(loadsOf(file), before, 'no feature loaded the trace again');
    panel.disposed.fire();
    doc.dispose();
  });

  it('a trace not open in the viewer is loaded once for hover, definition and Go to Event together', async () => {
    const file = join(tempDir(), 'closed.trace.jsonl');
    copyFileSync(SAMPLE, file);
    const text = textDoc(file);
    const pos = parentIdPosition(file);
    assert.equal(loadsOf(file), 0);
    assert.match((await features.hover.provideHover(text, pos))!.contents.value, /inference/);
    const once = loadsOf(file);
    assert.ok(once >= 1, 'the hover loaded the file');
    assert.equal((await features.definition.provideDefinition(text, pos))!.range.line, 2);
    fake.pick = () => undefined;
    try {
      await fake.commands.get(COMMANDS.goToEvent)!(Uri.file(file));
    } finally {
      fake.pick = (items) => items[0];
    }
    assert.equal(loadsOf(file), once, 'definition and Go to Event reused the first load');
  });

  it('Go to Event reads a typed number as a line: "14" lists line 14\'s event, not a label with 14 in it (issue 40)', async () => {
    const file = join(tempDir(), 'long.trace.jsonl');
    // Twenty events; line 5's label has "14" in it, as a fuzzy match of "14" would rank first.
    const lines = Array.from({ length: 20 }, (_, k) => JSON.stringify({ id: `e${k + 1}`, kind: 'step', name: k === 4 ? 'fetch 14 pages' : `step ${k + 1}` }));
    writeFileSync(file, lines.join('\n') + '\n');
    const seen: { line: number; alwaysShow?: boolean }[][] = [];
    fake.onQuickPick = (qp) => {
      for (const v of ['14', ':14', 'line 14']) {
        qp.type(v);
        seen.push([...(qp.items as { line: number; alwaysShow?: boolean }[])]);
      }
      qp.type('fetch');
      assert.equal(qp.items.length, 20, 'words still search every event');
      qp.type('14');
      qp.accept(qp.items[0]);
    };
    const shown = fake.shownText.length;
    try {
      await fake.commands.get(COMMANDS.goToEvent)!(Uri.file(file));
    } finally {
      fake.onQuickPick = undefined;
    }
    for (const items of seen) assert.deepEqual(items.map((x) => [x.line, x.alwaysShow]), [[14, true]]);
    const opened = fake.shownText[shown] as { options: { selection: { start?: { line: number }; startLine?: number } } };
    assert.ok(opened, 'the text editor opened at the event (no viewer shows the file)');
    // The fake Range keeps what it was built with: here the Position of line 14 (0-based 13).
    const start = (opened.options.selection as unknown as { startLine: number | { line: number } }).startLine;
    assert.equal(typeof start === 'number' ? start : start.line, 13);
  });
});
