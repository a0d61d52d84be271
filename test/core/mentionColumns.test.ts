import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import { StringColumn } from '../../src/core/stringColumn';
import { CORPUS_ROOT, WRITER_CORPUS } from '../helpers/corpus';
import { filesUnder } from '../helpers/writerCorpus';

const traces = [...filesUnder(CORPUS_ROOT, (p) => /\.(jsonl|json)$/.test(p) && !/[\\/](blobs|sha256)[\\/]/.test(p)), ...filesUnder(WRITER_CORPUS, (p) => /\.(jsonl|json)$/.test(p))];

describe('mention columns: entries read without objects', () => {
  it('StringColumn.hashAt and sameAt agree with the strings, packed hex ids, nulls and empties included', () => {
    const values = ['evt_0000000000000000000000000000002a', 'evt_0000000000000000000000000000002a', 'evt_0000000000000000000000000000002b', 'toolu_1', 'toolu_1', 'toolu_10', '', null, null, 'é', 'é', '0123456789abcdef', 'x0123456789abcdef'];
    const col = new StringColumn();
    for (const v of values) col.push(v);
    for (let a = 0; a < values.length; a++) {
      assert.equal(col.byteLength(a) === 0, values[a] === null || values[a] === '');
      for (let b = 0; b < values.length; b++) {
        assert.equal(col.sameAt(a, b), values[a] === values[b], `${values[a]} vs ${values[b]}`);
        if (values[a] === values[b]) assert.equal(col.hashAt(a), col.hashAt(b));
      }
    }
    // Distinct ids of one shape spread over the hash (a constant hash would still pass the checks above).
    assert.ok(new Set([0, 2, 3, 5, 11, 12].map((k) => col.hashAt(k))).size === 6);
  });

  it(`over ${traces.length} corpus and real-writer files, every entry gives back its event, field and id`, async () => {
    let entries = 0;
    for (const file of traces) {
      const t = (await loadTrace(file)).events;
      const seen = new Map<string, number>();
      for (let i = 0; i < t.size; i++) {
        const objects = t.mentionsOf(i);
        assert.equal(t.mentions.countOf(i), objects.length, file);
        objects.forEach((m, j) => {
          const k = t.mentions.startOf(i) + j;
          assert.equal(t.mentions.eventAt(k), i, `${file} entry ${k}`);
          assert.equal(t.mentions.fieldAt(k), m.field);
          assert.equal(t.mentions.emptyAt(k), m.id === '');
          const first = seen.get(m.id);
          if (first === undefined) seen.set(m.id, k);
          else assert.ok(t.mentions.sameIdAt(first, k) && t.mentions.idHashAt(first) === t.mentions.idHashAt(k), `${file}: ${m.id}`);
          entries++;
        });
      }
      // Entries of different ids are never the same.
      const firsts = [...seen.values()];
      for (let a = 1; a < firsts.length; a++) assert.ok(!t.mentions.sameIdAt(firsts[a - 1], firsts[a]), file);
    }
    assert.ok(entries > 1000, `${entries} mention entries`);
  });
});
