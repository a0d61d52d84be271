import { strict as assert } from 'node:assert';
import { loadTrace } from '../../src/core/loadTrace';
import { CORPUS_ROOT, WRITER_CORPUS } from '../helpers/corpus';
import { filesUnder } from '../helpers/writerCorpus';

const traces = [...filesUnder(CORPUS_ROOT, (p) => /\.(jsonl|json)$/.test(p) && !/[\\/](blobs|sha256)[\\/]/.test(p)), ...filesUnder(WRITER_CORPUS, (p) => /\.(jsonl|json)$/.test(p))];

describe('mention columns: entries read without objects', () => {
  it(`over ${traces.length} corpus and real-writer files, every entry gives back its event, field and id`, async () => {
    let entries = 0;
    for (const file of traces) {
      const t = (await loadTrace(file)).events;
      const seen = new Map<string, number>();
      const fieldRefs = new Map<string, number>();
      for (let i = 0; i < t.size; i++) {
        const objects = t.mentionsOf(i);
        const keys: number[] = [];
        for (let k = t.mentions.firstEntry(i), end = t.mentions.endOf(i); k < end; k = t.mentions.nextEntry(k)) keys.push(k);
        assert.equal(keys.length, objects.length, file);
        objects.forEach((m, j) => {
          const k = keys[j];
          assert.equal(t.mentions.eventAt(k), i, `${file} entry ${k}`);
          assert.equal(t.mentions.fieldAt(k), m.field);
          assert.equal(t.mentions.idAt(k), m.id, `${file} entry ${k}`);
          assert.equal(t.mentions.emptyAt(k), m.id === '');
          // One pass over the entry reads the same: the next entry, the field (one number per field name), the hash.
          const next = t.mentions.readEntry(k);
          assert.equal(next, t.mentions.nextEntry(k), `${file} entry ${k}`);
          assert.equal(t.mentions.entryHash, m.id === '' ? -1 : t.mentions.idHashAt(k), `${file} entry ${k}`);
          const ref = fieldRefs.get(m.field) ?? t.mentions.entryField;
          fieldRefs.set(m.field, ref);
          assert.equal(t.mentions.entryField, ref, `${file}: ${m.field}`);
          assert.equal(t.stringOf(ref), m.field);
          const first = seen.get(m.id);
          if (first === undefined) seen.set(m.id, k);
          else assert.ok(t.mentions.sameIdAt(first, k) && t.mentions.idHashAt(first) === t.mentions.idHashAt(k), `${file}: ${m.id}`);
          entries++;
        });
      }
      // Entries of different ids are never the same.
      const firsts = [...seen.values()];
      for (let a = 1; a < firsts.length; a++) assert.ok(!t.mentions.sameIdAt(firsts[a - 1], firsts[a]), file);
      // Distinct ids spread over the hash (a constant hash would pass the checks above).
      if (firsts.length > 8) assert.ok(new Set(firsts.map((k) => t.mentions.idHashAt(k))).size > firsts.length / 2, file);
    }
    assert.ok(entries > 1000, `${entries} mention entries`);
  });
});
