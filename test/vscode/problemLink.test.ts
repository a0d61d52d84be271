// Problems → event (issue 13 item 3). VS Code opens a custom editor from the Problems panel without the
// marker's line (microsoft/vscode#94037), so each finding's rule code is a command link that reveals its
// event, and the rule's documentation is the related-information row under it.
import { strict as assert } from 'node:assert';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fake, installFakeVscode, Range, Uri } from '../helpers/fakeVscode';
import { until } from '../helpers/until';
import { tempDir } from '../helpers/tmp';
import { openInViewer } from '../helpers/fakeViewer';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { activate } = require('../../src/vscode/extension') as typeof import('../../src/vscode/extension');
const { COMMANDS } = require('../../src/vscode/commandIds') as typeof import('../../src/vscode/commandIds');
const { TraceProblems } = require('../../src/vscode/commands/problems') as typeof import('../../src/vscode/commands/problems');
const { loadTrace } = require('../../src/core/loadTrace') as typeof import('../../src/core/loadTrace');
const { runChecks } = require('../../src/core/formatRules') as typeof import('../../src/core/formatRules');
const { lineLengths } = require('../../src/vscode/traceModels') as typeof import('../../src/vscode/traceModels');

const SAMPLE = resolve('test/fixtures/viewer/sample.jsonl');
const ID = 'agent-trace-viewer.agent-trace-viewer';

/** The command and arguments a `command:` URI names, as VS Code's opener decodes them. */
function commandOf(target: { scheme: string; path: string; query: string }): { id: string; args: unknown[] } {
  assert.equal(target.scheme, 'command');
  return { id: target.path, args: JSON.parse(decodeURIComponent(target.query)) as unknown[] };
}

