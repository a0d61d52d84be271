import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobHashCache } from '../../../src/core/blobs/blobHashing';
import { readBlobPreview } from '../../../src/core/blobStore/blobPreview';
import { resolveBlob } from '../../../src/core/blobStore/formatBlobs';
import { HashRef } from '../../../src/core/model';

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const ref = (digest: string, raw = digest): HashRef => ({ field: 'response_sha', digest, algorithm: 'sha256', raw });

describe('blob store: large blobs (generated in a temp dir)', () => {
  let dir: string;
  let trace: string;
  let blobs: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'blob-large-'));
    trace = join(dir, 'trace.jsonl');
    blobs = join(dir, 'blobs');
    mkdirSync(blobs);
    writeFileSync(trace, '');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a 50 MB blob is hashed streaming with bounded memory, and its preview is capped', async function () {
    this.timeout(120_000);
    const size = 50 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = 0x61 + (i % 26);
    const h = createHash('sha256');
    const tmpName = join(blobs, 'writing');
    const fd = openSync(tmpName, 'w');
    for (let at = 0; at < size; at += chunk.length) {
      writeSync(fd, chunk);
      h.update(chunk);
    }
    closeSync(fd);
    const digest = h.digest('hex');
    renameSync(tmpName, join(blobs, digest));
    const before = process.memoryUsage();
    let peak = 0;
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().arrayBuffers - before.arrayBuffers, process.memoryUsage().heapUsed - before.heapUsed); }, 2);
    const r = await resolveBlob(ref(digest), { tracePath: trace, format: 'murmur', cache: new BlobHashCache() });
    clearInterval(timer);
    assert.equal(r.status, 'verified', r.message);
    assert.equal(r.size, size);
    assert.equal(r.previewTooLarge, true);
    assert.ok(peak < 24 * 1024 * 1024, `memory grew by ${peak} bytes while hashing 50 MB`);
    const p = await readBlobPreview(r, 64 * 1024);
    assert.equal(p.bytesRead, 64 * 1024);
    assert.equal(p.truncated, true);
    assert.equal(p.text.length, 64 * 1024);
    assert.ok(p.text.startsWith('abcdefghijklmnopqrstuvwxyz'));
  });

  it('a 50 MB Python JSON blob is canonicalized streaming', async function () {
    this.timeout(120_000);
    const root = join(dir, 'big');
    mkdirSync(join(root, 'blobs/sha256'), { recursive: true });
    const body = 'x'.repeat(50 * 1024 * 1024);
    const digest = sha256(`{"data":"${body}","n":1.0}`);
    writeFileSync(join(root, 'blobs/sha256', `${digest}.json`), `{\n  "data": "${body}",\n  "n": 1.0\n}`);
    const r = await resolveBlob(ref(digest, `blob://sha256/${digest}.json`), { tracePath: join(root, 'events.jsonl'), format: 'agentledger', cache: new BlobHashCache() });
    assert.equal(r.status, 'verified', r.message);
    const p = await readBlobPreview(r, 1000);
    assert.ok(p.truncated && p.isJson && p.text.length === 1000);
  });
});
