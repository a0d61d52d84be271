import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runChecks } from '../../../src/core/formatRules';
import { CHECK_MODES } from '../../../src/core/rules/types';
import { loadTrace } from '../../../src/core/loadTrace';
import { planPieces, ROUND_BYTES } from '../../../src/core/parallel/parallelRead';
import { StreamOutcome, streamChecks } from '../../../src/core/stream/streamChecks';
import { generateLumenTrace } from '../../bench/lumenBench';
import { tempDir, tempFile } from '../../helpers/tmp';

const NAME = '6a1f0c3e-2b7d-4e59-9a41-5c8d2e7f1b30.jsonl';

/** A lumen trace dir, as the writer lays it out. */
function traceDir(): string {
  const dir = join(tempDir('atv-ranges-'), '.lumen', 'trace');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Streamed checks with `n` workers over the whole file (the format given, so no head is read on this thread), this
 * thread reading the first `share` of it (then the workers, in equal pieces: one round, the file is small).
 */
async function ranged(path: string, mode: 'verify' | 'check', n: number, share?: number): Promise<{ result: unknown; outcome: StreamOutcome }> {
  let outcome: StreamOutcome = 'streamed';
  const result = await streamChecks(path, mode, { format: 'lumen', workers: n, workerMinBytes: 0, workerMainShare: share }, (o) => (outcome = o));
  return { result, outcome };
}

describe('range workers split a lumen trace anywhere and give the findings of one thread', function () {
  this.timeout(600_000);

  it('with a range boundary inside each damaged region: BOM, CRLF, lone CR, invalid UTF-8, tampered, unknown key, blank, torn tail', async () => {
    const dir = traceDir();
    const clean = join(dir, 'clean.jsonl');
    await generateLumenTrace(clean, { targetBytes: 60_000 });
    const lines = readFileSync(clean, 'latin1').split('\n').slice(0, -1);
    // Each kind of damage on a run of lines, spread over the file; the last line is torn and long (12,000 bytes).
    const damage: [string, (l: string) => string][] = [
      ['crlf', (l) => l + '\r'],
      ['lone-cr', (l) => l.replace('"kind":', '\r"kind":')],
      ['invalid-utf8', (l) => l.replace('"cell"', '"c\xff\xfell"')],
      ['tampered', (l) => l.replace(/"seq":(\d+)/, (_, d) => `"seq":${Number(d) + 1000}`)],
      ['unknown-key', (l) => l.replace('{', '{"extra":1,')],
      // Spaces only: a blank line as long as the line it replaces.
      ['blank', (l) => ' '.repeat(l.length)],
      ['not-json', (l) => l.slice(0, 40) + 'x'.repeat(l.length - 40)],
    ];
    const at = [1 / 5, 1 / 4, 1 / 3, 2 / 5, 1 / 2, 3 / 5, 2 / 3];
    const regionOf = new Map<number, string>();
    // By bytes: the torn tail below adds 12,000 to the file's size.
    const ends: number[] = [];
    lines.reduce((sum, l) => (ends.push(sum + l.length + 1), sum + l.length + 1), 3);
    const size0 = ends[ends.length - 1] + 12_000;
    damage.forEach(([name], d) => {
      const middle = ends.findIndex((e) => e >= size0 * at[d]);
      for (let i = middle - 3; i < middle + 3; i++) regionOf.set(i, name);
    });
    const out = lines.map((l, i) => (regionOf.has(i) ? damage.find(([n]) => n === regionOf.get(i))![1](l) : l));
    const torn = out.pop()!.replace('{', `{"message":"${'x'.repeat(15_000)}",`).slice(0, 12_000);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(out.join('\n') + '\n' + torn, 'latin1')]);
    const path = tempFile(NAME, bytes, dir);
    const size = statSync(path).size;
    // Byte ranges of each region (and of the BOM with the first line, and of the torn tail).
    const starts: number[] = [];
    for (let i = 0, at = 3; i <= out.length; i++) {
      starts.push(at);
      at += Buffer.byteLength((out[i] ?? '') + '\n', 'latin1');
    }
    const regions: [string, number, number][] = [['bom', 0, starts[1]], ['torn', starts[out.length], size]];
    for (const [name] of damage) {
      const rows = [...regionOf].filter(([, n]) => n === name).map(([i]) => i);
      regions.push([name, starts[Math.min(...rows)], starts[Math.max(...rows) + 1]]);
    }
    for (const mode of CHECK_MODES) {
      const one = await streamChecks(path, mode, { format: 'lumen' });
      assert.deepStrictEqual(one, await runChecks(await loadTrace(path, { format: 'lumen' }), mode), `${mode}: streamed vs model`);
      const rules = new Set(one.findings.map((f) => f.rule));
      const expected = ['parse/bom', 'parse/lone-cr', 'parse/invalid-utf8', 'parse/torn-tail', 'lumen/line-json', ...(mode === 'verify' ? ['lumen/unknown-key', 'lumen/chain-seq'] : [])];
      for (const rule of expected) assert.ok(rules.has(rule), `${mode}: ${rule}`);
      for (const [name, from, to] of regions) {
        // This thread's share ends inside the region (its cut is the next line feed: inside or at the end of the
        // region); for the BOM, no share, so a worker reads from the first byte; for the torn tail, the share ends
        // just before it, so the workers' cuts all probe inside it (and find no line feed).
        const share = name === 'bom' ? 0 : name === 'torn' ? (from - 1) / size : (from + to) / 2 / size;
        for (const n of [1, 3]) {
          const pieces = await planPieces(path, 0, size, n, share, ROUND_BYTES);
          const starts = pieces.map((p) => p.start);
          assert.equal(pieces[pieces.length - 1].end, size);
          if (name === 'bom') assert.deepEqual([pieces[0].start, pieces[0].worker], [0, 0], `${name}: ${starts.join(' ')}`);
          else if (name === 'torn') assert.ok(starts.includes(from) && starts.every((b) => b <= from), `${name}: ${starts.join(' ')}`);
          else assert.ok(starts.some((b) => b > from && b <= to), `${name} ${from}–${to}: ${starts.join(' ')}`);
          const r = await ranged(path, mode, n, share);
          assert.equal(r.outcome, mode === 'verify' ? 'ranges' : 'model', `${mode} ${name}`);
          assert.deepStrictEqual(r.result, one, `${mode}: ${n} range workers, a piece boundary in the ${name} region`);
        }
      }
    }
  });

  it('on files with fewer lines than ranges, an empty file and a file of one torn line', async () => {
    const dir = traceDir();
    const clean = join(dir, 'clean.jsonl');
    await generateLumenTrace(clean, { targetBytes: 1 });
    const lines = readFileSync(clean, 'utf8').split('\n').slice(0, 3);
    for (const text of [lines.join('\n') + '\n', lines[0] + '\n', '', lines[0].slice(0, 50)]) {
      const path = tempFile(NAME, text, dir);
      for (const mode of CHECK_MODES) {
        const one = await streamChecks(path, mode, { format: 'lumen' });
        for (const n of [3, 8]) {
          const r = await ranged(path, mode, n);
          assert.deepStrictEqual(r.result, one, `${JSON.stringify(text.slice(0, 20))} ${mode}: ${n} workers`);
        }
      }
    }
  });
});