describe('Problems → event: the rule code of a finding reveals its event', () => {
  const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')), extension: { id: ID } };
  const ws = tempDir();
  const file = join(ws, 'broken.jsonl');
  before(() => {
    fake.config.checkOnOpen = false;
    copyFileSync(SAMPLE, file);
    activate(context as never);
  });
  after(() => {
    for (const d of context.subscriptions) d.dispose();
    delete fake.config.checkOnOpen;
  });

  it("every diagnostic's code links to the finding's line and its related row to the rule's heading in docs/rules.md", async () => {
    const model = await loadTrace(file);
    const result = await runChecks(model, 'verify');
    assert.ok(result.findings.length > 0, 'the sample has findings');
    const problems = new TraceProblems(Uri.file(resolve('.')) as never);
    const uri = Uri.file(file) as never;
    problems.set(uri, 'verify', result, lineLengths(model));
    const docLines = readFileSync(resolve('docs/rules.md'), 'utf8').split('\n');
    const shown = problems.get(uri);
    assert.equal(shown.length, result.findings.length);
    shown.forEach((d, k) => {
      const f = result.findings[k];
      const code = d.code as { value: string; target: { scheme: string; path: string; query: string } };
      assert.equal(code.value, f.rule);
      assert.deepEqual(commandOf(code.target), { id: COMMANDS.showProblem, args: [Uri.file(file).toString(), f.line] });
      const rel = d.relatedInformation![0] as unknown as { location: { uri: { path: string }; range: { line: number } }; message: string };
      assert.ok(rel.location.uri.path.endsWith('docs/rules.md'));
      assert.equal(docLines[rel.location.range.line], `## ${f.rule}`, `${f.rule} documentation line`);
    });
  });

  it('the link opens the viewer with that event selected, and a malformed link says so', async () => {
    const model = await loadTrace(file);
    const lineOfEvent = new Set([...Array(model.events.size).keys()].map((i) => model.events.lineOf(i)));
    // A finding on an event other than the first (parse errors sit on lines with no event).
    const finding = (await runChecks(model, 'verify')).findings.find((f) => f.line > 1 && lineOfEvent.has(f.line))!;
    assert.ok(finding, 'the sample has a finding on an event past the first');
    const { doc, panel, sent } = await openInViewer(file);
    const problems = new TraceProblems(Uri.file(resolve('.')) as never);
    problems.set(Uri.file(file) as never, 'verify', { ...(await runChecks(model, 'verify')) }, lineLengths(model));
    const d = problems.get(Uri.file(file) as never).find((x) => (x.range as unknown as { startLine: number }).startLine === finding.line - 1)!;
    const { id, args } = commandOf((d.code as unknown as { target: never }).target);
    const before = sent.length;
    await fake.commands.get(id)!(...(args as never[]));
    const node = model.events.size > 0 ? [...Array(model.events.size).keys()].find((i) => model.events.lineOf(i) === finding.line) : undefined;
    assert.notEqual(node, undefined, `an event sits on line ${finding.line}`);
    assert.ok(sent.slice(before).some((m) => m.type === 'rowsState' && m.reveal?.node === node), 'the finding\'s event is revealed and selected');

    await fake.commands.get(COMMANDS.showProblem)!('not a uri' as never);
    assert.ok(fake.messages.some((m) => m.includes('names no trace line')), fake.messages.join('\n'));
    panel.disposed.fire();
    doc.dispose();
  });

  it('a click on a Problems row of a trace shown as text moves the open viewer\'s selection to its event, without taking the focus (issue 40)', async () => {
    const model = await loadTrace(file);
    const { doc, panel, sent } = await openInViewer(file);
    await fake.commands.get(COMMANDS.verifyChain)!(Uri.file(file) as never);
    const shown = fake.diagnostics.get('agent-trace-verify')?.get(Uri.file(file).toString()) as { range: InstanceType<typeof Range> }[] | undefined;
    assert.ok(shown && shown.length > 0, 'verification put findings in Problems');
    const lineOfEvent = new Set([...Array(model.events.size).keys()].map((i) => model.events.lineOf(i)));
    const d = shown.find((x) => x.range.startLine > 0 && lineOfEvent.has(x.range.startLine + 1))!;
    assert.ok(d, 'a finding on an event past the first');
    const node = [...Array(model.events.size).keys()].find((i) => model.events.lineOf(i) === d.range.startLine + 1);
    const editor = { document: { uri: Uri.file(file) } };
    const revealed = panel.revealed.length;
    // A cursor moved elsewhere by the user is not a Problems click: the viewer stays where it is.
    let before = sent.length;
    fake.selectionChanged.fire({ textEditor: editor, selections: [new Range(d.range.startLine, 3, d.range.startLine, 3)] });
    assert.ok(!sent.slice(before).some((m) => m.type === 'rowsState' && m.reveal), 'no reveal for a plain cursor move');
    // The Problems row selects the finding's range in the text editor.
    before = sent.length;
    fake.selectionChanged.fire({ textEditor: editor, selections: [d.range] });
    await until(() => sent.slice(before).find((m) => m.type === 'rowsState' && m.reveal?.node === node), 'the finding\'s event selected in the viewer');
    assert.equal(panel.revealed.length, revealed, 'the viewer did not take the focus from the text editor');
    panel.disposed.fire();
    doc.dispose();
  });

  it('a finding both verification and conformance report (lumen/truncated) is listed once, under verification (issue 40)', async () => {
    // A lumen trace cut mid-line: no run_end, so both modes report lumen/truncated at the same line.
    const src = resolve('test/seed-corpus/lumen/.lumen/trace/55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl');
    const lines = readFileSync(src, 'utf8').trimEnd().split('\n');
    const cut = join(tempDir(), 'cut.jsonl');
    writeFileSync(cut, lines.slice(0, -1).join('\n') + '\n' + lines[lines.length - 1].slice(0, 40));
    const model = await loadTrace(cut);
    const problems = new TraceProblems(Uri.file(resolve('.')) as never);
    const uri = Uri.file(cut) as never;
    const truncated = () => problems.get(uri).filter((d) => (d.code as { value: string }).value === 'lumen/truncated');
    const check = await runChecks(model, 'check');
    assert.ok(check.findings.some((f) => f.rule === 'lumen/truncated'), 'conformance reports it too');
    problems.set(uri, 'check', check, lineLengths(model));
    assert.equal(truncated().length, 1, 'conformance alone lists it');
    problems.set(uri, 'verify', await runChecks(model, 'verify'), lineLengths(model));
    assert.equal(truncated().length, 1);
    assert.equal(truncated()[0].source, 'Agent Trace: Verify');
    problems.set(uri, 'check', check, lineLengths(model));
    assert.equal(truncated().length, 1, 'in either order');
    assert.ok(problems.get(uri).some((d) => (d.code as { value: string }).value === 'lumen/run-id-name'), 'conformance keeps its own findings');
    problems.dispose();
  });

  it('"Reveal in Trace Viewer" from the text editor brings the open viewer forward, no second tab (issue 40)', async () => {
    const model = await loadTrace(file);
    const { doc, panel, sent } = await openInViewer(file);
    const node = model.events.size - 1;
    const line = model.events.lineOf(node);
    const win = (require('vscode') as { window: { activeTextEditor: unknown } }).window;
    win.activeTextEditor = { document: { uri: Uri.file(file) }, selection: { active: { line: line - 1, character: 0 } } };
    const opens = fake.executed.filter((e) => e[0] === 'vscode.openWith').length;
    const before = sent.length;
    try {
      await fake.commands.get(COMMANDS.revealInViewer)!();
    } finally {
      win.activeTextEditor = undefined;
    }
    assert.equal(fake.executed.filter((e) => e[0] === 'vscode.openWith').length, opens, 'no second viewer was opened');
    assert.ok(panel.revealed.length > 0 && panel.revealed.every((c) => c === undefined || c === panel.viewColumn), 'the open viewer came forward in its own column');
    assert.ok(sent.slice(before).some((m) => m.type === 'rowsState' && m.reveal?.node === node), 'the line\'s event is selected');
    panel.disposed.fire();
    doc.dispose();
  });
});
