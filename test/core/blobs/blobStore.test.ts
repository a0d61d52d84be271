import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BlobHashCache } from '../../../src/core/blobs/blobHashing';
import { readBlobPreview } from '../../../src/core/blobStore/blobPreview';
import { checkBlobUri, checkHashRef } from '../../../src/core/blobs/blobReference';
import { blobRefRole, hashMethodFor, openBlobStore, resolveBlob } from '../../../src/core/blobStore/formatBlobs';
import { HashRef } from '../../../src/core/model';
import { corpusPath } from '../../helpers/corpus';

const MURMUR = corpusPath('murmur/ses_39263059f28c105d1fb17c2390c192cf');
const AGENTLEDGER = corpusPath('agentledger');
const EMPTY_SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const ref = (digest: string, field = 'system_sha', raw = digest): HashRef => ({ field, digest, algorithm: digest.length === 16 ? 'fnv1a64' : 'sha256', raw });
const uri = (digest: string, field = 'payload_ref'): HashRef => ref(digest, field, `blob://sha256/${digest}.json`);

// murmur.md §5: SHA-256 of exact bytes; these are the corpus session's blobs.
const MURMUR_VECTORS: [string, string][] = [
  ['Be terse.', '28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f'],
  ['[{"name":"bash"}]', '143f541e445d0e75c221905b6a8c72a44775a5aba0db481a8c192c11bb71fb44'],
  ['{"content":"list the files","role":"user"}', 'a541255ba83f1a60aca6694511e5a9d9711c28557163223a615ebe4ca54863ed'],
  ['{"stop_reason":"tool_use"}', 'd9c1372f6d3b9bfd36f726afff707479789d54a65c057222a77b435b79a5ba7c'],
  ['{"content":[{"id":"toolu_01","input":{"command":"ls"},"name":"bash","type":"tool_use"}],"role":"assistant"}', '70c9f98d633d3f3f4e55f999901e218d7e1ae2ebc0af9b01cd8aeb38b45ffa6a'],
  ['{"content":[{"content":"README.md\\nsrc\\n","tool_use_id":"toolu_01","type":"tool_result"}],"role":"user"}', '6a82b0b5e58b3fd8cb37fec0304813bfd8d048390705e50b1dd39efce75987e6'],
  ['{"stop_reason":"end_turn"}', '19374ad7febf105acb1c66d185a4378b3eaf0de9d141219481855822330d46e4'],
];

describe('blob store: corpus blobs', () => {
  it('murmur: every corpus blob verifies by SHA-256 of its bytes (doc §5 vectors)', async () => {
    const store = await openBlobStore(join(MURMUR, 'trace.jsonl'), 'murmur');
    assert.deepEqual(store.roots.map((r) => r.source), ['beside-trace']);
    for (const [text, digest] of MURMUR_VECTORS) {
      assert.equal(sha256(text), digest);
      const r = await store.resolve(ref(digest));
      assert.equal(r.status, 'verified', r.message);
      assert.equal(r.actual, digest);
      assert.equal(r.method, 'sha256-bytes');
      assert.equal(r.size, Buffer.byteLength(text));
      assert.equal((await readBlobPreview(r)).text, text);
    }
    assert.equal(sha256(''), EMPTY_SHA);
  });

  it('agentledger: every corpus blob verifies by its canonical JSON, and previews as JSON', async () => {
    let n = 0;
    for (const run of readdirSync(AGENTLEDGER).filter((d) => statSync(join(AGENTLEDGER, d)).isDirectory())) {
      const store = await openBlobStore(join(AGENTLEDGER, run, 'events.jsonl'), 'agentledger');
      for (const name of readdirSync(join(AGENTLEDGER, run, 'blobs/sha256'))) {
        const r = await store.resolve(uri(name.slice(0, 64)));
        assert.equal(r.status, 'verified', r.message);
        assert.equal(r.method, 'sha256-canonical-json');
        const p = await readBlobPreview(r);
        assert.ok(p.isJson && p.language === 'json' && !p.truncated && !p.binary);
        n++;
      }
    }
    assert.equal(n, 20);
  });

  it('OTLP export of agentledger: blob:// refs resolve in blobs/ beside it', async () => {
    const r = await resolveBlob(uri('753e831518d1c9b9d828a040ca2c6efe3b6baa34fa35add8734f1a5be4927f07', 'attributes[3].value.stringValue'), { tracePath: join(AGENTLEDGER, 'cancelled/trace.otlp.json'), format: 'otlp' });
    assert.equal(r.status, 'verified', r.message);
  });
});

