// Issue 38, opencode: its real files (test/corpus/opencode-*: `opencode export` documents and `opencode run --format
// json` output) read as `opencode`, by the session model, with the usage of its own records counted once (its input
// leaves the cache out) and no finding on an intact file.
import { strict as assert } from 'node:assert';
import { readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize, summarizeSession } from '../../../../src/core/summary';
import { runChecks } from '../../../../src/core/formatRules';
import { sessionFilesOf } from '../../../../src/core/sessionUsage';
import type { TraceModel } from '../../../../src/core/traceModel';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';
import { tempDir, tempFile } from '../../../helpers/tmp';
import { buildDetail } from '../../../../src/viewer/eventDetail';
import { buildTranscriptIndex } from '../../../../src/viewer/transcript/transcriptIndex';
import { transcriptPage } from '../../../../src/viewer/transcript/transcriptPage';

const ALL = writerFiles('opencode', (p) => p.endsWith('.jsonl') || p.endsWith('.json'));
const EXPORTS = ALL.filter((f) => f.endsWith('.json'));
const STREAMS = ALL.filter((f) => f.endsWith('.jsonl'));
const name = (f: string) => f.slice(f.search(/opencode-\d/));
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];
const kinds = (m: TraceModel, kind: string) => indices(m).filter((i) => m.events.kindOf(i) === kind);

/** Token counts summed by hand the way opencode records them: its `input` leaves the cache out, the model read it all. */
function sumSteps(finishes: any[]): { input: number; output: number; cacheRead: number; cost: number } {
  const s = { input: 0, output: 0, cacheRead: 0, cost: 0 };
  for (const f of finishes) {
    s.input += f.tokens.input + f.tokens.cache.read + f.tokens.cache.write;
    s.output += f.tokens.output;
    s.cacheRead += f.tokens.cache.read;
    s.cost += f.cost;
  }
  return s;
}

