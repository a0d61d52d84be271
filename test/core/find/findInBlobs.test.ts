import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openBlobStore } from '../../../src/core/blobStore';
import { loadTrace } from '../../../src/core/loadTrace';
import { findInBlobs } from '../../../src/core/find/findInBlobs';
import { compileTextQuery, searchFile } from '../../../src/core/find/textSearch';
import { findInTrace } from '../../../src/viewer/findInTrace';
import { tempFile } from '../../helpers/tmp';

const SESSION = resolve('samples/murmur/ses_583584f8e94410c93669237ac44d5d21');
const TRACE = join(SESSION, 'trace.jsonl');
const plain = (q: string, caseSensitive = false) => compileTextQuery(q, { caseSensitive, regex: false });

describe('find in blob text', () => {
  it('finds a match that crosses a chunk boundary, in UTF-8 split across chunks too', async () => {
    const text = 'x'.repeat(1000) + 'needle é here' + 'y'.repeat(1000);
    const file = tempFile('blob.txt', text);
    for (const chunkSize of [7, 64, 1004, 1005, 1 << 20]) {
      const m = await searchFile(file, plain('NEEDLE é'), { chunkSize });
      assert.ok(m, `chunk ${chunkSize}`);
      assert.equal(m.snippet.slice(m.at, m.at + m.length), 'needle é');
    }
    assert.equal(await searchFile(file, plain('NEEDLE', true)), null, 'case-sensitive');
    // The byte path (ASCII ignoring case, or any text matching case), across every boundary position.
    for (const [q, cs] of [['NEEDLE', false], ['nEeDlE é HERE', false], ['needle é', true]] as const) {
      const query = plain(q, cs);
      assert.ok(query.bytes || q.includes('é'), `${q} searches bytes`);
      for (let chunkSize = 3; chunkSize < 40; chunkSize++) {
        const m = await searchFile(file, query, { chunkSize });
        assert.ok(m, `${q} chunk ${chunkSize}`);
        assert.equal(m.snippet.slice(m.at, m.at + m.length).toLowerCase(), q.toLowerCase());
      }
    }
    assert.equal(await searchFile(file, plain('needle É', true)), null);
    assert.ok(await searchFile(file, compileTextQuery('ne+dle\\s\\S', { caseSensitive: true, regex: true }), { chunkSize: 5 }));
    assert.equal(await searchFile(file, plain('here'), { maxBytes: 1000 }), null, 'bounded');
    assert.throws(() => compileTextQuery('(', { caseSensitive: false, regex: true }), SyntaxError);
  });

  it('matches text a JSON blob holds escaped (quotes, newlines, \\u escapes)', async () => {
    const file = tempFile('m.json', JSON.stringify({ content: 'say "hi"\nnow' }).replace('"hi', '"h\\u0069'));
    assert.ok(await searchFile(file, plain('say "hi"')) === null, 'a \\u escape in the middle of a word is not matched (known limit)');
    const f2 = tempFile('n.json', JSON.stringify({ content: 'line one\nline "two"' }));
    assert.ok(await searchFile(f2, plain('one\nline "two"')));
  });

  it('finds a phrase only a murmur blob holds, for exactly the events that name that blob', async () => {
    const phrase = 'escape HTML';
    const trace = readFileSync(TRACE, 'utf8');
    assert.equal(trace.toLowerCase().includes(phrase.toLowerCase()), false, 'the phrase is in no line of the trace');
    // Independent: blob files holding the phrase, and the lines naming their digests.
    const digests = readdirSync(join(SESSION, 'blobs')).filter((d) => readFileSync(join(SESSION, 'blobs', d), 'utf8').toLowerCase().includes(phrase.toLowerCase()));
    assert.ok(digests.length > 0);
    const lines = trace.split('\n').map((l, k) => (digests.some((d) => l.includes(d)) ? k + 1 : 0)).filter((l) => l > 0);
    const model = await loadTrace(TRACE);
    const store = await openBlobStore(TRACE, model.format);
    let progress = 0;
    const r = await findInBlobs(model, store, plain(phrase), { onProgress: (read, total) => (progress = read / total) });
    assert.deepEqual([...new Set(r.hits.map((h) => model.events.lineOf(h.event)))], lines);
    assert.ok(r.hits.every((h) => digests.includes(h.digest)), JSON.stringify(r.hits.filter((h) => !digests.includes(h.digest)).map((h) => [h.digest, h.field])) + JSON.stringify(digests));
    assert.ok(progress > 0 && progress <= 1, `progress ${progress}`);
    assert.ok(r.blobsSearched > 0 && r.blobsSearched <= readdirSync(join(SESSION, 'blobs')).length, 'each blob is read once');
    // The viewer's find reports them too, with the blob hit for the result list; without blobs it finds none.
    const found = await findInTrace(model, phrase, { caseSensitive: false, blobs: store });
    assert.deepEqual(found.nodes.map((n) => model.events.lineOf(n)).sort((a, b) => a - b), lines);
    assert.match(found.blobHits.get(found.nodes[0])!.match.snippet, /escape HTML/i);
    assert.deepEqual((await findInTrace(model, phrase, { caseSensitive: false })).nodes, []);
  });

  it('stops when cancelled', async () => {
    const model = await loadTrace(TRACE);
    const store = await openBlobStore(TRACE, model.format);
    const r = await findInBlobs(model, store, plain('zzz-not-there'), { isCancelled: () => true });
    assert.equal(r.cancelled, true);
    assert.equal(r.bytesRead, 0);
  });
});
