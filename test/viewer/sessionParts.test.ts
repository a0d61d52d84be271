import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrace } from '../../src/core/loadTrace';
import type { TraceModel } from '../../src/core/traceModel';
import type { DetailMessage, HeaderMessage, HostMessage, InitMessage, RowsMessage, RowsStateMessage, TranscriptPageMessage } from '../../src/protocol';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { RecordingHost, recordingHost } from '../helpers/viewerHost';
import { until } from '../helpers/until';
import { nodeAtLine, nodeAtPlace, placeOfNode } from '../../src/viewer/traceRows';
import { WRITER_CORPUS } from '../helpers/corpus';
import { findInTrace } from '../../src/viewer/findInTrace';

/** The real-writer session whose Agent call started a subagent, read as the viewer reads it: with its subagent. */
const CASE = join(WRITER_CORPUS, 'claude-code-2.1.332/subagent/projects');
const REL = '-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4';
const SESSION = join(CASE, `${REL}.jsonl`);
const SUBAGENT = join(CASE, REL, 'subagents/agent-a5c03940d33ae9f06.jsonl');
const linesOf = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

async function opened(model: TraceModel): Promise<{ s: ViewerSession; host: RecordingHost }> {
  const host = recordingHost();
  const s = new ViewerSession(host, { expandAllMaxEvents: 20_000 });
  await s.handle({ type: 'ready', state: null });
  s.setModel(model);
  return { s, host };
}