describe('opencode: the real opencode files (issue 38)', () => {
  it('the corpus holds exports (a subagent session among them) and run --format json streams', () => {
    assert.ok(EXPORTS.length >= 5 && STREAMS.length >= 5 && EXPORTS.some((f) => basename(f) === 'export-subagent.json'), ALL.join('\n'));
  });

  for (const f of ALL) {
    it(`${name(f)}: opencode, every result under its call, turns under the session, no warning or error from verify or check`, async () => {
      const m = await loadTrace(f);
      assert.equal(m.format, 'opencode', m.detection.reason);
      assert.equal(m.detection.dialect, f.endsWith('.json') ? 'export' : 'run-json');
      for (const r of kinds(m, 'tool_result')) {
        const callId = m.events.mentionsOf(r)[0]?.id;
        const p = m.events.parent(r);
        assert.ok(p >= 0 && m.events.categoryOf(p) === 'tool' && m.events.id(p) === callId, `line ${m.events.lineOf(r)}: under call ${callId}`);
      }
      // No staircase: each turn is a child of the session, each model step of its turn (export) or the session (stream).
      const session = kinds(m, 'session');
      assert.equal(session.length, 1);
      assert.equal(m.events.parent(session[0]), -1);
      for (const u of kinds(m, 'user')) assert.equal(m.events.parent(u), session[0], `line ${m.events.lineOf(u)}`);
      for (const a of kinds(m, 'assistant')) assert.equal(m.events.kindOf(m.events.parent(a)), f.endsWith('.json') ? 'user' : 'session', `line ${m.events.lineOf(a)}`);
      for (const mode of ['verify', 'check'] as const) {
        const res = await runChecks(m, mode);
        const loud = res.findings.filter((x) => x.severity === 'error' || x.severity === 'warning');
        assert.deepEqual(loud.map((x) => `${x.line} ${x.rule} ${x.message}`), [], mode);
      }
    });
  }

  for (const f of EXPORTS) {
    it(`${name(f)}: tokens and cost are its step-finish parts once, equal to the session's own totals; calls and failures its own`, async () => {
      const doc = JSON.parse(readFileSync(f, 'utf8'));
      const parts = doc.messages.flatMap((x: any) => x.parts);
      const steps = sumSteps(parts.filter((p: any) => p.type === 'step-finish'));
      const tools = parts.filter((p: any) => p.type === 'tool');
      const failed = tools.filter((p: any) => p.state.status === 'error' || (p.state.status === 'completed' && (p.state.metadata?.exit ?? 0) !== 0)).length + doc.messages.filter((x: any) => x.info.error).length;
      // The session's own totals say the same (its input leaves the cache out).
      const t = doc.info.tokens;
      assert.equal(steps.input, t.input + t.cache.read + t.cache.write);
      assert.equal(steps.output, t.output);
      const s = summarize(await loadTrace(f));
      assert.equal(s.usage.total.inputTokens, steps.input);
      assert.equal(s.usage.total.outputTokens, steps.output);
      assert.equal(s.usage.total.cacheReadTokens, steps.cacheRead);
      assert.equal(s.usage.total.costUsd, doc.info.cost, 'the cost is the one opencode exported');
      assert.ok(Math.abs(steps.cost - doc.info.cost) < 1e-12);
      assert.equal(s.totals.toolCalls, tools.length);
      assert.equal(s.totals.errors, failed);
    });
  }

  for (const f of STREAMS) {
    it(`${name(f)}: tokens and cost are its step_finish lines once; calls and failures its tool_use lines`, async () => {
      const lines = jsonLines(f).map((l) => l.value);
      const steps = sumSteps(lines.filter((v) => v.type === 'step_finish').map((v) => v.part));
      const tools = lines.filter((v) => v.type === 'tool_use');
      const failed = tools.filter((v) => v.part.state.status === 'error' || (v.part.state.status === 'completed' && (v.part.state.metadata?.exit ?? 0) !== 0)).length + lines.filter((v) => v.type === 'error').length;
      const m = await loadTrace(f);
      const s = summarize(m);
      assert.equal(s.usage.total.inputTokens, steps.input);
      assert.equal(s.usage.total.outputTokens, steps.output);
      assert.equal(s.usage.total.cacheReadTokens, steps.cacheRead);
      assert.ok(Math.abs(s.usage.total.costUsd! - steps.cost) < 1e-12, `cost ${s.usage.total.costUsd} vs ${steps.cost}`);
      assert.equal(s.totals.toolCalls, tools.length);
      assert.equal(s.totals.errors, failed);
      // One model step per message: as many as the messages its parts name.
      assert.equal(kinds(m, 'assistant').length, new Set(lines.map((v) => v.part?.messageID)).size);
    });
  }

  it('a failing shell command is a failed call, as the other agents\' are (opencode records it completed, exit 2 in its metadata)', async () => {
    const m = await loadTrace(EXPORTS.find((x) => x.includes('/shell-fail/'))!);
    const [c] = kinds(m, 'tool');
    const [r] = kinds(m, 'tool_result');
    assert.equal(m.events.statusOf(c), 'error');
    assert.equal(m.events.statusOf(r), 'error');
    assert.match(m.events.labelOf(r), /exit 2/);
    assert.equal(summarize(m).totals.errors, 1);
  });

  it('the edit case: read, write and edit are calls with their results; the read of a missing file is a failed call (state error)', async () => {
    const f = EXPORTS.find((x) => x.includes('/edit/'));
    assert.ok(f, 'the corpus has the edit case');
    const m = await loadTrace(f);
    const calls = kinds(m, 'tool');
    assert.deepEqual(calls.map((i) => m.events.toolOf(i)), ['read', 'write', 'edit', 'read']);
    assert.deepEqual(calls.map((i) => m.events.statusOf(i)), ['ok', 'ok', 'ok', 'error']);
    const results = kinds(m, 'tool_result');
    assert.deepEqual(results.map((r) => m.events.parent(r)), calls);
    assert.match(m.events.labelOf(results[3]), /^read: .*missing.txt → error, .*: File not found/);
    assert.equal(summarize(m).totals.errors, 1);
  });

  it('the transcript reads each prompt (a text row under its turn) and each answer', async () => {
    const f = EXPORTS.find((x) => x.includes('/resume/'))!;
    const doc = JSON.parse(readFileSync(f, 'utf8'));
    const m = await loadTrace(f);
    const blocks = await transcriptPage(m, buildTranscriptIndex(m), 0, 200, new Map());
    const texts = blocks.flatMap((b) => b.messages.flatMap((x) => x.parts.flatMap((p: any) => (p.type === 'text' ? [p.text] : []))));
    const expected = doc.messages.flatMap((x: any) => x.parts.filter((p: any) => p.type === 'text').map((p: any) => p.text));
    assert.deepEqual(texts, expected);
    for (const u of kinds(m, 'user')) assert.ok(indices(m).some((i) => m.events.parent(i) === u && m.events.kindOf(i) === 'text'), `prompt under the turn at line ${m.events.lineOf(u)}`);
  });

  it('a tool part with state error is a failed call: call and result are errors, counted once', async () => {
    const dir = tempDir('atv-opencode-');
    try {
      const src = EXPORTS.find((x) => x.includes('/shell-ok/'))!;
      const doc = JSON.parse(readFileSync(src, 'utf8'));
      const tool = doc.messages.flatMap((x: any) => x.parts).find((p: any) => p.type === 'tool');
      tool.state = { status: 'error', input: tool.state.input, error: 'Error: unknown agent type', time: tool.state.time };
      const m = await loadTrace(tempFile('export.json', JSON.stringify(doc, null, 2), dir));
      const call = kinds(m, 'tool')[0];
      const [r] = kinds(m, 'tool_result');
      assert.equal(m.events.statusOf(call), 'error');
      assert.equal(m.events.statusOf(r), 'error');
      assert.equal(m.events.parent(r), call);
      assert.equal(summarize(m).totals.errors, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an export lists the subagent session exported beside it with the task call that started it; the session counts it once', async () => {
    const main = EXPORTS.find((x) => x.includes('/subagent/') && basename(x) === 'export.json')!;
    const sub = join(dirname(main), 'export-subagent.json');
    const mainDoc = JSON.parse(readFileSync(main, 'utf8'));
    const subDoc = JSON.parse(readFileSync(sub, 'utf8'));
    const task = mainDoc.messages.flatMap((x: any) => x.parts).find((p: any) => p.type === 'tool' && p.tool === 'task');
    assert.equal(task.state.metadata.sessionId, subDoc.info.id);
    assert.equal(subDoc.info.parentID, mainDoc.info.id);
    const m = await loadTrace(main);
    const files = await sessionFilesOf(m);
    assert.deepEqual(files.map((x) => [x.path, x.role, x.toolUseId, x.title]), [[sub, 'subagent', task.callID, subDoc.info.title]]);
    const s = await summarizeSession(m);
    const own = summarize(m).usage.total;
    const child = summarize(await loadTrace(sub)).usage.total;
    assert.equal(s.usage.total.inputTokens, own.inputTokens! + child.inputTokens!);
    assert.ok(Math.abs(s.usage.total.costUsd! - (mainDoc.info.cost + subDoc.info.cost)) < 1e-12, 'each session\'s exported cost, once');
    assert.deepEqual(await sessionFilesOf(await loadTrace(sub)), [], 'the subagent has no subagent of its own');
    // The task call names the child session, beside it or not.
    const call = kinds(m, 'tool').find((i) => m.events.toolOf(i) === 'task')!;
    assert.deepEqual(m.events.mentionsOf(call), [{ field: 'state.metadata.sessionId', id: subDoc.info.id }]);
  });

  it('read with its parts, the subagent session hangs under the task call that started it; its detail is its own document\'s', async () => {
    const main = EXPORTS.find((x) => x.includes('/subagent/') && basename(x) === 'export.json')!;
    const sub = join(dirname(main), 'export-subagent.json');
    const subDoc = JSON.parse(readFileSync(sub, 'utf8'));
    const m = await loadTrace(main, { sessionParts: true });
    assert.equal(m.parts?.length, 2);
    const part = m.parts![1];
    assert.equal(part.path, sub);
    assert.ok(part.call >= 0 && m.events.toolOf(part.call) === 'task' && m.events.partOf(part.call) === 0);
    const roots: number[] = [];
    for (let i = part.first; i < part.first + part.count; i++) if (m.events.parent(i) < part.first) roots.push(i);
    assert.deepEqual(roots.map((i) => [m.events.kindOf(i), m.events.id(i), m.events.parent(i)]), [['session', subDoc.info.id, part.call]]);
    assert.equal(part.count, (await loadTrace(sub)).events.size);
    // The checks judge the main file alone: nothing from the parts.
    const res = await runChecks(m, 'check');
    assert.deepEqual(res.findings.filter((x) => x.severity !== 'info'), []);
    const bash = [...Array(part.count).keys()].map((k) => part.first + k).find((i) => m.events.toolOf(i) === 'bash')!;
    const detail = await buildDetail(m, bash, []);
    assert.equal((detail as any).json?.callID, m.events.id(bash), 'the tool part of the subagent\'s own export');
  });

  it('an export whose subagent was not exported beside it has no session files (its task call still names the child)', async () => {
    const dir = tempDir('atv-opencode-');
    try {
      const main = tempFile('export.json', readFileSync(EXPORTS.find((x) => x.includes('/subagent/') && basename(x) === 'export.json')!), dir);
      tempFile('other.json', readFileSync(EXPORTS.find((x) => x.includes('/shell-ok/'))!), dir);
      const m = await loadTrace(main);
      assert.deepEqual(await sessionFilesOf(m), []);
      assert.match(m.events.labelOf(kinds(m, 'tool')[0]), /→ session ses_/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const f of STREAMS.filter((x) => x.includes('/shell-ok/') || x.includes('/subagent/'))) {
    it(`${name(f)}: a damaged copy (torn last line, an invalid line in the middle) reads with a finding at each and the rest shown`, async () => {
      const dir = tempDir('atv-opencode-');
      try {
        const lines = readFileSync(f, 'utf8').split('\n').filter((l) => l !== '');
        const middle = 3;
        const damaged = lines.map((l, i) => (i === middle - 1 ? '{"type":"text","part":' : l));
        damaged[damaged.length - 1] = damaged[damaged.length - 1].slice(0, 40);
        const m = await loadTrace(tempFile('run.jsonl', damaged.join('\n'), dir));
        assert.equal(m.format, 'opencode');
        const res = await runChecks(m, 'check');
        const at = (line: number) => res.findings.filter((x) => x.line === line && x.rule.startsWith('parse/')).map((x) => x.rule);
        assert.ok(at(middle).length > 0, `a finding at line ${middle}: ${JSON.stringify(res.findings)}`);
        assert.ok(at(lines.length).length > 0, `a finding at the torn line ${lines.length}: ${JSON.stringify(res.findings)}`);
        // Every other line's rows are still shown (a step_start / step_finish line is its message's model step).
        const intact = await loadTrace(f);
        const shown = new Set(indices(m).map((i) => m.events.lineOf(i)));
        const before = new Set(indices(intact).map((i) => intact.events.lineOf(i)));
        for (const line of before) if (line !== middle && line !== lines.length) assert.ok(shown.has(line), `line ${line} shown`);
        assert.ok(shown.size >= before.size - 2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('a part printed again in the stream shows once, with its last state', async () => {
    const dir = tempDir('atv-opencode-');
    try {
      const lines = readFileSync(STREAMS.find((x) => x.includes('/shell-ok/'))!, 'utf8').split('\n').filter((l) => l !== '');
      const k = lines.findIndex((l) => JSON.parse(l).type === 'tool_use');
      const running = JSON.parse(lines[k]);
      running.part.state = { status: 'running', input: running.part.state.input, time: { start: running.part.state.time.start } };
      const withUpdate = [...lines.slice(0, k), JSON.stringify(running), ...lines.slice(k)];
      const m = await loadTrace(tempFile('run.jsonl', withUpdate.join('\n') + '\n', dir));
      const calls = kinds(m, 'tool');
      assert.equal(calls.length, 1);
      assert.equal(m.events.statusOf(calls[0]), 'ok');
      assert.equal(m.events.lineOf(calls[0]), k + 2, 'at the line of its last state');
      assert.equal(kinds(m, 'tool_result').length, 1);
      assert.equal(summarize(m).totals.toolCalls, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
