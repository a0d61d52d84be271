import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { loadTrace } from '../../../src/core/loadTrace';
import { rollUp, usageRollupOf } from '../../../src/core/usage/rollup';
import { eventUsage } from '../../../src/core/usage/eventUsage';
import { TOKEN_FIELDS } from '../../../src/core/usageTypes';
import { UsageKind } from '../../../src/core/usage/usageColumns';
import { CORPUS_ROOT, WRITER_CORPUS, corpusPath } from '../../helpers/corpus';
import { filesUnder } from '../../helpers/writerCorpus';

const MURMUR = corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl');

/** The file's inference lines' own input/output tokens, read without the loader. */
function inferenceTokens(): { input: number; output: number }[] {
  return readFileSync(MURMUR, 'utf8').split('\n').filter((l) => l.includes('"event_type":"inference"')).map((l) => {
    const v = JSON.parse(l) as Record<string, unknown>;
    const p = (v.payload ?? v) as Record<string, number>;
    return { input: p.input_tokens, output: p.output_tokens };
  });
}

describe('usage rollup: columns, shared, inclusive and exclusive', () => {
  it('murmur: the task subtree sums its inference lines; task_end stands beside them, uncounted', async () => {
    const m = await loadTrace(MURMUR);
    const r = rollUp(m);
    const calls = inferenceTokens();
    assert.equal(calls.length, 2);
    const task = [...Array(m.events.size).keys()].find((i) => m.events.kindOf(i) === 'task_start')!;
    const end = [...Array(m.events.size).keys()].find((i) => m.events.kindOf(i) === 'task_end')!;
    const inc = r.inclusiveOf(task)!;
    assert.deepEqual([inc.input, inc.output], [calls[0].input + calls[1].input, calls[0].output + calls[1].output]);
    assert.equal(r.usage.usageOf(task), null, 'the task reports nothing itself (exclusive: none)');
    assert.equal(r.usage.has(task), false);
    assert.equal(r.isCounted[end], 0, 'task_end does not add to the calls it sums');
    assert.deepEqual(r.shadowed.map((s) => s.row.index), [end]);
    assert.deepEqual(Array.from(r.countedIndex, (i) => m.events.kindOf(i)), ['inference', 'inference']);
    assert.deepEqual(r.counted.map((row) => row.index), Array.from(r.countedIndex), 'rows made on request agree with the columns');
  });

  it('is computed once per model and shared, and again for another model', async () => {
    const a = await loadTrace(MURMUR);
    const b = await loadTrace(MURMUR);
    assert.equal(usageRollupOf(a), usageRollupOf(a));
    assert.notEqual(usageRollupOf(a), usageRollupOf(b));
    assert.deepEqual(Array.from(usageRollupOf(b).countedIndex), Array.from(usageRollupOf(a).countedIndex));
  });

  const traces = [...filesUnder(CORPUS_ROOT, (p) => /\.(jsonl|json)$/.test(p) && !/[\\/](blobs|sha256)[\\/]/.test(p)), ...filesUnder(WRITER_CORPUS, (p) => /\.(jsonl|json)$/.test(p))];
  it(`the usage columns hold, for every event of ${traces.length} corpus and real-writer files, what eventUsage makes of its facts`, async () => {
    const kinds = new Set<UsageKind>();
    for (const file of traces) {
      const m = await loadTrace(file);
      const t = m.events;
      const r = rollUp(m);
      // Every event is in the forest the settle pass walks (a trace without aggregates is settled without the walk).
      let reached = 0;
      for (const stack = [...m.tree.roots]; stack.length > 0; reached++) stack.push(...m.tree.children(stack.pop()!));
      assert.equal(reached, t.size, file);
      for (let i = 0; i < t.size; i++) {
        // Read apart from the columns: the facts and the token columns, as the rollups read them before.
        const u = eventUsage(t.usageFactsOf(i), t.get(i).tokensIn, t.get(i).tokensOut);
        const at = `${file} event ${i}`;
        assert.equal(r.usage.has(i), u !== null, at);
        if (!u) continue;
        const kind = u.source === 'event' ? UsageKind.Event : u.source === 'totals' ? UsageKind.Totals : u.covers === 'parent' ? UsageKind.AggregateParent : UsageKind.AggregateSelf;
        kinds.add(kind);
        assert.equal(r.usage.kindOf(i), kind, at);
        for (const f of TOKEN_FIELDS) assert.equal(r.usage.field(i, f), u.counts[f] ?? null, `${at} ${f}`);
        assert.equal(r.usage.totalOf(i), u.counts.total ?? null, at);
        assert.equal(r.usage.recordedCostOf(i), u.costUsd, at);
        assert.equal(r.usage.reasoningApartOf(i), u.reasoningApart, at);
        assert.equal(r.usage.isTotalsOf(i), u.source === 'totals' || u.runningTotals !== null, at);
        assert.deepEqual(r.usage.usageOf(i), { ...u, model: r.modelOf(i) }, at);
      }
    }
    assert.deepEqual([...kinds].sort(), [UsageKind.Event, UsageKind.AggregateSelf, UsageKind.AggregateParent, UsageKind.Totals], 'every kind of record is met');
  });
});
