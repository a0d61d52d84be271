import { strict as assert } from 'node:assert';
import { CheckResult } from '../../../../src/core/checks/runChecks';
import { allRules } from '../../../../src/core/formatRules';
import { cleanup, CORPUS_TRACE, edit, eventId, ID, META_TRACE, murmurFindings, readLines, run, writeTrace } from './murmurTestKit';

const corpus = () => readLines(CORPUS_TRACE);
const meta = () => readLines(META_TRACE);
const SES = 'ses_39263059f28c105d1fb17c2390c192cf';

/** Runs `check` on lines in a temp session dir; corpus mutations keep a copy of blobs/, meta ones have none. */
async function check(lines: string[], blobs = true): Promise<CheckResult> {
  return (await run(writeTrace(lines, { blobs }), 'check')).result;
}
const findings = async (lines: string[], blobs = true) => murmurFindings(await check(lines, blobs));
const metaFindings = (lines: string[]) => findings(lines, false);

describe('murmur check', () => {
  after(cleanup);

  it('the corpus trace and the meta fixture conform, with no finding at all', async () => {
    for (const f of [CORPUS_TRACE, META_TRACE]) {
      const { result } = await run(f, 'check');
      assert.deepEqual(result.findings, [], f);
      assert.equal(result.ok, true);
    }
  });

  it('every murmur rule of the catalog has the doc\'s id form and a mode', () => {
    const ids = allRules().filter((r) => r.format === 'murmur').map((r) => `${r.id}:${r.mode}:${r.severity}`);
    for (const id of ['murmur/parent-exists:verify:error', 'murmur/event-id-unique:verify:error', 'murmur/line-json:verify:error', 'murmur/total-turns:check:warning', 'murmur/turn-consistent:check:info', 'murmur/no-credential-token:check:error']) {
      assert.ok(ids.includes(id), id);
    }
  });

  describe('fields', () => {
    it('murmur/envelope: a string timestamp and a missing parent_id key', async () => {
      const lines = corpus();
      lines[1] = edit(lines[1], (o) => { o.timestamp = '2026-01-01T00:00:00Z'; });
      lines[3] = edit(lines[3], (o) => { delete o.parent_id; });
      assert.deepEqual(await findings(lines), ['murmur/envelope error 2', 'murmur/envelope error 4']);
    });

    it('murmur/event-type-known: once per unknown type, as info', async () => {
      const lines = meta();
      lines[13] = edit(lines[13], (o) => { o.event_type = 'compaction_v2'; });
      assert.deepEqual(await metaFindings(lines), ['murmur/event-type-known info 14']);
    });

    it('murmur/required-fields: a missing key, a null optional key, an empty omitted list', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { delete o.input; });
      lines[2] = edit(lines[2], (o) => { o.stop_reason = null; });
      lines[4] = edit(lines[4], (o) => { o.message_ids = []; });
      assert.deepEqual(await findings(lines), ['murmur/required-fields error 3', 'murmur/required-fields error 4', 'murmur/required-fields error 5']);
    });

    it('murmur/required-fields: a formation member without its callees', async () => {
      const lines = corpus();
      lines[0] = edit(lines[0], (o) => { o.formation_id = 'frm_1'; o.formation_member = 'critic'; });
      assert.deepEqual(await findings(lines), ['murmur/required-fields error 1']);
      lines[0] = edit(lines[0], (o) => { o.formation_callees = []; });
      assert.deepEqual(await findings(lines), []);
    });

    it('murmur/field-type and murmur/field-value', async () => {
      const lines = meta();
      lines[7] = edit(lines[7], (o) => { o.exit_code = '0'; });
      lines[2] = edit(lines[2], (o) => { o.trust = 'maybe'; });
      assert.deepEqual(await metaFindings(lines), ['murmur/field-value warning 3', 'murmur/field-type error 8']);
    });

    it('murmur/snake-case', async () => {
      const lines = corpus();
      lines[2] = edit(lines[2], (o) => { o.inputTokens = 812; });
      assert.deepEqual(await findings(lines), ['murmur/snake-case warning 3']);
    });

    it('murmur/reason-length: over 2000 UTF-8 bytes, and exactly 2000 is fine', async () => {
      const lines = meta();
      lines[11] = edit(lines[11], (o) => { o.error = 'é'.repeat(1001); });
      assert.deepEqual(await metaFindings(lines), ['murmur/reason-length warning 12']);
      lines[11] = edit(lines[11], (o) => { o.error = 'é'.repeat(1000); });
      assert.deepEqual(await metaFindings(lines), []);
    });

    it('murmur/task-rejected-keys', async () => {
      const lines = meta();
      lines[26] = edit(lines[26], (o) => { o.detail = 'x'; });
      assert.deepEqual(await metaFindings(lines), ['murmur/task-rejected-keys warning 27']);
    });

    it('murmur/no-credential-token, even on a line that does not parse', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.input = { command: 'curl -H "Authorization: mft1.abc"' }; });
      lines.push('{"torn":"mft1.x');
      const r = await check(lines);
      assert.deepEqual(murmurFindings(r), ['murmur/no-credential-token error 4', 'murmur/line-json warning 8', 'murmur/no-credential-token error 8']);
      assert.equal(r.ok, false);
    });

    it('murmur/retention-count and murmur/plan-counts', async () => {
      const lines = meta();
      lines[27] = edit(lines[27], (o) => { o.removed = 3; });
      lines[14] = edit(lines[14], (o) => { o.step_count = 3; });
      lines[17] = edit(lines[17], (o) => { o.steps_succeeded = 2; });
      assert.deepEqual(await metaFindings(lines), ['murmur/plan-counts info 15', 'murmur/plan-counts info 18', 'murmur/retention-count warning 28']);
    });

    it('murmur/failed-inference-hashes', async () => {
      const lines = meta();
      lines[11] = edit(lines[11], (o) => { o.system_sha = '2'.repeat(64); o.tools_sha = '3'.repeat(64); o.response_sha = '4'.repeat(64); });
      assert.deepEqual(await metaFindings(lines), ['murmur/failed-inference-hashes warning 12']);
    });
  });

  describe('parents', () => {
    it('murmur/parent-type: a tool_call naming task_start while a turn is open (cursor rules)', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.parent_id = ID.task; });
      const r = await check(lines);
      assert.deepEqual(murmurFindings(r), ['murmur/parent-type warning 4']);
      assert.match(r.findings[0].message, /inference on line 3 .* task_start on line 2/);
    });

    it('murmur/parent-type: a plan step off the session, an appender off a task', async () => {
      const lines = meta();
      const session = JSON.parse(lines[0]).event_id as string;
      const task = JSON.parse(lines[2]).event_id as string;
      lines[16] = edit(lines[16], (o) => { o.parent_id = session; });
      lines[19] = edit(lines[19], (o) => { o.parent_id = task; });
      assert.deepEqual(await metaFindings(lines), ['murmur/parent-type warning 17', 'murmur/parent-type warning 20']);
    });

    it('murmur/parent-type: an agent-loop inference must not hang off the previous turn', async () => {
      const lines = corpus();
      lines[4] = edit(lines[4], (o) => { o.parent_id = ID.turn0; });
      assert.deepEqual(await findings(lines), ['murmur/parent-type warning 5']);
    });

    it('murmur/parent-type: a hook inference hangs off the turn, not the task', async () => {
      const lines = meta();
      lines[5] = edit(lines[5], (o) => { o.parent_id = JSON.parse(lines[2]).event_id; });
      assert.deepEqual(await metaFindings(lines), ['murmur/parent-type warning 6']);
    });

    it('murmur/task-id-consistent: inside a task, and outside any task', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.task_id = 'tsk_9'; });
      const note = JSON.stringify({ event_type: 'harness_note', event_id: eventId(1767225602495, 9), parent_id: ID.session, session_id: SES, timestamp: 1767225602495, task_id: 'tsk_1', text: 'after the task' });
      lines.splice(6, 0, note);
      assert.deepEqual(await findings(lines), ['murmur/task-id-consistent warning 4', 'murmur/task-id-consistent warning 7']);
    });

    it('murmur/turn-consistent', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.turn = 1; });
      assert.deepEqual(await findings(lines), ['murmur/turn-consistent info 4']);
    });

    it('murmur/single-root and murmur/session-start-first: a line written before session_start', async () => {
      const lines = meta();
      const first = JSON.parse(lines[0]) as { timestamp: number; session_id: string };
      const pulled = JSON.stringify({ event_type: 'artifact_pulled', event_id: eventId(first.timestamp - 5, 1), parent_id: null, session_id: first.session_id, timestamp: first.timestamp - 5, name: 'lint', version: '1.0.0', runtime: 'skill', origin: 'operator', session: null, trust: 'trusted' });
      assert.deepEqual(await metaFindings([pulled, ...lines]), ['murmur/session-start-first warning 1', 'murmur/single-root warning 1']);
    });
  });

  describe('counters', () => {
    it('murmur/total-tool-calls and murmur/total-tokens: broken session_end totals', async () => {
      const lines = corpus();
      lines[6] = edit(lines[6], (o) => { o.total_tool_calls = 2; o.total_input_tokens = 1600; o.total_output_tokens = 77; });
      const r = await check(lines);
      assert.deepEqual(murmurFindings(r), ['murmur/total-tokens error 7', 'murmur/total-tokens error 7', 'murmur/total-tool-calls error 7']);
      assert.ok(r.findings.some((f) => f.message === 'session_end.total_input_tokens is 1600, but the inference input_tokens over lines 1–7 add up to 1683.'));
    });

    it('murmur/total-shell-calls counts shell_detached', async () => {
      const lines = meta();
      lines[28] = edit(lines[28], (o) => { o.total_shell_calls = 1; });
      assert.deepEqual(await metaFindings(lines), ['murmur/total-shell-calls error 29']);
    });

    it('murmur/total-turns is a range: failed inferences may or may not count', async () => {
      const lines = meta();
      lines[28] = edit(lines[28], (o) => { o.total_turns = 3; });
      assert.deepEqual(await metaFindings(lines), [], '3 successful + 1 failed: 3 is possible');
      lines[28] = edit(lines[28], (o) => { o.total_turns = 5; });
      assert.deepEqual(await metaFindings(lines), ['murmur/total-turns warning 29']);
      const c = corpus();
      c[6] = edit(c[6], (o) => { o.total_turns = 3; });
      assert.deepEqual(await findings(c), ['murmur/total-turns warning 7']);
    });

    it('murmur/task-end-counters', async () => {
      const lines = corpus();
      lines[5] = edit(lines[5], (o) => { o.tool_calls = 0; o.turns = 1; });
      assert.deepEqual(await findings(lines), ['murmur/task-end-counters error 6', 'murmur/task-end-counters error 6']);
    });

    it('a deleted inference breaks both task_end and session_end counters', async () => {
      const lines = corpus();
      lines.splice(4, 1);
      assert.deepEqual(await findings(lines), [
        'murmur/task-end-counters error 5', 'murmur/task-end-counters error 5', 'murmur/task-end-counters error 5',
        'murmur/total-tokens error 6', 'murmur/total-tokens error 6', 'murmur/total-turns warning 6',
      ]);
    });
  });

  describe('lifecycle and order', () => {
    it('murmur/session-end-once: a second session_end', async () => {
      const lines = corpus();
      lines.push(edit(lines[6], (o) => { o.event_id = eventId(1767225602600, 1); o.timestamp = 1767225602600; }));
      assert.deepEqual(await findings(lines), ['murmur/session-end-once error 8']);
    });

    it('murmur/session-end-once: session_end without session_start (deleted first line)', async () => {
      const lines = corpus().slice(1);
      assert.deepEqual(await findings(lines), [
        'murmur/parent-exists error 1', 'murmur/session-start-first warning 1', 'murmur/single-root warning 1',
        'murmur/parent-exists error 6', 'murmur/session-end-once error 6',
      ]);
    });

    it('murmur/after-session-end: TraceWriter lines after session_end; appender lines and shell_lost are fine', async () => {
      const lines = corpus();
      const base = { parent_id: ID.session, session_id: SES };
      lines.push(JSON.stringify({ event_type: 'a2a_send', event_id: eventId(1767225602600, 1), ...base, timestamp: 1767225602600, peer_url: 'http://peer', message_id: 'm1', task_id: 't1', context_id: 'c1', traceparent: null, trust: 'untrusted' }));
      lines.push(JSON.stringify({ event_type: 'formation_ended', event_id: eventId(1767225602601, 2), ...base, timestamp: 1767225602601, formation_id: 'frm_1' }));
      lines.push(JSON.stringify({ event_type: 'shell_lost', event_id: eventId(1767225700000, 3), ...base, timestamp: 1767225700000, work_id: 'wrk_1', binary: 'sh', command: 'sleep 9', detached_at_ms: 1767225601300, reconciled_by_session: 'ses_0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e', reconciled_task_id: 'tsk_9' }));
      assert.deepEqual(await findings(lines), ['murmur/after-session-end info 8']);
    });

    it('two writers\' sessions appended to one file are checked per segment', async () => {
      const r = await findings([...corpus(), ...meta()], false);
      // Capture mode is inferred for the whole file: the corpus output marks it content, the meta session has none.
      assert.deepEqual(r, ['murmur/capture-mode info 4', 'murmur/capture-mode info 14']);
    });

    it('a repeated session_start of one writer and a parentless shell_lost are conforming', async () => {
      const lines = corpus();
      lines.splice(5, 0, edit(lines[0], (o) => { o.timestamp = 1767225602491; }));
      lines.push(JSON.stringify({ event_type: 'shell_lost', event_id: eventId(1767225700000, 3), session_id: SES, timestamp: 1767225700000, work_id: 'wrk_1', binary: 'sh', command: 'sleep 9', detached_at_ms: 1767225601300, reconciled_by_session: 'ses_0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e', reconciled_task_id: 'tsk_9' }));
      assert.deepEqual(await findings(lines), []);
    });

    it('murmur/session-id-constant', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { o.session_id = 'ses_00000000000000000000000000000000'; });
      assert.deepEqual(await findings(lines), ['murmur/session-id-constant warning 4']);
    });

    it('murmur/monotonic: two swapped TraceWriter lines', async () => {
      const lines = meta();
      [lines[6], lines[7]] = [lines[7], lines[6]];
      assert.deepEqual(await metaFindings(lines), ['murmur/monotonic warning 8']);
    });

    it('murmur/monotonic: appender jitter under a second is tolerated, more is not', async () => {
      const lines = meta();
      const last = JSON.parse(lines[28]) as { timestamp: number };
      lines[29] = edit(lines[29], (o) => { o.timestamp = last.timestamp - 500; });
      assert.deepEqual(await metaFindings(lines), []);
      lines[29] = edit(lines[29], (o) => { o.timestamp = last.timestamp - 5000; });
      assert.deepEqual(await metaFindings(lines), ['murmur/monotonic warning 30']);
    });

    it('murmur/task-nesting: a second task_end for one task', async () => {
      const lines = corpus();
      lines.splice(6, 0, edit(lines[5], (o) => { o.event_id = eventId(1767225602494, 1); o.timestamp = 1767225602494; o.parent_id = ID.session; }));
      assert.deepEqual(await findings(lines), ['murmur/task-nesting warning 7']);
    });

    it('murmur/start-before-result: a result before its start', async () => {
      const lines = meta();
      [lines[18], lines[19]] = [lines[19], lines[18]]; // delegation before delegation_start
      assert.deepEqual(await metaFindings(lines), ['murmur/start-before-result warning 19']);
    });
  });

  describe('murmur/capture-mode', () => {
    it('content capture (blobs/ present) but a tool_call without output', async () => {
      const lines = corpus();
      lines[3] = edit(lines[3], (o) => { delete o.output; });
      assert.deepEqual(await findings(lines), ['murmur/capture-mode info 4']);
    });

    it('content capture but an agent-loop inference without hashes; partial hashes', async () => {
      const lines = corpus();
      lines[4] = edit(lines[4], (o) => { delete o.system_sha; delete o.tools_sha; delete o.response_sha; delete o.message_shas; });
      lines[2] = edit(lines[2], (o) => { delete o.tools_sha; });
      assert.deepEqual(await findings(lines), ['murmur/capture-mode info 3', 'murmur/capture-mode info 5']);
    });

    it('tool_call output without a blobs/ directory next to the trace', async () => {
      assert.deepEqual(await findings(corpus(), false), ['murmur/capture-mode info 4']);
    });
  });
});
