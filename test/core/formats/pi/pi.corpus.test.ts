// Issue 38, pi: its real files (test/corpus/pi-*) read as `pi`, by the session model, with the usage of its own
// records counted once (pi's input leaves out the cache; the cost is pi's own) and no finding on an intact file.
import { strict as assert } from 'node:assert';
import { basename, resolve } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { detectFile } from '../../../../src/core/detectFile';
import { summarize } from '../../../../src/core/summary';
import { runChecks } from '../../../../src/core/formatRules';
import { streamChecks } from '../../../../src/core/stream/streamChecks';
import type { TraceModel } from '../../../../src/core/traceModel';
import { CORPUS_ROOT, traceFilesUnder, WRITER_CORPUS } from '../../../helpers/corpus';
import { filesUnder, jsonLines, writerFiles } from '../../../helpers/writerCorpus';
import { mutateLines } from '../../../fixtures/other/harness';
import { TraceBlobs } from '../../../../src/viewer/blobResolver';
import { traceToMarkdown } from '../../../../src/report/markdown/markdownTranscript';

const ALL = writerFiles('pi');
const SESSIONS = ALL.filter((f) => f.includes('/.pi/agent/sessions/'));
const STREAMS = ALL.filter((f) => /mode-json(-\d)?\.jsonl$/.test(basename(f)));
const name = (f: string) => f.slice(f.search(/pi-\d/));
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];
const session = (c: string) => SESSIONS.find((f) => f.includes(`/${c}/`))!;

/** The messages whose usage pi counts: each assistant message of a session file, each assistant message_end of a stream. */
function countedMessages(f: string): any[] {
  const values = jsonLines(f).map((l) => l.value);
  return SESSIONS.includes(f)
    ? values.filter((v) => v.type === 'message' && v.message.role === 'assistant').map((v) => v.message)
    : values.filter((v) => v.type === 'message_end' && v.message.role === 'assistant').map((v) => v.message);
}

/** The tool calls pi records as failed: a toolResult message or a tool_execution_end with isError, by call id. */
function failedCalls(f: string): Set<string> {
  const out = new Set<string>();
  for (const { value: v } of jsonLines(f)) {
    const m = v.message;
    if (v.type === 'message' && m?.role === 'toolResult' && m.isError) out.add(m.toolCallId);
    if (v.type === 'message_end' && m?.role === 'toolResult' && m.isError) out.add(m.toolCallId);
    if (v.type === 'tool_execution_end' && v.isError) out.add(v.toolCallId);
  }
  return out;
}

async function loud(m: TraceModel, f: string): Promise<string[]> {
  const out: string[] = [];
  for (const mode of ['verify', 'check'] as const) {
    for (const x of (await runChecks(m, mode)).findings) if (x.severity !== 'info') out.push(`${mode} ${x.line} ${x.rule} ${x.message}`);
    for (const x of (await streamChecks(f, mode)).findings) if (x.severity !== 'info') out.push(`stream ${mode} ${x.line} ${x.rule} ${x.message}`);
  }
  return out;
}

