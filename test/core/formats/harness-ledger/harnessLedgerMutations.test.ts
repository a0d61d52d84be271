import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { brief, checkFile, corpusLines, editable, harnessCorpus, jsonl, Rec, writeTemp } from './harnessTestUtil';

const YOLO = 'yolo-write.bare.jsonl';
const RUN = 'run_1795963597417_48688_0';
const ev = (r: Rec) => r.event as Record<string, any>;

/** Writes a mutated yolo-write (bare form, clean in both modes) and returns [verify, check] briefs. */
async function both(file: string, edit: (e: ReturnType<typeof editable>) => void): Promise<[string[], string[]]> {
  const e = editable(YOLO);
  edit(e);
  const p = e.write(file);
  return [brief(await checkFile(p, 'verify')), brief(await checkFile(p, 'check'))];
}

describe('harness-ledger rules: mutations of a clean run', () => {
  it('gap in seq: one seq-contiguous error, replay unaffected', async () => {
    const [v, c] = await both('gap.jsonl', (e) => e.lines.forEach((_, i) => i >= 5 && (e.rec(i).seq += 1)));
    assert.deepEqual(v, ['6 error harness/seq-contiguous']);
    assert.deepEqual(c, []);
  });

  it('swapped lines (approval_granted ↔ tool_started)', async () => {
    const [v, c] = await both('swap.jsonl', (e) => ([e.lines[6], e.lines[7]] = [e.lines[7], e.lines[6]]));
    assert.deepEqual(v, ['7 error harness/seq-contiguous', '8 error harness/seq-contiguous']);
    // The reordered times also trip the generic time check.
    assert.deepEqual(c, ['7 error harness/transition', '8 info generic/time-backwards', '8 error harness/transition']);
  });

  it('duplicated line: one seq error, the repeat is not replayed', async () => {
    const [v, c] = await both('dup.jsonl', (e) => e.lines.splice(5, 0, JSON.parse(JSON.stringify(e.lines[4]))));
    assert.deepEqual(v, ['6 error harness/seq-contiguous']);
    assert.deepEqual(c, []);
  });

  it('deleted line (tool_started)', async () => {
    const [v, c] = await both('del.jsonl', (e) => e.lines.splice(7, 1));
    assert.deepEqual(v, ['8 error harness/seq-contiguous']);
    assert.deepEqual(c, ['8 error harness/transition']);
  });

  it('truncated tail: torn line and a run that never finished', async () => {
    const text = readFileSync(harnessCorpus(YOLO), 'utf8');
    const p = writeTemp('trunc.jsonl', text.slice(0, text.length - 20));
    assert.deepEqual(brief(await checkFile(p, 'verify')), ['13 warning harness/line-json']);
    const c = await checkFile(p, 'check');
    assert.deepEqual(brief(c), ['12 warning harness/terminal', '13 warning harness/line-json']);
    assert.match(c[0].message, /ends in phase turn_concluded, expected run_finished or run_failed/);
  });

  it('a last record without its newline is not committed', async () => {
    const text = readFileSync(harnessCorpus(YOLO), 'utf8');
    const p = writeTemp('no-newline.jsonl', text.slice(0, -1));
    assert.deepEqual(brief(await checkFile(p, 'verify')), ['13 warning harness/line-json']);
    assert.deepEqual(brief(await checkFile(p, 'check')), ['13 warning harness/line-json']);
  });

  it('deleted last line: terminal warning naming the pending host command', async () => {
    const [, c] = await both('no-finish.jsonl', (e) => e.lines.splice(6));
    assert.deepEqual(c, ['6 warning harness/terminal']);
    const p = editable(YOLO);
    p.lines.splice(6);
    const f = await checkFile(p.write('no-finish2.jsonl'), 'check');
    assert.match(f[0].message, /awaiting_approval waiting for AwaitApproval/);
  });

  it('approval for a call never proposed', async () => {
    const e = editable(YOLO);
    ev(e.rec(6)).call_id = 'call_never';
    const f = await checkFile(e.write('unproposed.jsonl'), 'check');
    assert.deepEqual(brief(f), ['7 error harness/call-match']);
    assert.equal(f[0].message, 'tool call mismatch: expected call_W1nQz7Yb4hKc0VrT9sLmE2dX, actual call_never');
  });

  it('tool start without a policy decision', async () => {
    const e = editable(YOLO);
    e.lines.splice(5, 2);
    e.renumber();
    const f = await checkFile(e.write('no-policy.jsonl'), 'check');
    assert.deepEqual(brief(f), ['6 error harness/transition']);
    assert.equal(f[0].message, 'invalid transition from awaiting_policy on tool_started');
    assert.deepEqual(brief(await checkFile(e.write('no-policy.jsonl'), 'verify')), []);
  });

  it('event after run_finished', async () => {
    const e = editable(YOLO);
    e.lines.push({ seq: 13, occurred_at_ms: 1795963600016, event: { event: 'run_failed', run_id: RUN, reason: 'late' } });
    const f = await checkFile(e.write('after-finish.jsonl'), 'check');
    assert.deepEqual(brief(f), ['14 error harness/transition']);
    assert.equal(f[0].message, 'invalid transition from finished on run_failed');
  });

  it('run_id of another run', async () => {
    const e = editable(YOLO);
    ev(e.rec(7)).run_id = 'run_other';
    const p = e.write('run-id.jsonl');
    const f = await checkFile(p, 'verify');
    assert.deepEqual(brief(f), ['8 error harness/run-id-bound']);
    assert.equal(f[0].message, `run id mismatch: expected ${RUN}, actual run_other`);
    assert.deepEqual(brief(await checkFile(p, 'check')), []);
  });

  it('a line that is not JSON', async () => {
    const lines = corpusLines(harnessCorpus(YOLO));
    lines[3] = lines[3].slice(0, 40);
    const p = writeTemp('bad-json.jsonl', jsonl(lines));
    assert.deepEqual(brief(await checkFile(p, 'verify')), ['4 error harness/line-json', '5 error harness/seq-contiguous']);
    assert.ok(brief(await checkFile(p, 'check')).includes('4 error harness/line-json'));
  });

  it('line shape: extra key, missing key, envelope keys and version', async () => {
    const [v] = await both('shape.jsonl', (e) => {
      (e.lines[2] as Record<string, unknown>).note = 'x';
      delete (e.lines[9] as Record<string, unknown>).occurred_at_ms;
    });
    assert.deepEqual(v, ['3 error harness/line-shape', '10 error harness/line-shape']);
    const e = editable('approval-denied.jsonl');
    e.lines[0].v = 3;
    (e.lines[1] as Record<string, unknown>).extra = true;
    const f = await checkFile(e.write('envelope.jsonl'), 'verify');
    assert.deepEqual(brief(f), ['1 warning harness/envelope-version', '2 error harness/line-shape']);
    assert.equal(f[1].message, 'unknown field `extra`, expected `v` or `record`');
  });

  it('unknown event name, nested shape, empty id, unknown field', async () => {
    const [, c] = await both('fields.jsonl', (e) => {
      ev(e.rec(4)).call.effect = 'read';
      ev(e.rec(6)).actor_id = ' ';
      ev(e.rec(7)).pid = 42;
      ev(e.rec(11)).usage = { input_tokens: 1, output_tokens: 2, cached: 0 };
    });
    assert.deepEqual(c, ['5 error harness/nested-shape', '7 error harness/empty-id', '8 warning harness/unknown-event-field', '12 error harness/nested-shape']);
    const [, c2] = await both('unknown-event.jsonl', (e) => (ev(e.rec(7)).event = 'tool_resumed'));
    assert.deepEqual(c2, ['8 error harness/event-known', '9 error harness/transition']);
  });

  it('turn reuse, context budget, turn and step mismatch', async () => {
    const [, reuse] = await both('reuse.jsonl', (e) => e.lines.forEach((_, i) => ev(e.rec(i)).turn_id === 'turn_2' && (ev(e.rec(i)).turn_id = 'turn_1')));
    assert.deepEqual(reuse, ['10 error harness/turn-reuse']);
    const [, budget] = await both('budget.jsonl', (e) => (ev(e.rec(1)).context.token_budget = 10));
    assert.deepEqual(budget, ['2 error harness/context-budget']);
    const [, turn] = await both('turn.jsonl', (e) => (ev(e.rec(2)).turn_id = 'turn_9'));
    assert.deepEqual(turn, ['3 error harness/turn-match']);
    const [, step] = await both('step.jsonl', (e) => (ev(e.rec(10)).step = 5));
    assert.deepEqual(step, ['11 error harness/step-match']);
  });

  it('call not proposed: input differs, and 1 is not 1.0', async () => {
    const [, c] = await both('not-proposed.jsonl', (e) => (ev(e.rec(4)).call.input.path = 'other.txt'));
    assert.deepEqual(c, ['5 error harness/call-proposed']);
    const withN = (proposal: string, call: string, reorder = false) => {
      const lines = corpusLines(harnessCorpus(YOLO));
      lines[3] = lines[3].replace('"path":"hello.txt"}', `"path":"hello.txt","n":${proposal}}`);
      lines[4] = reorder
        ? lines[4].replace('{"content":"hi from plato\\n","path":"hello.txt"}', `{"n":${call},"path":"hello.txt","content":"hi from plato\\n"}`)
        : lines[4].replace('"path":"hello.txt"}', `"path":"hello.txt","n":${call}}`);
      return writeTemp(`kind-${proposal}-${call}-${reorder}.jsonl`, jsonl(lines));
    };
    assert.deepEqual(brief(await checkFile(withN('1', '1.0'), 'check')), ['5 error harness/call-proposed']);
    assert.deepEqual(brief(await checkFile(withN('1.0', '1.0', true), 'check')), []);
    assert.deepEqual(brief(await checkFile(withN('1', '1', true), 'check')), []);
  });

  it('call id reuse: a warning without 0.3 evidence, an error with it', async () => {
    const e = editable('success-approvals.jsonl');
    const first = ev(e.rec(4)).call.id as string;
    const second = ev(e.rec(11)).call.id as string;
    for (let i = 11; i <= 15; i++) {
      const x = ev(e.rec(i));
      if (x.call) x.call.id = first;
      if (x.call_id === second) x.call_id = first;
      if (x.result) x.result.call_id = first;
    }
    assert.deepEqual(brief(await checkFile(e.write('reuse-call.jsonl'), 'check')), ['12 warning harness/call-id-reuse', '13 info harness/effect-policy']);
    ev(e.rec(10)).served_model = 'openai/gpt-5';
    assert.deepEqual(brief(await checkFile(e.write('reuse-call-03.jsonl'), 'check')), ['12 error harness/call-id-reuse', '13 info harness/effect-policy']);
  });
});

