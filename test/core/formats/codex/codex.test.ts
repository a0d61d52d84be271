import { strict as assert } from 'node:assert';
import { codexAdapter } from '../../../../src/core/formats/codex/adapter';
import { loadTrace } from '../../../../src/core/loadTrace';
import { tempFile } from '../../../helpers/tmp';
import { corpus, corpusFiles, findingsOf, fixture, nodes, parentLines } from '../../../fixtures/other/harness';

const SAMPLE = corpus('other/codex/sample_codex_session.jsonl');
const SYNTHETIC = fixture('rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl');
const TWO_TURNS = fixture('codex-two-turns.jsonl');

describe('codex adapter: corpus', () => {
  it('reads sample_codex_session.jsonl: session → turn (user message) → assistant message', async () => {
    const m = await loadTrace(SAMPLE);
    assert.equal(m.format, 'codex');
    assert.ok(m.detection.confidence >= 0.95, `confidence ${m.detection.confidence}`);
    assert.equal(m.events.size, 3);
    assert.deepEqual(parentLines(m), [null, 1, 2]);
    assert.equal(m.tree.roots.length, 1);
    const n = nodes(m);
    assert.deepEqual(n.map((x) => x.kind), ['session_meta', 'message', 'message']);
    assert.equal(n[0].label, 'session test-session codex_cli_rs 0.0.0 (openai)');
    assert.equal(n[1].label, 'message user: Write a hello world function');
    assert.equal(n[2].label, 'message assistant: Here is a simple hello world function.', 'reasoning parts are not the answer');
    assert.equal(m.events.get(0).category, 'session');
    assert.equal(m.events.get(2).group, 'test-session');
    assert.equal(m.events.get(1).time, Date.parse('2025-01-01T00:00:01.000Z'));
    assert.deepEqual(await findingsOf(SAMPLE, 'verify'), []);
    assert.deepEqual(await findingsOf(SAMPLE, 'check'), []);
  });
});

describe('codex adapter: the format doc\'s example lines', () => {
  it('real codex_cli_rs 0.77.0 head: user_message opens the turn, turn_context joins it', async () => {
    const lines = [
      '{"timestamp":"2025-12-28T12:18:30.533Z","type":"session_meta","payload":{"id":"019b64e5-57fa-7463-b644-fba7e456f905","timestamp":"2025-12-28T12:18:30.522Z","cwd":"/project","originator":"codex_cli_rs","cli_version":"0.77.0","instructions":"## Skills\\n…","source":"cli","model_provider":"openai"}}',
      '{"timestamp":"2025-12-28T12:21:44.491Z","type":"event_msg","payload":{"type":"user_message","message":"can you analyse the MD files in this directory and determine if the info we have is clear enough to start planning the migration?","images":[]}}',
      '{"timestamp":"2025-12-28T12:21:44.492Z","type":"turn_context","payload":{"cwd":"/project","approval_policy":"on-request","sandbox_policy":{"type":"workspace-write","network_access":false,"exclude_tmpdir_env_var":false,"exclude_slash_tmp":false},"model":"gpt-5.2-codex","summary":"auto"}}',
    ];
    const file = tempFile('rollout-2025-12-28T12-18-30-019b64e5-57fa-7463-b644-fba7e456f905.jsonl', lines.join('\n') + '\n');
    const m = await loadTrace(file);
    assert.equal(m.format, 'codex');
    assert.ok(m.detection.confidence >= 0.95);
    assert.deepEqual(parentLines(m), [null, 1, 2]);
    assert.deepEqual(nodes(m).map((n) => n.label), [
      'session 019b64e5-57fa-7463-b644-fba7e456f905 codex_cli_rs 0.77.0 (openai)',
      'user_message: can you analyse the MD files in this directory and determine if the inf…',
      'turn_context gpt-5.2-codex on-request workspace-write',
    ]);
    assert.deepEqual(await findingsOf(file, 'verify'), []);
    assert.deepEqual(await findingsOf(file, 'check'), []);
  });
});

