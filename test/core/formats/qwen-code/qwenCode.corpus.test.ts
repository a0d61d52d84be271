// Issue 38, Qwen Code: its real files (test/corpus/qwen-code-*) read as `qwen-code`, by the session model, with the
// usage of its own records counted once (prompt tokens include the cached ones) and no finding on an intact file.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize, summarizeSession } from '../../../../src/core/summary';
import { runChecks } from '../../../../src/core/formatRules';
import { sessionFilesOf } from '../../../../src/core/sessionUsage';
import type { TraceModel } from '../../../../src/core/traceModel';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const ALL = writerFiles('qwen-code', (p) => p.endsWith('.jsonl') || basename(p) === 'output.json');
const CHATS = ALL.filter((f) => basename(dirname(f)) === 'chats');
const SUBAGENTS = ALL.filter((f) => basename(dirname(dirname(f))) === 'subagents');
const STREAMS = ALL.filter((f) => /stream-json(-\d)?\.jsonl$/.test(f));
const JSON_OUT = ALL.filter((f) => basename(f) === 'output.json');
const name = (f: string) => f.slice(f.search(/qwen-code-\d/));
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];

/** The stream messages of a stream-json file or of the `-o json` array. */
function streamValues(f: string): any[] {
  return basename(f) === 'output.json' ? JSON.parse(readFileSync(f, 'utf8')) : jsonLines(f).map((l) => l.value);
}