describe('harness-ledger rules: several runs and voice lines', () => {
  const rec = (seq: number, run: string, e: Record<string, unknown>) => JSON.stringify({ seq, occurred_at_ms: seq, event: { ...e, run_id: run } });
  it('seq is per run; each run is replayed on its own', async () => {
    const p = writeTemp('runs.jsonl', jsonl([
      rec(0, 'a', { event: 'run_started', agent_id: 'x' }), rec(0, 'b', { event: 'run_started', agent_id: 'x' }),
      rec(1, 'b', { event: 'run_failed', reason: 'stop' }), rec(1, 'a', { event: 'run_failed', reason: 'stop' }), rec(2, 'a', { event: 'run_finished' }),
    ]));
    assert.deepEqual(brief(await checkFile(p, 'verify')), []);
    const f = await checkFile(p, 'check');
    assert.deepEqual(brief(f), ['5 error harness/transition']);
    assert.equal(f[0].message, 'invalid transition from failed on run_finished');
  });
  it('at most one voice_events line', async () => {
    const p = writeTemp('voice.jsonl', jsonl(['{"voice_events":[]}', rec(0, 'a', { event: 'run_started', agent_id: 'x' }), '{"voice_events":[]}', rec(1, 'a', { event: 'run_failed', reason: 'r' })]));
    assert.deepEqual(brief(await checkFile(p, 'verify')), ['3 error harness/line-shape']);
  });
});