describe('codex adapter: derived tree', () => {
  it('nests outputs under their calls and keeps unknown items (claude-code-log synthetic rollout)', async () => {
    const m = await loadTrace(SYNTHETIC);
    assert.equal(m.format, 'codex');
    // The session shape: the prompt's response_item copy under its user_message, the response's items under its
    // first (reasoning), outputs under their calls, agent_message's response_item copy under it.
    assert.deepEqual(parentLines(m), [null, 1, 2, 3, 2, 5, 6, 2, 8, 2, 10, 2, 12, 2]);
    const n = nodes(m);
    assert.equal(n[4].label, 'reasoning: I will inspect the synthetic directory.');
    assert.ok(!n.some((x) => x.label.includes('SYNTHETIC_ENCRYPTED')), 'encrypted reasoning is never shown');
    assert.equal(n[5].label, 'exec_command: find . -maxdepth 1 -type f');
    assert.equal(n[6].label, 'exec_command: find . -maxdepth 1 -type f → ok, 1.0 s');
    assert.equal(n[8].label, 'apply_patch: gamma.txt → ok, 1.0 s');
    assert.equal(n[13].kind, 'future_synthetic_record');
    assert.equal(m.events.get(6).tool, 'exec_command');
    assert.equal(m.events.get(6).durationMs, 1000);
    assert.deepEqual(m.events.get(6).mentions, [{ field: 'payload.call_id', id: 'call-structured-001' }]);
    assert.equal(m.events.get(4).model, 'synthetic-model');
    assert.deepEqual(m.formatTotals, { toolCalls: 3, errors: 0 });
    assert.deepEqual(await findingsOf(SYNTHETIC, 'verify'), []);
    assert.deepEqual(await findingsOf(SYNTHETIC, 'check'), ['codex/type-known@14']);
  });

  it('opens a turn per user prompt, keeps injected context under the session, reads tokens and failures', async () => {
    const m = await loadTrace(TWO_TURNS);
    // exec_command_end (the UI's copy of the outcome) under the call, the output under it; the token_count under the step.
    assert.deepEqual(parentLines(m), [null, 1, 1, 3, 3, 3, 6, 7, 6, 3, 1, 11, 11, 11, 14, 11]);
    const e = (line: number) => m.events.get(line - 1);
    assert.equal(e(8).status, 'error', 'Exit code: 1');
    assert.equal(e(8).durationMs, 200, 'Wall time');
    assert.equal(e(7).status, 'error', 'exec_command_end exit_code 1');
    assert.equal(e(7).durationMs, 150);
    assert.equal(e(15).tokensIn, 1500);
    assert.equal(e(15).tokensOut, 70);
    assert.equal(e(15).model, 'gpt-5.2-codex');
    assert.equal(e(15).label, 'token_count 1.5k→70 tokens (session 2.5k→120 tokens)');
    assert.equal(e(16).status, 'warning', 'turn_aborted');
    // One failed call: exec_command_end is the UI's copy of the output's failure (it was counted twice).
    assert.deepEqual(m.formatTotals, { toolCalls: 2, errors: 1, inputTokens: 2500, outputTokens: 120, cachedInputTokens: 800, reasoningOutputTokens: 30 });
    assert.deepEqual(await findingsOf(TWO_TURNS, 'verify'), []);
    assert.deepEqual(await findingsOf(TWO_TURNS, 'check'), ['codex/unanswered-call@14']);
  });
});

describe('codex adapter: turns', () => {
  const line = (t: string, type: string, payload: object) => JSON.stringify({ timestamp: `2025-10-01T10:00:${t}.000Z`, type, payload });
  const ctx = (t: string) => line(t, 'turn_context', { cwd: '/p', approval_policy: 'on-request', sandbox_policy: { type: 'read-only' }, model: 'gpt-5-codex', summary: 'auto' });
  const prompt = (t: string, text: string) => [line(t, 'event_msg', { type: 'user_message', message: text, images: [] }), ctx(t), line(t, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] })];
  const call = (t: string, id: string) => [line(t, 'response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: id }), line(t, 'response_item', { type: 'function_call_output', call_id: id, output: 'ok' })];

  it('0.60 writes a turn_context before every model call: one turn per prompt, not per context', async () => {
    const lines = [
      line('00', 'session_meta', { id: '0199a000-0000-7000-8000-000000000000', timestamp: '2025-10-01T10:00:00.000Z', cwd: '/p', originator: 'codex_cli_rs', cli_version: '0.60.1' }),
      ...prompt('01', 'list files'), ...call('02', 'c1'), ctx('03'), ...call('04', 'c2'), ctx('05'),
      line('06', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
      ...prompt('07', 'now count them'), ...call('08', 'c3'), ctx('09'),
      line('10', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '3' }] }),
    ];
    const file = tempFile('rollout-2025-10-01T10-00-00-0199a000-0000-7000-8000-000000000000.jsonl', lines.join('\n') + '\n');
    const m = await loadTrace(file);
    const top = nodes(m).filter((x) => x.parentLine === 1);
    assert.deepEqual(top.map((x) => x.line), [2, 12], 'two prompts, two turns');
    assert.ok(nodes(m).slice(1).every((x) => x.parentLine !== null), 'everything else is inside the session');
    assert.deepEqual(await findingsOf(file, 'check'), []);
  });

  it('0.17x: lines naming a turn_id go under that turn, whatever comes between', async () => {
    const tl = (t: string, type: string, payload: object, ordinal: number) => JSON.stringify({ timestamp: `2026-12-01T10:00:${t}.000Z`, ordinal, type, payload });
    const lines = [
      tl('00', 'session_meta', { id: '01a20000-0000-7000-8000-000000000000', timestamp: '2026-12-01T10:00:00.000Z', cwd: '/p', originator: 'codex_exec', cli_version: '0.171.0' }, 0),
      tl('01', 'event_msg', { type: 'task_started', turn_id: 'T1' }, 1),
      tl('02', 'turn_context', { turn_id: 'T1', cwd: '/p', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, model: 'gpt-5.5' }, 2),
      tl('03', 'world_state', { full: true, state: {} }, 3),
      tl('04', 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }], internal_chat_message_metadata_passthrough: { turn_id: 'T1' } }, 4),
      tl('05', 'turn_context', { turn_id: 'T1', cwd: '/p', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, model: 'gpt-5.5' }, 5),
      tl('06', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }], internal_chat_message_metadata_passthrough: { turn_id: 'T1' } }, 6),
      tl('07', 'event_msg', { type: 'task_complete', turn_id: 'T1' }, 7),
    ];
    const file = tempFile('rollout-2026-12-01T10-00-00-01a20000-0000-7000-8000-000000000000.jsonl', lines.join('\n') + '\n');
    const m = await loadTrace(file);
    assert.deepEqual(nodes(m).map((x) => x.parentLine), [null, 1, 2, 2, 2, 2, 2, 2]);
    assert.equal(m.events.get(1).category, 'turn');
  });
});

