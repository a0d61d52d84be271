// Checks on open ride along the viewer's one read of the trace (issue 36, "one read per open"): each line is parsed
// once for the rows, the tree, the totals and both verdicts; the verdicts reach the viewer and Problems (with the
// finding line's real range) and equal the checks over a loaded model; a trace over the size cap is not checked.
import { strict as assert } from 'node:assert';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs = require('node:fs') as typeof import('node:fs');
import { join, resolve } from 'node:path';
import { fake, FakePanel, installFakeVscode, Uri } from '../helpers/fakeVscode';
import { corpusPath, WRITER_CORPUS } from '../helpers/corpus';
import { tempDir } from '../helpers/tmp';
import { until } from '../helpers/until';

installFakeVscode();
/* eslint-disable @typescript-eslint/no-require-imports */
const { activate } = require('../../src/vscode/extension') as typeof import('../../src/vscode/extension');
const { runChecks } = require('../../src/core/formatRules') as typeof import('../../src/core/formatRules');
const { loadTrace } = require('../../src/core/loadTrace') as typeof import('../../src/core/loadTrace');
type HostMessage = import('../../src/protocol').HostMessage;
type CheckSummary = import('../../src/protocol').CheckSummary;
type TraceDocument = import('../../src/vscode/editor/traceDocument').TraceDocument;

const MURMUR = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21/trace.jsonl');
const TAMPERED = corpusPath('lumen', 'negative', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl');

/** Counts the file's opens and how often each of its lines is parsed by JSON.parse while `work` runs. */
async function counting<T>(file: string, work: (snapshot: () => { opens: number; parses: Map<string, number> }) => Promise<T>): Promise<{ value: T; opens: number; parses: Map<string, number> }> {
  const lines = new Set(fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== ''));
  const parses = new Map<string, number>();
  let opens = 0;
  const fsAny = fs as unknown as Record<string, unknown> & { promises: Record<string, unknown> };
  const saved: [Record<string, unknown>, string, unknown][] = [];
  const wrap = (obj: Record<string, unknown>, name: string) => {
    const orig = obj[name] as (...a: unknown[]) => unknown;
    saved.push([obj, name, orig]);
    obj[name] = function (this: unknown, p: unknown, ...rest: unknown[]) {
      if (String(p) === file) opens++;
      return orig.call(this, p, ...rest);
    };
  };
  wrap(fsAny, 'openSync');
  wrap(fsAny, 'open');
  wrap(fsAny, 'createReadStream');
  wrap(fsAny, 'readFileSync');
  wrap(fsAny.promises, 'open');
  wrap(fsAny.promises, 'readFile');
  const parse = JSON.parse;
  JSON.parse = function (text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) {
    if (typeof text === 'string' && lines.has(text)) parses.set(text, (parses.get(text) ?? 0) + 1);
    return parse(text, reviver);
  };
  try {
    return { value: await work(() => ({ opens, parses: new Map(parses) })), opens, parses };
  } finally {
    JSON.parse = parse;
    for (const [obj, name, orig] of saved) obj[name] = orig;
  }
}

