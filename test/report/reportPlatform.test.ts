import { strict as assert } from 'node:assert';
import { isUtf8 } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';
import { join, posix } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { platform, setPlatform } from '../../src/core/io/platform';
import { loadTrace } from '../../src/core/loadTrace';
import { posixPath } from '../../src/report/platform/posixPath';
import { reportPlatform } from '../../src/report/platform/reportPlatform';
import { Sha256, sha256Hex } from '../../src/report/platform/sha256';

const ROOT = join(__dirname, '..', '..');
const nodeSha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

describe("the report page's platform (src/report/platform)", () => {
  describe('SHA-256', () => {
    it('matches node:crypto on every length around the block edges, in one piece and in random pieces', () => {
      for (let n = 0; n <= 260; n++) {
        const bytes = randomBytes(n);
        assert.equal(sha256Hex(bytes), nodeSha(bytes), `${n} bytes`);
        const h = new Sha256();
        for (let at = 0; at < n;) {
          const step = 1 + Math.floor(Math.random() * 70);
          h.update(bytes.subarray(at, at + step));
          at += step;
        }
        assert.equal(h.digest('hex'), nodeSha(bytes), `${n} bytes in pieces`);
      }
      const big = randomBytes(3 << 20);
      assert.equal(sha256Hex(big), nodeSha(big));
    });

    it('hashes text as its UTF-8 bytes, as Node does (a lone surrogate as U+FFFD)', () => {
      assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      for (const text of ['', 'é', '日本語の文', '🦀 crab', 'a\ud800b', '\udfff', 'x'.repeat(1000)]) assert.equal(sha256Hex(text), nodeSha(text), JSON.stringify(text));
      assert.equal(new Sha256().update('{"a":').update(Buffer.from('1')).update('}').digest('hex'), nodeSha('{"a":1}'));
    });

    it('is digested once, as Node\'s Hash is', () => {
      const h = new Sha256().update('x');
      h.digest('hex');
      assert.throws(() => h.digest('hex'), /already digested/);
      assert.throws(() => h.update('y'), /already digested/);
    });
  });

  it("gives node:path's POSIX results for every path function", () => {
    const parts = ['', '.', '..', 'a', 'b.txt', '.hidden', 'a..b', 'c.', '/', '//', 'x/', '/y', 'y/../z', './q', '...', 'd.tar.gz', '.x.y'];
    const pick = () => parts[Math.floor(Math.random() * parts.length)];
    const paths = new Set<string>(parts);
    for (let i = 0; i < 3000; i++) paths.add(Array.from({ length: 1 + Math.floor(Math.random() * 4) }, pick).join(Math.random() < 0.7 ? '/' : ''));
    const suffixes = ['', 'a', '.txt', 'b.txt', 'x', '.', 'z/', '.gz'];
    for (const p of paths) {
      const q = pick() + '/' + pick();
      assert.equal(posixPath.basename(p), posix.basename(p), `basename ${p}`);
      for (const s of suffixes) assert.equal(posixPath.basename(p, s), posix.basename(p, s), `basename ${p} ${s}`);
      assert.equal(posixPath.dirname(p), posix.dirname(p), `dirname ${p}`);
      assert.equal(posixPath.extname(p), posix.extname(p), `extname ${p}`);
      assert.equal(posixPath.isAbsolute(p), posix.isAbsolute(p), `isAbsolute ${p}`);
      assert.equal(posixPath.normalize(p), posix.normalize(p), `normalize ${p}`);
      assert.equal(posixPath.join(p, q), posix.join(p, q), `join ${p} ${q}`);
      assert.equal(posixPath.join(q, p, ''), posix.join(q, p, ''), `join ${q} ${p}`);
      // node:path resolves relative paths against process.cwd(); the page's working directory is '/'.
      assert.equal(posixPath.resolve(p, q), posix.resolve('/', p, q), `resolve ${p} ${q}`);
      assert.equal(posixPath.resolve(p), posix.resolve('/', p), `resolve ${p}`);
      assert.equal(posixPath.relative(`/${p}`, `/${q}`), posix.relative(`/${p}`, `/${q}`), `relative ${p} ${q}`);
      assert.equal(posixPath.relative(`/${q}`, `/${p}`), posix.relative(`/${q}`, `/${p}`), `relative ${q} ${p}`);
    }
    assert.equal(posixPath.join('..', 'a'), '../a');
    assert.equal(posixPath.join(), '.');
    assert.equal(posixPath.sep, '/');
  });

  it("validates UTF-8 as node:buffer's isUtf8 does", () => {
    const cases = [[], [0x41], [0xc3, 0xa9], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0xa6, 0x80], [0xe2, 0x82], [0xff], [0x80]].map((b) => Uint8Array.from(b));
    for (let i = 0; i < 2000; i++) cases.push(Uint8Array.from(randomBytes(1 + (i % 9)), (x) => (i % 2 ? x : x & 0xf7)));
    for (const b of cases) assert.equal(reportPlatform.isUtf8(b), isUtf8(b), Buffer.from(b).toString('hex'));
  });

  it('has no gzip and no worker threads, and says so', () => {
    assert.throws(() => reportPlatform.createGunzip({ chunkSize: 1024 }), /gzip is not available in a report/);
    assert.throws(() => reportPlatform.startWorker('rangeWorker', {}), /worker threads are not available in a report/);
    assert.equal(reportPlatform.parallelism(), 1);
    assert.equal(reportPlatform.foldsCase, false);
  });

  describe('registered in place of the Node platform', () => {
    const node = platform();
    afterEach(() => setPlatform(node));

    // Verify hashes every lumen line and every murmur blob, and agentledger's digests, through the platform. The
    // paths are absolute: the page's POSIX paths resolve a relative one against '/', not this process's directory.
    const TRACES = [
      'test/seed-corpus/lumen/.lumen/trace/55769ad7-ac9e-4d06-ae6b-d950d1e7c1bc.jsonl',
      'test/seed-corpus/lumen/negative/ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl',
      'test/seed-corpus/murmur/ses_39263059f28c105d1fb17c2390c192cf/trace.jsonl',
      'samples/agentledger/run_4c6f798988127e13/events.jsonl',
      'samples/deepstrike/.sessions/4b9efe73-6a1e-4496-8068-04a2f64a6e21.jsonl',
    ];
    for (const file of TRACES) {
      it(`verifies and checks ${file.split('/').pop()} as the Node platform does`, async () => {
        const read = async () => {
          const model = await loadTrace(join(ROOT, file));
          const verify = await runChecks(model, 'verify');
          const check = await runChecks(model, 'check');
          return JSON.stringify({ events: model.events.size, verify: verify.findings, check: check.findings });
        };
        const withNode = await read();
        setPlatform(reportPlatform);
        assert.ok(withNode.includes('"rule"') || !file.includes('negative'), 'the tampered trace has findings');
        assert.equal(await read(), withNode);
      });
    }
  });
});