describe('blob store: references and algorithms', () => {
  it('says which fields are blob refs per format', () => {
    assert.equal(blobRefRole('murmur', { field: 'message_shas[2]', raw: 'x' }), 'blob');
    assert.equal(blobRefRole('murmur', { field: 'system_prompt_sha256', raw: 'x' }), 'blob');
    assert.equal(blobRefRole('murmur', { field: 'sha256', raw: 'x' }), 'not-a-blob'); // resource_read.sha256
    assert.equal(blobRefRole('agentledger', { field: 'payload_ref', raw: 'blob://sha256/ab.json' }), 'blob');
    assert.equal(blobRefRole('agentledger', { field: 'payload_hash', raw: 'sha256:ab' }), 'not-a-blob');
    assert.equal(blobRefRole('generic', { field: 'x', raw: 'ab' }), 'opportunistic');
    assert.equal(hashMethodFor('agentledger', { algorithm: 'fnv1a64', raw: 'blob://sha256/5f69a69b069b5ed5.json' }), 'fnv1a64-bytes');
    assert.equal(hashMethodFor('agentledger', { algorithm: 'sha256', raw: 'blob://sha256/x.json' }), 'sha256-canonical-json');
    assert.equal(hashMethodFor('murmur', { algorithm: 'sha256', raw: 'x' }), 'sha256-bytes');
  });

  it('refuses unsafe and malformed names before touching the disk', () => {
    const good = '28c7339ead79c720e67160d2f681384ad23a59bf8514c3c2e01d09a4d701441f';
    assert.ok(checkHashRef(ref(good)).ok);
    assert.ok(checkHashRef(ref(good, 'x', `sha256:${good}`)).ok);
    for (const digest of [good.toUpperCase(), good.slice(0, 63), good + '0', '../' + good.slice(3), `/etc/${good.slice(5)}`, good.slice(0, 60) + 'zzzz', `..\\${good.slice(3)}`]) {
      assert.equal(checkHashRef(ref(digest.length === 16 ? digest + 'x' : digest)).ok, false, digest);
    }
    assert.equal(checkHashRef({ digest: good, algorithm: 'sha256', raw: good.toUpperCase() }).ok, false);
    assert.equal(checkHashRef({ digest: good, algorithm: 'fnv1a64', raw: good }).ok, false);
    for (const raw of ['blob://sha256/../../etc/passwd.json', 'blob://sha256/a/b.json', 'blob://sha256/a\\b.json', 'blob://sha256/', 'blob://other/x.json', 'blob://sha256/..json']) {
      const c = checkBlobUri(raw);
      assert.ok(!c.ok && !c.unverifiable, raw);
    }
    const named = checkBlobUri('blob://sha256/chunk-7.json');
    assert.ok(!named.ok && named.unverifiable);
  });
});

