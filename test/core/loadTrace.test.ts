import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import { tempFile } from '../helpers/tmp';

describe('loadTrace on bad input', () => {
  it('reports a torn line in the middle at its line and keeps the other events', async () => {
    const p = tempFile('x.jsonl', '{"id":"a"}\n{"id":"b","parent_id":"a"}{"id":\n{"id":"c","parent_id":"a"}\n');
    const m = await loadTrace(p);
    assert.equal(m.events.size, 2);
    assert.equal(m.malformed.length, 1);
    assert.equal(m.malformed[0].line, 2);
    const d = m.diagnostics.find((x) => x.rule === 'parse/invalid-json');
    assert.ok(d);
    assert.equal(d.line, 2);
    assert.equal(m.events.lineOf(1), 3);
    assert.equal(m.events.parent(1), 0);
  });

  it('reports a torn tail as a warning at the last line', async () => {
    const m = await loadTrace(tempFile('x.jsonl', '{"id":"a"}\n{"id":"b","par'));
    const d = m.diagnostics.find((x) => x.rule === 'parse/torn-tail');
    assert.ok(d);
    assert.equal(d.line, 2);
    assert.equal(d.severity, 'warning');
  });

  it('reports lines that are not JSON and counts blank lines', async () => {
    const m = await loadTrace(tempFile('x.jsonl', 'hello world\n\n{"id":"a"}\n   \n'));
    assert.equal(m.events.size, 1);
    assert.equal(m.blankLines, 2);
    assert.deepEqual(m.malformed.map((x) => x.line), [1]);
    assert.equal(m.events.lineOf(0), 3);
  });

  it('reports a line over the limit without parsing it', async () => {
    const m = await loadTrace(tempFile('x.jsonl', `{"id":"a"}\n{"big":"${'x'.repeat(3000)}"}\n{"id":"b"}\n`), { maxLineBytes: 1024 });
    assert.deepEqual(m.diagnostics.filter((d) => d.rule === 'parse/line-too-long').map((d) => d.line), [2]);
    assert.equal(m.events.size, 2);
  });

  it('reads CRLF files with a BOM', async () => {
    const m = await loadTrace(tempFile('x.jsonl', '\uFEFF{"id":"a"}\r\n{"id":"b","parent_id":"a"}\r\n'));
    assert.equal(m.bom, true);
    assert.equal(m.crlf, true);
    assert.equal(m.events.size, 2);
    assert.equal(m.events.parent(1), 0);
    assert.ok(m.diagnostics.some((d) => d.rule === 'parse/bom' && d.line === 1));
  });

  it('opens an empty file as an empty generic trace', async () => {
    const m = await loadTrace(tempFile('x.jsonl', ''));
    assert.equal(m.events.size, 0);
    assert.equal(m.format, 'generic');
  });

  it('keeps non-object JSON values as events', async () => {
    const m = await loadTrace(tempFile('x.jsonl', '[1,2]\n"text"\n42\n'));
    assert.deepEqual([0, 1, 2].map((i) => m.events.kindOf(i)), ['array', 'string', 'number']);
  });

  it('throws a clear error for a missing file', async () => {
    await assert.rejects(loadTrace('does-not-exist.jsonl'), /ENOENT|no such file/);
  });
});

describe('generic tree', () => {
  it('links ids and parents from common field names', async () => {
    const m = await loadTrace(tempFile('x.jsonl', ['{"uuid":"r"}', '{"uuid":"c1","parentUuid":"r"}', '{"span_id":"s","parent_span_id":"c1"}', '{"event_id":"e","parent_event_id":"s"}'].join('\n') + '\n'));
    assert.equal(m.format, 'generic');
    assert.deepEqual([0, 1, 2, 3].map((i) => m.events.parent(i)), [-1, 0, 1, 2]);
    assert.equal(m.tree.depth(3), 3);
  });

  it('cuts a cycle of parents, reports it, and still shows every event', async () => {
    const m = await loadTrace(tempFile('x.jsonl', '{"id":"a","parent_id":"c"}\n{"id":"b","parent_id":"a"}\n{"id":"c","parent_id":"b"}\n'));
    const cycles = m.diagnostics.filter((d) => d.rule === 'tree/cycle');
    assert.equal(cycles.length, 1);
    assert.equal(cycles[0].line, 3);
    assert.deepEqual([...m.tree.roots], [2]);
    assert.equal(m.events.size, 3);
  });

  it('reports dangling parents and duplicate ids, keeping orphans as roots', async () => {
    const m = await loadTrace(tempFile('x.jsonl', '{"id":"a"}\n{"id":"b","parent_id":"zz"}\n{"id":"a"}\n'));
    assert.deepEqual(m.diagnostics.map((d) => [d.rule, d.line]), [['tree/dangling-parent', 2], ['tree/duplicate-id', 3]]);
    assert.deepEqual([...m.tree.roots], [0, 1, 2]);
  });

  it('builds a 200,000-deep chain without recursion', async () => {
    const n = 200_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(JSON.stringify({ id: `e${i}`, parent_id: i === 0 ? null : `e${i - 1}` }));
    const m = await loadTrace(tempFile('deep.jsonl', lines.join('\n') + '\n'));
    assert.equal(m.events.size, n);
    assert.equal(m.tree.depth(n - 1), n - 1);
    assert.equal(m.tree.roots.length, 1);
  });

  it('handles a 200,000-long cycle without hanging', async () => {
    const n = 200_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(JSON.stringify({ id: `e${i}`, parent_id: `e${(i + n - 1) % n}` }));
    const m = await loadTrace(tempFile('cycle.jsonl', lines.join('\n') + '\n'));
    assert.deepEqual(m.diagnostics.filter((d) => d.rule === 'tree/cycle').map((d) => d.line), [n]);
    assert.equal(m.tree.roots.length, 1);
  });
});

describe('event table memory layout', () => {
  it('gives back parent ids and mentions after compaction, also for a cut cycle', async () => {
    const m = await loadTrace(tempFile('x.jsonl', '{"id":"a","parent_id":"b"}\n{"id":"b","parent_id":"a"}\n{"id":"c","parent_id":"a"}\n{"id":"d","parent_id":"nope"}\n'));
    assert.deepEqual([0, 1, 2, 3].map((i) => m.events.parentId(i)), ['b', 'a', 'a', 'nope']);
    assert.deepEqual([0, 1, 2, 3].map((i) => m.events.parent(i)), [1, -1, 0, -1]);
  });
});

describe('event table labels', () => {
  it('gives labels back exactly, arrows and ellipses included', async () => {
    const m = await loadTrace(tempFile('x.jsonl', '{"type":"model→call…","input_tokens":1200,"output_tokens":34}\n{"type":"plain"}\n'));
    assert.equal(m.events.labelOf(0), 'model→call… 1.2k→34 tokens');
    assert.equal(m.events.get(0).label, 'model→call… 1.2k→34 tokens');
    assert.equal(m.events.labelOf(1), 'plain');
  });
});
