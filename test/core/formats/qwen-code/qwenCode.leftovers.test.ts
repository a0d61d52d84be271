// Issue 38, Qwen Code leftovers, on the real corpus (test/corpus/qwen-code-*): a stream whose init was cut off,
// a response's text and calls as one model step, telemetry folded into the rows it describes.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { loadTrace } from '../../../../src/core/loadTrace';
import { summarize, summarizeSession } from '../../../../src/core/summary';
import { usageReport } from '../../../../src/core/usage/usageReport';
import type { TraceModel } from '../../../../src/core/traceModel';
import { jsonLines, writerFiles } from '../../../helpers/writerCorpus';

const ALL = writerFiles('qwen-code', (p) => p.endsWith('.jsonl'));
const STREAMS = ALL.filter((f) => /stream-json(-\d)?\.jsonl$/.test(f));
const CHATS = ALL.filter((f) => basename(dirname(f)) === 'chats');
const SUBAGENTS = ALL.filter((f) => basename(dirname(dirname(f))) === 'subagents');
const name = (f: string) => f.slice(f.search(/qwen-code-\d/));
const indices = (m: TraceModel) => [...Array(m.events.size).keys()];

describe('qwen-code leftovers (issue 38)', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'qwen-leftovers-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const f of STREAMS) {
    it(`${name(f)} without its system/init line (a piped tail) is still qwen-code stream-json, with the same usage`, async () => {
      const lines = readFileSync(f, 'utf8').split('\n');
      assert.equal(JSON.parse(lines[0]).subtype, 'init');
      const p = join(dir, `tail-${basename(dirname(f))}-${basename(f)}`);
      writeFileSync(p, lines.slice(1).join('\n'));
      const cut = await loadTrace(p);
      assert.equal(cut.format, 'qwen-code', cut.detection.reason);
      assert.equal(cut.detection.dialect, 'stream-json');
      const whole = summarize(await loadTrace(f)).usage.total;
      const part = summarize(cut).usage.total;
      assert.deepEqual([part.inputTokens, part.outputTokens, part.cacheReadTokens], [whole.inputTokens, whole.outputTokens, whole.cacheReadTokens]);
    });
  }

  for (const f of STREAMS) {
    it(`${name(f)}: a response's text and its calls are one model step, as the chat recording has them`, async () => {
      const m = await loadTrace(f);
      const msgs = jsonLines(f).map((l) => l.value).filter((v) => v.type === 'assistant');
      // One step per response: each message with the response's usage (the text-only one before it has zero usage).
      const responses = msgs.filter((v) => v.message.usage.input_tokens > 0 || v.message.usage.output_tokens > 0);
      const steps = indices(m).filter((i) => m.events.kindOf(i) === 'assistant');
      assert.equal(steps.length, responses.length);
      for (const i of steps) assert.ok((m.events.usageColumnsOf(i).tokensIn ?? 0) > 0, `line ${m.events.lineOf(i)}: a step with its usage`);
      // Every call's step holds the text written before it (a zero-usage text message right before the calls).
      for (const c of indices(m).filter((i) => m.events.categoryOf(i) === 'tool')) {
        const step = m.events.parent(c);
        assert.equal(m.events.kindOf(step), 'assistant');
        assert.match(m.events.labelOf(step), /\(\d tool calls?\)/, m.events.labelOf(step));
      }
      msgs.forEach((v, k) => {
        const next = msgs[k + 1];
        if (!next || v.message.usage.input_tokens !== 0 || !next.message.content.some((b: any) => b.type === 'tool_use')) return;
        const text = v.message.content.map((b: any) => b.text ?? '').join('');
        assert.ok(steps.some((i) => m.events.labelOf(i).startsWith(`qwen: ${text.slice(0, 30)}`) && /tool call/.test(m.events.labelOf(i))), text);
      });
      // The chat recording of the same session shows as many main-thread steps.
      const session = jsonLines(f)[0].value.session_id;
      const chat = CHATS.find((c) => basename(c) === `${session}.jsonl`);
      if (chat && !f.includes('/resume/')) {
        const cm = await loadTrace(chat);
        assert.equal(indices(cm).filter((i) => cm.events.kindOf(i) === 'assistant').length, steps.length, name(chat));
      }
    });
  }

  it('a subagent recording\'s response written as two lines (text with usage, then the calls) is one model step', async () => {
    for (const f of SUBAGENTS) {
      const m = await loadTrace(f);
      const withUsage = jsonLines(f).filter((l) => l.value.type === 'assistant' && l.value.usageMetadata).length;
      const steps = indices(m).filter((i) => m.events.kindOf(i) === 'assistant');
      assert.equal(steps.length, withUsage);
      for (const c of indices(m).filter((i) => m.events.categoryOf(i) === 'tool')) {
        const step = m.events.parent(c);
        assert.equal(m.events.kindOf(step), 'assistant');
        assert.ok((m.events.usageColumnsOf(step).tokensIn ?? 0) > 0);
      }
    }
  });

  for (const f of CHATS) {
    it(`${name(f)}: system telemetry folds into what it describes: one system row per turn, durations on the steps and calls`, async () => {
      const m = await loadTrace(f);
      const values = jsonLines(f);
      const ui = (v: any) => v.systemPayload?.uiEvent;
      for (const t of indices(m).filter((i) => m.events.categoryOf(i) === 'turn')) {
        const system = indices(m).filter((i) => m.events.parent(i) === t && m.events.categoryOf(i) === 'other');
        assert.ok(system.length <= 1, `turn at line ${m.events.lineOf(t)}: ${system.length} system rows`);
      }
      const byLine = new Map<number, number>();
      for (const i of indices(m)) if (!byLine.has(m.events.lineOf(i))) byLine.set(m.events.lineOf(i), i);
      values.forEach(({ line, value }, k) => {
        const e = ui(value);
        if (e?.['event.name'] === 'qwen-code.api_response' && !e.subagent_id) {
          // The next assistant line is the step this request answered: its duration is the request's.
          const next = values.slice(k + 1).find((x) => x.value.type === 'assistant')!;
          const step = byLine.get(next.line)!;
          assert.equal(m.events.kindOf(step), 'assistant');
          assert.equal(m.events.usageColumnsOf(step).durationMs, e.duration_ms, `line ${next.line}`);
          assert.equal(m.events.modelOf(step), e.model);
        }
        // A subagent's request goes under the agent call that started it (a side agent with no call, Qwen's memory
        // extractor, stays with the turn's system row).
        const agentCall = e?.subagent_id ? indices(m).find((i) => m.events.categoryOf(i) === 'tool' && e.subagent_id.endsWith(`-${m.events.id(i)}`)) : undefined;
        if (e?.['event.name'] === 'qwen-code.api_response' && agentCall !== undefined) {
          assert.equal(m.events.parent(byLine.get(line)!), agentCall, `line ${line} under the agent call`);
        }
        if (e?.['event.name'] === 'qwen-code.tool_call') {
          const call = indices(m).find((i) => m.events.categoryOf(i) === 'tool' && m.events.id(i) === e.call_id);
          if (call !== undefined) assert.equal(m.events.usageColumnsOf(call).durationMs, e.duration_ms);
        }
      });
    });
  }

  for (const f of [...STREAMS, ...writerFiles('qwen-code', (p) => basename(p) === 'output.json')]) {
    it(`${name(f)}: the result's tokens beyond the steps the stream shows are said in usage.explain.notes, with the subagent's share`, async () => {
      const values: any[] = f.endsWith('output.json') ? JSON.parse(readFileSync(f, 'utf8')) : jsonLines(f).map((l) => l.value);
      let input = 0, output = 0;
      for (const v of values) if (v.type === 'assistant') { input += v.message.usage.input_tokens; output += v.message.usage.output_tokens; }
      const result = values.find((v) => v.type === 'result');
      const extra = result.usage.input_tokens - input + result.usage.output_tokens - output;
      const task = values.find((v) => v.type === 'system' && v.subtype === 'task_notification');
      const notes = usageReport(await loadTrace(f)).explain.notes;
      if (extra <= 0) {
        assert.deepEqual(notes, []);
        return;
      }
      assert.equal(notes.length, 1);
      assert.match(notes[0], new RegExp(`counts ${(result.usage.input_tokens - input).toLocaleString('en-US')} input and ${(result.usage.output_tokens - output).toLocaleString('en-US')} output tokens more than`));
      if (task) {
        // The background subagent's own total is the whole difference here.
        assert.equal(task.data.usage.total_tokens, extra);
        assert.match(notes[0], new RegExp(`${extra.toLocaleString('en-US')} tokens of the background subagent of call ${task.data.tool_use_id}`));
      } else assert.match(notes[0], /other requests, such as Qwen's auto-memory side request/);
    });
  }

  it('a subagent recording\'s steps have the model its .meta.json records; the session counts no unknown model', async () => {
    assert.ok(SUBAGENTS.length >= 1);
    for (const f of SUBAGENTS) {
      const meta = JSON.parse(readFileSync(f.replace(/\.jsonl$/, '.meta.json'), 'utf8'));
      assert.equal(jsonLines(f).some((l) => l.value.model), false, 'its lines name no model');
      const m = await loadTrace(f);
      const steps = indices(m).filter((i) => m.events.kindOf(i) === 'assistant');
      assert.deepEqual([...new Set(steps.map((i) => m.events.modelOf(i)))], [meta.model]);
    }
    const main = CHATS.find((c) => SUBAGENTS.some((s) => s.includes(`/subagents/${basename(c, '.jsonl')}/`)))!;
    const byModel = (await summarizeSession(await loadTrace(main))).usage.byModel.map((x) => x.model);
    assert.ok(byModel.length > 0 && byModel.every((x) => x !== null && !/unknown/.test(x)), byModel.join(', '));
  });
});
