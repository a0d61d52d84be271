// Issue 38, Continue CLI: its real files (test/corpus/continue-*) read as `continue`, by the session model, with the
// session's own usage and cost, failed calls as errors, and no finding on an intact file; a damaged session still reads.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { runChecks } from '../../../../src/core/formatRules';
import { usageReport } from '../../../../src/core/usage/usageReport';
import type { TraceModel } from '../../../../src/core/traceModel';
import { WRITER_CORPUS, CORPUS_ROOT, traceFilesUnder } from '../../../helpers/corpus';
import { writerFiles } from '../../../helpers/writerCorpus';

/** Every file of the tool's corpus folders but SOURCE.md and the text log (`logs/cn.log`). */
const ALL = writerFiles('continue', (p) => p.endsWith('.json'));
const SESSIONS = ALL.filter((f) => basename(dirname(f)) === 'sessions' && basename(f) !== 'sessions.json');
const INDEXES = ALL.filter((f) => basename(f) === 'sessions.json');
const OUTPUTS = ALL.filter((f) => /^output(-\d+)?\.json$/.test(basename(f)));
const name = (f: string) => f.slice(f.search(/continue-\d/));
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];
const FAILED = new Set(['errored', 'canceled']);
const SAMPLES = join(__dirname, '..', '..', '..', '..', 'samples');

async function quiet(m: TraceModel): Promise<void> {
  for (const mode of ['verify', 'check'] as const) {
    const res = await runChecks(m, mode);
    assert.deepEqual(res.findings.map((x) => `${x.line} ${x.severity} ${x.rule} ${x.message}`), [], mode);
  }
}

