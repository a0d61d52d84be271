import { strict as assert } from 'node:assert';
import { findArguments, flattenEvent } from '../../../src/core/diff/flattenJson';
import { diffFields, MAX_FIELD_CHANGES } from '../../../src/core/diff/fieldDiff';
import { volatileKeyClass, volatileValueClass } from '../../../src/core/diff/volatileFields';

describe('diff normalization: volatile fields, flattening, field differences', () => {
  it('classes ids, times and hashes by name, and leaves content fields alone', () => {
    for (const k of ['event_id', 'parent_span_id', 'traceId', 'seq', 'lease_token', 'approval_key', 'message_ids']) assert.equal(volatileKeyClass(k), 'id', k);
    for (const k of ['timestamp', 'start_time', 'startTimeUnixNano', 'created_at', 'duration_ms', 'lease_until', 'createdAt']) assert.equal(volatileKeyClass(k), 'time', k);
    for (const k of ['payload_hash', 'system_sha', 'message_shas', 'payload_ref', 'prevHash']) assert.equal(volatileKeyClass(k), 'hash', k);
    // Words that merely end like a suffix stay content: `format`, `chat`, `valid`, `input_tokens`, `key`.
    for (const k of ['format', 'chat', 'valid', 'android', 'input_tokens', 'key', 'command', 'status', 'turn']) assert.equal(volatileKeyClass(k), null, k);
  });

  it('classes id-, time- and digest-looking values whatever their field', () => {
    assert.equal(volatileValueClass('evt_92a59d0a20e6472b'), 'id');
    assert.equal(volatileValueClass('toolu_mockmx4wri17005'), 'id');
    assert.equal(volatileValueClass('fd2851d8-4d90-46bd-89d6-038b3d980bdb'), 'id');
    assert.equal(volatileValueClass('2026-12-01T16:25:02.123Z'), 'time');
    assert.equal(volatileValueClass('sha256:0fd2538b13bc8fe9f7e99636627b38259ef359c761cf63edf6025810b1487355'), 'hash');
    for (const v of ['update runtime docs', 'mcp.github.create_pr', 'echo hello', 'tool_call', 'approval_granted']) assert.equal(volatileValueClass(v), null, v);
  });

  it('flattens in canonical key order, reads embedded JSON strings and drops volatile fields unless asked', () => {
    const a = flattenEvent({ b: 1, a: { y: [true, null], x: 'hi' }, event_id: 'evt_1', causal: '{"z": 2, "run_id": "r"}' }, { includeVolatile: false });
    assert.deepEqual(a, [
      { path: 'a.x', value: 'hi' }, { path: 'a.y[0]', value: true }, { path: 'a.y[1]', value: null }, { path: 'b', value: 1 }, { path: 'causal.z', value: 2 },
    ]);
    const all = flattenEvent({ event_id: 'evt_1' }, { includeVolatile: true });
    assert.deepEqual(all, [{ path: 'event_id', value: 'evt_1' }]);
  });

  it('flattens a value nested far deeper than the call stack allows', () => {
    let v: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) v = { c: v };
    const out = flattenEvent(v, { includeVolatile: false });
    assert.equal(out.length, 1);
    assert.equal(out[0].path.split('.').length, 64);
    assert.ok(String(out[0].value).startsWith('{"c":{"c":'));
    assert.ok(String(out[0].value).includes('"leaf"'));
  });

  it('finds tool arguments where the formats keep them', () => {
    assert.deepEqual(findArguments({ payload: { args: { title: 'x' }, tool: 't' } }), { title: 'x' });
    assert.deepEqual(findArguments({ message: { content: [{ type: 'tool_use', input: { command: 'ls' } }] } }), { command: 'ls' });
    assert.equal(findArguments({ decision: 'end_turn' }), undefined);
  });

  it('lists changed, removed and added fields, capped', () => {
    const d = diffFields([{ path: 'a', value: 1 }, { path: 'b', value: 'x' }], [{ path: 'a', value: 2 }, { path: 'c', value: false }]);
    assert.deepEqual(d, { fields: [{ path: 'a', a: 1, b: 2 }, { path: 'b', a: 'x' }, { path: 'c', b: false }], omitted: 0 });
    const many = Array.from({ length: MAX_FIELD_CHANGES + 5 }, (_, i) => ({ path: `p${i}`, value: i }));
    const capped = diffFields(many, []);
    assert.equal(capped.fields.length, MAX_FIELD_CHANGES);
    assert.equal(capped.omitted, 5);
  });
});
