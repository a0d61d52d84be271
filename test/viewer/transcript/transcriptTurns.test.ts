import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTrace, type TraceModel } from '../../../src/core/loadTrace';
import { rollUp } from '../../../src/core/usage/rollup';
import type { TranscriptBlock } from '../../../src/protocol';
import { buildTranscriptIndex } from '../../../src/viewer/transcript/transcriptIndex';
import { transcriptPage } from '../../../src/viewer/transcript/transcriptPage';
import type { EarlierMessagesMessage, HostMessage } from '../../../src/protocol';
import { SessionTranscript } from '../../../src/viewer/transcript/sessionTranscript';
import { SessionDetail } from '../../../src/viewer/sessionDetail';

const CLAUDE_FAIL = resolve('test/corpus/claude-code-2.1.332/shell-fail/projects/-home-user-project/3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl');
const CODEX_FAIL = resolve('test/corpus/codex-0.171.0/shell-fail/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-85f2-7120-8246-9bbbb6d42b0e.jsonl');
const OTLP_MESSAGES = resolve('test/corpus/otel-js-2.12.1/otlp-traces-messages.jsonl');
const OTLP = resolve('test/corpus/otel-js-2.12.1/otlp-traces.jsonl');
const HARNESS = resolve('test/seed-corpus/harness-ledger/yolo-write.bare.jsonl');

async function pageOf(file: string): Promise<{ model: TraceModel; blocks: TranscriptBlock[] }> {
  const model = await loadTrace(file);
  return { model, blocks: await transcriptPage(model, buildTranscriptIndex(model), 0, 200, new Map()) };
}

/** Kinds of each turn's blocks, turn by turn. */
function turnsOf(blocks: TranscriptBlock[]): string[][] {
  const out: string[][] = [];
  for (const b of blocks) {
    if (b.turn) out.push([]);
    out[out.length - 1].push(b.kind);
  }
  return out;
}

/** Input and output tokens the usage rollup counts for the whole trace. */
function counted(model: TraceModel): [number, number] {
  let input = 0;
  let output = 0;
  for (const r of rollUp(model).counted) (input += r.usage?.counts.input ?? 0), (output += r.usage?.counts.output ?? 0);
  return [input, output];
}