describe('continue: the real Continue CLI files (issue 38)', () => {
  it('the corpus holds sessions, their index and -p --format json output, every .json file one of them', () => {
    assert.ok(SESSIONS.length >= 5 && INDEXES.length >= 5 && OUTPUTS.length >= 5, ALL.join('\n'));
    assert.deepEqual(ALL.filter((f) => !SESSIONS.includes(f) && !INDEXES.includes(f) && !OUTPUTS.includes(f)), []);
  });

  for (const f of SESSIONS) {
    it(`${name(f)}: continue/session; steps under turns, each result under its call; tokens, cost, calls and failures the file's own; no finding`, async () => {
      const doc = JSON.parse(readFileSync(f, 'utf8'));
      const m = await loadTrace(f);
      assert.equal(m.format, 'continue', m.detection.reason);
      assert.equal(m.detection.dialect, 'session');
      // The document holds no time: the session's is its creation time in the index beside it.
      const entry = JSON.parse(readFileSync(join(dirname(f), 'sessions.json'), 'utf8')).find((e: any) => e.sessionId === doc.sessionId);
      assert.equal(m.events.timeOf(0), Number(entry.dateCreated));
      // By hand from the document: the messages' usage, the calls and their states.
      let input = 0, output = 0, cached = 0, calls = 0, failed = 0, results = 0, users = 0, steps = 0;
      for (const item of doc.history) {
        if (item.message.role === 'user') users++;
        if (item.message.role !== 'assistant') continue;
        steps++;
        const u = item.message.usage;
        if (u) {
          input += u.prompt_tokens;
          output += u.completion_tokens;
          cached += u.prompt_tokens_details?.cached_tokens ?? 0;
        }
        calls += (item.message.toolCalls ?? []).length;
        for (const s of item.toolCallStates ?? []) {
          results++;
          if (FAILED.has(s.status)) failed++;
        }
      }
      // The session's own totals are what the messages add up to (Continue's cachedTokens stays 0: not compared),
      // or more: a subagent run in the TUI has its requests in the session's usage and its messages nowhere. The
      // difference is then one row (under the Subagent call), said in usage.explain.notes.
      assert.ok(doc.usage.promptTokens >= input && doc.usage.completionTokens >= output);
      const unrecorded = indices(m).filter((i) => m.events.kindOf(i) === 'unrecorded_requests');
      const notes = usageReport(m).explain.notes;
      if (doc.usage.promptTokens === input && doc.usage.completionTokens === output) {
        assert.deepEqual(unrecorded, []);
        assert.deepEqual(notes, []);
      } else {
        assert.equal(unrecorded.length, 1);
        const u = m.events.usageColumnsOf(unrecorded[0]);
        assert.deepEqual([u.tokensIn, u.tokensOut], [doc.usage.promptTokens - input, doc.usage.completionTokens - output]);
        assert.equal(m.events.toolOf(m.events.parent(unrecorded[0])), 'Subagent');
        assert.equal(notes.length, 1);
        assert.match(notes[0], /more than its messages: requests its history does not hold/);
      }
      const s = summarize(m);
      assert.equal(s.usage.total.inputTokens, doc.usage.promptTokens);
      assert.equal(s.usage.total.outputTokens, doc.usage.completionTokens);
      assert.equal(s.usage.total.cacheReadTokens, cached);
      assert.equal(s.usage.total.costUsd, doc.usage.totalCost, 'the cost is the session\'s totalCost, not priced');
      assert.equal(usageReport(m).byModel.every((x) => x.costSource === 'trace'), true);
      assert.equal(s.totals.toolCalls, calls);
      assert.equal(s.totals.errors, failed);
      const kinds = indices(m).map((i) => m.events.kindOf(i));
      assert.equal(kinds.filter((k) => k === 'user').length, users);
      assert.equal(kinds.filter((k) => k === 'assistant').length, steps);
      assert.equal(kinds.filter((k) => k === 'tool_result').length, results);
      for (const i of indices(m)) {
        const k = m.events.kindOf(i);
        const parent = m.events.parent(i);
        if (k === 'session') assert.equal(parent, -1);
        if (k === 'user') assert.equal(m.events.kindOf(parent), 'session', `line ${m.events.lineOf(i)}`);
        if (k === 'assistant') assert.equal(m.events.kindOf(parent), 'user', `line ${m.events.lineOf(i)}`);
        if (k === 'tool_call') assert.equal(m.events.kindOf(parent), 'assistant');
        if (k === 'tool_result') {
          const callId = m.events.mentionsOf(i)[0]?.id;
          assert.ok(parent >= 0 && m.events.categoryOf(parent) === 'tool' && m.events.id(parent) === callId, `line ${m.events.lineOf(i)}: under call ${callId}`);
          // Each row is at its own line of the document: the result at its toolCallId.
          assert.match(readFileSync(f, 'utf8').split('\n')[m.events.lineOf(i) - 1], new RegExp(`"toolCallId": "${callId}"`));
        }
      }
      await quiet(m);
    });
  }

  it('a failing shell command is a failed call: the call and its result are errors, counted once', async () => {
    const m = await loadTrace(SESSIONS.find((x) => x.includes('/shell-fail/'))!);
    const call = indices(m).find((i) => m.events.categoryOf(i) === 'tool')!;
    assert.equal(m.events.statusOf(call), 'error');
    assert.equal(m.events.statusOf(indices(m).find((i) => m.events.kindOf(i) === 'tool_result')!), 'error');
    assert.equal(summarize(m).totals.errors, 1);
  });

  it('the Subagent call that fails in -p mode ("No active session found") is a failed call with its result under it', async () => {
    const m = await loadTrace(SESSIONS.find((x) => x.includes('/subagent/'))!);
    const call = indices(m).find((i) => m.events.toolOf(i) === 'Subagent')!;
    assert.equal(m.events.statusOf(call), 'error');
    const result = indices(m).find((i) => m.events.parent(i) === call)!;
    assert.match(m.events.labelOf(result), /No active session found/);
    assert.equal(summarize(m).totals.errors, 1);
  });

  it('the TUI\'s Subagent call that ran: done, the report under it, the subagent\'s unrecorded requests under it too', async () => {
    const f = SESSIONS.find((x) => x.includes('/subagent-tui/'));
    if (!f) return;
    const m = await loadTrace(f);
    const call = indices(m).find((i) => m.events.toolOf(i) === 'Subagent')!;
    assert.equal(m.events.statusOf(call), 'ok');
    const under = indices(m).filter((i) => m.events.parent(i) === call).map((i) => m.events.kindOf(i));
    assert.deepEqual(under, ['tool_result', 'unrecorded_requests']);
    assert.equal(summarize(m).totals.errors, 0);
  });

  it('a resumed session shows both runs\' turns, in order, each with its answer', async () => {
    const f = SESSIONS.find((x) => x.includes('/resume/'))!;
    const m = await loadTrace(f);
    const turns = indices(m).filter((i) => m.events.kindOf(i) === 'user').map((i) => m.events.labelOf(i));
    assert.deepEqual(turns, ['user: Remember the code word PLUM.', 'user: What was the code word?']);
    for (const t of indices(m).filter((i) => m.events.kindOf(i) === 'user')) {
      assert.equal(indices(m).filter((i) => m.events.parent(i) === t && m.events.kindOf(i) === 'assistant').length, 1);
    }
  });

  for (const f of INDEXES) {
    it(`${name(f)}: continue/session-index, one row per session it lists, no finding`, async () => {
      const entries = JSON.parse(readFileSync(f, 'utf8'));
      const m = await loadTrace(f);
      assert.equal(m.format, 'continue', m.detection.reason);
      assert.equal(m.detection.dialect, 'session-index');
      assert.match(m.detection.reason, /session index/);
      const rows = indices(m).filter((i) => m.events.kindOf(i) === 'session_entry');
      assert.deepEqual(rows.map((i) => m.events.id(i)), entries.map((e: any) => e.sessionId));
      assert.deepEqual(rows.map((i) => m.events.timeOf(i)), entries.map((e: any) => Number(e.dateCreated)));
      await quiet(m);
    });
  }

  for (const f of OUTPUTS) {
    it(`${name(f)}: continue/json-output, the answer as one row, no finding`, async () => {
      const out = JSON.parse(readFileSync(f, 'utf8'));
      const m = await loadTrace(f);
      assert.equal(m.format, 'continue', m.detection.reason);
      assert.equal(m.detection.dialect, 'json-output');
      assert.ok(m.events.labelOf(0).startsWith(`continue: ${out.response.slice(0, 40)}`), m.events.labelOf(0));
      assert.equal(m.events.statusOf(0), out.status === 'success' ? 'ok' : 'error');
      await quiet(m);
    });
  }

  it('no file of another tool or format is read as continue', async () => {
    const others = [...traceFilesUnder(WRITER_CORPUS).filter((f) => !f.includes('/continue-')), ...traceFilesUnder(CORPUS_ROOT), ...traceFilesUnder(SAMPLES)];
    assert.ok(others.length > 100);
    const claimed: string[] = [];
    for (const f of others) if ((await loadTrace(f)).format === 'continue') claimed.push(f);
    assert.deepEqual(claimed, []);
  });

  describe('a damaged copy of a session still reads, with a finding at the damaged line', () => {
    const f = SESSIONS.find((x) => x.includes('/shell-fail/'))!;
    const lines = readFileSync(f, 'utf8').split('\n');
    let dir: string;
    before(() => { dir = mkdtempSync(join(tmpdir(), 'continue-damaged-')); });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('a line in the middle that is not JSON: left out with parse/invalid-json at it, the rest of the session shown', async () => {
      // The first step's completion_tokens line.
      const at = lines.findIndex((l) => l.includes('"completion_tokens": 24'));
      assert.ok(at > 0);
      const p = join(dir, 'invalid-line.json');
      writeFileSync(p, [...lines.slice(0, at), '          {{ not json', ...lines.slice(at + 1)].join('\n'));
      const m = await loadTrace(p);
      assert.equal(m.format, 'continue');
      assert.deepEqual(m.diagnostics.map((d) => [d.line, d.rule]), [[at + 1, 'parse/invalid-json']]);
      const kinds = indices(m).map((i) => m.events.kindOf(i));
      assert.deepEqual(kinds, ['session', 'user', 'assistant', 'tool_call', 'tool_result', 'assistant', 'usage']);
      const res = await runChecks(m, 'verify');
      assert.ok(res.findings.some((x) => x.line === at + 1 && x.rule === 'parse/invalid-json' && x.severity === 'error'));
    });

    it('a torn last line (the write cut off): what came before is shown, parse/torn-tail at the cut line', async () => {
      // Cut inside the second step's usage: the first turn, its call and result survive.
      const at = lines.findIndex((l) => l.includes('"prompt_tokens": 2646'));
      const p = join(dir, 'torn.json');
      writeFileSync(p, [...lines.slice(0, at), lines[at].slice(0, 24)].join('\n'));
      const m = await loadTrace(p);
      assert.equal(m.format, 'continue');
      assert.deepEqual(m.diagnostics.map((d) => [d.line, d.rule]), [[at + 1, 'parse/torn-tail']]);
      const kinds = indices(m).map((i) => m.events.kindOf(i));
      assert.deepEqual(kinds, ['session', 'user', 'assistant', 'tool_call', 'tool_result', 'assistant']);
      const res = await runChecks(m, 'check');
      assert.ok(res.findings.some((x) => x.line === at + 1 && x.rule === 'parse/torn-tail'));
    });
  });
});
