// Checks on open run in a worker (issue 14 item 4): the worker's results are the in-thread results, every
// mode is replied as it finishes, an unreadable file is an error reply, and cancelling terminates the worker.
import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import type { CheckMode } from '../../src/core/rules/types';
import { loadTrace } from '../../src/core/loadTrace';
import type { ChecksJobReply } from '../../src/viewer/checksJob';
import { ChecksWorkerScript, runChecksOffThread } from '../../src/viewer/checksOffThread';
import { corpusPath } from '../helpers/corpus';

/** The worker entry from sources, loaded through tsx as the bundled dist/checksWorker.js would be by Node. */
const SCRIPT: ChecksWorkerScript = { file: resolve('src/viewer/checksWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };

const FILES = [
  corpusPath('lumen', 'negative', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.tampered-latency.jsonl'),
  corpusPath('lumen', '.lumen', 'trace', 'ef05f773-1151-4c7a-817e-a78bf76ed21e.jsonl'),
  corpusPath('harness-ledger', 'negative', 'success-approvals.approval-skipped.jsonl'),
  corpusPath('murmur', 'ses_39263059f28c105d1fb17c2390c192cf', 'trace.jsonl'),
];

async function collect(path: string, modes: CheckMode[], script: ChecksWorkerScript | null, rulePrefix?: string) {
  const replies: ChecksJobReply[] = [];
  const where = await runChecksOffThread({ path, modes, rules: {}, rulePrefix }, script, (r) => replies.push(r));
  return { replies, ranIn: where.ranIn };
}

describe('checks off the extension host thread', function () {
  this.timeout(60_000);

  for (const file of FILES) {
    it(`worker results equal in-thread results: ${file.split('/').slice(-2).join('/')}`, async () => {
      const { replies, ranIn } = await collect(file, ['verify', 'check'], SCRIPT);
      assert.equal(ranIn, 'worker');
      const model = await loadTrace(file);
      const expected = [await runChecks(model, 'verify'), await runChecks(model, 'check')];
      assert.deepEqual(replies.map((r) => r.type), ['result', 'result']);
      const results = replies.flatMap((r) => (r.type === 'result' ? [r] : []));
      assert.deepEqual(results.map((r) => r.mode), ['verify', 'check']);
      assert.deepEqual(results.map((r) => r.result), expected);
      // Every finding line that is an event or malformed line has its real length (diagnostic ranges).
      const all = new Map<number, number>(model.malformed.map((m) => [m.line, m.length]));
      for (let i = 0; i < model.events.size; i++) all.set(model.events.lineOf(i), model.events.lengthOf(i));
      for (const r of results) {
        const lengths = new Map(r.lineLengths);
        for (const f of r.result.findings) assert.equal(lengths.get(f.line), all.get(f.line), `length of line ${f.line}`);
      }
    });
  }

  it('a tampered lumen trace has its chain break found in the worker, at the tampered line', async () => {
    const { replies } = await collect(FILES[0], ['verify'], SCRIPT);
    const r = replies[0];
    assert.equal(r.type, 'result');
    if (r.type !== 'result') return;
    assert.equal(r.result.ok, false);
    const first = r.result.findings.find((f) => f.severity === 'error');
    assert.ok(first, 'an error finding');
    assert.ok(r.lineLengths.some(([line, len]) => line === first.line && len > 10), 'the broken line has its length');
  });

  it('a rule prefix keeps only those rules (Verify Blobs)', async () => {
    const { replies } = await collect(FILES[0], ['verify'], SCRIPT, 'blob/');
    assert.equal(replies[0].type, 'result');
    if (replies[0].type === 'result') assert.deepEqual(replies[0].result.findings.filter((f) => !f.rule.startsWith('blob/')), []);
  });

  it('an unreadable file is one error reply, not a crash', async () => {
    const { replies } = await collect(resolve('test/fixtures/does-not-exist.jsonl'), ['verify'], SCRIPT);
    assert.equal(replies.length, 1);
    assert.equal(replies[0].type, 'error');
    if (replies[0].type === 'error') assert.match(replies[0].message, /ENOENT|no such file/);
  });

  it('without a worker script the same job runs in the thread with the same results', async () => {
    const off = await collect(FILES[0], ['verify', 'check'], SCRIPT);
    const inThread = await collect(FILES[0], ['verify', 'check'], { file: resolve('no-such-worker.js') });
    assert.equal(inThread.ranIn, 'thread');
    assert.deepEqual(inThread.replies, off.replies);
  });

  it('cancelling stops the worker and sends nothing more', async () => {
    const replies: ChecksJobReply[] = [];
    const t = performance.now();
    await runChecksOffThread({ path: FILES[1], modes: ['verify', 'check'], rules: {} }, SCRIPT, (r) => replies.push(r), () => true);
    assert.deepEqual(replies, []);
    assert.ok(performance.now() - t < 5000, 'returned promptly');
  });
});