describe('transcript turns and re-sent history (issue 15 item 1)', () => {
  it('Claude Code: the prompt, reply and Bash call are one turn; the tool result and the closing reply the next', async () => {
    const { model, blocks } = await pageOf(CLAUDE_FAIL);
    assert.deepEqual(turnsOf(blocks), [['user', 'assistant', 'assistant'], ['user', 'assistant']]);
    assert.equal(blocks[3].line, 21, 'turn 2 opens at the tool result');
    const turns = blocks.filter((b) => b.turn).map((b) => b.turn!);
    assert.deepEqual(turns.map((t) => t.number), [1, 2]);
    // The turns' tokens add up to what the usage rollup counts for the session.
    assert.deepEqual([turns.reduce((n, t) => n + (t.tokensIn ?? 0), 0), turns.reduce((n, t) => n + (t.tokensOut ?? 0), 0)], counted(model));
  });

  it("Codex: a call's tokens, written on a token_count record after the tool's output, stay with its turn", async () => {
    const { model, blocks } = await pageOf(CODEX_FAIL);
    const turns = blocks.filter((b) => b.turn).map((b) => b.turn!);
    assert.equal(turns.length, 2);
    assert.equal(blocks.find((b) => b.turn?.number === 2)?.kind, 'function_call_output');
    const raw = readFileSync(CODEX_FAIL, 'utf8').split('\n').filter((l) => l.includes('"token_count"') && l.includes('last_token_usage')).map((l) => JSON.parse(l).payload.info.last_token_usage);
    assert.deepEqual(turns.map((t) => [t.tokensIn, t.tokensOut]), raw.map((u: { input_tokens: number; output_tokens: number }) => [u.input_tokens, u.output_tokens]));
    assert.deepEqual([turns[0].tokensIn! + turns[1].tokensIn!, turns[0].tokensOut! + turns[1].tokensOut!], counted(model));
  });

  it('OTLP spans: chat → execute_tool → chat is two turns, and a turn never crosses runs (spans of a line read by start: the agent span opens its run)', async () => {
    const { blocks } = await pageOf(OTLP);
    assert.deepEqual(turnsOf(blocks), [['invoke_agent', 'chat', 'execute_tool'], ['chat'], ['invoke_agent', 'chat', 'execute_tool'], ['chat']]);
    assert.deepEqual(blocks.filter((b) => b.turn).map((b) => [b.turn!.tokensIn, b.turn!.tokensOut, b.turn!.modelMs]), [[1840, 64, 900], [1968, 41, 900], [1840, 64, 900], [1968, 41, 900]]);
    // GenAI events as log records (each a root of its own: their spans are elsewhere) group by what they say.
    const logs = await pageOf(resolve('test/corpus/otel-js-2.12.1/otlp-logs.json'));
    assert.deepEqual(turnsOf(logs.blocks), [['gen_ai.user.message', 'gen_ai.choice', 'gen_ai.tool.message'], ['gen_ai.user.message', 'gen_ai.choice', 'gen_ai.tool.message']]);
  });

  it('harness-ledger: a turn runs from the tool result and the context built to the next tool call', async () => {
    const { blocks } = await pageOf(HARNESS);
    const turns = turnsOf(blocks);
    assert.equal(turns.length, 2);
    assert.deepEqual(turns[1].slice(0, 3), ['tool_finished', 'context_built', 'model_requested']);
  });

  it('OTLP GenAI input messages: each chat shows only its new messages, "N earlier" for the history it re-sends', async () => {
    const { blocks } = await pageOf(OTLP_MESSAGES);
    const chats = blocks.filter((b) => b.kind === 'chat');
    // What the file holds, read here: each chat span's system instructions, input and output messages.
    const spans = (JSON.parse(readFileSync(OTLP_MESSAGES, 'utf8')).resourceSpans[0].scopeSpans[0].spans as { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[]).filter((s) => s.name.startsWith('chat'));
    const attr = (s: (typeof spans)[number], key: string) => JSON.parse(s.attributes.find((a) => a.key === key)!.value.stringValue!);
    assert.equal(chats.length, spans.length);
    const inputs = spans.map((s) => attr(s, 'gen_ai.input.messages').length);
    assert.deepEqual(inputs, [1, 3, 5], 'the history grows by the reply and the tool result each call');
    assert.equal(chats[0].earlier, undefined, 'the first call shows everything');
    assert.deepEqual(chats[0].messages.map((m) => m.role), ['system', 'user', 'assistant']);
    for (let k = 1; k < chats.length; k++) {
      // system + all the history were shown before: the newest tool result by the execute_tool span that ran it.
      assert.deepEqual(chats[k].earlier?.count, 1 + inputs[k], `chat ${k + 1}`);
      assert.deepEqual(chats[k].messages.map((m) => m.role), ['assistant']);
    }
    const last = chats[2].messages[0].parts[0];
    assert.ok(last.type === 'text' && last.text === attr(spans[2], 'gen_ai.output.messages')[0].parts[0].content);
    assert.deepEqual(turnsOf(blocks).map((t) => t.length), [3, 2, 1], 'the agent span opens the run; chat + its tool twice, then the closing chat');
  });

  it('a page that starts mid-conversation still collapses the history its first block re-sends', async () => {
    const model = await loadTrace(OTLP_MESSAGES);
    const index = buildTranscriptIndex(model);
    const whole = await transcriptPage(model, index, 0, 200, new Map());
    const k = whole.findIndex((b, i) => i > 0 && b.kind === 'chat');
    const [alone] = await transcriptPage(model, index, k, 1, new Map());
    assert.deepEqual(alone.earlier, whole[k].earlier);
    assert.deepEqual(alone.messages, whole[k].messages);
  });

  it('the history a chat left out, asked for in place, is the raw input messages it re-sent, in order (issue 15 item 3)', async () => {
    const model = await loadTrace(OTLP_MESSAGES);
    const posted: HostMessage[] = [];
    const t = new SessionTranscript({ model: () => model, modelVersion: () => 3, post: (m) => posted.push(m) });
    await t.request({ type: 'requestTranscript', requestId: 1, start: 0, count: 200 });
    const blocks = (posted[0] as { blocks: TranscriptBlock[] }).blocks.filter((b) => b.kind === 'chat');
    const spans = (JSON.parse(readFileSync(OTLP_MESSAGES, 'utf8')).resourceSpans[0].scopeSpans[0].spans as { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[]).filter((s) => s.name.startsWith('chat'));
    const attr = (s: (typeof spans)[number], key: string) => JSON.parse(s.attributes.find((a) => a.key === key)!.value.stringValue!);
    for (const [k, b] of blocks.entries()) {
      await t.earlier({ type: 'requestEarlierMessages', requestId: 10 + k, node: b.node });
      const answer = posted.at(-1) as EarlierMessagesMessage;
      assert.equal(answer.type, 'earlierMessages');
      assert.deepEqual([answer.requestId, answer.modelVersion, answer.node], [10 + k, 3, b.node]);
      assert.equal(answer.messages.length, b.earlier?.count ?? 0, `chat ${k + 1}`);
      // Left out + shown = system instructions, every input message, then the output: the span's own attributes.
      const raw = [{ role: 'system' }, ...attr(spans[k], 'gen_ai.input.messages'), ...attr(spans[k], 'gen_ai.output.messages')].map((m: { role: string }) => m.role);
      assert.deepEqual([...answer.messages, ...b.messages].map((m) => m.role), raw, `chat ${k + 1}`);
      if (k > 0) assert.equal(JSON.stringify(answer.messages).includes(attr(spans[k], 'gen_ai.input.messages')[0].parts[0].content), true);
    }
    await t.earlier({ type: 'requestEarlierMessages', requestId: 99, node: 0 });
    assert.deepEqual((posted.at(-1) as EarlierMessagesMessage).messages, [], 'a node without a collapsed history has none');
  });

  it("the Content tab shows a GenAI chat span's system instructions, input and output messages, as the transcript does", async () => {
    const model = await loadTrace(OTLP_MESSAGES);
    const posted: HostMessage[] = [];
    const detail = new SessionDetail({ model: () => model, modelVersion: () => 1, findingsAt: () => [], post: (m) => posted.push(m), host: {} as never });
    const { blocks } = await pageOf(OTLP_MESSAGES);
    const chats = [...Array(model.events.size).keys()].filter((i) => model.events.kindOf(i) === 'chat');
    assert.equal(chats.length, 3);
    for (const node of chats) {
      await detail.send(node);
      const d = (posted.at(-1) as { detail: { messages: { role: string; parts: { type: string }[] }[] } }).detail;
      const b = blocks.find((x) => x.node === node)!;
      assert.equal(d.messages.length, (b.earlier?.count ?? 0) + b.messages.length);
      assert.equal(d.messages[0].role, 'system');
      assert.deepEqual(d.messages.slice(d.messages.length - b.messages.length).map((m) => m.role), b.messages.map((m) => m.role));
    }
    // A tool span's Content is its call and result, read from its attributes.
    const tool = [...Array(model.events.size).keys()].find((i) => model.events.kindOf(i) === 'execute_tool')!;
    await detail.send(tool);
    const parts = (posted.at(-1) as { detail: { messages: { parts: { type: string }[] }[] } }).detail.messages[0].parts.map((p) => p.type);
    assert.deepEqual(parts, ['toolCall', 'toolResult']);
  });
});