describe('harness-ledger rules: 0.2.0 deltas', () => {
  const R = 'run_x';
  const rec = (seq: number, event: Record<string, unknown>) => JSON.stringify({ seq, occurred_at_ms: 1000 + seq, event: { ...event, run_id: R } });
  const ctx = (turn: string) => ({ event: 'context_built', turn_id: turn, context: { token_budget: 100, fragments: [] } });
  const head = [rec(0, { event: 'run_started', agent_id: 'a' }), rec(1, ctx('t1')), rec(2, { event: 'model_requested', turn_id: 't1', step: 0, model: 'm' })];
  const output = { role: 'assistant', content: '' };

  it('model_failed retries the same turn and step', async () => {
    const p = writeTemp('retry.jsonl', jsonl([...head,
      rec(3, { event: 'model_failed', turn_id: 't1', step: 0, reason: '429' }),
      rec(4, { event: 'model_requested', turn_id: 't1', step: 0, model: 'm' }),
      rec(5, { event: 'model_responded', turn_id: 't1', step: 0, output, proposed_calls: [{ tool: 'x', input: {} }], usage: null }),
      rec(6, { event: 'tool_proposals_rejected', turn_id: 't1', reason: ' ' }),
      rec(7, { event: 'context_compacted', turn_id: 't2', estimated_tokens_before: 9, estimated_tokens_after: 3, dropped_turn_start: 2, dropped_turn_end_exclusive: 1 }),
      rec(8, ctx('t3')),
      rec(9, { event: 'run_failed', reason: 'stop' }),
    ]));
    const f = await checkFile(p, 'check');
    assert.deepEqual(brief(f), ['7 error harness/rejection-reason', '8 error harness/compaction-range', '9 error harness/turn-match']);
    assert.equal(f[0].message, 'tool proposal rejection reason cannot be empty');
    assert.equal(f[1].message, 'invalid compaction range: 2..1');
    assert.equal(f[2].message, 'turn mismatch: expected t2, actual t3');
  });

  it('a pending compaction admits only context_built or run_failed', async () => {
    const p = writeTemp('compaction.jsonl', jsonl([...head,
      rec(3, { event: 'model_responded', turn_id: 't1', step: 0, output, proposed_calls: [] }),
      rec(4, { event: 'context_compacted', turn_id: 't2', estimated_tokens_before: 9, estimated_tokens_after: 3, dropped_turn_start: 0, dropped_turn_end_exclusive: 1 }),
      rec(5, { event: 'run_finished' }),
    ]));
    const f = await checkFile(p, 'check');
    assert.deepEqual(brief(f), ['6 error harness/transition']);
    assert.equal(f[0].message, 'invalid transition from turn_concluded on run_finished');
  });
});