describe('codex adapter: prompts before their turn id', () => {
  it('a user_message without turn_id, then turn_context and items naming one turn: one turn, not two', async () => {
    const at = (s: string, type: string, payload: object) => JSON.stringify({ timestamp: `2025-11-20T10:00:${s}.000Z`, type, payload });
    const lines = [
      at('00', 'session_meta', { id: '019a0000-0000-7000-8000-000000000000', timestamp: '2025-11-20T10:00:00.000Z', cwd: '/p', originator: 'codex_cli_rs', cli_version: '0.63.0' }),
      at('01', 'event_msg', { type: 'user_message', message: 'hi', images: [] }),
      at('01', 'turn_context', { turn_id: 'T1', cwd: '/p', approval_policy: 'on-request', sandbox_policy: { type: 'read-only' }, model: 'gpt-5.1-codex' }),
      at('02', 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] }),
      at('03', 'event_msg', { type: 'task_complete', turn_id: 'T1', last_agent_message: 'hello' }),
      at('04', 'event_msg', { type: 'user_message', message: 'again', images: [] }),
      at('04', 'turn_context', { turn_id: 'T2', cwd: '/p', approval_policy: 'on-request', sandbox_policy: { type: 'read-only' }, model: 'gpt-5.1-codex' }),
      at('05', 'event_msg', { type: 'task_complete', turn_id: 'T2' }),
    ];
    const m = await loadTrace(tempFile('rollout-2025-11-20T10-00-00-019a0000-0000-7000-8000-000000000000.jsonl', lines.join('\n') + '\n'));
    assert.deepEqual(nodes(m).map((x) => x.parentLine), [null, 1, 2, 2, 2, 1, 6, 6]);
  });
});

describe('codex detection', () => {
  it('claims only Codex files of the corpus (the other/codex samples and the outside Codex CLI files)', async () => {
    for (const file of corpusFiles()) {
      const m = await loadTrace(file);
      const mine = m.detection.candidates.find((c) => c.format === 'codex');
      const expected = file.includes('/other/codex/') || file.includes('/outside/codex-');
      assert.equal((mine?.confidence ?? 0) >= 0.5, expected, `${file}: ${JSON.stringify(m.detection.candidates)}`);
    }
  });

  it('reads 0.17x lines ({timestamp, ordinal, type, payload[, metadata]}) and exec --json streams', () => {
    const sniff = (values: unknown[]) => codexAdapter.sniff({ values, fileName: 'x.jsonl', path: 'x.jsonl', document: false });
    const r = sniff([{ timestamp: 't', ordinal: 0, type: 'session_meta', payload: { id: 'x', originator: 'codex_exec' } }, { timestamp: 't', ordinal: 1, type: 'world_state', payload: {} }]);
    assert.ok(r.confidence >= 0.95);
    assert.equal(r.dialect, 'rollout');
    assert.equal(sniff([{ timestamp: 't', ordinal: 'x', type: 'session_meta', payload: {} }]).confidence, 0, 'ordinal must be a number');
    const e = sniff([{ type: 'thread.started', thread_id: 'th' }, { type: 'turn.started' }]);
    assert.ok(e.confidence >= 0.9);
    assert.equal(e.dialect, 'exec-json');
    assert.ok(sniff([{ type: 'turn.started' }, { type: 'error', message: 'x' }]).confidence < 0.5, 'turn events alone are not enough');
  });

  it('needs exactly {timestamp, type, payload}', () => {
    const sniff = (values: unknown[]) => codexAdapter.sniff({ values, fileName: 'x.jsonl', path: 'x.jsonl', document: false }).confidence;
    assert.equal(sniff([{ timestamp: 't', type: 'session_meta', payload: {}, extra: 1 }]), 0);
    assert.equal(sniff([{ id: 'legacy', timestamp: 't' }, { type: 'message', role: 'user', content: [] }]), 0);
    assert.ok(sniff([{ timestamp: 't', type: 'session_meta', payload: { id: 'x', cwd: '/p' } }]) >= 0.85, 'header without originator');
    assert.ok(sniff([{ timestamp: 't', type: 'event_msg', payload: { type: 'user_message' } }]) >= 0.5, 'a tail without its header');
  });
});