describe('viewer: a session read with its subagent (TraceModel.parts)', () => {
  it('shows every event of both files once in the rows, the subagent\'s under the Agent call', async () => {
    const model = await loadTrace(SESSION, { sessionParts: true });
    const { s, host } = await opened(model);
    const init = host.sent.find((m): m is InitMessage => m.type === 'init')!;
    assert.equal(init.totalRows, model.events.size - init.bookkeeping!.count, 'all expanded, bookkeeping folded: one row per other event');
    // With the bookkeeping lines shown, every event of both files is a row.
    await s.handle({ type: 'setShowBookkeeping', show: true });
    const state = host.sent.filter((m): m is RowsStateMessage => m.type === 'rowsState').pop()!;
    assert.equal(state.totalRows, model.events.size, 'all expanded: one row per event');
    await s.handle({ type: 'requestRows', rowsVersion: state.rowsVersion, start: 0, count: 200 });
    const rows = (await until(() => host.sent.find((m): m is RowsMessage => m.type === 'rows'))).rows;
    assert.deepEqual(rows.map((r) => r.node).sort((a, b) => a - b), [...Array(model.events.size).keys()], 'each event once');
    const call = model.parts![1].call;
    const at = rows.findIndex((r) => r.node === call);
    const sub = rows.findIndex((r) => r.node === model.parts![1].first);
    assert.ok(sub > at && rows[sub].depth === rows[at].depth + 1, 'the subagent\'s prompt is a child row of the call');
    assert.ok(Math.max(...rows.map((r) => r.depth)) <= 7, 'at most eight levels');
    assert.ok(rows.every((r) => (r.place !== undefined) === (model.events.partOf(r.node) !== 0)), 'a subagent row says its place');
    // Scrolled to the subagent's prompt, a new model (an append, a reload) keeps it at the top, not line 1 of the main file.
    await s.handle({ type: 'viewport', topLine: rows[sub].place! });
    s.setModel(model);
    const again = host.sent.filter((m): m is InitMessage => m.type === 'init').pop()!;
    assert.equal(again.topRow, sub);
    s.dispose();
  });

  it('keeps the header\'s session figures (23,824 in / 141 out, two tool calls)', async () => {
    const { s, host } = await opened(await loadTrace(SESSION, { sessionParts: true }));
    const h = await until(() => host.sent.find((m): m is HeaderMessage => m.type === 'header' && (m.header.usage?.files?.length ?? 0) > 1));
    assert.deepEqual([h.header.inputTokens, h.header.outputTokens, h.header.toolCalls, h.header.groups], [23824, 141, 2, 1], 'one session');
    assert.equal(h.header.events, linesOf(SESSION).length + linesOf(SUBAGENT).length, 'the subagent\'s events counted with the session\'s');
    assert.deepEqual(h.header.usage!.files!.map((f) => [f.role, f.inputTokens, f.outputTokens]), [['session', 16067, 94], ['subagent', 7757, 47]]);
    // The Statistics tab: the file's own figures, then the session's, each response and call once.
    await s.handle({ type: 'requestStatistics' });
    const stats = await until(() => {
      const all = host.sent.filter((m): m is Extract<HostMessage, { type: 'statistics' }> => m.type === 'statistics');
      return all.length >= 2 ? all : undefined;
    });
    assert.deepEqual(stats[0].stats.byTool.map((t) => [t.tool, t.calls]), [['Agent', 1]]);
    const session = stats[1].stats;
    assert.deepEqual(session.byModel.map((m) => [m.model, m.calls, m.inputTokens, m.outputTokens]), [['claude-opus-5-5', 5, 23824, 141]]);
    assert.deepEqual(session.byTool.map((t) => [t.tool, t.calls]), [['Agent', 1], ['Bash', 1]]);
    s.dispose();
  });

  it('details a subagent event from its own file and line, names the file, and reveals that file', async () => {
    const model = await loadTrace(SESSION, { sessionParts: true });
    const { s, host } = await opened(model);
    const sub = model.parts![1];
    const sublines = linesOf(SUBAGENT);
    for (const line of [1, 13, sublines.length]) {
      const node = nodeAtLine(model, line, 1)!;
      assert.equal(model.events.partOf(node), 1);
      await s.handle({ type: 'select', node });
      const d = await until(() => host.sent.find((m): m is DetailMessage => m.type === 'detail' && m.detail.node === node));
      assert.equal(d.detail.line, line);
      assert.equal(d.detail.raw, sublines[line - 1], `line ${line} of the subagent's file`);
      assert.deepEqual(d.detail.file, { index: 1, name: 'agent-a5c03940d33ae9f06.jsonl', role: 'subagent', title: 'Say hello via shell', place: placeOfNode(model, node) });
      assert.equal(placeOfNode(model, node) !== line && nodeAtPlace(model, placeOfNode(model, node)!), node, 'its place tells it from the main file\'s line');
    }
    assert.notEqual(nodeAtLine(model, 1), nodeAtLine(model, 1, 1), 'line 1 of each file is its own event');
    // A restored editor whose saved selection is a subagent event's place selects that event again.
    const picked = nodeAtLine(model, 13, 1)!;
    const again = recordingHost();
    const r = new ViewerSession(again, { expandAllMaxEvents: 20_000 });
    await r.handle({ type: 'ready', state: { selectedLine: placeOfNode(model, picked), topLine: null, expandedLines: null, expandedAll: false, detailTab: 'content', splitPosition: null } as never });
    r.setModel(model);
    assert.equal(again.sent.find((m): m is InitMessage => m.type === 'init')!.selectedNode, picked);
    r.dispose();
    await s.handle({ type: 'revealInTextEditor', line: 13, file: 1 });
    await s.handle({ type: 'revealInTextEditor', line: 3 });
    assert.deepEqual(host.revealed, [[13, SUBAGENT], [3, undefined]]);
    // The Agent call names its subagent (from the parts, no tool_use id parsed by the viewer).
    await s.handle({ type: 'select', node: sub.call });
    const d = await until(() => host.sent.find((m): m is DetailMessage => m.type === 'detail' && m.detail.node === sub.call));
    assert.deepEqual(d.detail.subagents?.map((x) => [x.index, x.name]), [[1, 'agent-a5c03940d33ae9f06.jsonl']]);
    assert.equal(d.detail.file, undefined, 'a main file\'s event has no file mark');
    s.dispose();
  });

  it('puts a damaged subagent line\'s finding on that file\'s line, not on the main file\'s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parts-viewer-'));
    try {
      cpSync(CASE, dir, { recursive: true });
      const subagent = join(dir, REL, 'subagents/agent-a5c03940d33ae9f06.jsonl');
      const lines = linesOf(subagent);
      // Line 12 (an assistant line) loses its parent link: a finding of the subagent's file alone.
      lines[11] = lines[11].replace(/"parentUuid":"[^"]+"/, '"parentUuid":"nowhere-0000"');
      writeFileSync(subagent, lines.join('\n') + '\n');
      const model = await loadTrace(join(dir, `${REL}.jsonl`), { sessionParts: true });
      const own = model.parts![1].model!;
      const finding = own.diagnostics.find((f) => f.line === 12);
      assert.ok(finding, JSON.stringify(own.diagnostics));
      assert.equal(model.diagnostics.length, 0);
      const { s, host } = await opened(model);
      const node = nodeAtLine(model, 12, 1)!;
      await s.handle({ type: 'select', node });
      const d = await until(() => host.sent.find((m): m is DetailMessage => m.type === 'detail' && m.detail.node === node));
      assert.deepEqual(d.detail.findings.map((f) => [f.rule, f.line, f.node]), [[finding!.rule, 12, node]]);
      const main12 = nodeAtLine(model, 12)!;
      await s.handle({ type: 'select', node: main12 });
      const m = await until(() => host.sent.find((x): x is DetailMessage => x.type === 'detail' && x.detail.node === main12));
      assert.deepEqual(m.detail.findings, [], 'line 12 of the main file has none');
      s.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds text of a subagent\'s line on that event, and a main file\'s line on the main file\'s event only', async () => {
    const model = await loadTrace(SESSION, { sessionParts: true });
    const r = await findInTrace(model, 'Running the command', { caseSensitive: true });
    assert.deepEqual(r.nodes, [nodeAtLine(model, 12, 1)], 'line 12 of the subagent\'s file, its only line with the text');
    const main = linesOf(SESSION);
    const word = 'still running';
    const want = main.flatMap((l, k) => (l.includes(word) ? [nodeAtLine(model, k + 1)!] : []));
    assert.ok(want.length > 0);
    const got = await findInTrace(model, word, { caseSensitive: true });
    assert.deepEqual(got.nodes.filter((n) => model.events.partOf(n) === 0).sort(), want.sort());
    assert.ok(got.nodes.filter((n) => model.events.partOf(n) !== 0).every((n) => linesOf(SUBAGENT)[model.events.lineOf(n) - 1].includes(word) || model.events.labelOf(n).includes(word)));
  });

  it('reads the subagent\'s messages in the transcript right after the Agent call, once each, marked with their file', async () => {
    const model = await loadTrace(SESSION, { sessionParts: true });
    const { s, host } = await opened(model);
    await s.handle({ type: 'requestTranscript', requestId: 7, start: 0, count: 500 });
    const page = await until(() => host.sent.find((m): m is TranscriptPageMessage => m.type === 'transcriptPage' && m.requestId === 7));
    const nodes = page.blocks.map((b) => b.node);
    assert.equal(new Set(nodes).size, nodes.length, 'each block once');
    const sub = model.parts![1];
    const mine = page.blocks.filter((b) => b.node >= sub.first);
    assert.ok(mine.length >= 3, 'the subagent\'s prompt, calls and report');
    assert.ok(mine.every((b) => b.file?.index === 1));
    const callAt = nodes.indexOf(sub.call);
    const first = nodes.indexOf(mine[0].node);
    assert.ok(callAt >= 0 && first > callAt, 'after the Agent call');
    assert.deepEqual(page.blocks.slice(first, first + mine.length).map((b) => b.node), mine.map((b) => b.node), 'together, in their file\'s order');
    assert.deepEqual(mine.map((b) => b.line), [...mine.map((b) => b.line)].sort((a, b) => a - b));
    s.dispose();
  });
});