describe('blob store: damaged, missing and hostile blobs (temp fixtures)', () => {
  let dir: string;
  let trace: string;
  let blobs: string;
  const put = (name: string, content: string | Buffer) => writeFileSync(join(blobs, name), content);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blob-store-'));
    cpSync(MURMUR, join(dir, 'session'), { recursive: true });
    chmodSync(join(dir, 'session'), 0o755);
    chmodSync(join(dir, 'session/blobs'), 0o755);
    for (const f of readdirSync(join(dir, 'session/blobs'))) chmodSync(join(dir, 'session/blobs', f), 0o644);
    trace = join(dir, 'session/trace.jsonl');
    blobs = join(dir, 'session/blobs');
  });
  afterEach(() => {
    chmodSync(join(dir, 'session'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a tampered blob (one byte changed) is a mismatch with expected and actual digests', async () => {
    const [text, digest] = MURMUR_VECTORS[0];
    put(digest, text.replace('.', '!'));
    const r = await resolveBlob(ref(digest), { tracePath: trace, format: 'murmur', cache: new BlobHashCache() });
    assert.equal(r.status, 'mismatch');
    assert.equal(r.expected, digest);
    assert.equal(r.actual, sha256('Be terse!'));
    assert.match(r.message, new RegExp(`expected SHA-256 of the file bytes ${digest}, actual ${sha256('Be terse!')}`));
  });

  it('a truncated blob is a mismatch', async () => {
    const [text, digest] = MURMUR_VECTORS[4];
    truncateSync(join(blobs, digest), 20);
    const r = await resolveBlob(ref(digest), { tracePath: trace, format: 'murmur', cache: new BlobHashCache() });
    assert.equal(r.status, 'mismatch');
    assert.equal(r.actual, sha256(text.slice(0, 20)));
  });

  it('a missing blob is missing; an empty blob (SHA-256 of no bytes) verifies', async () => {
    const missing = await resolveBlob(ref(sha256('never written')), { tracePath: trace, format: 'murmur' });
    assert.equal(missing.status, 'missing');
    assert.match(missing.message, /not in blobs\//);
    put(EMPTY_SHA, '');
    const empty = await resolveBlob(ref(EMPTY_SHA), { tracePath: trace, format: 'murmur' });
    assert.equal(empty.status, 'verified', empty.message);
    assert.equal(empty.size, 0);
    assert.equal((await readBlobPreview(empty)).text, '');
  });

  it('uppercase, short and ../ references are rejected without reading', async () => {
    const digest = MURMUR_VECTORS[0][1];
    put(digest.toUpperCase(), 'Be terse.');
    for (const bad of [ref(digest.toUpperCase()), ref(digest.slice(0, 40)), ref(`../session/blobs/${digest}`.slice(0, 64)), ref('../../../../../../../../../../../../../../../../../../../etc/passwd')]) {
      const r = await resolveBlob(bad, { tracePath: trace, format: 'murmur' });
      assert.equal(r.status, 'rejected', bad.digest);
      assert.equal(r.path, undefined);
    }
  });

  it('a symlink leading outside the blob root is refused; one inside it is followed', async () => {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'secret');
    const d = sha256('secret');
    symlinkSync(outside, join(blobs, d));
    const r = await resolveBlob(ref(d), { tracePath: trace, format: 'murmur' });
    assert.equal(r.status, 'rejected');
    assert.match(r.message, /leads outside the blob root/);
    const [text, digest] = MURMUR_VECTORS[1];
    mkdirSync(join(blobs, 'store'));
    writeFileSync(join(blobs, 'store/x'), text);
    rmSync(join(blobs, digest));
    symlinkSync('store/x', join(blobs, digest));
    assert.equal((await resolveBlob(ref(digest), { tracePath: trace, format: 'murmur' })).status, 'verified');
  });

  it('a directory or a FIFO named like a blob is unreadable, and reading does not hang', async function () {
    const d1 = sha256('dir');
    mkdirSync(join(blobs, d1));
    assert.equal((await resolveBlob(ref(d1), { tracePath: trace, format: 'murmur' })).status, 'unreadable');
    const d2 = sha256('fifo');
    try {
      execFileSync('mkfifo', [join(blobs, d2)]);
    } catch {
      this.skip();
    }
    assert.equal((await resolveBlob(ref(d2), { tracePath: trace, format: 'murmur' })).status, 'unreadable');
  });

  it('works on a read-only folder', async () => {
    chmodSync(blobs, 0o555);
    chmodSync(join(dir, 'session'), 0o555);
    const r = await resolveBlob(ref(MURMUR_VECTORS[2][1]), { tracePath: trace, format: 'murmur' });
    chmodSync(blobs, 0o755);
    assert.equal(r.status, 'verified');
  });

  it('caches per (path, size, mtime): an unchanged file is not reread, a touched one is', async () => {
    const cache = new BlobHashCache();
    const store = await openBlobStore(trace, 'murmur', { cache });
    const [, digest] = MURMUR_VECTORS[0];
    const path = join(blobs, digest);
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    assert.equal((await store.resolve(ref(digest))).status, 'verified');
    assert.equal(cache.size, 1);
    writeFileSync(path, 'Be terse!'); // same size, same inode
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    assert.equal((await store.resolve(ref(digest))).status, 'verified', 'served from the cache');
    utimesSync(path, 1_700_000_000, 1_700_000_005);
    assert.equal((await store.resolve(ref(digest))).status, 'mismatch');
    assert.equal(cache.size, 2);
  });

  it('agentledger: Rust FNV-1a blobs and Python JSON blobs, valid, tampered and not JSON', async () => {
    const root = join(dir, 'evidence');
    mkdirSync(join(root, 'blobs/sha256'), { recursive: true });
    const t = join(root, 'events.jsonl');
    writeFileSync(t, '');
    const rust = 'O1:68656c6c6f:O1:6e6573746564:S776f726c64:';
    writeFileSync(join(root, 'blobs/sha256/5f69a69b069b5ed5.json'), rust);
    const ok = await resolveBlob(uri('5f69a69b069b5ed5'), { tracePath: t, format: 'agentledger' });
    assert.equal(ok.status, 'verified', ok.message);
    assert.equal(ok.method, 'fnv1a64-bytes');
    writeFileSync(join(root, 'blobs/sha256/5f69a69b069b5ed5.json'), rust.replace('S776f', 'S777f'));
    const bad = await resolveBlob(uri('5f69a69b069b5ed5'), { tracePath: t, format: 'agentledger' });
    assert.equal(bad.status, 'mismatch');
    const name = '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9';
    const pretty = '{\n  "args": {\n    "_logical_operation": "create-crash-recovery-issue",\n    "body": "Created by AgentLedger demo",\n    "title": "Crash recovery bug"\n  },\n  "tool": "github.create_issue"\n}';
    writeFileSync(join(root, 'blobs/sha256', `${name}.json`), pretty.slice(0, 60));
    const cut = await resolveBlob(uri(name), { tracePath: t, format: 'agentledger' });
    assert.equal(cut.status, 'mismatch');
    assert.equal(cut.actual, undefined);
    assert.match(cut.message, /not valid JSON/);
    // Keys out of order: re-sorted in memory, so the same content still verifies.
    writeFileSync(join(root, 'blobs/sha256', `${name}.json`), '{"tool": "github.create_issue", "args": {"title": "Crash recovery bug", "body": "Created by AgentLedger demo", "_logical_operation": "create-crash-recovery-issue"}}');
    assert.equal((await resolveBlob(uri(name), { tracePath: t, format: 'agentledger' })).status, 'verified');
  });

  it('agentledger: finds .agentledger/blobs up the tree and configured roots relative to a workspace', async () => {
    const ws = join(dir, 'ws');
    const name = '3da591a1b0726346c984c8927da4dc32b21a045d8eba57752ef21a0d7eac74d9';
    mkdirSync(join(ws, '.agentledger/blobs/sha256'), { recursive: true });
    mkdirSync(join(ws, 'out/evidence'), { recursive: true });
    cpSync(join(AGENTLEDGER, 'side-effect-idempotency/blobs/sha256', `${name}.json`), join(ws, '.agentledger/blobs/sha256', `${name}.json`));
    const t = join(ws, 'out/evidence/events.jsonl');
    writeFileSync(t, '');
    const r = await resolveBlob(uri(name), { tracePath: t, format: 'agentledger', workspaceFolders: [ws] });
    assert.equal(r.status, 'verified', r.message);
    assert.equal(r.root?.source, 'agentledger-runtime');
    mkdirSync(join(ws, 'store/m'), { recursive: true });
    writeFileSync(join(ws, 'store/m', MURMUR_VECTORS[3][1]), MURMUR_VECTORS[3][0]);
    const m = await resolveBlob(ref(MURMUR_VECTORS[3][1]), { tracePath: join(ws, 'out/trace.jsonl'), format: 'murmur', extraRoots: ['store/m'], workspaceFolders: [ws] });
    assert.equal(m.status, 'verified', m.message);
    assert.equal(m.root?.source, 'setting');
  });

  it('a binary blob previews as a hex dump; a preview cut inside a UTF-8 character drops it', async () => {
    const bin = Buffer.from([0, 1, 2, 0xff, 0x41]);
    put(sha256(bin), bin);
    const r = await resolveBlob(ref(sha256(bin)), { tracePath: trace, format: 'murmur' });
    const p = await readBlobPreview(r);
    assert.ok(p.binary);
    assert.match(p.text, /^00000000  00 01 02 ff 41/);
    const text = 'é'.repeat(10);
    put(sha256(text), text);
    const q = await readBlobPreview(await resolveBlob(ref(sha256(text)), { tracePath: trace, format: 'murmur' }), 5);
    assert.equal(q.text, 'éé');
    assert.ok(q.truncated && !q.binary);
  });
});