describe('checks on open ride along the viewer\'s read', function () {
  this.timeout(60_000);
  const context = { subscriptions: [] as { dispose(): void }[], extensionUri: Uri.file(resolve('.')), extension: { id: 'agent-trace-viewer.agent-trace-viewer' } };
  before(() => activate(context as never));
  after(() => {
    for (const d of context.subscriptions) d.dispose();
    delete fake.config.checkOnOpenMaxMB;
  });

  /**
   * Opens `file` in the viewer and waits for both verdicts (or `waitFor` false: only the model). `loaded`, when
   * given, runs once the document has its model and verdicts, before a panel shows it (and reads its first event).
   */
  async function open(file: string, waitFor = true, loaded?: () => void) {
    const provider = fake.providers.get('agentTrace.viewer') as import('vscode').CustomReadonlyEditorProvider;
    const doc = (await provider.openCustomDocument(Uri.file(file) as never, {} as never, {} as never)) as TraceDocument;
    if (loaded) {
      await doc.whenLoaded();
      await until(() => doc.checkResults.has('verify') && doc.checkResults.has('check'), 'both verdicts on the document', 30_000);
      loaded();
    }
    const panel = new FakePanel();
    await provider.resolveCustomEditor(doc as never, panel as never, {} as never);
    panel.fromWebview.fire({ type: 'ready', state: null });
    await doc.whenLoaded();
    const summaries = () => (panel.sent as HostMessage[]).flatMap((m) => (m.type === 'checkResults' ? [m.summary] : []));
    const last = (mode: string): CheckSummary | undefined => summaries().filter((s) => s.mode === mode).pop();
    if (waitFor) await until(() => last('verify') && last('check'), 'both verdicts', 30_000);
    const problems = (collection: string) => (fake.diagnostics.get(collection)?.get(Uri.file(file).toString()) ?? []) as { message: string; range: { startLine: number; endChar: number } }[];
    return { doc, panel, last, problems, summaries };
  }

  for (const [name, file] of [
    ['a murmur session with blobs', MURMUR],
    ['a real Claude Code session', join(WRITER_CORPUS, 'claude-code-2.1.332', 'shell-ok', 'projects', '-home-user-project', 'fd2851d8-4d90-46bd-89d6-038b3d980bdb.jsonl')],
    ['a lumen run', corpusPath('lumen', '.lumen', 'trace', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl')],
  ] as const) {
    it(`${name}: opened once, each line parsed once, both verdicts equal to the checks over a loaded model`, async () => {
      // Counted up to the document's model and verdicts: the panel's first detail (the event it opens on) then reads
      // that event's line again at its offset, as any selection does.
      let load: { opens: number; parses: Map<string, number> } | undefined;
      const { value: t, parses: all, opens: allOpens } = await counting(file, (snapshot) => open(file, true, () => (load = snapshot())));
      const { opens, parses } = load!;
      assert.ok(allOpens >= opens && all.size >= parses.size);
      // The probe, the read, the checks and both fingerprints share one handle (the load holds the file).
      assert.equal(opens, 1, 'the file is opened once');
      // Distinct lines: a writer may write the same line twice (each copy is then parsed once).
      const text = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
      const copies = new Map<string, number>();
      for (const l of text) copies.set(l, (copies.get(l) ?? 0) + 1);
      assert.equal(parses.size, copies.size, 'every line was parsed');
      const again = [...parses].filter(([l, n]) => n > copies.get(l)!).map(([l]) => text.indexOf(l) + 1);
      assert.deepEqual(again, [], `lines parsed more than once: ${again.join(', ')}`);
      const model = await loadTrace(file);
      for (const mode of ['verify', 'check'] as const) {
        const expected = await runChecks(model, mode);
        const shown = t.doc.checkResults.get(mode)!;
        assert.deepStrictEqual(shown, expected, mode);
        assert.equal(t.last(mode)!.checked, expected.checked);
        assert.equal(t.problems(mode === 'verify' ? 'agent-trace-verify' : 'agent-trace-check').length, expected.findings.length, mode);
      }
      t.doc.dispose();
    });
  }

  it('a tampered lumen run: the chain break is in the viewer and in Problems at the tampered line, with the line\'s real range', async () => {
    const t = await open(TAMPERED);
    const verify = t.doc.checkResults.get('verify')!;
    assert.equal(verify.ok, false);
    const first = verify.findings.find((f) => f.severity === 'error')!;
    assert.match(first.rule, /^lumen\//);
    const d = t.problems('agent-trace-verify').find((p) => p.range.startLine === first.line - 1);
    assert.ok(d, `a problem on line ${first.line}`);
    assert.equal(d.range.endChar, fs.readFileSync(TAMPERED, 'utf8').split('\n')[first.line - 1].length);
    t.doc.dispose();
  });

  it('looks for blobs under the agentTrace.blobRoots setting, on open and in the Verify command', async () => {
    const dir = tempDir('vscode-blob-roots-');
    // An agentledger evidence copy whose blobs are kept elsewhere (an empty store beside the trace).
    fs.cpSync(corpusPath('agentledger', 'side-effect-idempotency'), join(dir, 'evidence'), { recursive: true });
    fs.renameSync(join(dir, 'evidence', 'blobs'), join(dir, 'kept'));
    fs.mkdirSync(join(dir, 'evidence', 'blobs', 'sha256'), { recursive: true });
    const file = join(dir, 'evidence', 'events.jsonl');
    const rulesOf = (r: { findings: { rule: string; line: number }[] } | undefined) => r?.findings.map((f) => `${f.rule}@${f.line}`);
    const missing = ['agentledger/blob-exists@5', 'agentledger/blob-exists@7', 'agentledger/blob-exists@15', 'agentledger/blob-exists@17'];
    const first = await open(file);
    assert.deepEqual(rulesOf(first.doc.checkResults.get('verify')), missing);
    first.doc.dispose();
    fake.config.blobRoots = [join(dir, 'kept')];
    try {
      const t = await open(file);
      assert.deepEqual(rulesOf(t.doc.checkResults.get('verify')), [], 'on open');
      const byCommand = (await fake.commands.get('agentTrace.verifyChain')!(Uri.file(file))) as { findings: { rule: string; line: number }[] }[];
      assert.deepEqual(rulesOf(byCommand[0]), [], 'the Verify command');
      t.doc.dispose();
    } finally {
      delete fake.config.blobRoots;
    }
  });

  it('a trace over agentTrace.checkOnOpenMaxMB is shown without checks, and says why', async () => {
    fake.config.checkOnOpenMaxMB = 0;
    try {
      const file = join(tempDir(), 'over-the-cap.jsonl');
      fs.copyFileSync(MURMUR, file);
      const t = await open(file, false);
      const skipped = await until(() => (t.panel.sent as HostMessage[]).find((m) => m.type === 'checksSkipped'), 'the skipped message', 10_000);
      assert.match(JSON.stringify(skipped), /over agentTrace\.checkOnOpenMaxMB/);
      assert.equal(t.doc.checkResults.size, 0);
      assert.equal(t.summaries().length, 0);
      t.doc.dispose();
    } finally {
      delete fake.config.checkOnOpenMaxMB;
    }
  });
});
