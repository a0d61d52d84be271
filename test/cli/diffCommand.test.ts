import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { agentledger, claudeSession, linesOf, MURMUR, writeVariant } from '../core/diff/diffPairs';
import { tempFile } from '../helpers/tmp';
import { requireBuiltCli, runCli as cli } from '../helpers/cli';

describe('agent-trace diff', () => {
  before(requireBuiltCli);

  it('exits 0 for two copies of a run, with no divergence and every event equal', () => {
    const copy = tempFile('copy.jsonl', readFileSync(MURMUR));
    const r = cli('diff', MURMUR, copy, '--json');
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.firstDivergence, null);
    assert.equal(j.ops.length, 7);
    assert.ok(j.ops.every((o: { op: string }) => o.op === 'equal'));
    assert.deepEqual(j.summary, {
      equal: 7, inserted: 0, deleted: 0, changed: 0, durationDeltaMs: 0, tokensDelta: 0, costDeltaUsd: 0,
      thresholdChanges: { duration: 0, durationDeltaMs: 0, tokens: 0, tokensDelta: 0, thresholds: { durationMs: 1000, tokens: 100, ratio: 0.1 } },
    });
    const text = cli('diff', MURMUR, copy);
    assert.equal(text.code, 0);
    assert.match(text.out, /equivalent: no differences/);
  });

  it('exits 1 when the runs differ and gives the issue\'s JSON shape', () => {
    const r = cli('diff', agentledger('approval-granted', 'events.jsonl'), agentledger('approval-denied', 'events.jsonl'), '--json');
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j), ['a', 'b', 'firstDivergence', 'ops', 'summary']);
    assert.deepEqual(j.a, { file: agentledger('approval-granted', 'events.jsonl'), format: 'agentledger', events: 28 });
    assert.deepEqual(j.b.events, 13);
    assert.deepEqual(j.firstDivergence, { aLine: 12, bLine: 12 });
    // The first release's keys in their order, then the ones added since.
    assert.deepEqual(Object.keys(j.summary), ['equal', 'inserted', 'deleted', 'changed', 'durationDeltaMs', 'tokensDelta', 'costDeltaUsd', 'thresholdChanges']);
    const change = j.ops.find((o: { op: string }) => o.op === 'change');
    assert.deepEqual(Object.keys(change).slice(0, 5), ['op', 'aLine', 'bLine', 'kind', 'label']);
    assert.equal(change.kind, 'tool_approval_decided');
    assert.deepEqual(change.fields.find((f: { path: string }) => f.path === 'payload.status'), { path: 'payload.status', a: 'APPROVED', b: 'DENIED' });
    const del = j.ops.find((o: { op: string }) => o.op === 'delete');
    assert.equal(del.bLine, undefined);
    assert.equal(typeof del.aLine, 'number');
    const ins = j.ops.find((o: { op: string }) => o.op === 'insert');
    assert.equal(ins.aLine, undefined);
    assert.equal(ins.kind, 'step_failed');
    assert.equal(j.summary.equal + j.summary.changed + j.summary.deleted, 28);
    assert.equal(j.summary.equal + j.summary.changed + j.summary.inserted, 13);
  });

  it('reports a tool call 125 s slower as changed, with the delta summed, and takes --duration-threshold (issue 40)', () => {
    const a = claudeSession('shell-ok');
    const lines = linesOf(a);
    const k = lines.findIndex((l) => l.includes('"type":"tool_result"'));
    const later = (l: string) => l.replace(/"timestamp":"([^"]+)"/, (_m, t: string) => `"timestamp":"${new Date(Date.parse(t) + 125_000).toISOString()}"`);
    const b = writeVariant(lines.map((l, i) => (i >= k ? later(l) : l)));
    const r = cli('diff', a, b, '--json');
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(j.firstDivergence, { aLine: k + 1, bLine: k + 1 });
    const op = j.ops.find((o: { op: string }) => o.op === 'change');
    assert.equal(op.durationDeltaMs, 125_000);
    assert.equal(op.fields.find((f: { path: string }) => f.path === 'durationMs').b - op.fields.find((f: { path: string }) => f.path === 'durationMs').a, 125_000);
    assert.equal(j.summary.changed, 1);
    assert.equal(j.summary.durationDeltaMs, 125_000);
    assert.equal(j.summary.thresholdChanges.durationDeltaMs, 125_000);
    const text = cli('diff', a, b);
    assert.match(text.out, /^~ .*\(\+2 min 5 s\)$/m);
    assert.match(text.out, /^ +durationMs: \d+ → \d+$/m);
    assert.equal(cli('diff', a, b, '--duration-threshold', '200000').code, 0);
    const bad = cli('diff', a, b, '--duration-threshold', 'soon');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--duration-threshold needs a whole number, not soon/);
  });

  it('prints the divergence, the changed fields and the totals for a person', () => {
    const r = cli('diff', agentledger('approval-granted', 'events.jsonl'), agentledger('approval-denied', 'events.jsonl'), '--context', '1');
    assert.equal(r.code, 1);
    assert.match(r.out, /^first divergence: A line 12, B line 12$/m);
    assert.match(r.out, /^~ +tool_approval_decided .*\[A 12, B 12\]$/m);
    assert.match(r.out, /^ +payload\.status: "APPROVED" → "DENIED"$/m);
    assert.match(r.out, /^\+ +step_failed ApprovalDenied +\[B 13\]$/m);
    assert.match(r.out, /^  … 10 equal events$/m);
    assert.match(r.out, /^equal 11, inserted 1, deleted 16, changed 1; duration -\d+ ms, tokens -230, cost \?$/m);
  });

  it('prices the difference with --pricing (mock-llm is in no bundled table), and rejects a bad price file', () => {
    const prices = tempFile('prices.json', JSON.stringify({ 'mock-llm': { input: 3, output: 15 } }));
    const r = cli('diff', agentledger('approval-granted', 'events.jsonl'), agentledger('approval-denied', 'events.jsonl'), '--json', '--pricing', prices);
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    // The denied run lacks the second model call: 212 input and 18 output tokens at $3 and $15 per million.
    const call = (212 * 3 + 18 * 15) / 1e6;
    assert.ok(Math.abs(j.summary.costDeltaUsd + call) < 1e-12, String(j.summary.costDeltaUsd));
    const bad = tempFile('bad.json', '{"mock-llm": {"input": "x"}}');
    assert.equal(cli('diff', MURMUR, MURMUR, '--pricing', bad).code, 2);
  });

  it('exits 2 on a missing file, a wrong number of files or a bad option', () => {
    const missing = cli('diff', MURMUR, 'no/such/trace.jsonl');
    assert.equal(missing.code, 2);
    assert.match(missing.err, /no\/such\/trace\.jsonl: cannot read: no such file/);
    assert.equal(cli('diff', MURMUR).code, 2);
    assert.equal(cli('diff', MURMUR, MURMUR, MURMUR).code, 2);
    assert.equal(cli('diff', MURMUR, MURMUR, '--context', 'x').code, 2);
    assert.equal(cli('diff', MURMUR, MURMUR, '--bogus').code, 2);
    assert.equal(cli('diff', '--help').code, 0);
  });

  it('escapes terminal controls from trace content in its text output', () => {
    const a = claudeSession('shell-ok');
    const lines = linesOf(a);
    const k = lines.findIndex((l) => l.includes('"command":"echo hello"'));
    const b = writeVariant(lines.map((l, i) => (i === k ? l.replace('"command":"echo hello"', '"command":"echo \\u001b]0;pwned\\u0007\\u001b[2J"') : l)));
    const r = cli('diff', a, b);
    assert.equal(r.code, 1);
    assert.ok(!/[\u001b\u0007]/.test(r.out), 'no raw control characters');
    assert.match(r.out, /message\.content\[0\]\.input\.command: "echo hello" → "echo \\u001b\]0;pwned\\u0007/);
    // The other way round the hostile event's own label is printed: a label drops terminal sequences whole (the
    // title-setting OSC with its text, the screen clear), while the changed field shows the value escaped.
    const back = cli('diff', b, a);
    assert.ok(!/[\u001b\u0007]/.test(back.out), 'no raw control characters');
    assert.match(back.out, /^~ .*Bash: echo {2}\[A \d+, B \d+\]$/m);
    assert.doesNotMatch(back.out, /pwned.*\[A \d+/, 'the sequence is not in the label');
    assert.match(back.out, /command: "echo \\u001b\]0;pwned\\u0007\\u001b\[2J" → "echo hello"/);
  });

  it('reports a line that is not JSON in one run as a difference, not a crash', () => {
    const lines = linesOf(MURMUR);
    const b = tempFile('broken.jsonl', [...lines.slice(0, 3), '{"event_type": "tool_call", broken', ...lines.slice(4)].join('\n') + '\n');
    const r = cli('diff', MURMUR, b, '--json');
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.summary.deleted, 1);
    assert.deepEqual(j.firstDivergence.aLine, 4);
  });
});
