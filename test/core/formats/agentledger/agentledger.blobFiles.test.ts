import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerBlobs } from '../../../../src/core/formats/agentledger/evidence';
import { MAX_PARSED_BLOB_BYTES } from '../../../../src/core/formats/agentledger/blobFile';
import { canonicalJsonSha256OfBuffer } from '../../../../src/core/json/pythonCanonicalJson';

function store(): { dir: string; sha: string } {
  const dir = mkdtempSync(join(tmpdir(), 'al-blobs-'));
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  return { dir, sha: join(dir, 'blobs', 'sha256') };
}
const digestOf = (b: Buffer): string => {
  const d = canonicalJsonSha256OfBuffer(b);
  if (d.kind !== 'digest') throw new Error(d.kind);
  return d.digest;
};

describe('agentledger blob verification: streamed, bounded, and saying what a refused file is (issue 19 items 4, 11)', () => {
  it('verifies a blob larger than the whole-parse limit by streaming, and catches a changed one', async function () {
    this.timeout(60_000);
    const { dir, sha } = store();
    const items = Array.from({ length: 120_000 }, (_, i) => ({ i, text: `row ${i} ${'y'.repeat(40)}`, f: 1.25 }));
    const big = Buffer.from(JSON.stringify({ args: { items }, kind: 'tool' }, null, 2));
    assert.ok(big.length > MAX_PARSED_BLOB_BYTES, `${big.length} bytes`);
    const d = digestOf(big);
    writeFileSync(join(sha, `${d}.json`), big);
    const s = await new LedgerBlobs(join(dir, 'events.jsonl')).status(`blob://sha256/${d}.json`);
    assert.equal(s.state, 'checked');
    assert.equal(s.state === 'checked' && s.ok, true);
    const changed = Buffer.from(big.toString('utf8').replace('"row 77 ', '"row 78 '));
    writeFileSync(join(sha, `${d}.json`), changed);
    const t = await new LedgerBlobs(join(dir, 'events.jsonl')).status(`blob://sha256/${d}.json`);
    assert.equal(t.state === 'checked' && t.ok, false);
    assert.equal(t.state === 'checked' && t.actual, digestOf(changed));
  });

  it('names a symlink out of the store, a FIFO and an oversized file for what they are, never "not in the blob store"', async function () {
    const { dir, sha } = store();
    const outside = join(dir, 'secret.json');
    writeFileSync(outside, '{"secret":1}');
    const d1 = digestOf(Buffer.from('{"secret":1}'));
    symlinkSync(outside, join(sha, `${d1}.json`));
    const d2 = 'a'.repeat(64);
    const d3 = 'b'.repeat(64);
    truncateSync((writeFileSync(join(sha, `${d3}.json`), ''), join(sha, `${d3}.json`)), 257 * 1024 * 1024);
    const b = new LedgerBlobs(join(dir, 'events.jsonl'));
    const s1 = await b.status(`blob://sha256/${d1}.json`);
    assert.deepEqual([s1.state, s1.state === 'not-blob' && s1.reason], ['not-blob', `blobs/sha256/${d1}.json leads outside the blob root blobs (to ${realpathSync(outside)})`]);
    const s3 = await b.status(`blob://sha256/${d3}.json`);
    assert.deepEqual([s3.state, s3.state === 'refused' && /269484032 bytes, over the 256 MB limit/.test(s3.reason)], ['refused', true]);
    try {
      execFileSync('mkfifo', [join(sha, `${d2}.json`)]);
    } catch {
      this.skip();
    }
    const s2 = await b.status(`blob://sha256/${d2}.json`);
    assert.deepEqual([s2.state, s2.state === 'not-blob' && s2.reason], ['not-blob', `blobs/sha256/${d2}.json is a FIFO (named pipe), not a regular file; it is not read`]);
    assert.equal((await b.status(`blob://sha256/${'c'.repeat(64)}.json`)).state, 'missing');
  });
});