describe('qwen-code: the real Qwen Code files (issue 38)', () => {
  it('the corpus holds chats, a subagent recording, stream-json and json output', () => {
    assert.ok(CHATS.length >= 5 && SUBAGENTS.length >= 1 && STREAMS.length >= 5 && JSON_OUT.length >= 1, ALL.join('\n'));
  });

  for (const f of [...CHATS, ...SUBAGENTS, ...STREAMS, ...JSON_OUT]) {
    it(`${name(f)}: qwen-code, every tool result under its call, no warning or error from verify or check`, async () => {
      const m = await loadTrace(f);
      assert.equal(m.format, 'qwen-code', m.detection.reason);
      assert.equal(m.detection.dialect, CHATS.includes(f) || SUBAGENTS.includes(f) ? 'chat-recording' : 'stream-json');
      const results = indices(m).filter((i) => m.events.kindOf(i) === 'tool_result');
      for (const r of results) {
        const callId = m.events.mentionsOf(r)[0]?.id;
        const p = m.events.parent(r);
        assert.ok(p >= 0 && m.events.categoryOf(p) === 'tool' && m.events.id(p) === callId, `line ${m.events.lineOf(r)}: under call ${callId}`);
      }
      for (const mode of ['verify', 'check'] as const) {
        const res = await runChecks(m, mode);
        const loud = res.findings.filter((x) => x.severity === 'error' || x.severity === 'warning');
        assert.deepEqual(loud.map((x) => `${x.line} ${x.rule} ${x.message}`), [], mode);
      }
    });
  }

  for (const f of [...CHATS, ...SUBAGENTS]) {
    it(`${name(f)}: tokens are its assistant lines' usageMetadata once (prompt includes cached), tool calls and failures its own`, async () => {
      const lines = jsonLines(f).map((l) => l.value);
      let input = 0, output = 0, cached = 0, calls = 0, failed = 0, results = 0;
      for (const v of lines) {
        if (v.type === 'assistant' && v.usageMetadata) {
          input += v.usageMetadata.promptTokenCount;
          output += v.usageMetadata.candidatesTokenCount;
          cached += v.usageMetadata.cachedContentTokenCount;
        }
        if (v.type === 'assistant') calls += v.message.parts.filter((p: any) => p.functionCall).length;
        if (v.type === 'tool_result') {
          results++;
          if (v.toolCallResult.status === 'error') failed++;
        }
      }
      const m = await loadTrace(f);
      const s = summarize(m);
      assert.equal(s.usage.total.inputTokens, input);
      assert.equal(s.usage.total.outputTokens, output);
      assert.equal(s.usage.total.cacheReadTokens, cached);
      assert.equal(s.totals.toolCalls, calls);
      assert.equal(s.totals.errors, failed);
      assert.equal(indices(m).filter((i) => m.events.kindOf(i) === 'tool_result').length, results);
      // Each user line is a turn, a root; each model step is under one.
      for (const i of indices(m)) {
        if (m.events.kindOf(i) === 'user') assert.equal(m.events.parent(i), -1, `line ${m.events.lineOf(i)}`);
        if (m.events.kindOf(i) === 'assistant') assert.equal(m.events.kindOf(m.events.parent(i)), 'user', `line ${m.events.lineOf(i)}`);
      }
    });
  }

  for (const f of [...STREAMS, ...JSON_OUT]) {
    it(`${name(f)}: tokens are its assistant messages' usage once, cache read a part of input (not added to it)`, async () => {
      let input = 0, output = 0, cached = 0, failed = 0;
      for (const v of streamValues(f)) {
        if (v.type === 'assistant') {
          input += v.message.usage.input_tokens;
          output += v.message.usage.output_tokens;
          cached += v.message.usage.cache_read_input_tokens ?? 0;
        }
        if (v.type === 'user' && Array.isArray(v.message.content)) failed += v.message.content.filter((b: any) => b.type === 'tool_result' && b.is_error).length;
      }
      const s = summarize(await loadTrace(f));
      assert.equal(s.usage.total.inputTokens, input);
      assert.equal(s.usage.total.outputTokens, output);
      assert.equal(s.usage.total.cacheReadTokens, cached);
      assert.equal(s.totals.errors, failed);
    });
  }

  it('a failing shell command is a failed call: the call and its result are errors, counted once', async () => {
    const f = CHATS.find((x) => x.includes('/shell-fail/'))!;
    const m = await loadTrace(f);
    const call = indices(m).find((i) => m.events.categoryOf(i) === 'tool')!;
    assert.equal(m.events.statusOf(call), 'error');
    assert.equal(summarize(m).totals.errors, 1);
  });

  it('a chat lists its subagent recording with the agent call that started it; the session counts it once', async () => {
    const main = CHATS.find((x) => x.includes('/subagent/'))!;
    const sub = SUBAGENTS[0];
    const m = await loadTrace(main);
    const files = await sessionFilesOf(m);
    assert.equal(files.length, 1);
    assert.equal(files[0].path, sub);
    assert.equal(files[0].role, 'subagent');
    const meta = JSON.parse(readFileSync(sub.replace(/\.jsonl$/, '.meta.json'), 'utf8'));
    assert.equal(files[0].toolUseId, meta.toolUseId);
    assert.equal(files[0].title, meta.description);
    const own = summarize(m).usage.total.inputTokens!;
    const subIn = summarize(await loadTrace(sub)).usage.total.inputTokens!;
    assert.equal((await summarizeSession(m)).usage.total.inputTokens, own + subIn);
    assert.deepEqual(await sessionFilesOf(await loadTrace(sub)), [], 'a subagent file has no session files of its own');
  });
  it('read with its parts, the subagent hangs under the agent call that started it: one root, its own events once', async () => {
    const main = CHATS.find((x) => x.includes('/subagent/'))!;
    const sub = SUBAGENTS[0];
    const m = await loadTrace(main, { sessionParts: true });
    assert.equal(m.parts?.length, 2);
    const part = m.parts![1];
    const meta = JSON.parse(readFileSync(sub.replace(/\.jsonl$/, '.meta.json'), 'utf8'));
    assert.equal(part.toolUseId, meta.toolUseId);
    assert.ok(part.call >= 0 && m.events.categoryOf(part.call) === 'tool' && m.events.id(part.call) === meta.toolUseId && m.events.toolOf(part.call) === 'agent');
    const roots: number[] = [];
    for (let i = part.first; i < part.first + part.count; i++) if (m.events.parent(i) < part.first) roots.push(i);
    assert.deepEqual(roots.map((i) => [m.events.lineOf(i), m.events.parent(i)]), [[1, part.call]]);
    assert.equal(part.count, (await loadTrace(sub)).events.size);
  });
});