describe('pi: the real pi coding agent files (issue 38)', () => {
  it('the corpus holds session files and --mode json output of every case', () => {
    assert.ok(SESSIONS.length >= 4 && STREAMS.length >= 5, ALL.join('\n'));
    assert.equal(SESSIONS.length + STREAMS.length, ALL.length, 'every pi file is a session file or --mode json output');
  });

  for (const f of ALL) {
    it(`${name(f)}: pi (${SESSIONS.includes(f) ? 'session' : 'mode-json'}), every tool result under its call, no warning or error from verify or check`, async () => {
      const m = await loadTrace(f);
      assert.equal(m.format, 'pi', m.detection.reason);
      assert.equal(m.detection.dialect, SESSIONS.includes(f) ? 'session' : 'mode-json');
      const results = indices(m).filter((i) => m.events.kindOf(i) === 'tool_result');
      for (const r of results) {
        const callId = m.events.mentionsOf(r)[0]?.id;
        const p = m.events.parent(r);
        assert.ok(callId && p >= 0 && m.events.categoryOf(p) === 'tool' && m.events.id(p) === callId, `line ${m.events.lineOf(r)}: under call ${callId}`);
      }
      const calls = countedMessages(f).flatMap((msg) => msg.content.filter((b: any) => b.type === 'toolCall'));
      assert.equal(results.length, calls.length, 'one result row per call');
      assert.deepEqual(await loud(m, f), []);
    });

    it(`${name(f)}: tokens and cost are its assistant messages' usage once (input + cacheRead + cacheWrite is what the model read), failed calls its errors`, async () => {
      let input = 0, output = 0, cacheRead = 0, cacheWrite = 0, cost = 0, calls = 0;
      for (const msg of countedMessages(f)) {
        input += msg.usage.input + msg.usage.cacheRead + msg.usage.cacheWrite;
        output += msg.usage.output;
        cacheRead += msg.usage.cacheRead;
        cacheWrite += msg.usage.cacheWrite;
        cost += msg.usage.cost.total;
        calls += msg.content.filter((b: any) => b.type === 'toolCall').length;
      }
      assert.ok(input > 0 && output > 0 && cost > 0);
      const s = summarize(await loadTrace(f));
      assert.equal(s.usage.total.inputTokens, input);
      assert.equal(s.usage.total.outputTokens, output);
      assert.equal(s.usage.total.cacheReadTokens, cacheRead);
      assert.equal(s.usage.total.cacheWriteTokens, cacheWrite);
      assert.ok(Math.abs(s.usage.total.costUsd! - cost) < 1e-12, `cost ${s.usage.total.costUsd} = pi's ${cost}`);
      assert.equal(s.usage.byModel.find((x) => x.model === 'gpt-4.1')?.costSource, 'trace', 'the cost is pi\'s own, not priced from the table');
      assert.equal(s.totals.toolCalls, calls);
      assert.equal(s.totals.errors, failedCalls(f).size);
    });
  }

  for (const f of SESSIONS) {
    it(`${name(f)}: nests by turn (user → assistant → call → result), not by its parentId chain, which stays each entry's link`, async () => {
      const m = await loadTrace(f);
      const header = indices(m).find((i) => m.events.kindOf(i) === 'session')!;
      assert.equal(m.events.lineOf(header), 1);
      for (const i of indices(m)) {
        const kind = m.events.kindOf(i);
        const p = m.events.parent(i);
        if (kind === 'user') assert.equal(p, header, `line ${m.events.lineOf(i)}: a turn under the session`);
        if (kind === 'assistant') assert.equal(m.events.kindOf(p), 'user', `line ${m.events.lineOf(i)}: a step under its turn`);
        // The recorded link is the entry's parentId, whatever the display.
        if (m.events.lineOf(i) > 1 && kind !== 'tool_call') {
          const v = jsonLines(f).find((l) => l.line === m.events.lineOf(i))!.value;
          assert.equal(m.events.parentId(i) ?? (m.events.linkOf(i) >= 0 ? m.events.id(m.events.linkOf(i)) : null), v.parentId);
        }
      }
      const depth = (i: number): number => (m.events.parent(i) < 0 ? 0 : 1 + depth(m.events.parent(i)));
      assert.ok(Math.max(...indices(m).map(depth)) <= 4, 'a few levels deep, however long the chain');
    });
  }

  it('a failing shell command is a failed call: the call and its result are errors, counted once (session and stream)', async () => {
    for (const f of ALL.filter((x) => x.includes('/shell-fail/'))) {
      const m = await loadTrace(f);
      const call = indices(m).find((i) => m.events.categoryOf(i) === 'tool')!;
      assert.equal(m.events.statusOf(call), 'error', name(f));
      assert.equal(summarize(m).totals.errors, 1, name(f));
    }
  });

  it('the edit case: read, write and edit succeed; the read of a missing file is the one failed call (session and stream)', async () => {
    const files = ALL.filter((x) => x.includes('/edit/'));
    assert.equal(files.length, 2, 'the edit case has a session file and --mode json output');
    for (const f of files) {
      const m = await loadTrace(f);
      const calls = indices(m).filter((i) => m.events.categoryOf(i) === 'tool');
      assert.deepEqual(calls.map((i) => [m.events.toolOf(i), m.events.statusOf(i)]), [['read', 'ok'], ['write', 'ok'], ['edit', 'ok'], ['read', 'error']], name(f));
      assert.equal(summarize(m).totals.errors, 1, name(f));
    }
  });

  it('a resumed session (--continue) appends its prompt to the same file: two turns, each with its answer', async () => {
    const m = await loadTrace(session('resume'));
    const turns = indices(m).filter((i) => m.events.kindOf(i) === 'user');
    assert.deepEqual(turns.map((t) => m.events.labelOf(t)), ['user: Remember the code word PLUM.', 'user: What was the code word?']);
    for (const t of turns) assert.equal(indices(m).filter((i) => m.events.parent(i) === t && m.events.kindOf(i) === 'assistant').length, 1);
  });

  it('--mode json: message_update snapshots are never counted (a snapshot carrying the final usage included), only message_end', async () => {
    const f = STREAMS.find((x) => x.includes('/shell-ok/'))!;
    const updatesWithUsage = jsonLines(f).filter((l) => l.value.type === 'message_update' && l.value.assistantMessageEvent.partial?.usage?.input > 0);
    assert.ok(updatesWithUsage.length > 0, 'the file has snapshots that carry usage');
    const m = await loadTrace(f);
    for (const i of indices(m)) {
      const v = jsonLines(f).find((l) => l.line === m.events.lineOf(i))!.value;
      if (v.type === 'message_update') assert.equal(m.events.tokensInOf(i), null, `line ${m.events.lineOf(i)}`);
    }
    // A message's snapshots and its end (the step, holding the usage and the calls) under its message_start, under
    // its turn; each tool event under its call.
    const steps = indices(m).filter((i) => m.events.kindOf(i) === 'assistant');
    assert.equal(steps.length, countedMessages(f).length);
    for (const i of indices(m)) {
      const p = m.events.parent(i);
      if (m.events.kindOf(i) === 'assistant') {
        assert.equal(m.events.kindOf(p), 'message_start');
        assert.equal(m.events.categoryOf(m.events.parent(p)), 'turn');
      }
      if (m.events.kindOf(i) === 'message_update') assert.equal(m.events.kindOf(p), 'message_start');
      if (m.events.kindOf(i) === 'tool_call') assert.equal(m.events.kindOf(p), 'assistant');
      if (m.events.kindOf(i).startsWith('tool_execution_')) assert.equal(m.events.categoryOf(p), 'tool');
    }
  });

  it('the transcript reads each response once, its tool call as a call, not as a JSON block (session and stream)', async () => {
    for (const f of ALL.filter((x) => x.includes('/shell-fail/'))) {
      const text = await traceToMarkdown(await loadTrace(f), { blobs: new TraceBlobs(() => ({ extraRoots: [], workspaceFolders: [] })) });
      assert.equal(text.split('Listing /nonexistent.').length - 1, 1, name(f));
      assert.equal(text.split('**Tool call** `bash`').length - 1, 1, name(f));
      assert.doesNotMatch(text, /"type": "toolCall"/, name(f));
      assert.match(text, /The command failed: \/nonexistent does not exist/, name(f));
    }
  });

  describe('a branched session (pi /tree: a second child of an earlier entry, in the same file)', () => {
    // The resume session, then a branch from its first answer: a branch summary, a new prompt and its answer.
    const src = session('resume');
    const branched = () => mutateLines(src, (ls) => [
      ...ls,
      JSON.stringify({ type: 'branch_summary', id: 'b0000001', parentId: '0d600978', timestamp: '2026-12-07T02:03:10.000Z', fromId: '6aecff47', summary: 'Asked for the code word.' }),
      JSON.stringify({ type: 'message', id: 'b0000002', parentId: 'b0000001', timestamp: '2026-12-07T02:03:11.000Z', message: { role: 'user', content: [{ type: 'text', text: 'Forget it.' }], timestamp: 1796608991000 } }),
      JSON.stringify({ type: 'future_entry', id: 'b0000003', parentId: 'b0000002', timestamp: '2026-12-07T02:03:11.500Z', note: 'a type pi may add' }),
      JSON.stringify({ type: 'message', id: 'b0000004', parentId: 'b0000003', timestamp: '2026-12-07T02:03:12.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Forgotten.' }], api: 'openai-completions', provider: 'mock', model: 'gpt-4.1', usage: { input: 20, output: 2, cacheRead: 1400, cacheWrite: 0, totalTokens: 1422, cost: { input: 0.00004, output: 0.000016, cacheRead: 0.0007, cacheWrite: 0, total: 0.000756 } }, stopReason: 'stop', timestamp: 1796608992000 } }),
    ], 'branched.jsonl');

    it('shows both branches, marks the entries off the active leaf\'s path and says where the branch starts; the links stay facts', async () => {
      const f = branched();
      const m = await loadTrace(f);
      assert.equal(m.format, 'pi');
      const byLine = (line: number) => indices(m).find((i) => m.events.lineOf(i) === line)!;
      const off = indices(m).filter((i) => m.events.labelOf(i).endsWith('(off the active branch)')).map((i) => m.events.lineOf(i));
      assert.deepEqual(off, [6, 7], 'the second prompt and its answer are the abandoned branch');
      assert.match(m.events.labelOf(byLine(8)), /^branch from 0d600978: branch summary of 6aecff47/);
      assert.equal(m.events.parentId(byLine(8)) ?? m.events.id(m.events.linkOf(byLine(8))), '0d600978', 'the recorded link is the branch point');
      // Both branches are shown as turns of the session; the new prompt is a turn of its own.
      const header = byLine(1);
      assert.equal(m.events.parent(byLine(6)), header);
      assert.equal(m.events.parent(byLine(9)), header);
      assert.equal(m.events.kindOf(m.events.parent(byLine(11))), 'user');
      // An entry type pi does not define (yet) is a plain row under its turn, no finding.
      assert.equal(m.events.parent(byLine(10)), byLine(9));
      assert.equal(m.events.kindOf(byLine(10)), 'future_entry');
      assert.deepEqual(await loud(m, f), []);
      // Every response was a real request: all three are counted, the branch's too.
      const s = summarize(m);
      assert.equal(s.usage.total.inputTokens, 1363 + 310 + 1088 + 20 + 1400);
      assert.equal(s.totals.branches, 1);
    });

    it('with no branch nothing is marked', async () => {
      const m = await loadTrace(src);
      assert.ok(indices(m).every((i) => !m.events.labelOf(i).includes('off the active branch')));
    });
  });

  describe('damaged copies still read, with a finding at the damaged line and the rest shown', () => {
    for (const f of [session('shell-ok'), STREAMS.find((x) => x.includes('/shell-ok/'))!]) {
      it(`${name(f)}: a torn last line`, async () => {
        const n = jsonLines(f).length;
        const torn = mutateLines(f, (ls) => [...ls.slice(0, -1), ls[ls.length - 1].slice(0, 40)], basename(f));
        const m = await loadTrace(torn);
        assert.equal(m.format, 'pi');
        const errs = (await runChecks(m, 'verify')).findings.filter((x) => x.severity === 'error');
        assert.deepEqual(errs.map((x) => x.line), [n]);
        assert.equal(new Set(indices(m).map((i) => m.events.lineOf(i))).size, n - 1, 'every other line is shown');
      });

      it(`${name(f)}: an invalid JSON line in the middle`, async () => {
        const lines = jsonLines(f);
        const mid = Math.floor(lines.length / 2);
        const bad = mutateLines(f, (ls) => ls.map((l, k) => (k === mid ? '{"type": "message", oops' : l)), basename(f));
        const m = await loadTrace(bad);
        assert.equal(m.format, 'pi');
        const findings = (await runChecks(m, 'verify')).findings.filter((x) => x.severity === 'error');
        assert.ok(findings.some((x) => x.line === mid + 1), JSON.stringify(findings));
        assert.equal(new Set(indices(m).map((i) => m.events.lineOf(i))).size, lines.length - 1, 'every other line is shown');
        assert.ok(indices(m).some((i) => m.events.lineOf(i) === lines.length), 'the lines after it too');
      });
    }
  });

  it('odd values in either dialect read as plain rows, never a crash: a number, an array, a message without one, a result of no call, usage that is no number', async () => {
    const odd = ['42', '[1,2]', '"text"', '{"type":"message","id":"x1","parentId":null,"timestamp":"t"}',
      '{"type":"message","id":"x2","parentId":"x1","timestamp":"2026-12-07T02:03:00Z","message":{"role":"toolResult","toolCallId":"nope","isError":true,"content":"x"}}',
      '{"type":"message_end","message":{"role":"assistant","content":"hi","usage":{"input":"many","cost":null}}}',
      '{"type":"tool_execution_end","toolCallId":"nope","isError":true}'];
    for (const f of [session('shell-ok'), STREAMS.find((x) => x.includes('/shell-ok/'))!]) {
      const n = jsonLines(f).length;
      const bad = mutateLines(f, (ls) => [...ls.slice(0, 3), ...odd, ...ls.slice(3)], basename(f));
      const m = await loadTrace(bad);
      assert.equal(m.format, 'pi', name(f));
      assert.equal(new Set(indices(m).map((i) => m.events.lineOf(i))).size, n + odd.length, 'every line is a row');
      for (const i of indices(m)) assert.ok(m.events.parent(i) < i, `line ${m.events.lineOf(i)}: shown under an earlier row`);
      await runChecks(m, 'check');
      summarize(m);
    }
  });

  it('detection: every pi file is pi, and no file of another tool, format, sample or fixture is', async () => {
    const root = resolve(__dirname, '..', '..', '..', '..');
    const others = [...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(WRITER_CORPUS), ...traceFilesUnder(resolve(root, 'samples')),
      ...filesUnder(resolve(root, 'test', 'fixtures'), (p) => /\.(jsonl|json|ndjson)$/.test(p))].filter((f) => !ALL.includes(f));
    assert.ok(others.length > 200);
    for (const f of ALL) assert.equal((await detectFile(f)).format, 'pi', f);
    for (const f of others) assert.notEqual((await detectFile(f)).format, 'pi', f);
  });
});
