import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '../../../src/core/blobs/blobStore';
import { openBlobStore } from '../../../src/core/blobStore/formatBlobs';
import { loadTrace } from '../../../src/core/loadTrace';
import type { FormatName, HashRef } from '../../../src/core/model';
import { CORPUS_ROOT } from '../../helpers/corpus';
import { tempDir } from '../../helpers/tmp';

const sha256 = (b: string) => createHash('sha256').update(b).digest('hex');

/** Trace files beside a `blobs/` folder, in the shared corpus and the samples. */
function tracesWithBlobs(dir: string): string[] {
  const out: string[] = [];
  const names = readdirSync(dir);
  if (names.includes('blobs')) out.push(...names.filter((n) => /\.(jsonl|json)$/.test(n)).map((n) => join(dir, n)));
  for (const n of names) if (n !== 'blobs' && statSync(join(dir, n)).isDirectory()) out.push(...tracesWithBlobs(join(dir, n)));
  return out;
}

/** Each reference located both ways: the listing's locator and the careful lookup. */
async function bothWays(store: BlobStore, refs: HashRef[]): Promise<{ listed: (string | null)[]; careful: (string | null)[] }> {
  const locate = store.locator();
  const listed: (string | null)[] = [];
  const careful: (string | null)[] = [];
  for (const r of refs) {
    listed.push(await locate(r));
    careful.push((await store.locate(r))?.realPath ?? null);
  }
  return { listed, careful };
}

describe('blob folder listings: locating many blobs at once (issue 15 item 3)', () => {
  it('finds the same files as the careful lookup for every reference of every corpus and sample trace', async () => {
    const traces = [...tracesWithBlobs(CORPUS_ROOT), ...tracesWithBlobs('samples')];
    let found = 0;
    for (const trace of traces) {
      const model = await loadTrace(trace);
      const store = await openBlobStore(trace, model.format);
      const refs = model.events.eventsWithHashRefs().flatMap((i) => model.events.hashRefsOf(i));
      const { listed, careful } = await bothWays(store, refs);
      assert.deepEqual(listed, careful, trace);
      found += listed.filter((p) => p !== null).length;
    }
    assert.ok(traces.length >= 6 && found > 50, `${traces.length} traces, ${found} blobs found`);
  });

  it('links inside the root are followed, links out, folders, FIFOs and links on the way are refused, as by the careful lookup', async () => {
    const dir = tempDir();
    const outside = join(tempDir(), 'secret');
    writeFileSync(outside, 'secret');
    const blobs = join(dir, 'blobs');
    mkdirSync(join(blobs, 'store'), { recursive: true });
    const digests = ['plain', 'inside', 'outside', 'folder', 'fifo', 'missing'].map(sha256);
    const [plain, inside, out, folder, fifo] = digests;
    writeFileSync(join(blobs, plain), 'plain text');
    writeFileSync(join(blobs, 'store', 'x'), 'linked text');
    symlinkSync('store/x', join(blobs, inside));
    symlinkSync(outside, join(blobs, out));
    mkdirSync(join(blobs, folder));
    execFileSync('mkfifo', [join(blobs, fifo)]);
    writeFileSync(join(dir, 'trace.jsonl'), '');
    const store = await openBlobStore(join(dir, 'trace.jsonl'), 'murmur');
    const refs = digests.map((digest): HashRef => ({ field: 'system_sha', digest, algorithm: 'sha256', raw: digest }));
    const { listed, careful } = await bothWays(store, refs);
    assert.deepEqual(listed, careful);
    assert.deepEqual(listed, [join(store.roots[0].realPath, plain), join(store.roots[0].realPath, 'store', 'x'), null, null, null, null]);
  });

  it('a store folder that is a link leading out of the root is not read through', async () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    const digest = sha256('payload');
    mkdirSync(join(elsewhere, 'sha256'), { recursive: true });
    writeFileSync(join(elsewhere, 'sha256', `${digest}.json`), '{"a":1}');
    mkdirSync(join(dir, 'blobs'));
    symlinkSync(join(elsewhere, 'sha256'), join(dir, 'blobs', 'sha256'));
    writeFileSync(join(dir, 'trace.jsonl'), '');
    const format: FormatName = 'agentledger';
    const store = await openBlobStore(join(dir, 'trace.jsonl'), format);
    const ref: HashRef = { field: 'payload_ref', digest, algorithm: 'sha256', raw: `blob://sha256/${digest}.json` };
    const { listed, careful } = await bothWays(store, [ref]);
    assert.deepEqual(listed, careful);
    assert.deepEqual(listed, [null]);
  });
});
