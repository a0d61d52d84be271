import { strict as assert } from 'node:assert';
import { FactReader, FactWriter, planFields } from '../../src/core/lineFacts';

describe('line facts: the fields a builder reads, as columns between threads', () => {
  const plan = planFields(['seq', 'kind', 'doc_hash', 'details', 'details.ip', 'details.tags', 'ok']);
  const hash = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;

  it('reads back each line\'s fields, in order, with nulls, booleans, JSON values and nested objects', () => {
    const lines: Record<string, unknown>[] = [
      { seq: 1, kind: 'run_start', doc_hash: hash(1), details: { ip: 7, tags: ['a', 1], other: 'not read' }, ok: true, extra: 'not read' },
      { seq: 2.5, kind: null, details: 'not an object', ok: false },
      { kind: 'tool_call', doc_hash: hash(1), details: { ip: null }, seq: -0 },
      { seq: 3, details: { tags: { deep: [1, { x: 'y' }] } } },
    ];
    const w = new FactWriter(plan, 1);
    lines.forEach((l, i) => assert.equal(w.add(l), i));
    const batch = w.take();
    assert.equal(batch.count, 4);
    const r = new FactReader(plan, batch);
    assert.deepStrictEqual(r.read(0), { seq: 1, kind: 'run_start', doc_hash: hash(1), details: { ip: 7, tags: ['a', 1] }, ok: true });
    assert.deepStrictEqual(r.read(1), { seq: 2.5, kind: null, details: 'not an object', ok: false });
    assert.deepStrictEqual(r.read(2), { seq: -0, kind: 'tool_call', doc_hash: hash(1), details: { ip: null } });
    assert.deepStrictEqual(r.read(3), { seq: 3, details: { tags: { deep: [1, { x: 'y' }] } } });
    // The writer starts empty again.
    assert.equal(w.take().count, 0);
  });

  it('sends a long string that repeats its field\'s value on the line before once, and any other long string each time', () => {
    const w = new FactWriter(plan);
    for (let i = 0; i < 100; i++) w.add({ seq: i, kind: 'step', doc_hash: hash(i < 60 ? 1 : 2) });
    // A long value equal to another field's last value is not taken for it.
    w.add({ seq: 100, kind: hash(2), doc_hash: hash(3) });
    const batch = w.take();
    assert.deepStrictEqual(batch.table.filter((s) => s.startsWith('sha256:')), [hash(1), hash(2), hash(2), hash(3)]);
    const r = new FactReader(plan, batch);
    for (let i = 0; i < 100; i++) assert.deepStrictEqual(r.read(i), { seq: i, kind: 'step', doc_hash: hash(i < 60 ? 1 : 2) });
    assert.deepStrictEqual(r.read(100), { seq: 100, kind: hash(2), doc_hash: hash(3) });
  });

  it('reads keys every object inherits (constructor, toString, __proto__) only where the line has them', () => {
    const odd = planFields(['kind', 'constructor', 'toString', '__proto__', 'details', 'details.constructor', 'details.valueOf']);
    const lines = [
      '{"kind":"a"}',
      '{"kind":"b","constructor":"mine","toString":null,"__proto__":{"x":1},"details":{"constructor":2}}',
      '{"details":{"valueOf":[1],"hasOwnProperty":3}}',
      '{"details":{}}',
    ].map((t) => JSON.parse(t) as Record<string, unknown>);
    const w = new FactWriter(odd, 1);
    for (const l of lines) w.add(l);
    const r = new FactReader(odd, w.take());
    const back = lines.map((_, i) => JSON.stringify(r.read(i)));
    assert.deepStrictEqual(back, [
      '{"kind":"a"}',
      '{"kind":"b","constructor":"mine","toString":null,"__proto__":{"x":1},"details":{"constructor":2}}',
      '{"details":{"valueOf":[1]}}',
      '{"details":{}}',
    ]);
  });

  it('refuses to read rows out of order (numbers and strings are stored in line order)', () => {
    const w = new FactWriter(plan);
    w.add({ seq: 1 });
    w.add({ seq: 2 });
    const r = new FactReader(plan, w.take());
    assert.throws(() => r.read(1), /out of order/);
  });
});
